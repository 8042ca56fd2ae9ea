// kubesandbox service worker: a stateless router. Same-origin requests
// under the API prefixes go to the kubesandbox SharedWorker over a
// MessagePort; every other request passes through untouched.
//
// A service worker cannot start a SharedWorker, so it asks a controlled
// page for a port ({type:'kubesandbox:need-port'}), and a page sends one
// ({type:'kubesandbox:port'} + [port]) — on request and whenever it starts.
// The browser stops idle service workers (~30 s); the next request simply
// asks again. Configure prefixes with sw.js?prefixes=/api,/apis,…
'use strict';

const PREFIXES = (new URL(self.location.href).searchParams.get('prefixes') ||
  '/api,/apis,/version,/openapi,/livez,/readyz,/healthz').split(',').filter(Boolean);
const PORT_WAIT_MS = 10000; // how long a request waits for a page to hand over a port
const STALL_MS = 3000; // no head after this long: check that the worker is alive

let port = null;
let waiters = [];
let nextId = 1;
const pending = new Map(); // id → {resolve, port, msg, controller, timer}

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));

self.addEventListener('message', (e) => {
  if (e.data && e.data.type === 'kubesandbox:port' && e.ports[0]) setPort(e.ports[0]);
});

self.addEventListener('fetch', (e) => {
  const url = new URL(e.request.url);
  if (url.origin !== self.location.origin) return;
  if (!PREFIXES.some((p) => url.pathname === p || url.pathname.startsWith(p + '/'))) return;
  e.respondWith(forward(e.request, e.clientId));
});

function setPort(p) {
  port = p;
  p.onmessage = onReply;
  for (const w of waiters.splice(0)) w(p);
}

async function getPort(clientId) {
  if (port) return port;
  const got = new Promise((resolve) => waiters.push(resolve));
  const c = clientId && await self.clients.get(clientId);
  for (const w of c ? [c] : await self.clients.matchAll({ type: 'window' })) {
    w.postMessage({ type: 'kubesandbox:need-port' });
  }
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error('no kubesandbox page handed over a worker port')), PORT_WAIT_MS);
  });
  try { return await Promise.race([got, late]); } finally { clearTimeout(timer); }
}

async function forward(request, clientId) {
  const body = request.method === 'GET' || request.method === 'HEAD' ? null : await request.arrayBuffer();
  const msg = { t: 'req', id: 0, method: request.method, url: request.url, headers: [...request.headers], body };
  for (let attempt = 0; attempt < 2; attempt++) {
    let p;
    try { p = await getPort(clientId); } catch (err) { return unavailable(err.message); }
    const res = await send(p, { ...msg, id: nextId++ }, request.signal);
    if (res !== 'dead') return res;
    if (port === p) port = null; // the worker behind it is gone: ask for a new one
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
        if (await alive(p)) return stall();
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

function onReply(e) {
  const m = e.data || {};
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
