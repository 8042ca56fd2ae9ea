// <kube-example>: a runnable Kubernetes API example for docs pages. One
// script tag loads it, and the page's sandbox (the API server in
// WebAssembly) starts on first use:
//
//   <script type="module" src="/js/kube-example.js"></script>
//
//   <kube-example scenario="dry-run"></kube-example>           a guided scenario (scenarios/dry-run.json)
//
//   <kube-example title="Create a ConfigMap" method="POST"      one request; {{ns}} is the example's namespace
//       path="/api/v1/namespaces/{{ns}}/configmaps" query="dryRun=All" expect-status="201">
//     <script type="application/yaml">
//     apiVersion: v1
//     kind: ConfigMap
//     metadata: {name: demo}
//     </script>
//   </kube-example>
//
//   <kube-example><script type="application/json">{"title": …, "steps": […]}</script></kube-example>
//
//   <kube-example sandbox="ex2"><script type="text/x-kubectl">     kubectl command lines (kubectl-example.js),
//     kubectl apply -f web.yaml                                      with manifests as
//   </script><script type="application/yaml" data-file="web.yaml">…</script></kube-example>   data-file scripts
//
// Each example runs in a namespace of its own (created when it first
// runs, named after the example plus a random suffix), so several examples
// on a page do not meet by accident. For isolation, give an example a
// sandbox: <kube-example sandbox="ex1" …> runs in a cluster of its own
// (its own core and IndexedDB, in the page's one SharedWorker and Go
// instance; its API under /sandbox/ex1/); an
// example in another sandbox cannot read its objects. Examples naming the
// same sandbox share it.
//
// Each step can be edited (its request line and body, or its kubectl
// line) and run again from its Run button; an example of one step has a
// single Run button. playground="https://…/playground/" (or <meta
// name="kubesandbox-playground" content="…"> for the page) adds a link
// that opens the example in the playground. A failed start or a failed
// step shows in the example's status line, with what to fix
// (data-state="failed" on the element for a start, data-result="failed"
// for a run; "ok" when every check passed).
//
// From the npm package (make dist) this file is one bundle beside
// sandbox.js and kube-example.css; see docs/embedding.md.
import { h } from './dom.js';
import { DIST, boot, bootNamed, onProgress, progressText } from './boot.js';
import { loadScenario } from './scenario.js';
import { scenarioView } from './scenario-view.js';
import { parse as parseYAML } from './yaml.js';
import { kubectlView } from './kubectl-example.js';

const CSS = new URL(DIST ? './kube-example.css' : '../css/playground.css', import.meta.url).href;
const PLAYGROUND = DIST ? '' : new URL('../', import.meta.url).href; // the package has no playground
let counter = 0;

