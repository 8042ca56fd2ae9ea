// kubesandbox SharedWorker: runs the Go core (kubesandbox.wasm) once per
// origin and answers requests arriving over MessagePorts. All tabs share it,
// so a watch in tab A sees tab B's writes. One Go instance hosts every
// sandbox its pages name (wasm/host.go): the default one ('') and the
// named ones of a docs page (createSandbox({sandbox: 'ex1'})), each a core
// of its own — its own store, IndexedDB database, controllers — so a page
// of 5 examples pays one compile and one Go start-up, not 5. Without
// SharedWorker the leader tab runs this same script as a dedicated Worker
// (for one sandbox): the page connection is then `self` (same messages),
// and the leader hands ports to everyone.
//
// Classic worker: importScripts works at top level (a module worker would
// need a static import, and must not use top-level await).
//
// Messages on a page's connection port (the one `new SharedWorker` gives);
// its first message names the page's sandbox, and everything after it is
// about that sandbox:
//   page → worker  {t:'hello', sandbox} → {t:'state', state, error, instance, startMillis}
//   page → worker  {t:'connect'} + [port]           attach a request port (for the service worker)
//   page → worker  {t:'stats'}          → {t:'stats', memoryBytes, served, live, db, cel, sandboxes}
//   page → worker  {t:'control', id, op, arg} → {t:'control', id, error, result}
//       op 'export' (result: YAML text), 'import' (arg: YAML text), 'reset'
//       (drop the saved state, restart the sandbox's core fresh; its resourceVersions
//       go on after the old ones, and open JSON watches end with a 410 ERROR event;
//       the other sandboxes serve on), 'fault' (arg: a
//       DOMException name such as 'QuotaExceededError' that every IndexedDB
//       write then fails with, after aborting its transaction; null clears it)
//   worker → page  {t:'progress', phase, loaded, total} / {t:'state', …}
// Messages on a request port (one per service worker instance and sandbox, or the page):
//   → {t:'req', id, method, url, headers:[[k,v]…] (or the "k\nv\n…" string Go takes), body: ArrayBuffer|null}
//   ← {t:'head', id, status, headers, body: ArrayBuffer|null, stream: bool}
//   ← {t:'chunk', id, data: ArrayBuffer}   ← {t:'end', id, error: string|null}
//   → {t:'cancel', id}
//   ← {t:'busy', on}   this thread is held by synchronous work (a CEL wasm's
//                      start-up, a CEL call): no answer to pings until off
// A request port serves the sandbox of the page that attached it: the
// worker names it to Go in the Kubesandbox-Sandbox header (replacing any
// the client sent), so a request can reach no other sandbox.
'use strict';

// wasm_exec.js: Go's JS glue; worker-db.js: each sandbox's IndexedDB
// database; worker-cel.js: the CEL engine's two wasm parts (all in this folder).
importScripts('wasm_exec.js', 'worker-db.js', 'worker-cel.js');

