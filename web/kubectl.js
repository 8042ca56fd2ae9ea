// kubesandbox kubectl, page side (ES module): the real kubectl, compiled
// to WebAssembly, in a dedicated Worker (kubectl-worker.js). sandbox.js
// imports this module the first time a page calls ks.kubectl(), so a page
// that never does pays nothing for it.
//
//   const k = createKubectl({ server: location.origin + '/sandbox/ex1' });
//   const { stdout, stderr, code } = await k.run(['get', 'pods', '-o', 'name']);
//   await k.run(['apply', '-f', 'cm.yaml'], { files: { 'cm.yaml': text } });
//   await k.run(['apply', '-f', '-'], { stdin: text });
//   const ctl = new AbortController();
//   k.run(['get', 'pods', '-w'], { signal: ctl.signal, onOutput: (fd, text) => … });
//   ctl.abort(); // Ctrl+C: resolves {code: 130} (a shell's SIGINT exit)
//
// Commands run one after the other in one Go instance (kubectl keeps state
// in globals). Stopping a command terminates the worker with every command
// queued behind it (they resolve with code 130 too); the next command
// starts a new instance from the Module compiled before (no fetch, no
// compile: Go's init only) and does discovery again.

const here = new URL('.', import.meta.url);

// modules: kubectl.wasm compiled, by worker URL, kept for the page's life:
// a worker started after a stop (Ctrl+C), or for another sandbox, is handed
// the Module and instantiates it without fetching or compiling again.
const modules = new Map();

export function createKubectl({ server, workerUrl = new URL('kubectl-worker.js', here).href } = {}) {
  let worker = null;
  let nextId = 1;
  const calls = new Map(); // id → {resolve, onOutput, stdout, stderr}
  const info = { loadMillis: null, memoryBytes: 0, instances: 0, commands: 0 };
  let loaded = null; // {promise, resolve}: the current instance is up (or failed)

  function start() {
    if (worker) return worker;
    worker = new Worker(workerUrl, { name: 'kubesandbox-kubectl' });
    info.instances++;
    let resolveLoaded;
    loaded = { promise: new Promise((r) => { resolveLoaded = r; }) };
    loaded.resolve = resolveLoaded;
    if (modules.has(workerUrl)) worker.postMessage({ t: 'module', module: modules.get(workerUrl) });
    worker.onmessage = (e) => {
      const m = e.data || {};
      if (m.t === 'module') { modules.set(workerUrl, m.module); return; }
      if (m.t === 'loaded' || m.t === 'failed') {
        if (m.t === 'loaded') Object.assign(info, { loadMillis: m.millis, memoryBytes: m.memoryBytes, phases: m.phases });
        loaded.resolve(m.t === 'loaded');
        return;
      }
      const c = calls.get(m.id);
      if (!c) return;
      if (m.t === 'out') {
        c[m.fd === 2 ? 'stderr' : 'stdout'] += m.text;
        if (c.onOutput) c.onOutput(m.fd, m.text);
      } else if (m.t === 'done') {
        calls.delete(m.id);
        info.memoryBytes = m.memoryBytes || info.memoryBytes;
        c.resolve({ stdout: m.stdout, stderr: m.stderr, code: m.code, millis: m.millis, memoryBytes: m.memoryBytes, requests: m.requests, phases: m.phases, sinceLoad: m.sinceLoad });
      }
    };
    worker.onerror = (e) => { loaded.resolve(false); stop(1, `error: the kubectl worker failed: ${e.message || workerUrl}\n`); };
    return worker;
  }

  /** stop ends the running command (and those queued behind it) the way
   *  Ctrl+C ends kubectl: each resolves with what it printed so far and
   *  code (130 = killed by SIGINT, as a shell reports it). */
  function stop(code = 130, message = '') {
    if (worker) worker.terminate();
    if (loaded) loaded.resolve(false);
    worker = null;
    for (const [id, c] of calls) {
      calls.delete(id);
      c.resolve({ stdout: c.stdout, stderr: c.stderr + message, code });
    }
  }

  /**
   * run runs `kubectl …args` and resolves to {stdout, stderr, code}:
   * code is what the kubectl process would exit with (also millis: the
   * command's time in the worker, incl. the first one's start, and
   * memoryBytes: the instance's wasm memory). stdin: text for
   * `-f -`; files: {name: text} for `-f name` (relative to the home
   * directory); onOutput(fd, text) sees the output as it is written;
   * signal: aborting it stops the command (see stop).
   */
  function run(args, { stdin = '', files = {}, onOutput, signal } = {}) {
    if (!Array.isArray(args)) return Promise.reject(new TypeError('kubectl: args must be an array of strings'));
    if (signal && signal.aborted) return Promise.resolve({ stdout: '', stderr: '', code: 130 });
    const id = nextId++;
    info.commands++;
    const got = new Promise((resolve) => calls.set(id, { resolve, onOutput, stdout: '', stderr: '' }));
    start().postMessage({ t: 'run', id, args: args.map(String), stdin: String(stdin), files, server });
    if (signal) signal.addEventListener('abort', () => { if (calls.has(id)) stop(); }, { once: true });
    return got;
  }

  /** preload starts the instance (download, compile, Go's init) before
   *  the first command, e.g. when a terminal is shown; it resolves to
   *  whether the instance came up. */
  function preload() {
    start().postMessage({ t: 'load' });
    return loaded.promise;
  }

  return { run, stop, preload, info, get worker() { return worker; } };
}
