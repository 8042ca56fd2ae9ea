// Start-up of the core's wasm under Node, first visit and revisit, against
// the baseline Go program (wasm/cmd/baseline) in the same run (issue #16).
// Each round runs every build once, in turn, in a fresh Node process, so a
// busy machine slows them alike; medians are printed, with each build's
// ratio to the first one (give the baseline first).
//
//   node web/tools/startbench.mjs bin/web-baseline/kubesandbox.wasm bin/web/kubesandbox.wasm [--rounds 5] [--objects 200] [--copies 10000]
//
// Per process: WebAssembly.compile once, then
//   first visit  a Go instance over an empty in-memory kubesandboxDB (the
//                IndexedDB interface of web/worker-db.js): go.run → ready and
//                the first answer (GET /version), wall and CPU;
//   (then `--objects` ConfigMaps are created and the instance shut down;
//   with `--copies N`, N more are stored without the API: one is created
//   and the saved state replaced by a snapshot holding N copies of it,
//   tests/browser/fixtures/snapshot-copies.mjs, as make bench-scale does)
//   revisit      a second instance over the same DB (it restores them):
//                go.run → ready → GET /version, wall and CPU, and the CPU of
//                the first write after it (where a lazily loaded catalogue
//                is paid).
// The baseline has no DB and no writes: both of its instances are the same.
// Compile is the same for both visits here (Node has no code cache).
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
if (args[0] === '--child') await child(args[1], Number(args[2]), Number(args[3] || 0));
else parent();

