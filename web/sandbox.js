// kubesandbox page API (ES module, no dependencies).
//
//   import { createSandbox } from '/web/sandbox.js';
//   const ks = createSandbox({ onProgress: (p) => console.log(p.phase, p.loaded, p.total) });
//   await ks.ready;                                   // controlled, core running (rejects with what to fix;
//                                                     // onProgress then gets {phase: 'failed', error}, and nothing after)
//   const v = await (await ks.fetch('/version')).json();
//   for await (const ev of ks.watch('/api/v1/namespaces/default/configmaps')) { … }
//   const yaml = await ks.export();   // every user object, a List for `kubectl apply -f`
//   await ks.reset();                 // drop the saved state, restart the core empty
//   await ks.import(yaml);            // create or update (server-side apply) each object
//   for await (const ev of readWatch(await fetch(url))) { … }  // any watch response, read as client-go does
//   const { stdout, stderr, code } = await ks.kubectl(['get', 'pods', '-o', 'name'], { stdin, files, signal, onOutput });
//                                     // the real kubectl (wasm, loaded on first use; web/kubectl.js)
//   ks.preloadKubectl();               // load it now (a terminal is shown), run nothing
//
// It registers the service worker (which routes API paths), starts or joins
// the origin's SharedWorker (which runs the Go core), and hands the service
// worker a MessagePort to it whenever asked. The core keeps its state in
// IndexedDB (written through: a write is answered once it is stored), so
// reloading every tab, or the browser ending the worker, loses nothing. Plain fetch('/api/…') from the
// page works too once `ready` resolves: the service worker answers it.
// Several clusters on one page: createSandbox({ sandbox: 'ex1' }) is a
// cluster of its own (its own core, store, controllers and IndexedDB
// database, hosted by the origin's one SharedWorker and Go instance beside
// the others: a page of 5 examples compiles and starts Go once), whose
// API is at /sandbox/ex1/api/… ; its fetch() and watch() add that base to
// root-relative paths (ks.base is '/sandbox/ex1'). Sandboxes never see each
// other's objects. createSandbox({ sandbox: 'ex1', rootAPI: false }): only
// /sandbox/<name>/… is routed, so a site's own /api/… pages stay its own
// (every page of the origin must then pass the same: one service worker).
// A host that cannot send Service-Worker-Allowed: serve a copy of sw.js at
// the site root, createSandbox({ swUrl: '/sw.js' }) (docs/embedding.md).
// The core runs the cluster's controllers (garbage collector, Deployments →
// ReplicaSets → Pods, StatefulSets, Jobs, ServiceAccounts) and a simulated
// kubelet that makes Pods Running — no container ever runs.
// createSandbox({ nodes: 0 }): no kubelet, Pods stay Pending.
// createSandbox({ controllers: false }): the API server alone (no controllers).
// Without SharedWorker (e.g. Chrome on Android) the origin's tabs elect a
// leader with Web Locks (lock '<name>-leader', held for the tab's life):
// the leader runs the core in a dedicated Worker and hands the service
// worker its port; the other tabs (followers) relay the service worker's
// port requests and their export/import/reset to the leader over a
// BroadcastChannel ('<name>-leader'). When the leader tab closes, the next
// tab gets the lock and starts a core, which restores from IndexedDB.
// E.g. tab A (leader) writes, tab B reads it; close A, B's core comes up
// with A's write. Followers' stats() are not available (leader only).

const here = new URL('.', import.meta.url);

/** WatchError is thrown by watch() for an ERROR event or a failed request;
 *  status 410 means the resourceVersion is too old: list again. */
export class WatchError extends Error {
  constructor(message, status, body) {
    super(message);
    this.name = 'WatchError';
    this.status = status;
    this.body = body;
  }
}

const EVENT_TYPES = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