const WASM_URL = new URL('kubesandbox.wasm', self.location.href).href;
// The descriptions of the built-in OpenAPI definitions (kubectl explain):
// half a megabyte the wasm does not carry. Go asks for them the first
// time an OpenAPI document is requested (wasm/docs.go): kubesandboxDocs()
// → Promise<Uint8Array|null>; null (a failed fetch) leaves the documents
// without descriptions until a later request tries again.
const DOCS_URL = new URL('kubesandbox-docs.json', self.location.href).href;
self.kubesandboxDocs = async () => {
  try {
    const resp = await fetch(DOCS_URL);
    if (resp.ok) return new Uint8Array(await resp.arrayBuffer());
    console.warn(`kubesandbox: fetching ${DOCS_URL}: HTTP ${resp.status}`);
  } catch (err) {
    console.warn(`kubesandbox: fetching ${DOCS_URL}: ${err}`);
  }
  return null;
};
const PARAMS = new URL(self.location.href).searchParams;
// IndexedDB transaction durability: 'strict' waits for the disk flush,
// 'relaxed' for the OS write (survives a crash of the browser, not of the
// machine). worker.js?durability=relaxed|strict|memory ('memory': no IndexedDB).
const DURABILITY = PARAMS.get('durability') || 'strict';
// Compaction (tests): worker.js?snapshotEvery=N&keepEvents=M (persist.Options).
// Simulated Nodes of the controllers: worker.js?nodes=N (sandbox.js's
// createSandbox({nodes}); unset: 3, as make serve; 0: Pods stay Pending).
// These hold for every sandbox of this worker (pages passing other ones
// get a worker of their own: the URL names the SharedWorker).
self.kubesandboxOptions = {
  snapshotEvery: Number(PARAMS.get('snapshotEvery')) || 0,
  keepEvents: Number(PARAMS.get('keepEvents')) || 0,
};
if (PARAMS.has('nodes')) self.kubesandboxOptions.nodes = Number(PARAMS.get('nodes'));
// worker.js?controllers=0: the API server alone (createSandbox({controllers: false})).
if (PARAMS.get('controllers') === '0') self.kubesandboxOptions.controllers = false;

const INSTANCE = Math.random().toString(36).slice(2); // tells tabs they share one core
const STARTED = performance.now();
let goState = 'loading'; // the Go instance: loading → ready | failed
let goFailure = null;
let compileMillis = 0; // fetch + compile + instantiate only
let goInit = null; // Go's runtime + package init (wasm/main.go's main began)
let lastProgress = null;
const pages = new Set(); // connection ports, for progress
let nextGoId = 1;
let wasmMemory = null; // the Go instance's linear memory, for stats
let wasmModule = null; // compiled once; a new instance after the Go program ended
let goUp = null; // resolves once the Go instance serves (rejects when it could not start)

// sandboxes: name → {name, state (loading → ready | failed), failure,
// pages, ports (request ports), queued (requests before it was ready),
// db (IndexedDB, null: memory only), startMillis, goMillis, resetting}
const sandboxes = new Map();
// each sandbox's IndexedDB database (worker-db.js): 'kubesandbox:<name>', the default one
// 'kubesandbox' (worker.js?db=… names another); Go finds it through self.kubesandboxDBFor
const dbs = kubesandboxWorkerDB({
  durability: DURABILITY,
  defaultName: PARAMS.get('db') || 'kubesandbox',
  lookup: (name) => { const sb = sandboxes.get(name); return sb && sb.db; },
});
// the CEL engine (worker-cel.js): kubesandboxLoadCEL, kubesandboxCEL, … for Go
const cel = kubesandboxWorkerCEL({ base: self.location.href, busy: (on) => busy(on), countBytes });

function sandboxFor(name) {
  let sb = sandboxes.get(name);
  if (sb) { clearTimeout(sb.idle); return sb; }
  sb = { name, state: 'loading', failure: null, pages: new Set(), ports: new Set(), queued: [], db: null, startMillis: 0, goMillis: null, resetting: null };
  if (DURABILITY !== 'memory' && self.indexedDB) sb.db = dbs.open(name);
  sandboxes.set(name, sb);
  openSandbox(sb).catch(() => {}); // its state says how it went
  return sb;
}

function progress(phase, loaded, total) {
  lastProgress = { t: 'progress', phase, loaded, total };
  for (const p of pages) p.postMessage(lastProgress);
}

function stateMessage(sb) {
  return { t: 'state', state: sb.state, error: sb.failure, instance: INSTANCE, startMillis: sb.startMillis, compileMillis, goMillis: sb.goMillis };
}

function setState(sb, s, err) {
  sb.state = s;
  sb.failure = err ? String(err && err.stack || err) : null;
  for (const p of sb.pages) p.postMessage(stateMessage(sb));
  if (s !== 'loading') for (const q of sb.queued.splice(0)) serve(q.port, q.msg);
}

