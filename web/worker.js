// kubesandbox SharedWorker: runs the Go core (kubesandbox.wasm) once per
// origin and answers requests arriving over MessagePorts. All tabs share it,
// so a watch in tab A sees tab B's writes.
//
// Classic worker: importScripts works at top level (a module worker would
// need a static import, and must not use top-level await).
//
// Messages on a page's connection port (the one `new SharedWorker` gives):
//   page → worker  {t:'hello'}          → {t:'state', state, error, instance, startMillis}
//   page → worker  {t:'connect'} + [port]           attach a request port (for the service worker)
//   page → worker  {t:'stats'}          → {t:'stats', memoryBytes, served, live}
//   worker → page  {t:'progress', phase, loaded, total} / {t:'state', …}
// Messages on a request port (one per service worker instance, or the page):
//   → {t:'req', id, method, url, headers:[[k,v]…], body: ArrayBuffer|null}
//   ← {t:'head', id, status, headers, body: ArrayBuffer|null, stream: bool}
//   ← {t:'chunk', id, data: ArrayBuffer}   ← {t:'end', id, error: string|null}
//   → {t:'cancel', id}
'use strict';

importScripts('wasm_exec.js');

const WASM_URL = new URL('kubesandbox.wasm', self.location.href).href;

const INSTANCE = Math.random().toString(36).slice(2); // tells tabs they share one core
let state = 'loading'; // loading → ready | failed
let startMillis = 0; // fetch + compile + instantiate + Go init, as this worker measured it
let compileMillis = 0; // fetch + compile + instantiate only
let failure = null;
let lastProgress = null;
const pages = new Set(); // connection ports, for progress and state
const queued = []; // requests that arrived before Go was ready
let nextGoId = 1;
let wasmMemory = null; // the Go instance's linear memory, for stats

function broadcast(msg) {
  for (const p of pages) p.postMessage(msg);
}

function progress(phase, loaded, total) {
  lastProgress = { t: 'progress', phase, loaded, total };
  broadcast(lastProgress);
}

function stateMessage() {
  return { t: 'state', state, error: failure, instance: INSTANCE, startMillis, compileMillis };
}

function setState(s, err) {
  state = s;
  failure = err ? String(err && err.stack || err) : null;
  broadcast(stateMessage());
  if (s !== 'loading') for (const q of queued.splice(0)) serve(q.port, q.msg);
}

// Count downloaded bytes while still compiling as the bytes arrive.
function withProgress(resp) {
  const total = Number(resp.headers.get('X-Uncompressed-Length') ||
    (resp.headers.get('Content-Encoding') ? 0 : resp.headers.get('Content-Length'))) || 0;
  if (!resp.body) return resp;
  let loaded = 0;
  let last = 0;
  const counted = resp.body.pipeThrough(new TransformStream({
    transform(chunk, ctl) {
      loaded += chunk.byteLength;
      if (loaded - last > 256 * 1024) { last = loaded; progress('download', loaded, total); }
      ctl.enqueue(chunk);
    },
    flush() { progress('download', loaded, total || loaded); },
  }));
  return new Response(counted, { headers: { 'Content-Type': 'application/wasm' } });
}

async function start() {
  const t0 = performance.now();
  progress('download', 0, 0);
  const go = new self.Go();
  const ready = new Promise((resolve) => { self.kubesandboxReady = resolve; });
  const resp = await fetch(WASM_URL);
  if (!resp.ok) throw new Error(`fetching ${WASM_URL}: HTTP ${resp.status}`);
  const { instance } = await WebAssembly.instantiateStreaming(withProgress(resp), go.importObject);
  compileMillis = performance.now() - t0;
  wasmMemory = instance.exports.mem;
  progress('start', 1, 1);
  go.run(instance).then(() => setState('failed', 'the Go program exited'));
  await ready;
  startMillis = performance.now() - t0;
  setState('ready');
}

// serve hands one request to Go. Its sink posts the response back; after
// a cancel, the sink drops everything (never touch a cancelled stream).
function serve(port, msg) {
  const id = msg.id;
  if (state !== 'ready') {
    if (state === 'loading') { queued.push({ port, msg }); return; }
    port.postMessage({ t: 'end', id, error: 'kubesandbox core is not running: ' + failure });
    return;
  }
  const goId = nextGoId++;
  const live = port.__ksLive || (port.__ksLive = new Map()); // request id → goId
  live.set(id, goId);
  const sink = (kind, a, b, c, d) => {
    if (live.get(id) !== goId) return; // cancelled
    if (kind === 'head') {
      const body = c ? c.buffer : null;
      port.postMessage({ t: 'head', id, status: a, headers: b, body, stream: d }, body ? [body] : []);
      if (!d) live.delete(id);
    } else if (kind === 'chunk') {
      port.postMessage({ t: 'chunk', id, data: a.buffer }, [a.buffer]);
    } else if (kind === 'end') {
      live.delete(id);
      port.postMessage({ t: 'end', id, error: a });
    }
  };
  const body = msg.body ? new Uint8Array(msg.body) : null;
  let err;
  try {
    err = self.kubesandboxServe(goId, String(msg.method), String(msg.url), msg.headers || [], body, sink);
  } catch (e) {
    err = String(e);
  }
  if (err) { live.delete(id); port.postMessage({ t: 'end', id, error: err }); }
}

function cancel(port, id) {
  const live = port.__ksLive;
  const goId = live && live.get(id);
  if (goId === undefined) return;
  live.delete(id);
  try { self.kubesandboxCancel(goId); } catch (e) { /* Go has exited */ }
}

const requestPorts = new Set();

function attachRequestPort(port) {
  requestPorts.add(port);
  port.onmessage = (e) => {
    const m = e.data || {};
    if (m.t === 'req') serve(port, m);
    else if (m.t === 'cancel') cancel(port, m.id);
    else if (m.t === 'ping') (e.ports[0] || port).postMessage({ t: 'pong', state });
  };
}

self.onconnect = (e) => {
  const page = e.ports[0];
  pages.add(page);
  page.onmessage = (ev) => {
    const m = ev.data || {};
    if (m.t === 'hello') {
      if (lastProgress && state === 'loading') page.postMessage(lastProgress);
      page.postMessage(stateMessage());
    } else if (m.t === 'stats') {
      let live = 0;
      for (const p of requestPorts) live += p.__ksLive ? p.__ksLive.size : 0;
      page.postMessage({ t: 'stats', memoryBytes: wasmMemory ? wasmMemory.buffer.byteLength : 0, served: nextGoId - 1, live });
    } else if (m.t === 'connect' && ev.ports[0]) {
      attachRequestPort(ev.ports[0]);
    } else if (m.t === 'bye') {
      pages.delete(page);
    }
  };
};

start().catch((e) => setState('failed', e));