function parent() {
  const opt = (name, dflt) => {
    const i = args.indexOf('--' + name);
    return i >= 0 ? Number(args[i + 1]) : dflt;
  };
  const files = args.filter((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--')));
  const rounds = opt('rounds', 5), objects = opt('objects', 200), copies = opt('copies', 0);
  const results = files.map(() => []);
  for (let r = 0; r < rounds; r++) {
    files.forEach((f, i) => {
      const p = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', f, String(objects), String(copies)], { encoding: 'utf8', maxBuffer: 1 << 26 });
      if (p.status !== 0) throw new Error(`${f}: ${p.stderr}`);
      results[i].push(JSON.parse(p.stdout.trim().split('\n').pop()));
    });
  }
  const median = (xs) => { const s = xs.filter((x) => x != null).sort((a, b) => a - b); return s.length ? s[s.length >> 1] : null; };
  const keys = Object.keys(results[results.length - 1][0]);
  const med = results.map((rs) => Object.fromEntries(keys.map((k) => [k, median(rs.map((x) => x[k]))])));
  console.log(`${rounds} rounds, ${objects + copies} objects restored${copies ? ` (${copies} of them copies)` : ''}; medians (ms), ratio to the first build`);
  console.log(`| measure | ${files.join(' | ')} |`);
  console.log(`| --- |${files.map(() => ' ---: |').join('')}`);
  for (const k of keys) {
    const cells = med.map((m) => {
      if (m[k] == null) return '–';
      const v = m[k].toFixed(1);
      return m === med[0] || med[0][k] == null ? v : `${v} (${(m[k] / med[0][k]).toFixed(2)}×)`;
    });
    console.log(`| ${k} | ${cells.join(' | ')} |`);
  }
}

async function child(file, objects, copies) {
  const { withCopies } = await import('../../tests/browser/fixtures/snapshot-copies.mjs');
  const goroot = spawnSync('go', ['env', 'GOROOT'], { encoding: 'utf8' }).stdout.trim();
  await import(pathToFileURL(goroot + '/lib/wasm/wasm_exec.js'));
  const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e3; };
  const t0 = performance.now(), c0 = cpu();
  const mod = await WebAssembly.compile(readFileSync(file));
  const out = { 'compile (wall)': performance.now() - t0, 'compile (CPU)': cpu() - c0 };

  // the IndexedDB interface of web/worker-db.js, in memory
  const db = { log: new Map(), snapshot: null };
  const idb = {
    async load() {
      const revs = [...db.log.keys()].sort((a, b) => a - b);
      return { snapshot: db.snapshot && db.snapshot.data, revs, records: revs.map((r) => db.log.get(r)) };
    },
    async write(revs, records, snapshot, snapRev) {
      revs.forEach((r, i) => db.log.set(r, records[i].slice()));
      if (snapshot) {
        db.snapshot = { rev: snapRev, data: snapshot.slice() };
        for (const r of [...db.log.keys()]) if (r <= snapRev) db.log.delete(r);
      }
    },
    async clear() { db.log.clear(); db.snapshot = null; },
  };
  globalThis.kubesandboxDBFor = () => idb;
  globalThis.kubesandboxOptions = { nodes: 0 };
  let nextId = 1;
  const request = (method, url, body) => new Promise((resolve, reject) => {
    const sink = (kind, status) => {
      if (kind === 'head') resolve(status);
      else if (kind === 'end' && status) reject(new Error(status));
    };
    const err = globalThis.kubesandboxServe(nextId++, method, 'http://sandbox' + url,
      body ? [['Content-Type', 'application/json']] : [], body ? new TextEncoder().encode(body) : null, sink);
    if (err) reject(new Error(err));
  });
  const cm = (name) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'bench' } }, data: { a: 'x'.repeat(500) } });

  const start = async (label) => {
    const go = new globalThis.Go();
    const instance = await WebAssembly.instantiate(mod, go.importObject);
    const ready = new Promise((resolve, reject) => {
      globalThis.kubesandboxReady = (failure) => (failure ? reject(new Error(failure)) : resolve());
    });
    const w0 = performance.now(), k0 = cpu();
    const exited = go.run(instance);
    await ready;
    const m0 = performance.now();
    await new Promise((resolve, reject) => globalThis.kubesandboxControl('open', JSON.stringify({ sandbox: '' }), (e) => (e ? reject(new Error(e)) : resolve())));
    const opened = performance.now() - m0;
    const status = await request('GET', '/version');
    if (status !== 200) throw new Error(`GET /version: ${status}`);
    out[`${label}: go.run → first answer (wall)`] = performance.now() - w0;
    out[`${label}: go.run → first answer (CPU)`] = cpu() - k0;
    const tm = globalThis.kubesandboxTimings;
    if (tm) out[`${label}: of which main → serving (wall)`] = tm.serving - tm.main + opened;
    return { exited }; // not the promise itself: an async function would wait for it
  };
  const isCore = !file.includes('baseline');
  let { exited } = await start('first visit');
  if (isCore) {
    for (let i = 0; i < objects; i++) {
      const s = await request('POST', '/api/v1/namespaces/default/configmaps', cm('cm-' + i));
      if (s !== 201) throw new Error(`create: ${s}`);
    }
  }
  if (isCore && copies) {
    const s = await request('POST', '/api/v1/namespaces/default/configmaps', cm('cm-template'));
    if (s !== 201) throw new Error(`create: ${s}`);
  }
  await new Promise((resolve) => globalThis.kubesandboxControl('shutdown', '', resolve));
  await exited;
  if (isCore && copies) {
    const revs = [...db.log.keys()].sort((a, b) => a - b);
    const { snapshot, rev } = withCopies(db.snapshot && db.snapshot.data, revs.map((r) => db.log.get(r)), copies);
    db.log.clear();
    db.snapshot = { rev, data: snapshot };
  }
  ({ exited } = await start('revisit'));
  if (isCore) {
    const k0 = cpu();
    const s = await request('POST', '/api/v1/namespaces/default/configmaps', cm('after'));
    if (s !== 201) throw new Error(`create after revisit: ${s}`);
    out['revisit: first write after (CPU)'] = cpu() - k0;
  }
  console.log(JSON.stringify(out));
  process.exit(0);
}
