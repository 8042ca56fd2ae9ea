// Browser runtime measurements (reported, never asserted), each against a
// baseline measured in the same run:
//
//   size        the core's wasm, and the baseline Go program's
//   start-up    page start → first /version answer, for the core and for
//               wasm/cmd/baseline (the smallest Go program behind the same
//               sandbox.js / sw.js / worker.js), first visit and revisit
//   latency     sequential GETs through page → SW → worker → Go, against a
//               service worker answering in pure JS
//   memory      Go's linear memory after 1,000 and after BENCH_SOAK requests
//   controllers a BENCH_REPLICAS (100) replica Deployment until every Pod is
//               Running, and the p99 of sequential GETs meanwhile against
//               idle (the same GET, same page, before it; target ≤ 2×)
//
// Run: make bench-browser. BENCH_ROUNDS (3), BENCH_REQUESTS (300) and
// BENCH_SOAK (20000) scale it; BENCH_STARTUP_ONLY=1 stops after start-up,
// BENCH_LATENCY_ONLY=1 measures the latency table alone
// (CHROMIUM=/usr/bin/chromium node tests/browser/bench.mjs, after make
// web-dist web-baseline static-server); BENCH_COMPARE=DIR adds a second
// build of the core (DIR holds its web-dist, e.g. the commit before a
// change) to the size, start-up and latency tables, in the same rounds.
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { repo, startStatic, launch } from './lib.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const N = Number(process.env.BENCH_REQUESTS || 300);
const SOAK = Number(process.env.BENCH_SOAK || 20000);
const REPLICAS = Number(process.env.BENCH_REPLICAS || 100);
const STARTUP_ONLY = Boolean(process.env.BENCH_STARTUP_ONLY);
const LATENCY_ONLY = Boolean(process.env.BENCH_LATENCY_ONLY);
const bin = join(repo, process.env.BIN || 'bin');
const mb = (n) => (n / 1e6).toFixed(2) + ' MB';
const ms = (n) => (n == null || Number.isNaN(n) ? '–' : n.toFixed(1) + ' ms');
const x = (a, b) => (a / b).toFixed(2) + '×';
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };
const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor(xs.length * p))];

function table(title, head, rows) {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (r) => '| ' + r.map((c, i) => String(c).padEnd(w[i])).join(' | ') + ' |';
  console.log(`\n${title}\n` + [line(head), line(w.map((n) => '-'.repeat(n))), ...rows.map(line)].join('\n'));
}

// sequential fetches of url inside page; returns sorted per-request ms.
async function latencies(page, url, n) {
  return page.evaluate(async ({ url, n }) => {
    for (let i = 0; i < 20; i++) await (await fetch(url)).text(); // warm up
    const out = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await (await fetch(url)).text();
      out.push(performance.now() - t);
    }
    return out.sort((a, b) => a - b);
  }, { url, n });
}

// one visit of the start-up probe page: times from the page's start.
async function visit(context, url) {
  const page = await context.newPage();
  await page.goto(url + '/fixtures/start.html');
  const r = await page.evaluate(() => window.started);
  await page.close();
  if (r.status !== 200) throw new Error(`${url}: /version answered ${r.status}`);
  // let the SharedWorker go (it ends when its last page closes)
  await new Promise((res) => setTimeout(res, 700));
  return r;
}

const variants = {
  baseline: { web: join(bin, 'web-baseline'), what: 'baseline (wasm/cmd/baseline)' },
  core: { web: join(bin, 'web'), what: 'kubesandbox core' },
};
if (process.env.BENCH_COMPARE) variants.compare = { web: resolve(repo, process.env.BENCH_COMPARE), what: `core from ${process.env.BENCH_COMPARE}` };

table('wasm size (Go, -trimpath -ldflags=-s -w; brotli 11 / gzip 9 via Node zlib)',
  ['program', 'raw', 'gzip', 'brotli'],
  Object.values(variants).map(({ web, what }) => {
    const f = join(web, 'kubesandbox.wasm');
    return [what, mb(statSync(f).size), mb(statSync(f + '.gz').size), mb(statSync(f + '.br').size)];
  }));

