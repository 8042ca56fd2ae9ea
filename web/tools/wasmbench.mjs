// Compare builds of the core's wasm under Node, without a browser (issue #16:
// what a smaller build costs in start-up and per request). Each round runs
// every wasm once, in turn, in a fresh Node process — A, B, A, B, … — so a
// busy machine slows them alike; medians per build are printed, and each
// build's ratio to the first one.
//
//   node web/tools/wasmbench.mjs bin/web/kubesandbox.wasm /tmp/other.wasm [--rounds 5] [--requests 1000]
//
// Per process (start-up in wall-clock ms): WebAssembly.compile, Go's runtime + package init (go.run to
// the start of main), main to serving (the built-in catalogue and New), then
// requests through kubesandboxServe — the entry web/worker.js calls — each
// awaited until its answer reaches the JS sink:
// (CPU ms per request: see per below):
//   get-configmap          GET of one ConfigMap (the README's request-path figure)
//   list-pods              GET of 10 Pods (limit=10)
//   create-pod             POST of a small Pod (decode, defaults, validation, store)
//   merge-patch-configmap  JSON merge patch of the ConfigMap
//   apply-deploy           server-side apply of a Deployment, alternating replicas
// The service worker and SharedWorker hops of the browser are not included:
// they are the same JS for every build.
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const args = process.argv.slice(2);

if (args[0] === '--child') {
  await child(args[1], Number(args[2]));
} else {
  parent();
}

function parent() {
  const opt = (name, dflt) => {
    const i = args.indexOf('--' + name);
    return i >= 0 ? Number(args[i + 1]) : dflt;
  };
  const files = args.filter((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--')));
  if (files.length === 0) {
    console.error('usage: wasmbench.mjs A.wasm [B.wasm …] [--rounds N] [--requests N]');
    process.exit(2);
  }
  const rounds = opt('rounds', 5), requests = opt('requests', 1000);
  const results = files.map(() => []);
  for (let r = 0; r < rounds; r++) {
    files.forEach((f, i) => {
      const p = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', f, String(requests)], { encoding: 'utf8' });
      if (p.status !== 0) throw new Error(`${f}: ${p.stderr}`);
      results[i].push(JSON.parse(p.stdout.trim().split('\n').pop()));
    });
  }
  const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };
  const keys = Object.keys(results[0][0]);
  const med = results.map((rs) => Object.fromEntries(keys.map((k) => [k, median(rs.map((x) => x[k]))])));
  console.log(`${rounds} rounds, ${requests} requests of each kind per round; medians (ms), ratio to the first build`);
  console.log(`| measure | ${files.join(' | ')} |`);
  console.log(`| --- |${files.map(() => ' ---: |').join('')}`);
  for (const k of keys) {
    const cells = med.map((m) => {
      const v = m[k] < 1 ? m[k].toFixed(3) : m[k].toFixed(1);
      return m === med[0] ? v : `${v} (${(m[k] / med[0][k]).toFixed(2)}×)`;
    });
    console.log(`| ${k} | ${cells.join(' | ')} |`);
  }
}

async function child(file, requests) {
  const goroot = spawnSync('go', ['env', 'GOROOT'], { encoding: 'utf8' }).stdout.trim();
  await import(pathToFileURL(goroot + '/lib/wasm/wasm_exec.js'));
  const bytes = readFileSync(file);
  const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e3; };
  const t0 = performance.now(), c0 = cpu();
  const mod = await WebAssembly.compile(bytes);
  const compiled = performance.now(), c1 = cpu();
  const go = new globalThis.Go();
  const instance = await WebAssembly.instantiate(mod, go.importObject);
  const ready = new Promise((resolve, reject) => {
    globalThis.kubesandboxReady = (failure) => (failure ? reject(new Error(failure)) : resolve());
  });
  const runAt = performance.now(), c2 = cpu();
  go.run(instance);
  await ready;
  // the worker opens a sandbox (wasm/host.go); requests without a
  // Kubesandbox-Sandbox header go to the default one ('')
  await new Promise((resolve, reject) => globalThis.kubesandboxControl('open', JSON.stringify({ sandbox: '' }), (e) => (e ? reject(new Error(e)) : resolve())));
  const c3 = cpu();
  const tm = globalThis.kubesandboxTimings;

  let nextId = 1;
  const request = (method, url, body, ct) => new Promise((resolve, reject) => {
    const headers = ct ? [['Content-Type', ct]] : [];
    const sink = (kind, status, _h, b) => {
      if (kind === 'head') resolve(status);
      else if (kind === 'end' && status) reject(new Error(status));
    };
    const err = globalThis.kubesandboxServe(nextId++, method, 'http://sandbox' + url,
      headers, body == null ? null : new TextEncoder().encode(body), sink);
    if (err) reject(new Error(err));
  });
  const must = async (want, ...a) => {
    const got = await request(...a);
    if (got !== want) throw new Error(`${a[0]} ${a[1]}: ${got}, want ${want}`);
  };
  // per: CPU time of this process per request (user + system, ms) — on a
  // shared machine wall time measures the neighbours too. Go on js/wasm is
  // single-threaded; V8's GC and compiler threads are counted as well.
  const per = async (fn) => {
    const start = process.cpuUsage();
    for (let i = 0; i < requests; i++) await fn(i);
    const d = process.cpuUsage(start);
    return (d.user + d.system) / 1e3 / requests;
  };

  const ns = '/api/v1/namespaces/default';
  const deploys = '/apis/apps/v1/namespaces/default/deployments';
  const json = 'application/json';
  const apply = 'application/apply-patch+yaml';
  const merge = 'application/merge-patch+json';
  const pod = (name) => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: 'web' } },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }] } });
  const deploy = (n) => JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
    spec: { replicas: n, selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } } } });
  await must(201, 'POST', ns + '/configmaps', JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: 'b' } }), json);
  await must(201, 'PATCH', deploys + '/web?fieldManager=bench', deploy(1), apply);
  const kinds = {
    'get-configmap': () => must(200, 'GET', ns + '/configmaps/cm'),
    'list-pods': () => must(200, 'GET', ns + '/pods?limit=10'),
    'create-pod': (i) => must(201, 'POST', ns + '/pods', pod('p' + i), json),
    'merge-patch-configmap': (i) => must(200, 'PATCH', ns + '/configmaps/cm', `{"data":{"n":"${i}"}}`, merge),
    'apply-deploy': (i) => must(200, 'PATCH', deploys + '/web?fieldManager=bench', deploy(i % 5 + 1), apply),
  };
  // Warm-up, every kind first: V8 recompiles hot code in the background
  // (TurboFan), CPU that would otherwise be charged to the first kind.
  let seq = 0;
  for (let i = 0; i < requests / 2; i++) {
    for (const fn of Object.values(kinds)) await fn(seq++);
  }
  const out = {
    'compile (wall)': compiled - t0,
    'compile (CPU)': c1 - c0,
    'runtime + package init (wall)': tm.main - runAt,
    'main → serving (wall)': tm.serving - tm.main,
    'go.run → serving (CPU)': c3 - c2,
  };
  for (const [name, fn] of Object.entries(kinds)) out[name] = await per(() => fn(seq++));
  console.log(JSON.stringify(out));
  process.exit(0);
}
