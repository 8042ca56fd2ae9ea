// Types for <kube-example> (kube-example.js): importing the module defines
// the element. See docs/embedding.md for the attributes and hosting.

/**
 * <kube-example>: a runnable Kubernetes API example.
 *
 * Attributes: scenario, scenarios, title, method, path, query, content-type,
 * expect-status, step-title, explain, namespace, sandbox, autorun,
 * playground (URL of a playground to open the example in).
 *
 * data-state: 'ready' once the API server runs, 'failed' when it could not
 * start (the status line says what to fix). data-result after a run: 'ok'
 * or 'failed' (the status line names the step and why).
 */
export class KubeExample extends HTMLElement {
  /** Runs every step; resolves true when every check passed. */
  run(): Promise<boolean>;
}

declare global {
  interface HTMLElementTagNameMap {
    'kube-example': KubeExample;
  }
}
