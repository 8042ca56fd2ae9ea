// Package init of a Go wasm under Node, per package (GODEBUG=inittrace=1),
// the median of several fresh processes, largest first (issue #16).
//
//   node web/tools/inittrace.mjs bin/web/kubesandbox.wasm [--runs 3] [--top 25] [--warm]
//
// Each run: a new Node process compiles the module and runs one Go instance
// until its main calls kubesandboxReady (or exits); stdout/stderr lines of
// the form "init PKG @T ms, C ms clock, B bytes, A allocs" are collected.
// Printed: a markdown table of the `--top` packages by their minimum clock
// time over the runs (load only adds time), with median and each run, then
// the sum over all packages. Under wasm Go runs on one thread, so the
// clock time is the CPU this package's init took (plus any GC it started).
//
// Example (2026-11-26, main before wasm/smdlazy, 5 runs, load ≈ 13):
//   | sigs.k8s.io/structured-merge-diff/v4/typed | 162.0 | 220.0 | 220.0 / 262.0 / 162.0 / 504.0 / 169.0 |
//   | all 135 packages | 486.3 | 751.9 | … |
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
if (args[0] === '--child') await child(args[1], args[2] === 'warm');
else parent();

function parent() {
  const opt = (name, dflt) => {
    const i = args.indexOf('--' + name);
    return i >= 0 ? Number(args[i + 1]) : dflt;
  };
  const file = args.find((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--')));
  const runs = opt('runs', 3), top = opt('top', 25);
  const per = new Map(); // package → [ms per run]
  const totals = [];
  for (let r = 0; r < runs; r++) {
    const p = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', file, args.includes('--warm') ? 'warm' : 'cold'], { encoding: 'utf8' });
    if (p.status !== 0) throw new Error(`${file}: ${p.stderr}`);
    let total = 0;
    for (const line of (p.stdout + p.stderr).split('\n')) {
      const m = /^init (\S+) @[\d.]+ ms, ([\d.]+) ms clock/.exec(line);
      if (!m) continue;
      const ms = Number(m[2]);
      total += ms;
      if (!per.has(m[1])) per.set(m[1], []);
      per.get(m[1]).push(ms);
    }
    totals.push(total);
  }
  const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };
  // a loaded machine only adds time: the minimum is the steadiest figure
  const min = (xs) => Math.min(...xs);
  const rows = [...per].map(([pkg, xs]) => [pkg, min(xs), median(xs), xs]).sort((a, b) => b[1] - a[1]);
  console.log(`${file}: package init under Node${args.includes('--warm') ? ' (second instance)' : ''}, ${runs} runs (ms clock: minimum, median, each run)`);
  console.log('| package | min | median | runs |');
  console.log('| --- | ---: | ---: | --- |');
  const f = (x) => x.toFixed(1);
  for (const [pkg, lo, med, xs] of rows.slice(0, top)) console.log(`| ${pkg} | ${f(lo)} | ${f(med)} | ${xs.map(f).join(' / ')} |`);
  console.log(`| all ${rows.length} packages | ${f(min(totals))} | ${f(median(totals))} | ${totals.map(f).join(' / ')} |`);
}

async function child(file, warm) {
  const goroot = spawnSync('go', ['env', 'GOROOT'], { encoding: 'utf8' }).stdout.trim();
  await import(pathToFileURL(goroot + '/lib/wasm/wasm_exec.js'));
  const mod = await WebAssembly.compile(readFileSync(file));
  // the IndexedDB interface of web/worker-db.js, empty (a first visit)
  globalThis.kubesandboxDBFor = () => ({
    async load() { return { snapshot: null, revs: [], records: [] }; },
    async write() {},
    async clear() {},
  });
  globalThis.kubesandboxOptions = { nodes: 0 };
  const run = async (env) => {
    const go = new globalThis.Go();
    go.env = env;
    const instance = await WebAssembly.instantiate(mod, go.importObject);
    const ready = new Promise((resolve) => { globalThis.kubesandboxReady = resolve; });
    const exited = go.run(instance);
    await Promise.race([ready, exited]);
  };
  if (warm) await run({});
  await run({ GODEBUG: 'inittrace=1' });
  process.exit(0);
}
