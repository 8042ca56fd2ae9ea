// boot starts (or joins) the page's one sandbox: the playground and every
// <kube-example> on a docs page share it. Progress goes to every listener.
//
//   const ks = boot(); ks.ready.then(…); onProgress(({phase, loaded, total}) => …)

// In the npm package (make dist, web/tools/dist.mjs) this file is bundled
// into kube-example.js, next to sandbox.js, with KUBESANDBOX_DIST defined:
// there the examples' API lives under /sandbox/<name>/ only (rootAPI
// false), so a docs site's own /api/… pages stay its own, and examples
// without sandbox="…" share the sandbox named "docs".
/* global KUBESANDBOX_DIST */
export const DIST = typeof KUBESANDBOX_DIST !== 'undefined' && KUBESANDBOX_DIST === true;
const WEB = new URL(DIST ? './' : '../web/', import.meta.url).href;
let loaded = null;

/** pageOptions: createSandbox options the page sets for its examples:
 *  where a copy of sw.js is (for hosts that cannot send
 *  Service-Worker-Allowed, kubesandbox-copy puts one at the site root),
 *  either ?sw=../kubesandbox-sw.js on this script's URL (relative to the
 *  script: kube-example.js?sw=… in the package) or <meta
 *  name="kubesandbox-sw" content="/kubesandbox-sw.js"> (relative to the
 *  page). The service worker then controls its own folder and below: the
 *  site root, or /project/ for a site served under /project/. */
export function pageOptions() {
  const meta = document.querySelector('meta[name="kubesandbox-sw"]');
  const q = new URL(import.meta.url).searchParams.get('sw');
  const swUrl = meta && meta.content ? new URL(meta.content, location.href) : q ? new URL(q, import.meta.url) : null;
  const opts = swUrl ? { swUrl: swUrl.href, scope: new URL('./', swUrl).pathname } : {};
  if (DIST) opts.rootAPI = false;
  return opts;
}

/** sandboxModule is web/sandbox.js, imported once: createSandbox,
 *  readWatch (the one reader of watch streams), WatchError. */
export function sandboxModule() {
  return loaded || (loaded = import(WEB + 'sandbox.js'));
}

const listeners = new Set();
let last = null;
let sandbox = null;

export function onProgress(fn) {
  listeners.add(fn);
  if (last) fn(last);
  return () => listeners.delete(fn);
}

/** boot returns the sandbox (window.sandbox), creating it on first use. */
export function boot() {
  if (sandbox) return sandbox;
  if (window.sandbox && window.sandbox.ready) { sandbox = window.sandbox; return sandbox; }
  let inner = null;
  let made;
  const created = new Promise((resolve) => { made = resolve; }); // inner exists (not yet ready)
  const first = sandboxModule().then(({ createSandbox }) => {
    inner = createSandbox({
      ...pageOptions(),
      ...(DIST ? { sandbox: 'docs' } : {}),
      onProgress: (p) => { last = p; for (const l of listeners) l(p); },
    });
    made(inner);
    const props = Object.getOwnPropertyDescriptors(inner);
    delete props.ready;
    Object.defineProperties(sandbox, props); // keeps getters (worker) live
    return inner.ready;
  });
  // ready follows the sandbox's own (a reset replaces it). preloadKubectl
  // may be asked for before sandbox.js is loaded (the Terminal tab shown at
  // start): it is passed on once the sandbox exists.
  sandbox = {
    get ready() { return inner ? inner.ready : first; },
    preloadKubectl() { created.then((s) => s.preloadKubectl && s.preloadKubectl()); },
  };
  window.sandbox = sandbox;
  return sandbox;
}

const named = new Map();

/** bootNamed returns the sandbox called name, a cluster of its own (see
 *  createSandbox's `sandbox` option): its API is at ks.base + '/api/…'.
 *  Examples that give the same name share it. */
export function bootNamed(name, { onProgress: report = () => {} } = {}) {
  if (!named.has(name)) {
    const reporters = new Set();
    const ks = sandboxModule().then(({ createSandbox }) =>
      createSandbox({ ...pageOptions(), sandbox: name, onProgress: (p) => { for (const r of reporters) r(p); } }));
    named.set(name, { ks, reporters });
  }
  const { ks, reporters } = named.get(name);
  reporters.add(report);
  return ks.then(async (s) => { await s.ready; reporters.delete(report); return s; });
}

/** progressText describes a progress report for people: "downloading 3.1 of 9.5 MB". */
export function progressText({ phase, loaded, total }) {
  const mb = (n) => (n / 1e6).toFixed(1);
  if (phase === 'download') return total ? `downloading the API server: ${mb(loaded)} of ${mb(total)} MB` : `downloading the API server: ${mb(loaded)} MB`;
  if (phase === 'start') return 'starting the API server…';
  if (phase === 'ready') return 'ready';
  if (phase === 'failed') return 'failed';
  return phase + '…';
}