// countBytes reads a response (a clone of the one being compiled) to its
// end, telling report(loaded, total) every `step` bytes and once at the end
// (total: the uncompressed length when known; at the end, the bytes read
// if not). A read that fails reports nothing more: the compile reports it.
// The core's wasm counts for the pages' progress, each CEL part for its
// stats (worker-cel.js).
async function countBytes(resp, report, step = Infinity) {
  const total = Number(resp.headers.get('X-Uncompressed-Length') ||
    (resp.headers.get('Content-Encoding') ? 0 : resp.headers.get('Content-Length'))) || 0;
  if (!resp.body) return;
  const reader = resp.body.getReader();
  let loaded = 0;
  let last = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      loaded += value.byteLength;
      if (loaded - last > step) { last = loaded; report(loaded, total); }
    }
  } catch (e) {
    return;
  }
  report(loaded, total || loaded);
}

// startGo fetches and compiles the wasm (once: later instances reuse the
// module) and runs a Go instance; resolves when it serves (no sandbox open yet).
async function startGo() {
  goState = 'loading';
  const go = new self.Go();
  let instance;
  if (wasmModule) {
    instance = await WebAssembly.instantiate(wasmModule, go.importObject);
  } else {
    progress('download', 0, 0);
    const resp = await fetch(WASM_URL);
    if (!resp.ok) throw new Error(`fetching ${WASM_URL}: HTTP ${resp.status}`);
    // The fetched Response itself goes to the compiler, as startCEL's does:
    // its URL is what Chromium keys the wasm code cache on, so a revisit
    // takes the cached module instead of decoding and compiling 18 MB
    // again. The bytes are counted on a clone for the pages' progress.
    countBytes(resp.clone(), (loaded, total) => progress('download', loaded, total), 256 * 1024);
    const got = await WebAssembly.instantiateStreaming(resp, go.importObject);
    wasmModule = got.module;
    instance = got.instance;
    compileMillis = performance.now() - STARTED;
  }
  wasmMemory = instance.exports.mem;
  progress('start', 1, 1);
  const ready = new Promise((resolve, reject) => {
    self.kubesandboxReady = (failure) => (failure ? reject(new Error(failure)) : resolve());
  });
  const runAt = performance.now();
  self.kubesandboxTimings = null;
  go.run(instance).then(() => goFailed('the Go program exited'));
  await ready;
  const tm = self.kubesandboxTimings;
  goInit = tm ? tm.main - runAt : null;
  goState = 'ready';
}

// goFailed: the Go instance is gone (or never came up); every sandbox
// fails with it until a reset starts a new one.
function goFailed(err) {
  if (goState === 'failed') return;
  goState = 'failed';
  goFailure = String(err && err.stack || err);
  for (const sb of sandboxes.values()) {
    if (sb.state === 'failed') continue;
    endAll(sb, 'kubesandbox core stopped: ' + goFailure);
    setState(sb, 'failed', goFailure);
  }
}

// CLOSE_AFTER_MS: a sandbox none of whose pages is left is closed after
// this long (a reload comes back sooner), so a worker kept alive by other
// pages does not keep running the cores of every page ever opened: its
// state stays in IndexedDB and the next page or request opens it again.
const CLOSE_AFTER_MS = Number(PARAMS.get('closeAfter')) || 10000;

function idle(sb) {
  clearTimeout(sb.idle);
  sb.idle = setTimeout(() => {
    if (sb.pages.size || sb.resetting || sb.state === 'loading' || sandboxes.get(sb.name) !== sb) return;
    if ([...sb.ports].some((p) => p.__ksLive && p.__ksLive.size)) { idle(sb); return; } // still in use (a watch)
    sandboxes.delete(sb.name);
    sb.closed = true;
    endAll(sb, 'kubesandbox: the sandbox was closed (no page uses it)');
    if (sb.state === 'ready' && goState === 'ready') goControl('close', sb).catch(() => {});
  }, CLOSE_AFTER_MS);
}

