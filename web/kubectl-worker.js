// kubesandbox kubectl worker: runs the real kubectl (kubectl.wasm, built
// from kubectl/cmd/wasm) in a dedicated Worker, so the page stays
// responsive and a command that never ends (`get -w`) can be stopped by
// terminating the worker. One Go instance serves every command; its
// in-memory filesystem (kubectl-fs.js) keeps the discovery cache between
// commands. web/kubectl.js starts it on first use.
//
// Its requests are fetch()es to the page's origin (the kubeconfig's server
// is the sandbox's base URL), which the service worker answers with the
// in-browser core, as it does the page's own.
//
// Messages (page ↔ worker):
//   → {t:'module', module}                 kubectl.wasm compiled by an earlier worker (first, if any)
//   → {t:'load'}                           start the instance before a command (preload)
//   → {t:'run', id, args: [...], stdin, files: {name: text}, server}
//   ← {t:'module', module}                 kubectl.wasm compiled, for the page to keep
//   ← {t:'out', id, fd: 1|2, text}        as kubectl writes (a -w streams)
//   ← {t:'done', id, code, stdout, stderr, millis, memoryBytes, requests: [path…],
//      phases: {response, compiled, instantiated, initialized}, sinceLoad: the first call after a load}
//   ← {t:'loaded', millis, memoryBytes, phases} once the instance is up; {t:'failed', error}
'use strict';

importScripts('kubectl-fs.js', 'wasm_exec.js');

const kfs = kubesandboxKubectlFS({ home: '/home/user' });
const WASM_URL = new URL('kubectl.wasm', self.location.href).href;
let instanceReady = null; // Promise: Go running and kubesandboxKubectl installed
let exited = null; // {code} once the Go program exited (os.Exit inside kubectl)
let onExit = null; // the running call's hook for that
let memory = null;
let givenModule = null; // kubectl.wasm compiled (by an earlier worker of the page, or this one)
let chain = Promise.resolve(); // calls run one at a time
// measured (tests/browser/bench-kubectl.mjs reports them): the load's
// phases, ms since it began — response (headers of kubectl.wasm), compiled,
// instantiated, initialized (Go's runtime and package inits done) — and
// each call's requests (kubectl's fetch()es: discovery, OpenAPI, the API)
let phases = {};
let requests = [];
const realFetch = self.fetch.bind(self);
self.fetch = (input, init) => {
  requests.push(new URL(typeof input === 'string' ? input : input.url, self.location.href).pathname);
  return realFetch(input, init);
};

let loadT0 = 0; // when the load began
let phasesSent = false;

function load() {
  const t0 = performance.now();
  loadT0 = t0;
  phases = {};
  phasesSent = false;
  instanceReady = (async () => {
    const go = new self.Go();
    go.argv = ['kubectl'];
    go.env = { HOME: kfs.home, KUBECONFIG: kfs.home + '/.kube/config', TERM: 'dumb' };
    // capture the exit code: wasm_exec.js drops it
    const wasmExit = go.importObject.gojs['runtime.wasmExit'];
    go.importObject.gojs['runtime.wasmExit'] = (sp) => {
      const code = go.mem.getInt32((sp >>> 0) + 8, true);
      exited = { code };
      wasmExit(sp);
    };
    let module = givenModule;
    if (!module) {
      const res = await fetch(WASM_URL);
      if (!res.ok) throw new Error(`fetching ${WASM_URL}: HTTP ${res.status}`);
      phases.response = performance.now() - t0;
      module = await WebAssembly.compileStreaming(res);
      givenModule = module; // an instance that exits (os.Exit) restarts from it
      self.postMessage({ t: 'module', module }); // the page keeps it for the next worker
    } else {
      phases.response = 0;
    }
    phases.compiled = performance.now() - t0;
    const instance = await WebAssembly.instantiate(module, go.importObject);
    phases.instantiated = performance.now() - t0;
    memory = instance.exports.mem;
    exited = null;
    go.run(instance).then(() => {
      instanceReady = null; // the next call starts a new instance
      if (onExit) onExit(exited ? exited.code : 1);
    });
    // go.run returns once main blocks (select{}): the runtime and every
    // package's init have run
    phases.initialized = performance.now() - t0;
    if (typeof self.kubesandboxKubectl !== 'function') throw new Error('kubectl.wasm did not start');
    self.postMessage({ t: 'loaded', millis: performance.now() - t0, memoryBytes: memory.buffer.byteLength, phases });
  })();
  instanceReady.catch((err) => {
    instanceReady = null;
    self.postMessage({ t: 'failed', error: String(err && err.message || err) });
  });
  return instanceReady;
}

async function run(m) {
  const t0 = performance.now();
  const dec = { 1: new TextDecoder(), 2: new TextDecoder() };
  const text = { 1: '', 2: '' };
  requests = [];
  kfs.begin({
    stdin: m.stdin || '',
    files: m.files || {},
    output: (fd, bytes) => {
      const s = dec[fd === 2 ? 2 : 1].decode(bytes, { stream: true });
      if (!s) return;
      text[fd === 2 ? 2 : 1] += s;
      self.postMessage({ t: 'out', id: m.id, fd: fd === 2 ? 2 : 1, text: s });
    },
  });
  let code;
  try {
    await (instanceReady || load());
    code = await new Promise((resolve) => {
      onExit = resolve; // kubectl called os.Exit: the instance is gone
      self.kubesandboxKubectl(m.args.map(String), String(m.server)).then(resolve);
    });
  } catch (err) {
    text[2] += `error: kubectl could not start: ${err && err.message || err}\n`;
    code = 1;
  } finally {
    onExit = null;
  }
  self.postMessage({
    t: 'done', id: m.id, code, stdout: text[1], stderr: text[2], millis: performance.now() - t0,
    memoryBytes: memory ? memory.buffer.byteLength : 0, requests,
    // the load's phases, with the first call after it (sinceLoad: when
    // that call arrived, ms after the load began)
    ...(phasesSent ? {} : { phases, sinceLoad: t0 - loadT0 }),
  });
  phasesSent = true;
}

self.onmessage = (e) => {
  const m = e.data || {};
  if (m.t === 'module') givenModule = m.module;
  else if (m.t === 'run') chain = chain.then(() => run(m));
  else if (m.t === 'load') (instanceReady || load()).catch(() => {});
};