/** toBase64url encodes text (UTF-8) for a URL fragment. */
function toBase64url(text) {
  let bin = '';
  for (const b of new TextEncoder().encode(text)) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

class KubeExample extends HTMLElement {
  connectedCallback() {
    if (this.shadowRoot) return;
    const root = this.attachShadow({ mode: 'open' });
    this.status = h('span.ex-status.muted.small', { 'aria-live': 'polite' }, 'loading the API server…');
    this.host = h('div.ex-body');
    root.append(
      h('link', { rel: 'stylesheet', href: CSS }),
      h('style', `:host { display: block; margin: 1rem 0; } .ex { border: 1px solid var(--line); border-radius: 10px; background: var(--panel); padding: .5rem .9rem .7rem; }
        .ex-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: .5rem; } .ex-head h2 { margin: 0; font-size: 1rem; } .ex-head a { margin-left: auto; font-size: 12px; }
        .ex-body[inert] { opacity: .6; } .ex .scenario pre.code { max-height: 14rem; } .ex-status.error { color: var(--err); }`),
      h('div.ex', { part: 'example' },
        h('div.ex-head', h('h2', this.getAttribute('title') || ''), this.status, this.link = h('a.ex-playground', { target: '_blank', rel: 'noopener', hidden: true }, 'open in the playground ↗')),
        this.host));
    this.host.inert = true;
    this.init().catch((e) => {
      this.status.textContent = (this.view ? 'the API server could not start: ' : 'this example could not load: ') + e.message;
      this.status.classList.add('error');
      this.dataset.state = 'failed';
    });
  }

  /** playgroundURL: the playground="…" attribute, the page's <meta
   *  name="kubesandbox-playground">, or (in this repository) ../. */
  playgroundURL() {
    const meta = document.querySelector('meta[name="kubesandbox-playground"]');
    const url = this.getAttribute('playground') || (meta && meta.content) || PLAYGROUND;
    return url ? new URL(url, location.href) : null;
  }

  // showLink points the playground link at this example: a named
  // scenario (#scenarios/dry-run), an inline one (#scenarios/inline:<base64url JSON>),
  // or kubectl lines (#terminal).
  showLink(hash) {
    const u = this.playgroundURL();
    if (!u) return;
    u.hash = hash;
    this.link.href = u.href;
    this.link.hidden = false;
  }

  // showResult puts a run's outcome in the status line: a failed step
  // with what to fix, or that every check passed.
  showResult({ ok, message }) {
    this.dataset.result = ok ? 'ok' : 'failed';
    this.status.classList.toggle('error', !ok);
    this.status.textContent = ok ? 'done: every step passed' : message || 'a step failed';
  }

  async init() {
    if (this.querySelector('script[type="text/x-kubectl"]')) return this.initKubectl();
    const scenario = await this.scenario();
    const title = this.getAttribute('title') || scenario.title || '';
    this.shadowRoot.querySelector('.ex-head h2').textContent = title;
    const id = this.getAttribute('scenario') || this.id || `example-${++counter}`;
    const prefix = this.getAttribute('namespace') || `ex-${id}`;
    const own = this.getAttribute('sandbox');
    // = the sandbox's ks.base (the package's examples share the sandbox "docs")
    const base = own ? '/sandbox/' + encodeURIComponent(own) : DIST ? '/sandbox/docs' : '';
    this.view = scenarioView({ ...scenario, id }, { prefix, base, compact: true, editable: true, onResult: (r) => this.showResult(r) });
    this.host.append(this.view.el);
    this.showLink(this.getAttribute('scenario') ? `scenarios/${this.getAttribute('scenario')}` : `scenarios/inline:${toBase64url(JSON.stringify({ ...scenario, id }))}`);
    const report = (p) => { if (p.phase !== 'ready') this.status.textContent = progressText(p); };
    if (own) {
      await bootNamed(own, { onProgress: report });
    } else {
      const off = onProgress(report);
      await boot().ready;
      off();
    }
    this.status.textContent = own ? `runs in sandbox ${own}, namespace ${prefix}-…` : `runs in its own namespace (${prefix}-…)`;
    this.host.inert = false;
    this.dataset.state = 'ready';
    if (this.hasAttribute('autorun')) this.run();
  }

  // initKubectl: an example of kubectl command lines (kubectl-example.js),
  // run against the example's sandbox (its default namespace).
  async initKubectl() {
    const lines = dedent(this.querySelector('script[type="text/x-kubectl"]').textContent)
      .split('\n').map((l) => l.trim()).filter(Boolean);
    const files = {};
    for (const f of this.querySelectorAll('script[data-file]')) files[f.dataset.file] = dedent(f.textContent);
    const own = this.getAttribute('sandbox');
    const report = (p) => { if (p.phase !== 'ready') this.status.textContent = progressText(p); };
    let ks;
    if (own) {
      ks = await bootNamed(own, { onProgress: report });
    } else {
      const off = onProgress(report);
      ks = boot();
      await ks.ready;
      off();
    }
    // kubectl loads (download, compile, init: seconds) once the example is
    // in view, so that its first step does not wait for all of it
    if (ks.preloadKubectl) {
      const seen = new IntersectionObserver((entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        seen.disconnect();
        ks.preloadKubectl();
      });
      seen.observe(this);
    }
    this.view = kubectlView(lines, files, ks, { onResult: (r) => this.showResult(r) });
    this.host.append(this.view.el);
    this.showLink('terminal');
    this.status.textContent = own ? `kubectl, in sandbox ${own}` : 'kubectl, in the page\'s sandbox';
    this.host.inert = false;
    this.dataset.state = 'ready';
    if (this.hasAttribute('autorun')) this.run();
  }

  /** run runs every step; resolves true when every check passed. */
  async run() {
    if (!this.view) return false;
    return this.view.runAll();
  }

  async scenario() {
    const name = this.getAttribute('scenario');
    if (name) {
      const base = this.getAttribute('scenarios') ? new URL(this.getAttribute('scenarios'), location.href) : undefined;
      return loadScenario(name, base);
    }
    const script = this.querySelector('script[type="application/json"]');
    if (script && !this.hasAttribute('path')) return JSON.parse(script.textContent);
    const path = this.getAttribute('path');
    if (!path) throw new Error('<kube-example> needs scenario="…", path="…" or a JSON scenario');
    const bodyEl = this.querySelector('script[type="application/yaml"], script[type="application/json"], script[type="text/yaml"]');
    let body;
    const contentType = this.getAttribute('content-type') || undefined;
    if (bodyEl) {
      const text = dedent(bodyEl.textContent);
      body = contentType === 'application/apply-patch+yaml' ? text : parseYAML(text);
    }
    const step = {
      title: this.getAttribute('step-title') || `${this.getAttribute('method') || 'GET'} request`,
      explain: this.getAttribute('explain') || '',
      method: this.getAttribute('method') || 'GET',
      path,
      query: Object.fromEntries(new URLSearchParams(this.getAttribute('query') || '')),
      contentType,
      body,
    };
    if (this.hasAttribute('expect-status')) step.expect = { status: Number(this.getAttribute('expect-status')) };
    return { title: this.getAttribute('title') || '', steps: [step] };
  }
}

function dedent(text) {
  const lines = text.replace(/^\n+|\s+$/g, '').split('\n');
  const pad = Math.min(...lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)[0].length));
  return lines.map((l) => l.slice(pad)).join('\n') + '\n';
}

if (!customElements.get('kube-example')) customElements.define('kube-example', KubeExample);
export { KubeExample };