for (const v of Object.values(variants)) {
  v.server = await startStatic({ web: v.web });
  v.first = []; v.again = [];
}
try {
  // Start-up. Each round is a fresh browser profile: the first visit finds
  // nothing cached (no service worker, empty HTTP cache); the revisits find
  // the service worker and the cached wasm but start a new SharedWorker.
  // The two programs alternate so that drift in the machine hits both.
  for (let round = 0; round < (LATENCY_ONLY ? 0 : ROUNDS); round++) {
    const browser = await launch();
    try {
      const names = Object.keys(variants);
      const order = names.map((_, i) => names[(i + round) % names.length]);
      for (const name of order) {
        const v = variants[name];
        v.first.push(await visit(browser.context, v.server.url));
        for (let i = 0; i < 3; i++) v.again.push(await visit(browser.context, v.server.url));
      }
    } finally {
      await browser.close();
    }
  }
  const b = variants.baseline, c = variants.core;
  const col = (rs, f) => median(rs.map(f));
  const answered = (r) => r.answered;
  const compile = (r) => r.compileMillis;
  const goInit = (r) => (r.goMillis ? r.goMillis.init : NaN);
  const goServe = (r) => (r.goMillis ? r.goMillis.serve : NaN);
  const goDB = (r) => (r.goMillis && r.goMillis.db != null ? r.goMillis.db : NaN);
  const startRow = (label, v, rs, base) => [label, v.what, ms(col(rs, answered)), ms(col(rs, compile)), ms(col(rs, goInit)), ms(col(rs, goServe)), ms(col(rs, goDB)),
    base ? x(col(rs, answered), col(base, answered)) : '1.00×'];
  if (!LATENCY_ONLY) table(`start-up, median of ${ROUNDS} first visits / ${3 * ROUNDS} revisits (page start → first /version answer)`,
    ['visit', 'program', 'first answer', 'worker: fetch+compile', 'Go: runtime + package init', 'Go: New + restore', 'of which IndexedDB writes', '÷ baseline'],
    [
      startRow('first visit (empty profile)', b, b.first),
      startRow('first visit (empty profile)', c, c.first, b.first),
      startRow('revisit (cached, new SharedWorker)', b, b.again),
      startRow('revisit (cached, new SharedWorker)', c, c.again, b.again),
      ...(variants.compare ? [
        startRow('first visit (empty profile)', variants.compare, variants.compare.first, b.first),
        startRow('revisit (cached, new SharedWorker)', variants.compare, variants.compare.again, b.again),
      ] : []),
    ]);

  if (!STARTUP_ONLY) {
    // Latency and memory, one browser for both programs.
    const browser = await launch();
    try {
      const open = async (v) => {
        const page = await browser.context.newPage();
        await page.goto(v.server.url + '/fixtures/start.html');
        await page.evaluate(() => window.started);
        return page;
      };
      const createCM = (page) => page.evaluate(async () => {
        const r = await fetch('/api/v1/namespaces/default/configmaps', {
          method: 'POST', headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bench' }, data: { k: 'v' } }),
        });
        if (r.status !== 201 && r.status !== 409) throw new Error('create: ' + r.status);
      });
      const core = await open(c);
      const base = await open(b);
      await createCM(core);
      const cmp = variants.compare ? await open(variants.compare) : null;
      if (cmp) await createCM(cmp);
      const cmURL = '/api/v1/namespaces/default/configmaps/bench';
      const echo = await browser.context.newPage();
      await echo.goto(c.server.url + '/fixtures/echo/page.html');
      await echo.evaluate(() => window.echoReady);
      // Every path takes its turn in each of SLICES rounds (N/SLICES
      // fetches a turn), so that drift in the machine hits them all.
      const paths = [
        ['GET one ConfigMap: page → SW → SharedWorker → Go core', core, cmURL],
        ...(cmp ? [[`GET one ConfigMap: … Go core from ${process.env.BENCH_COMPARE}`, cmp, cmURL]] : []),
        ['GET /version: page → SW → SharedWorker → Go core', core, '/version'],
        ...(cmp ? [[`GET /version: … Go core from ${process.env.BENCH_COMPARE}`, cmp, '/version']] : []),
        ['GET /version: page → SW → SharedWorker → Go baseline', base, '/version'],
        ['GET /version: page → SW answering in pure JS (floor)', echo, '/fixtures/echo/version'],
        ['page → SW pass-through → loopback static server', core, '/__static/ping'],
      ].map(([name, page, url]) => ({ name, page, url, xs: [] }));
      const SLICES = 3;
      for (let i = 0; i < SLICES; i++) {
        for (const p of paths) p.xs.push(...await latencies(p.page, p.url, Math.ceil(N / SLICES)));
      }
      for (const p of paths) p.xs.sort((a, b) => a - b);
      const floor = pct(paths.find((p) => p.page === echo).xs, 0.5);
      const baseMedian = pct(paths.find((p) => p.page === base).xs, 0.5);
      const row = ({ name, xs }) => [name, ms(pct(xs, 0.5)), ms(pct(xs, 0.95)), ms(xs.reduce((a, b) => a + b, 0) / xs.length),
        x(pct(xs, 0.5), floor), x(pct(xs, 0.5), baseMedian)];
      table(`per-request latency, ${N} sequential fetches from a page (${SLICES} interleaved turns)`,
        ['path', 'median', 'p95', 'mean', 'median ÷ pure-JS SW', 'median ÷ Go baseline'],
        paths.map(row));
      if (!LATENCY_ONLY) {

      // Memory soak: GET one object SOAK times; Go's linear memory never
      // shrinks, so growth here is what a long session would keep.
      const soak = (n) => core.evaluate(async ({ n, url }) => {
        for (let i = 0; i < n; i++) {
          const r = await fetch(url);
          await r.text();
          if (r.status !== 200) throw new Error('soak: ' + r.status);
        }
        return window.sandbox.stats();
      }, { n, url: cmURL });
      const m0 = await core.evaluate(() => window.sandbox.stats());
      const m1 = await soak(Math.max(0, 1000 - m0.served));
      const m2 = await soak(Math.max(0, SOAK - m1.served));
      table('wasm memory (Go linear memory; it never shrinks)', ['after', 'memory', 'requests served', '÷ after 1,000'], [
        ['start-up + latency runs', mb(m0.memoryBytes), m0.served, x(m0.memoryBytes, m1.memoryBytes)],
        ['1,000 requests', mb(m1.memoryBytes), m1.served, '1.00×'],
        [`${SOAK.toLocaleString('en')} requests`, mb(m2.memoryBytes), m2.served, x(m2.memoryBytes, m1.memoryBytes)],
      ]);

      // The controllers at work: a Deployment of REPLICAS until every Pod is
      // Running (polled every 250 ms), while one loop GETs the ConfigMap.
      const idle = await latencies(core, cmURL, N);
      const scale = await core.evaluate(async ({ url, replicas }) => {
        const post = (path, obj) => fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(obj) });
        const ns = 'bench-' + Date.now().toString(36);
        await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
        const t0 = performance.now();
        const r = await post(`/apis/apps/v1/namespaces/${ns}/deployments`, {
          apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'bench' },
          spec: { replicas, selector: { matchLabels: { app: 'bench' } }, template: { metadata: { labels: { app: 'bench' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } } },
        });
        if (r.status !== 201) throw new Error('deployment: ' + r.status);
        let doneAt = 0;
        const deadline = t0 + 10 * 60 * 1000;
        const running = (p) => p.status && p.status.phase === 'Running';
        const poll = (async () => {
          while (!doneAt && performance.now() < deadline) {
            const l = await (await fetch(`/api/v1/namespaces/${ns}/pods?labelSelector=app%3Dbench`)).json();
            if (l.items.filter(running).length === replicas) doneAt = performance.now();
            else await new Promise((res) => setTimeout(res, 250));
          }
        })();
        const lat = [];
        const gets = (async () => {
          while (!doneAt && performance.now() < deadline) {
            const t = performance.now();
            await (await fetch(url)).text();
            lat.push(performance.now() - t);
          }
        })();
        await Promise.all([poll, gets]);
        return { ms: doneAt ? doneAt - t0 : NaN, lat: lat.sort((a, b) => a - b) };
      }, { url: cmURL, replicas: REPLICAS });
      table(`controllers: a ${REPLICAS}-replica Deployment (shared machine: other work runs beside it)`, ['measure', 'value', 'vs idle'], [
        [`create → all ${REPLICAS} Pods Running`, ms(scale.ms), ''],
        ['GET one ConfigMap, p99 idle', ms(pct(idle, 0.99)), '1.00×'],
        [`GET one ConfigMap, p99 while it scales (${scale.lat.length} GETs)`, ms(pct(scale.lat, 0.99)), x(pct(scale.lat, 0.99), pct(idle, 0.99))],
        ['GET one ConfigMap, median idle / while', `${ms(pct(idle, 0.5))} / ${ms(pct(scale.lat, 0.5))}`, x(pct(scale.lat, 0.5), pct(idle, 0.5))],
      ]);
      }
    } finally {
      await browser.close();
    }
  }
} finally {
  for (const v of Object.values(variants)) v.server?.stop();
}
