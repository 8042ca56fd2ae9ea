// kubesandbox service worker: a stateless router. Same-origin requests
// under the API prefixes go to the kubesandbox SharedWorker over a
// MessagePort; every other request passes through untouched.
//
// A service worker cannot start a SharedWorker, so it asks a controlled
// page for a port ({type:'kubesandbox:need-port', sandbox}), and a page sends one
// ({type:'kubesandbox:port', sandbox} + [port]) — on request and whenever it starts.
//
// Several clusters can live on one origin: /sandbox/<name>/api/… (any
// prefix below /sandbox/<name>) goes to the sandbox named <name> — its own
// SharedWorker and IndexedDB database — with /sandbox/<name> stripped, so
// its core sees /api/…; the plain prefixes go to the default sandbox ('').
// A docs page gives each example its own cluster this way. Configure the
// root with sw.js?sandboxes=/other/.
// The browser stops idle service workers (~30 s); the next request simply
// asks again. Configure prefixes with sw.js?prefixes=/api,/apis,…
//
// sw.js?runtime=/kubesandbox/: the folder holding the runtime (sw-cache.js,
// worker.js, kubesandbox.wasm, …) when sw.js itself is elsewhere — a host
// that cannot send Service-Worker-Allowed serves a copy of sw.js at the
// site root (so that it may control every page) and the rest from a folder
// (docs/embedding.md). Default: the folder of sw.js.
//
// Offline use (the runtime and the pages in Cache Storage) is sw-cache.js's
// job, loaded below: this file only routes.
'use strict';

const PREFIXES = (new URL(self.location.href).searchParams.get('prefixes') ||
  '/api,/apis,/version,/openapi,/livez,/readyz,/healthz').split(',').filter(Boolean);
const SANDBOXES = new URL(self.location.href).searchParams.get('sandboxes') || '/sandbox/';
// sw.js?root=0: only /sandbox/<name>/… is the API; /api/… and the other
// plain prefixes stay the site's own pages (a docs site with an /api/ section)
const ROOT = new URL(self.location.href).searchParams.get('root') !== '0';
const RUNTIME = new URL(new URL(self.location.href).searchParams.get('runtime') || './', self.location.href).href;
const PORT_WAIT_MS = 10000; // how long a request waits for a page to hand over a port
const STALL_MS = 3000; // no head after this long: check that the worker is alive
const BEAT_MS = 4000; // while streams are open: check their worker this often

const ports = new Map(); // sandbox name ('' = default) → MessagePort to its worker
let waiters = [];
const asked = new Map(); // sandbox name → ids of the pages asked for a port since it had none
let nextId = 1;
const pending = new Map(); // id → {resolve, port, msg, controller, timer}
let beat = 0; // the heartbeat interval while any stream is open

importScripts(new URL('sw-cache.js', RUNTIME).href); // the offline cache: everything that is not an API path
const offline = kubesandboxOfflineCache({ isAPI: (path) => route(path) !== null, runtime: RUNTIME });

// The runtime is stored after this worker activates, not before: on a
// first visit the page's first answer waits for this worker to control it,
// and storing the 18 MB wasm first kept it waiting (issue #16). The page's
// port message (below) keeps the worker alive until the store is done.
let installing = null;
self.addEventListener('install', () => {
  self.skipWaiting();
  installing = offline.install();
});
self.addEventListener('activate', (e) => e.waitUntil(offline.activate().then(() => self.clients.claim())));

self.addEventListener('message', (e) => {
  if (!e.data || e.data.type !== 'kubesandbox:port' || !e.ports[0]) return;
  setPort(String(e.data.sandbox || ''), e.ports[0]);
  // A page may have loaded before this worker controlled it (the first
  // visit): store it, the files it loaded meanwhile (e.data.warm: a
  // stylesheet or scenario an element fetched) and what they reference,
  // so it also works offline.
  const more = Array.isArray(e.data.warm) ? e.data.warm.filter((u) => typeof u === 'string').slice(0, 200) : [];
  const work = installing ? [installing] : [];
  if (e.source && e.source.url) work.push(offline.warm([e.source.url, ...more]));
  if (work.length) e.waitUntil(Promise.all(work));
});