// openSandbox starts sb's core in the Go instance (restoring its saved
// state; rev: where a memory-only core starts after a reset).
async function openSandbox(sb, rev = 0) {
  const t0 = performance.now();
  try {
    await goUp;
    const t1 = performance.now();
    await goControl('open', sb, null, rev);
    sb.startMillis = performance.now() - Math.max(t0, STARTED);
    sb.goMillis = { init: goInit, serve: performance.now() - t1, db: sb.db ? sb.db.stats.millis : null }; // db: IndexedDB writes (of serve)
    setState(sb, 'ready');
  } catch (e) {
    setState(sb, 'failed', e);
    throw e;
  }
}

// serve hands one request to Go. Its sink posts the response back; after
// a cancel, the sink drops everything (never touch a cancelled stream).
function serve(port, msg) {
  const id = msg.id;
  let sb = port.__ksSandbox;
  if (sb.closed) { // closed while idle: this request opens it again
    sb = port.__ksSandbox = sandboxFor(sb.name);
    sb.ports.add(port);
    idle(sb);
  }
  if (sb.state !== 'ready') {
    if (sb.state === 'loading') { sb.queued.push({ port, msg }); return; }
    port.postMessage({ t: 'end', id, error: 'kubesandbox core is not running: ' + sb.failure });
    return;
  }
  const goId = nextGoId++;
  const live = port.__ksLive || (port.__ksLive = new Map()); // request id → goId
  live.set(id, goId);
  const sink = (kind, a, b, c, d) => {
    if (live.get(id) !== goId) return; // cancelled
    if (kind === 'head') {
      const body = c ? c.buffer : null;
      const headers = typeof b === 'string' ? headerPairs(b) : b;
      port.postMessage({ t: 'head', id, status: a, headers, body, stream: d }, body ? [body] : []);
      if (!d) live.delete(id);
      else if (jsonStream(headers)) (port.__ksWatches || (port.__ksWatches = new Set())).add(goId);
    } else if (kind === 'chunk') {
      port.postMessage({ t: 'chunk', id, data: a.buffer }, [a.buffer]);
    } else if (kind === 'end') {
      live.delete(id);
      if (port.__ksWatches) port.__ksWatches.delete(goId);
      port.postMessage({ t: 'end', id, error: a });
    }
  };
  const body = msg.body ? new Uint8Array(msg.body) : null;
  // the sandbox is the port's: a client's own Kubesandbox-Sandbox header never counts
  const headers = headerLines(msg.headers) + 'Kubesandbox-Sandbox\n' + sb.name + '\n';
  let err;
  try {
    // called unbound: `this` is then undefined, not self, which Go would
    // take as one more js.Value (with a finalizer) per request
    const goServe = self.kubesandboxServe;
    err = goServe(goId, String(msg.method), String(msg.url), headers, body, sink);
  } catch (e) {
    err = String(e);
  }
  if (err) { live.delete(id); port.postMessage({ t: 'end', id, error: err }); }
}

// Go takes and gives headers as one string, names and values alternating,
// each ending in "\n" (wasm/jsglue/headers.go: a string is one js.Value
// for Go to make, an array of pairs three a pair); the service worker's
// messages keep [[name, value], …], which any version of sw.js reads.
//   headerLines([['accept', '*/*']]) === 'accept\n*/*\n'  (a Kubesandbox-Sandbox pair is dropped: the port names the sandbox)
//   headerPairs('Date\nMon\n') → [['Date', 'Mon']]
function headerLines(pairs) {
  if (typeof pairs === 'string') pairs = headerPairs(pairs);
  let s = '';
  for (const [k, v] of pairs || []) {
    if (String(k).toLowerCase() !== 'kubesandbox-sandbox') s += k + '\n' + v + '\n';
  }
  return s;
}

function headerPairs(lines) {
  const f = lines.split('\n');
  const out = [];
  for (let i = 0; i + 1 < f.length; i += 2) out.push([f[i], f[i + 1]]);
  return out;
}

