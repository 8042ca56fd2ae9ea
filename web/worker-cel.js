// kubesandbox worker: the CEL engine, two wasm programs, each loaded on
// the core's first call to it (wasm/cel.go). web/worker.js loads this file
// with importScripts (a classic worker):
//
//   importScripts('worker-cel.js');
//   const cel = kubesandboxWorkerCEL({ base: self.location.href, busy: (on) => …, countBytes });
//   cel.stats() → {state, millis, …, loads, parts: {crd, policy}}   (a page's stats message)
//   cel.setURL('/missing.wasm')   (tests: every part loads from there; null: from base again)
//
// busy(on) is told when this thread is held by synchronous work (a part's
// start-up, a call), base is the folder URL the parts are fetched from,
// countBytes(resp, report) worker.js's byte counter (a part's download stats).
//
// The engine of CRD validation rules and ValidatingAdmissionPolicies is Go
// of its own (cel/cmd/wasm), in two parts: cel-crd.wasm (CheckCRD,
// ValidateCustomResource) and cel-policy.wasm (CheckPolicy, Admit, TypeCheck), each
// run as a Go instance of its own in this worker the first time the core
// calls one of its methods — a sandbox without rules or policies never
// downloads either, one with CRD rules alone never the policy half. The
// core calls kubesandboxLoadCEL(method) and waits for the promise on a
// goroutine; then it calls kubesandboxCEL(method, request) synchronously
// (kubesandboxCELLoaded(method) tells whether that part runs). A failed
// load rejects (the core's call fails with an InternalError) and the next
// call loads again. Pages see the loads in stats: cel {state:
// absent|loading|ready|failed, millis (fetch + compile + instantiate + Go
// init), compileMillis, loaded, total, error, phases, firstCallMillis} of
// the part loaded last, loads (of both), and parts {crd, policy} each with
// those fields.
'use strict';

function kubesandboxWorkerCEL({ base = self.location.href, busy = () => {}, countBytes } = {}) {
  const CEL_PARTS = {
    crd: { file: 'cel-crd.wasm', methods: ['CheckCRD', 'ValidateCustomResource'] },
    policy: { file: 'cel-policy.wasm', methods: ['CheckPolicy', 'Admit', 'TypeCheck'] },
  };
  let celURL = null; // tests (setURL): every part loads from here (a failing load)
  const cel = {}; // part → {loading: the load in progress or done (null: not loaded, or failed), call, stats}
  for (const name of Object.keys(CEL_PARTS)) {
    // phases: ms since the load began, at each step (performance marks
    // 'cel:…'): fetch (response headers), download (last byte), compile
    // (instantiated), main (Go's package init done), warm (the CEL
    // environment built), ready. firstCallMillis: the first call after it.
    cel[name] = { loading: null, call: null, stats: { state: 'absent', millis: 0, compileMillis: 0, loaded: 0, total: 0, loads: 0, error: null, phases: {}, firstCallMillis: null } };
  }
  let celLast = 'crd'; // the part whose load began last (stats().cel's own fields)
  let celQueue = Promise.resolve(); // loads run one after the other

  // celPart names the part serving method (an unknown method: the CRD part,
  // whose dispatcher answers it as unknown).
  function celPart(method) {
    return CEL_PARTS.policy.methods.includes(String(method)) ? 'policy' : 'crd';
  }

  function celStatsMessage() {
    const parts = {};
    let loads = 0;
    for (const [name, p] of Object.entries(cel)) { parts[name] = { ...p.stats }; loads += p.stats.loads; }
    return { ...cel[celLast].stats, loads, parts };
  }

  self.kubesandboxCELLoaded = (method) => !!cel[celPart(method)].call;

  self.kubesandboxLoadCEL = (method) => {
    const name = celPart(method);
    const p = cel[name];
    if (!p.loading) {
      p.loading = loadCEL(name).catch((e) => {
        p.loading = null;
        p.stats.state = 'failed';
        p.stats.error = String(e && e.message || e);
        throw e;
      });
    }
    return p.loading;
  };

  self.kubesandboxCEL = (method, request) => {
    const name = celPart(method);
    const p = cel[name];
    if (!p.call) throw new Error(`cel: ${CEL_PARTS[name].file} is not running`);
    busy(true);
    const t = performance.now();
    try { return p.call(method, request); } finally {
      if (p.stats.firstCallMillis === null) p.stats.firstCallMillis = performance.now() - t;
      busy(false);
    }
  };

  // loadCEL loads one part after any load in progress (each start-up
  // holds this thread anyway, and sets the globals its Go calls back).
  function loadCEL(name) {
    const run = celQueue.then(async () => {
      const st = cel[name].stats;
      const t0 = performance.now();
      celLast = name;
      Object.assign(st, { state: 'loading', loaded: 0, total: 0, error: null, phases: {}, firstCallMillis: null });
      st.loads++;
      // Compiling and instantiating the wasm and Go's start-up of it (the
      // k8s.io packages' init, then the CEL environment) hold this thread for
      // seconds, as can a call: the service worker must not take the silence
      // for a dead worker (and retry a write in progress).
      busy(true);
      try {
        await startCEL(name, t0);
      } finally {
        busy(false);
      }
    });
    celQueue = run.catch(() => {});
    return run;
  }

  async function startCEL(name, t0) {
    const p = cel[name];
    const st = p.stats;
    const mark = (step) => { st.phases[step] = performance.now() - t0; performance.mark(`cel-${name}:${step}`); };
    const url = celURL || new URL(CEL_PARTS[name].file, base).href;
    performance.mark(`cel-${name}:start`);
    const resp = await fetch(url);
    if (!resp.ok) throw new Error(`fetching ${url}: HTTP ${resp.status}`);
    mark('fetch');
    const go = new self.Go();
    // The response goes to the compiler as fetched: its URL (and the service
    // worker's Cache Storage behind it) is what Chromium keys its compiled-code
    // cache on, so a revisit skips most of the compile. A Response rebuilt
    // around a counting stream has no URL: every load compiled
    // from scratch. The bytes are counted on a clone instead.
    countBytes(resp.clone(), (loaded, total) => {
      Object.assign(st, { loaded, total });
      mark('download');
    });
    const { instance } = await WebAssembly.instantiateStreaming(resp, go.importObject);
    mark('compile');
    st.compileMillis = performance.now() - t0;
    // cel/cmd/wasm calls these: Go's package init is done (main runs), the
    // CEL environment is built (warm), then ready(call) with its function
    let call = null;
    const ready = new Promise((resolve) => { self.kubesandboxCELReady = (fn) => { call = fn; resolve(); }; });
    self.kubesandboxCELMark = (step) => mark(String(step));
    const exited = go.run(instance).then(() => {
      // it ended (a fatal error): the next call loads it again
      p.call = null;
      p.loading = null;
      st.state = 'failed';
      st.error = `${CEL_PARTS[name].file} exited`;
      throw new Error(`${CEL_PARTS[name].file} exited before it was ready`);
    });
    exited.catch(() => {});
    await Promise.race([ready, exited]);
    if (typeof call !== 'function') throw new Error(`${CEL_PARTS[name].file} offered no function`);
    mark('ready');
    p.call = call;
    st.millis = performance.now() - t0;
    st.state = 'ready';
  }


  return {
    stats: celStatsMessage,
    /** setURL makes every part load from url (tests: a failing load); null: each from its own file again. */
    setURL(url) { celURL = url ? new URL(url, base).href : null; },
  };
}