self.addEventListener('fetch', (e) => {
  const url = new URL(e.request.url);
  if (url.origin !== self.location.origin) return;
  const api = route(url.pathname);
  if (!api) { offline.fetch(e); return; }
  url.pathname = api.path;
  e.respondWith(forward(e.request, url.href, api.sandbox, e.clientId));
});

const isAPI = (path) => PREFIXES.some((p) => path === p || path.startsWith(p + '/'));

// route tells which sandbox answers path, and the path its core sees:
//   /api/v1/pods             → {sandbox: '', path: '/api/v1/pods'}
//   /sandbox/ex1/api/v1/pods → {sandbox: 'ex1', path: '/api/v1/pods'}
//   /sandbox/ex1/index.html  → null (not an API path: the network's)
//   /api/v1/pods with ?root=0 → null
function route(path) {
  if (path.startsWith(SANDBOXES)) {
    const rest = path.slice(SANDBOXES.length);
    const i = rest.indexOf('/');
    if (i > 0 && isAPI(rest.slice(i))) return { sandbox: decodeName(rest.slice(0, i)), path: rest.slice(i) };
  }
  return ROOT && isAPI(path) ? { sandbox: '', path } : null;
}

// decodeName undoes sandbox.js's encodeURIComponent; a malformed escape
// stays as it is (no page has that sandbox: the request gets a 503, and
// it still never goes to the network).
function decodeName(raw) {
  try { return decodeURIComponent(raw); } catch (e) { return raw; }
}

function setPort(sandbox, p) {
  ports.set(sandbox, p);
  asked.delete(sandbox);
  p.onmessage = onReply;
  for (const w of waiters.filter((w) => w.sandbox === sandbox)) w.resolve(p);
  waiters = waiters.filter((w) => w.sandbox !== sandbox);
}

// getPort returns the sandbox's port, asking the requesting page (or every
// page) for one when there is none.
async function getPort(sandbox, clientId) {
  if (ports.has(sandbox)) return ports.get(sandbox);
  const got = new Promise((resolve) => waiters.push({ sandbox, resolve }));
  // a page hands ports over; a worker client (e.g. kubectl-worker.js) cannot: ask the pages
  const c = clientId && await self.clients.get(clientId);
  const pages = c && c.type === 'window' ? [c] : await self.clients.matchAll({ type: 'window' });
  // a port handed over while this request looked its pages up has
  // resolved it already: asking again would make the page hand a second one
  if (ports.has(sandbox)) return got;
  // ask each page once while this sandbox has no port: a page's many
  // requests at once (its watches reconnecting after a restart) get one
  // port, not one each
  const once = asked.get(sandbox) || new Set();
  asked.set(sandbox, once);
  for (const w of pages) {
    if (once.has(w.id)) continue;
    once.add(w.id);
    w.postMessage({ type: 'kubesandbox:need-port', sandbox });
  }
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => {
      asked.delete(sandbox); // the next request asks again
      reject(new Error('no kubesandbox page handed over a worker port'));
    }, PORT_WAIT_MS);
  });
  try { return await Promise.race([got, late]); } finally { clearTimeout(timer); }
}

async function forward(request, url, sandbox, clientId) {
  const body = request.method === 'GET' || request.method === 'HEAD' ? null : await request.arrayBuffer();
  const msg = { t: 'req', id: 0, method: request.method, url, headers: [...request.headers], body };
  for (let attempt = 0; attempt < 2; attempt++) {
    let p;
    try { p = await getPort(sandbox, clientId); } catch (err) { return unavailable(err.message); }
    const res = await send(p, { ...msg, id: nextId++ }, request.signal);
    if (res !== 'dead') return res;
    if (ports.get(sandbox) === p) ports.delete(sandbox); // the worker behind it is gone: ask for a new one
  }
  return unavailable('the kubesandbox worker does not answer');
}