// jsonStream tells whether a streaming answer's headers are a JSON watch
// (application/json;stream=watch): a reset can end it with an ERROR event.
function jsonStream(headers) {
  return (headers || []).some(([k, v]) => String(k).toLowerCase() === 'content-type' && /json/.test(v));
}

function cancel(port, id) {
  const live = port.__ksLive;
  const goId = live && live.get(id);
  if (goId === undefined) return;
  live.delete(id);
  if (port.__ksWatches) port.__ksWatches.delete(goId);
  try { self.kubesandboxCancel(goId); } catch (e) { /* Go has exited */ }
}

const requestPorts = new Set(); // of every sandbox

function attachRequestPort(port, sb) {
  requestPorts.add(port);
  sb.ports.add(port);
  port.__ksSandbox = sb;
  port.onmessage = (e) => {
    const m = e.data || {};
    if (m.t === 'req') serve(port, m);
    else if (m.t === 'cancel') cancel(port, m.id);
    else if (m.t === 'ping') (e.ports[0] || port).postMessage({ t: 'pong', state: sb.state });
  };
}

// attachPage serves one page's connection: a SharedWorker's connect port,
// or `self` when this runs as the dedicated Worker of a leader tab
// (browsers without SharedWorker; see sandbox.js). Its hello names its
// sandbox (default: '').
function attachPage(page) {
  pages.add(page);
  let sb = null;
  const mine = () => {
    if (sb && sb.closed) { sb = sandboxFor(sb.name); sb.pages.add(page); } // back (e.g. from the back/forward cache)
    return sb || (sb = sandboxFor(''));
  };
  page.onmessage = (ev) => {
    const m = ev.data || {};
    if (m.t === 'hello') {
      if (!sb) sb = sandboxFor(typeof m.sandbox === 'string' ? m.sandbox : '');
      sb.pages.add(page);
      if (lastProgress && sb.state === 'loading') page.postMessage(lastProgress);
      page.postMessage(stateMessage(sb));
    } else if (m.t === 'stats') {
      let live = 0;
      for (const p of mine().ports) live += p.__ksLive ? p.__ksLive.size : 0;
      page.postMessage({ t: 'stats', memoryBytes: wasmMemory ? wasmMemory.buffer.byteLength : 0, served: nextGoId - 1, live, db: sb.db ? { ...sb.db.stats } : dbs.noStats(), cel: cel.stats(), sandboxes: [...sandboxes.keys()] });
    } else if (m.t === 'control') {
      control(mine(), m.op, m.arg).then(
        (result) => page.postMessage({ t: 'control', id: m.id, error: null, result: result === undefined ? null : result }),
        (err) => page.postMessage({ t: 'control', id: m.id, error: String(err && err.message || err), result: null }));
    } else if (m.t === 'connect' && ev.ports[0]) {
      attachRequestPort(ev.ports[0], mine());
    } else if (m.t === 'ping') {
      page.postMessage({ t: 'pong' });
    } else if (m.t === 'bye') {
      pages.delete(page);
      if (sb) { sb.pages.delete(page); if (!sb.pages.size) idle(sb); }
    }
  };
}

self.onconnect = (e) => attachPage(e.ports[0]);
if (typeof SharedWorkerGlobalScope === 'undefined' || !(self instanceof SharedWorkerGlobalScope)) attachPage(self);

// ---- whole-sandbox operations ----

// goControl calls kubesandboxControl(op, {sandbox, arg, rev}, done) and
// resolves with done's result.
function goControl(op, sb, arg, rev, force) {
  return new Promise((resolve, reject) => {
    if (op !== 'open' && sb.state !== 'ready' && !force) { reject(new Error('kubesandbox core is not running' + (sb.failure ? ': ' + sb.failure : ''))); return; }
    let err;
    try {
      const a = JSON.stringify({ sandbox: sb.name, arg: arg == null ? '' : String(arg), rev: rev || 0 });
      err = self.kubesandboxControl(op, a, (e, r) => (e ? reject(new Error(e)) : resolve(r)));
    } catch (e) { err = String(e); }
    if (err) reject(new Error(err));
  });
}

