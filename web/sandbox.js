// kubesandbox page API (ES module, no dependencies).
//
//   import { createSandbox } from '/web/sandbox.js';
//   const ks = createSandbox({ onProgress: (p) => console.log(p.phase, p.loaded, p.total) });
//   await ks.ready;                                   // controlled, core running
//   const v = await (await ks.fetch('/version')).json();
//   for await (const ev of ks.watch('/api/v1/namespaces/default/configmaps')) { … }
//   const yaml = await ks.export();   // every user object, a List for `kubectl apply -f`
//   await ks.reset();                 // drop the saved state, restart the core empty
//   await ks.import(yaml);            // create or update (server-side apply) each object
//
// It registers the service worker (which routes API paths), starts or joins
// the origin's SharedWorker (which runs the Go core), and hands the service
// worker a MessagePort to it whenever asked. The core keeps its state in
// IndexedDB (written through: a write is answered once it is stored), so
// reloading every tab, or the browser ending the worker, loses nothing. Plain fetch('/api/…') from the
// page works too once `ready` resolves: the service worker answers it.
// Without SharedWorker support (e.g. Chrome on Android) `ready` rejects:
// the leader-tab fallback (Web Locks + dedicated worker) is not written yet.

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

export function createSandbox({
  swUrl = new URL('sw.js', here).href,
  workerUrl = new URL('worker.js', here).href,
  scope = '/',
  prefixes, // e.g. ['/api', '/apis']; default: the service worker's list
  name = 'kubesandbox',
  onProgress = () => {},
} = {}) {
  const sw = navigator.serviceWorker;
  let worker = null;
  const statsWaiters = [];
  const controlWaiters = new Map(); // control id → {resolve, reject}
  let nextControl = 1;
  let workerUp; // resolves once the SharedWorker exists
  const workerStarted = new Promise((resolve) => { workerUp = resolve; });
  // instance, startMillis: the shared core's (after ready); portsHanded: to the service worker
  const info = { portsHanded: 0 };

  function handPort(target) {
    if (!worker || !target) return;
    const ch = new MessageChannel();
    worker.port.postMessage({ t: 'connect' }, [ch.port1]);
    target.postMessage({ type: 'kubesandbox:port' }, [ch.port2]);
    info.portsHanded++;
  }

  async function start() {
    if (!sw) throw new Error('kubesandbox: service workers are unavailable (needs a secure context: https or localhost)');
    if (typeof SharedWorker === 'undefined') throw new Error('kubesandbox: SharedWorker is unavailable in this browser');

    // 1. The core: start or join the SharedWorker and wait until Go runs.
    const coreReady = connectWorker();
    workerUp();
    addEventListener('pagehide', () => worker.port.postMessage({ t: 'bye' }));

    // 2. The router: hand it a port when it asks (after each restart).
    sw.addEventListener('message', async (e) => {
      if (!e.data || e.data.type !== 'kubesandbox:need-port') return;
      // The router asks again when the worker behind its port stopped
      // answering: if ours is gone too (the browser ended it), start a new
      // one, which restores the saved state.
      if (!(await workerAlive())) await connectWorker().catch(() => {});
      handPort(e.source);
    });
    sw.startMessages();
    const url = new URL(swUrl);
    if (prefixes) url.searchParams.set('prefixes', prefixes.join(','));
    await sw.register(url.href, { scope });
    if (!sw.controller) {
      await new Promise((resolve) => sw.addEventListener('controllerchange', resolve, { once: true }));
    }
    handPort(sw.controller);
    sw.addEventListener('controllerchange', () => handPort(sw.controller));
    await coreReady;
  }

  // connectWorker starts or joins the SharedWorker; resolves when its core is ready.
  function connectWorker() {
    worker = new SharedWorker(workerUrl, { name });
    const w = worker;
    const coreReady = new Promise((resolve, reject) => {
      w.port.onmessage = (e) => {
        const m = e.data || {};
        if (m.t === 'stats') { for (const x of statsWaiters.splice(0)) x(m); }
        else if (m.t === 'pong') { for (const x of pongWaiters.splice(0)) x(true); }
        else if (m.t === 'control') {
          const x = controlWaiters.get(m.id);
          controlWaiters.delete(m.id);
          if (x) m.error ? x.reject(new Error(m.error)) : x.resolve(m.result);
        }
        else if (m.t === 'progress') onProgress({ phase: m.phase, loaded: m.loaded, total: m.total });
        else if (m.t === 'state' && m.state === 'ready') { info.instance = m.instance; info.startMillis = m.startMillis; info.compileMillis = m.compileMillis; onProgress({ phase: 'ready', loaded: 1, total: 1 }); resolve(); }
        else if (m.t === 'state' && m.state === 'failed') reject(new Error('kubesandbox core failed: ' + m.error));
      };
      w.onerror = (e) => reject(new Error('kubesandbox worker failed to load: ' + (e.message || workerUrl)));
    });
    w.port.start();
    w.port.postMessage({ t: 'hello' });
    return coreReady;
  }

  const pongWaiters = [];
  // workerAlive pings the SharedWorker (false after 1 s without an answer).
  function workerAlive() {
    return new Promise((resolve) => {
      const t = setTimeout(() => resolve(false), 1000);
      pongWaiters.push((v) => { clearTimeout(t); resolve(v); });
      worker.port.postMessage({ t: 'ping' });
    });
  }

  let ready = start();

  async function sandboxFetch(path, init) {
    await ready;
    return fetch(new URL(path, location.href), init);
  }

  /**
   * watch yields watch events ({type, object}) for a collection path. When
   * the server ends the stream (watch timeout) it watches again from the
   * last resourceVersion it saw, so no event is lost or repeated. Stop by
   * breaking out of the loop or aborting `signal`.
   */
  async function* watch(path, { resourceVersion, signal, onEvent } = {}) {
    let rv = resourceVersion;
    while (!(signal && signal.aborted)) {
      const url = new URL(path, location.href);
      url.searchParams.set('watch', 'true');
      if (rv) url.searchParams.set('resourceVersion', rv);
      let res;
      try {
        res = await sandboxFetch(url.href, { signal });
      } catch (err) {
        if (signal && signal.aborted) return;
        throw err;
      }
      if (!res.ok) {
        const text = await res.text();
        let body = text;
        try { body = JSON.parse(text); } catch (e) { /* not JSON */ }
        throw new WatchError((body && body.message) || `watch ${path}: HTTP ${res.status}`, res.status, body);
      }
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buf = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buf += value;
          for (let i; (i = buf.indexOf('\n')) >= 0;) {
            const line = buf.slice(0, i).trim();
            buf = buf.slice(i + 1);
            if (!line) continue;
            const ev = JSON.parse(line);
            if (ev.type === 'ERROR') {
              const s = ev.object || {};
              throw new WatchError(s.message || 'watch error', s.code, s);
            }
            const v = ev.object && ev.object.metadata && ev.object.metadata.resourceVersion;
            if (v) rv = v;
            onEvent && onEvent(ev);
            yield ev;
          }
        }
      } catch (err) {
        if (signal && signal.aborted) return;
        throw err;
      } finally {
        reader.cancel().catch(() => {});
      }
    }
  }

  /** stats reports the core's wasm memory size, requests served and live
   *  streams, and IndexedDB counters (db: writes, records, snapshots, millis, failed). */
  async function stats() {
    await ready;
    const got = new Promise((resolve) => statsWaiters.push(resolve));
    worker.port.postMessage({ t: 'stats' });
    const { memoryBytes, served, live, db } = await got;
    return { memoryBytes, served, live, db };
  }

  // control runs a whole-sandbox operation in the worker (not through the
  // API prefix, so no client of the API can reach it).
  async function control(op, arg) {
    await workerStarted;
    const id = nextControl++;
    const got = new Promise((resolve, reject) => controlWaiters.set(id, { resolve, reject }));
    worker.port.postMessage({ t: 'control', id, op, arg: arg === undefined ? null : arg });
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
   *  (default namespaces only). Watches and requests in flight end with an error. */
  async function reset() {
    await control('reset');
    ready = ready.catch(() => {}).then(() => undefined); // the fresh core is up
  }

  return {
    get ready() { return ready; }, fetch: sandboxFetch, watch, stats, info,
    export: exportState, import: importState, reset,
    /** _fault makes every IndexedDB write fail with that DOMException name (tests); null clears. */
    _fault: (name) => control('fault', name || null),
    get worker() { return worker; },
  };
}