// send posts one request and resolves with its Response, or 'dead' when
// the port's worker is gone (no head, and no answer to a ping).
function send(p, msg, signal) {
  return new Promise((resolve) => {
    const r = { resolve, port: p, controller: null, timer: 0 };
    pending.set(msg.id, r);
    const stall = () => {
      r.timer = setTimeout(async () => {
        if (!pending.has(msg.id) || r.controller) return;
        if (isBusy(p) || await alive(p) || isBusy(p)) return stall(); // (busy may arrive during the ping)
        pending.delete(msg.id);
        resolve('dead');
      }, STALL_MS);
    };
    stall();
    if (signal) {
      signal.addEventListener('abort', () => {
        if (pending.delete(msg.id)) p.postMessage({ t: 'cancel', id: msg.id });
        clearTimeout(r.timer);
      });
    }
    const body = msg.body ? msg.body.slice(0) : null; // keep msg.body for a retry
    p.postMessage({ ...msg, body }, body ? [body] : []);
  });
}

function alive(p) {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    const t = setTimeout(() => resolve(false), 2000);
    ch.port1.onmessage = () => { clearTimeout(t); ch.port1.close(); resolve(true); };
    p.postMessage({ t: 'ping' }, [ch.port2]);
  });
}

// busyPorts are the ports whose worker said its thread is held by
// synchronous work (loading a CEL wasm, a CEL call): they are not pinged
// until it says it is done (for BUSY_MS at most: a worker that died
// meanwhile is found out then), so a slow answer is not taken for a dead
// worker. port → since (Date.now()).
const busyPorts = new Map();
const BUSY_MS = 60000;
const isBusy = (p) => busyPorts.has(p) && Date.now() - busyPorts.get(p) < BUSY_MS;

function onReply(e) {
  const m = e.data || {};
  if (m.t === 'busy') {
    if (m.on) busyPorts.set(e.target, Date.now());
    else busyPorts.delete(e.target);
    return;
  }
  const r = pending.get(m.id);
  if (!r) return; // cancelled or unknown: drop
  if (m.t === 'head') {
    clearTimeout(r.timer);
    if (!m.stream) {
      pending.delete(m.id);
      r.resolve(response(m.status, m.headers, m.body));
      return;
    }
    const stream = new ReadableStream({
      start(c) { r.controller = c; },
      cancel() { // the page stopped reading: tell Go, never touch c again
        if (pending.delete(m.id)) r.port.postMessage({ t: 'cancel', id: m.id });
      },
    });
    r.resolve(response(m.status, m.headers, stream));
    heartbeat();
  } else if (m.t === 'chunk') {
    if (r.controller) r.controller.enqueue(new Uint8Array(m.data));
  } else if (m.t === 'end') {
    clearTimeout(r.timer);
    pending.delete(m.id);
    if (!r.controller) r.resolve(Response.error());
    else if (m.error) r.controller.error(new TypeError(m.error));
    else r.controller.close();
  }
}

// heartbeat pings the worker behind every open stream (a watch) every
// BEAT_MS: a worker that was killed closes nothing, so without this its
// streams would hang silently. A dead worker's streams end with an error
// (sandbox.watch then resumes from its last resourceVersion) and its port
// is dropped, so the next request asks a page for a new one.
function heartbeat() {
  if (beat) return;
  beat = setInterval(async () => {
    const open = new Set([...pending.values()].filter((r) => r.controller).map((r) => r.port));
    if (!open.size) { clearInterval(beat); beat = 0; return; }
    for (const p of open) {
      if (isBusy(p) || await alive(p) || isBusy(p)) continue;
      for (const [k, v] of ports) if (v === p) ports.delete(k);
      for (const [id, r] of pending) {
        if (r.port !== p || !r.controller) continue;
        pending.delete(id);
        try { r.controller.error(new TypeError('the kubesandbox worker stopped')); } catch (e) { /* cancelled */ }
      }
    }
  }, BEAT_MS);
}

function response(status, headers, body) {
  try {
    if (status === 204 || status === 205 || status === 304) body = null;
    return new Response(body, { status, headers });
  } catch (err) {
    return Response.error(); // a status or header the Fetch API cannot express
  }
}

function unavailable(message) {
  const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'ServiceUnavailable', code: 503 };
  return new Response(JSON.stringify(status), { status: 503, headers: { 'Content-Type': 'application/json' } });
}