async function control(sb, op, arg) {
  if (sb.resetting && op !== 'fault') await sb.resetting;
  if (sb.state === 'loading' && op !== 'reset' && op !== 'fault') await whenSettled(sb);
  switch (op) {
    case 'export': return goControl('export', sb);
    case 'import': return goControl('import', sb, arg);
    case 'reset': return reset(sb);
    case 'fault': if (sb.db) sb.db.fault = arg || null; return null;
    case 'cel': return goControl('cel', sb, arg); // one engine call through the core (tests)
    case 'cel-url': cel.setURL(arg); return null; // tests: a failing load
    default: throw new Error(`unknown operation ${op}`);
  }
}

function whenSettled(sb) {
  return new Promise((resolve) => {
    const check = () => (sb.state === 'loading' ? setTimeout(check, 20) : resolve());
    check();
  });
}

// reset drops sb's saved state and starts its core again with a fresh
// store; the other sandboxes serve on. Its requests in flight end with an
// error; new ones wait for the fresh core. When the Go instance itself
// is gone, a new one starts, and every other sandbox restores into it.
function reset(sb) {
  if (sb.resetting) return sb.resetting;
  sb.resetting = (async () => {
    if (sb.state === 'loading') await whenSettled(sb);
    const wasReady = sb.state === 'ready';
    setState(sb, 'loading');
    endAll(sb, 'kubesandbox was reset', RESET_EVENT);
    // Go empties the saved state at its last revision, so the fresh core
    // goes on from there: resourceVersions never go back.
    const rev = wasReady ? await goControl('reset', sb, null, 0, true).catch(() => null) : null;
    if (goState === 'failed') {
      goUp = startGo();
      goUp.catch((e) => goFailed(e));
      for (const other of sandboxes.values()) {
        if (other !== sb && !other.resetting) { setState(other, 'loading'); openSandbox(other).catch(() => {}); }
      }
    }
    if (rev === null && sb.db) await sb.db.clear(); // not running (damaged state): start over at 1
    await openSandbox(sb, Number(rev) || 0);
    return null;
  })().finally(() => { sb.resetting = null; });
  return sb.resetting;
}

// A reset ends open JSON watches as the API server ends a watch whose
// resourceVersion was compacted away: an ERROR event with a 410 Expired
// Status, then the end of the stream. Clients (sandbox.watch, client-go's
// reflector) list again; nothing from before the reset can be resumed.
const RESET_EVENT = new TextEncoder().encode(JSON.stringify({
  type: 'ERROR',
  object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the sandbox was reset: the resourceVersion for the provided watch is too old; list again', reason: 'Expired', code: 410 },
}) + '\n');

// endAll ends every request of sb in flight with an error (its core is
// going away); with watchEvent, a JSON watch gets that last event and ends cleanly.
function endAll(sb, message, watchEvent) {
  for (const port of sb.ports) {
    const live = port.__ksLive;
    if (!live) continue;
    const watches = port.__ksWatches || new Set();
    for (const [id, goId] of live) {
      live.delete(id);
      try { self.kubesandboxCancel(goId); } catch (e) { /* Go has exited */ }
      if (watchEvent && watches.has(goId)) {
        const data = watchEvent.slice().buffer;
        port.postMessage({ t: 'chunk', id, data }, [data]);
        port.postMessage({ t: 'end', id, error: null });
      } else port.postMessage({ t: 'end', id, error: message });
    }
    watches.clear();
  }
}

// busy tells the service worker's ports that this thread is (or no longer
// is) held by synchronous Go work: it waits for answers instead of pinging.
function busy(on) {
  for (const p of requestPorts) p.postMessage({ t: 'busy', on });
}

goUp = startGo();
goUp.catch((e) => goFailed(e));