/**
 * readWatch yields the events ({type, object}) of a watch response: one
 * JSON object per line (application/json;stream=watch). It is the one
 * reader of watch streams (sandbox.watch, the playground's watch panel and
 * scenarios use it) and reads them as client-go's watch decoder does:
 *   - an ERROR event is yielded like any other (the caller decides: a 410
 *     Expired means list again);
 *   - a line that is not an event (not JSON, not an object, a type other
 *     than ADDED/MODIFIED/DELETED/BOOKMARK/ERROR, no object) ends the watch:
 *     it throws a WatchError with status 500 whose body is the Status
 *     client-go reports ("unable to decode an event from the watch stream:
 *     …", cause ClientWatchDecoding) — no later line is read;
 *   - a stream that ends in the middle of a line ends the watch quietly,
 *     as client-go does on an unexpected EOF.
 * A broken stream throws the body's TypeError. Leaving the loop early
 * cancels the body. res: a Response or a ReadableStream of bytes.
 */
export async function* readWatch(res) {
  const body = res && res.body !== undefined ? res.body : res;
  if (!body) return;
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buf += value;
      for (let i; (i = buf.indexOf('\n')) >= 0;) {
        const line = buf.slice(0, i).trim();
        buf = buf.slice(i + 1);
        if (line) yield decodeEvent(line);
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

// decodeEvent parses one line of a watch stream, or throws the WatchError
// that ends the watch (client-go's StreamWatcher: an ERROR event made by
// its ClientWatchDecoding reporter, then the end of the watch).
function decodeEvent(line) {
  let ev;
  let why = '';
  try { ev = JSON.parse(line); } catch (e) { why = e.message; }
  if (!why) {
    if (!ev || typeof ev !== 'object' || Array.isArray(ev)) why = `not a watch event: ${line.slice(0, 80)}`;
    else if (!EVENT_TYPES.has(ev.type)) why = `got invalid watch event type: ${ev.type}`;
    else if (!ev.object || typeof ev.object !== 'object' || Array.isArray(ev.object)) why = 'unable to decode watch event: no object';
  }
  if (!why) return ev;
  const message = `unable to decode an event from the watch stream: ${why}`;
  const status = {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'InternalError',
    details: { causes: [{ reason: 'ClientWatchDecoding', message }] }, code: 500,
  };
  throw new WatchError(message, 500, status);
}

export function createSandbox({
  runtime = here.href, // the folder of worker.js, kubesandbox.wasm, kubectl.js (default: this file's)
  swUrl, // default runtime + 'sw.js'; '/sw.js': a copy at the site root (no Service-Worker-Allowed needed)
  workerUrl, // default runtime + 'worker.js'
  scope = '/',
  prefixes, // e.g. ['/api', '/apis']; default: the service worker's list
  name = 'kubesandbox',
  sandbox = '', // '' = the origin's default cluster; else a cluster of its own
  sandboxes = '/sandbox/', // where named sandboxes live (the service worker's ?sandboxes=)
  rootAPI = true, // false: the default sandbox gets no /api/…: only /sandbox/<name>/… is routed (sw.js?root=0)
  nodes, // simulated Nodes for the in-process controllers (default 3, as make serve; 0: Pods stay Pending)
  controllers = true, // false: the API server alone, no controllers (as kubesandbox -controllers=false)
  onProgress = () => {},
} = {}) {
  runtime = new URL(runtime, location.href);
  swUrl = new URL(swUrl || 'sw.js', swUrl ? location.href : runtime).href;
  workerUrl = new URL(workerUrl || 'worker.js', workerUrl ? location.href : runtime).href;
  const base = sandbox ? sandboxes + encodeURIComponent(sandbox) : '';
  if (nodes !== undefined || !controllers) {
    // worker.js?nodes=… (the worker URL names the SharedWorker: pages
    // passing other options get a worker of their own; the sandbox is
    // named in the hello, so sandboxes with the same options share one)
    const u = new URL(workerUrl, location.href);
    if (nodes !== undefined) u.searchParams.set('nodes', String(nodes));
    if (!controllers) u.searchParams.set('controllers', '0');
    workerUrl = u.href;
  }
  const hostName = name; // the SharedWorker's: one for every sandbox
  if (sandbox) name = `${name}:${sandbox}`; // leader election's lock and channel
  const sw = navigator.serviceWorker;
  let worker = null; // the SharedWorker, or the leader's dedicated Worker
  let port = null; // where page messages go: worker.port, or the dedicated Worker
  let channel = null; // leader election only: BroadcastChannel to the other tabs
  let leader = false; // leader election only: this tab runs the core
  const me = Math.random().toString(36).slice(2);
  const statsWaiters = [];
  const controlWaiters = new Map(); // control id → {resolve, reject}
  let nextControl = 1;
  let workerUp; // resolves once the SharedWorker exists
  const workerStarted = new Promise((resolve) => { workerUp = resolve; });
  // instance, startMillis: the shared core's (after ready); portsHanded: to the service worker;
  // leader: null with SharedWorker, else whether this tab runs the core
  const info = { portsHanded: 0, leader: null };
  // Progress goes to onProgress until the start fails: then one last
  // {phase: 'failed', error} and nothing more (the core may still come up
  // in its worker, but this page cannot reach it: never say "ready").
  let failed = false;
  const report = (p) => { if (!failed) onProgress(p); };

  function handPort(target) {
    if (!worker || !target) return;
    const ch = new MessageChannel();
    port.postMessage({ t: 'connect' }, [ch.port1]);
    target.postMessage({ type: 'kubesandbox:port', sandbox, warm: loadedFiles() }, [ch.port2]);
    info.portsHanded++;
  }

  async function start() {
    if (!sw) throw new Error('kubesandbox: service workers are unavailable (needs a secure context: https or localhost)');

    // 1. The core: start or join the SharedWorker and wait until Go runs
    // (or, without SharedWorker, until the leader tab's core runs).
    let coreReady;
    if (typeof SharedWorker !== 'undefined') {
      coreReady = connectWorker();
      workerUp();
      addEventListener('pagehide', () => port.postMessage({ t: 'bye' }));
    } else {
      coreReady = electLeader();
    }

    // 2. The router: hand it a port when it asks (after each restart).
    sw.addEventListener('message', async (e) => {
      if (!e.data || e.data.type !== 'kubesandbox:need-port' || (e.data.sandbox || '') !== sandbox) return;
      if (channel && !leader) { channel.postMessage({ t: 'need-port' }); return; }
      await answerNeedPort(e.source);
    });
    sw.startMessages();
    const url = new URL(swUrl, location.href);
    // sw.js away from the runtime (a copy at the site root): tell it where the rest is
    if (new URL('.', url).href !== runtime.href) url.searchParams.set('runtime', runtime.pathname);
    if (prefixes) url.searchParams.set('prefixes', prefixes.join(','));
    if (sandboxes !== '/sandbox/') url.searchParams.set('sandboxes', sandboxes);
    if (!rootAPI) url.searchParams.set('root', '0');
    // Already controlled by this service worker (a revisit): register in
    // the background (it checks for an update; measured to take up to 2 s
    // on a loaded machine) and go on with the running one.
    const registered = sw.register(url.href, { scope }).catch((err) => { throw registerError(err, url, scope); });
    if (sw.controller && sw.controller.scriptURL === url.href) registered.catch(() => {});
    else await registered;
    if (!sw.controller) {
      await new Promise((resolve) => sw.addEventListener('controllerchange', resolve, { once: true }));
    }
    handPort(sw.controller);
    sw.addEventListener('controllerchange', () => handPort(sw.controller));
    await coreReady;
  }

  // loadedFiles lists the same-origin files this page loaded (before the
  // service worker controlled it, on a first visit, these bypassed it):
  // the service worker stores them too, for offline use.
  function loadedFiles() {
    if (typeof performance === 'undefined' || !performance.getEntriesByType) return [];
    return performance.getEntriesByType('resource').map((e) => e.name)
      .filter((u) => u.startsWith(location.origin + '/')).slice(0, 200);
  }

  // registerError says what to fix when the service worker cannot be
  // registered: most often the host does not allow sw.js (under /web/) to
  // control the scope (/).
  function registerError(err, url, scope) {
    const where = new URL(scope, location.href).pathname;
    if (err && err.name === 'SecurityError' && /scope/i.test(err.message)) {
      return new Error(`kubesandbox: the service worker ${url.pathname} may not control ${where}: serve it with the header "Service-Worker-Allowed: ${where}", or serve a copy of sw.js from ${where} and name it: createSandbox({ swUrl: '${where}kubesandbox-sw.js' }), for <kube-example> kube-example.js?sw=… (npx kubesandbox-copy makes the copy; docs/embedding.md) (${err.message})`);
    }
    return new Error(`kubesandbox: the service worker ${url.pathname} could not be registered: ${err && err.message || err}`);
  }

  // answerNeedPort hands target (the service worker) a port to our core.
  // The router asks again when the worker behind its port stopped
  // answering: if ours is gone too (the browser ended it), start a new
  // one, which restores the saved state.
  async function answerNeedPort(target) {
    if (!worker) return;
    if (!(await workerAlive())) await connectWorker().catch(() => {});
    handPort(target);
  }

  // electLeader joins the leader election (no SharedWorker): resolves when
  // the leader's core is ready, ours once this tab holds the lock.
  function electLeader() {
    if (!navigator.locks || typeof Worker === 'undefined' || typeof BroadcastChannel === 'undefined') {
      return Promise.reject(new Error('kubesandbox: neither SharedWorker nor Web Locks are available in this browser'));
    }
    info.leader = false;
    channel = new BroadcastChannel(name + '-leader');
    return new Promise((resolve, reject) => {
      channel.onmessage = (e) => {
        const m = e.data || {};
        if (leader) {
          if (m.t === 'need-port') answerNeedPort(sw.controller);
          else if (m.t === 'hello' && info.instance) channel.postMessage(readyMessage());
          else if (m.t === 'control') {
            control(m.op, m.arg).then(
              (result) => channel.postMessage({ t: 'control-reply', to: m.from, id: m.id, error: null, result }),
              (err) => channel.postMessage({ t: 'control-reply', to: m.from, id: m.id, error: String(err && err.message || err) }));
          }
        } else if (m.t === 'ready') {
          Object.assign(info, { instance: m.instance, startMillis: m.startMillis, compileMillis: m.compileMillis, goMillis: m.goMillis });
          resolve();
        } else if (m.t === 'control-reply' && m.to === me) {
          const x = controlWaiters.get(m.id);
          controlWaiters.delete(m.id);
          if (x) m.error ? x.reject(new Error(m.error)) : x.resolve(m.result);
        }
      };
      channel.postMessage({ t: 'hello' }); // a running leader answers 'ready'
      navigator.locks.request(name + '-leader', () => {
        leader = true;
        info.leader = true;
        const up = connectWorker();
        workerUp();
        up.then(() => { handPort(sw.controller); resolve(); }, reject);
        return new Promise(() => {}); // held until this tab goes away
      }).catch(reject);
    });
  }

  function readyMessage() {
    return { t: 'ready', instance: info.instance, startMillis: info.startMillis, compileMillis: info.compileMillis, goMillis: info.goMillis };
  }

  // connectWorker starts or joins the SharedWorker (the leader: starts its
  // dedicated Worker); resolves when its core is ready.
  function connectWorker() {
    if (typeof SharedWorker !== 'undefined') {
      worker = new SharedWorker(workerUrl, { name: hostName });
      port = worker.port;
    } else {
      if (worker) worker.terminate();
      worker = new Worker(workerUrl, { name });
      port = worker;
    }
    const w = worker;
    const p = port;
    const coreReady = new Promise((resolve, reject) => {
      p.onmessage = (e) => {
        const m = e.data || {};
        if (m.t === 'stats') { for (const x of statsWaiters.splice(0)) x(m); }
        else if (m.t === 'pong') { for (const x of pongWaiters.splice(0)) x(true); }
        else if (m.t === 'control') {
          const x = controlWaiters.get(m.id);
          controlWaiters.delete(m.id);
          if (x) m.error ? x.reject(new Error(m.error)) : x.resolve(m.result);
        }
        else if (m.t === 'progress') report({ phase: m.phase, loaded: m.loaded, total: m.total });
        else if (m.t === 'state' && m.state === 'ready') { info.instance = m.instance; info.startMillis = m.startMillis; info.compileMillis = m.compileMillis; info.goMillis = m.goMillis; report({ phase: 'ready', loaded: 1, total: 1 }); if (leader) channel.postMessage(readyMessage()); resolve(); }
        else if (m.t === 'state' && m.state === 'failed') reject(new Error('kubesandbox core failed: ' + m.error));
      };
      w.onerror = (e) => reject(new Error('kubesandbox worker failed to load: ' + (e.message || workerUrl)));
    });
    if (p.start) p.start();
    p.postMessage({ t: 'hello', sandbox }); // names this page's sandbox to the worker
    return coreReady;
  }

  const pongWaiters = [];
  // workerAlive pings the SharedWorker (false after 1 s without an answer).
  function workerAlive() {
    return new Promise((resolve) => {
      const t = setTimeout(() => resolve(false), 1000);
      pongWaiters.push((v) => { clearTimeout(t); resolve(v); });
      port.postMessage({ t: 'ping' });
    });
  }

  let ready = start().catch((err) => {
    report({ phase: 'failed', loaded: 0, total: 0, error: err.message });
    failed = true;
    throw err;
  });

  // apiURL resolves a path against the page, adding this sandbox's base
  // to root-relative paths: '/api/v1/pods' → /sandbox/ex1/api/v1/pods.
  const apiURL = (path) => new URL(base && String(path).startsWith('/') && !String(path).startsWith('//') ? base + path : path, location.href);

  async function sandboxFetch(path, init) {
    await ready;
    return fetch(apiURL(path), init);
  }

  /**
   * watch yields watch events ({type, object}) for a collection path, from
   * `resourceVersion` (default: the collection's current one, read with a
   * one-item list first, so that a resume can never skip events). When the
   * server ends the stream (watch timeout) or the stream breaks (the worker
   * was killed and restarted), it watches again from the last
   * resourceVersion it saw: no event is lost or repeated; if that version
   * is no longer retained the server answers 410 and watch throws a
   * WatchError with status 410 (list again). After `retries` broken
   * streams in a row it throws the network error. Stop by breaking out of
   * the loop or aborting `signal`.
   */
  async function* watch(path, { resourceVersion, signal, onEvent, retries = 5 } = {}) {
    const fail = async (res) => {
      const text = await res.text();
      let body = text;
      try { body = JSON.parse(text); } catch (e) { /* not JSON */ }
      return new WatchError((body && body.message) || `watch ${path}: HTTP ${res.status}`, res.status, body);
    };
    let rv = resourceVersion;
    if (!rv) {
      const url = apiURL(path);
      url.searchParams.set('limit', '1');
      let res;
      try {
        res = await sandboxFetch(url.href, { signal });
      } catch (err) {
        if (signal && signal.aborted) return;
        throw err;
      }
      if (!res.ok) throw await fail(res);
      rv = (await res.json()).metadata.resourceVersion;
    }
    let broken = 0;
    while (!(signal && signal.aborted)) {
      const url = apiURL(path);
      url.searchParams.set('watch', 'true');
      url.searchParams.set('resourceVersion', rv);
      let res;
      try {
        res = await sandboxFetch(url.href, { signal });
      } catch (err) {
        if (signal && signal.aborted) return;
        if (!(err instanceof TypeError) || ++broken > retries) throw err;
        await new Promise((r) => setTimeout(r, 100 * 2 ** broken));
        continue;
      }
      if (!res.ok) throw await fail(res);
      try {
        for await (const ev of readWatch(res)) {
          if (ev.type === 'ERROR') {
            const s = ev.object || {};
            throw new WatchError(s.message || 'watch error', s.code, s);
          }
          const v = ev.object && ev.object.metadata && ev.object.metadata.resourceVersion;
          if (v) rv = v;
          broken = 0;
          onEvent && onEvent(ev);
          yield ev;
        }
      } catch (err) {
        if (signal && signal.aborted) return;
        // a broken stream (TypeError): resume from rv after a pause
        if (!(err instanceof TypeError) || ++broken > retries) throw err;
        await new Promise((r) => setTimeout(r, 100 * 2 ** broken));
      }
    }
  }

  /** stats reports the core's wasm memory size, requests served and live
   *  streams, the sandboxes its worker runs (names; '' the default), IndexedDB counters (db: writes, records, snapshots, millis, failed)
   *  and the CEL engine's load (cel: state absent|loading|ready|failed, millis, loads…). */
  async function stats() {
    await ready;
    const got = new Promise((resolve) => statsWaiters.push(resolve));
    if (!port) throw new Error('kubesandbox: stats() is only available in the leader tab');
    port.postMessage({ t: 'stats' });
    const { memoryBytes, served, live, db, cel, sandboxes } = await got;
    return { memoryBytes, served, live, db, cel, sandboxes };
  }

  // control runs a whole-sandbox operation in the worker (not through the
  // API prefix, so no client of the API can reach it).
  // A follower tab sends it to the leader.
  async function control(op, arg) {
    if (channel && !leader) {
      const id = nextControl++;
      const got = new Promise((resolve, reject) => controlWaiters.set(id, { resolve, reject }));
      channel.postMessage({ t: 'control', from: me, id, op, arg: arg === undefined ? null : arg });
      return got;
    }
    await workerStarted;
    const id = nextControl++;
    const got = new Promise((resolve, reject) => controlWaiters.set(id, { resolve, reject }));
    port.postMessage({ t: 'control', id, op, arg: arg === undefined ? null : arg });
    return got;
  }

  /** exportState returns every user object as YAML (a v1 List): CRDs first,
   *  server-set fields stripped, ready for `kubectl apply -f`. */
  const exportState = () => control('export');

  /** importState creates or updates (server-side apply, field manager
   *  kubesandbox-import) every object of YAML/JSON text; rejects with a
   *  message listing the objects that failed (the others are applied). */
  const importState = (text) => control('import', String(text));

  /** reset drops the saved state and restarts the core with a fresh store
   *  (default namespaces only) whose resourceVersions go on after the old
   *  ones. Open watches get a 410 Expired ERROR event (list again: watch()
   *  throws a WatchError with status 410); other requests in flight fail. */
  async function reset() {
    await control('reset');
    ready = ready.catch(() => {}).then(() => undefined); // the fresh core is up
  }

  // kubectl runs the real kubectl (web/kubectl.js, loaded on first use)
  // against this sandbox: resolves to {stdout, stderr, code}.
  let kubectlRunner = null;
  function runner() {
    kubectlRunner = kubectlRunner || import(new URL('kubectl.js', runtime).href)
      .then((m) => m.createKubectl({ server: location.origin + base }));
    return kubectlRunner;
  }
  async function kubectl(args, opts) {
    await ready;
    return (await runner()).run(args, opts);
  }
  // preloadKubectl starts loading kubectl (download, compile, Go's init)
  // for a UI about to offer it (a terminal shown, a docs example with
  // kubectl steps scrolled into view). If no command was asked for by the
  // time it and the API are up, it runs `kubectl get namespaces` unseen:
  // its discovery fills kubectl's cache, and the code a first command runs
  // (the command tree, the REST mapping, a table) is compiled by then.
  // Once per handle; failures are left to the first command.
  let preloading = null;
  function preloadKubectl() {
    preloading = preloading || runner().then(async (k) => {
      const up = await k.preload();
      await ready;
      if (up && k.info.commands === 0) await k.run(['get', 'namespaces']);
    }).catch(() => {});
  }

  return {
    get ready() { return ready; }, fetch: sandboxFetch, watch, stats, info, base, kubectl, preloadKubectl,
    export: exportState, import: importState, reset,
    /** _fault makes every IndexedDB write fail with that DOMException name (tests); null clears. */
    _fault: (name) => control('fault', name || null),
    /** _cel calls the CEL engine through the core as it would (tests): the answer's JSON text. */
    _cel: (method, request) => control('cel', JSON.stringify({ method, request })),
    /** _celURL makes the worker load every part of the CEL engine from url (tests: a failing load); null restores it. */
    _celURL: (url) => control('cel-url', url || null),
    get worker() { return worker; },
  };
}
