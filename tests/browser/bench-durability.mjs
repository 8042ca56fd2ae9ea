// Cost of durability per write (reported, not asserted): sequential and
// concurrent ConfigMap creates with the core in memory only, and written
// through to IndexedDB with 'relaxed' and 'strict' transaction durability.
// Run: make web-dist static-server && node tests/browser/bench-durability.mjs
import { startStatic, launch } from './lib.mjs';

const N = Number(process.env.BENCH_WRITES || 200);
const ms = (n) => n.toFixed(2) + ' ms';
const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor(xs.length * p))];

const server = await startStatic();
const rows = [];
try {
  for (const mode of ['memory', 'relaxed', 'strict']) {
    const browser = await launch();
    try {
      const page = await browser.context.newPage();
      await page.goto(server.url + '/fixtures/durable.html?worker=durability%3D' + mode);
      await page.waitForFunction(() => window.sandbox);
      await page.evaluate(() => window.sandbox.ready);
      const r = await page.evaluate(async (n) => {
        const post = (name) => fetch('/api/v1/namespaces/default/configmaps', {
          method: 'POST', headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'x'.repeat(200) } }),
        }).then((r) => r.status);
        for (let i = 0; i < 20; i++) await post('warm-' + i);
        const seq = [];
        for (let i = 0; i < n; i++) {
          const t = performance.now();
          await post('seq-' + i);
          seq.push(performance.now() - t);
        }
        seq.sort((a, b) => a - b);
        const before = (await window.sandbox.stats()).db;
        const t0 = performance.now();
        for (let b = 0; b < n / 20; b++) await Promise.all(Array.from({ length: 20 }, (_, i) => post(`par-${b}-${i}`)));
        const parMillis = performance.now() - t0;
        const after = (await window.sandbox.stats()).db;
        return { seq, parMillis, before, after };
      }, N);
      const tx = r.after ? r.after.writes - r.before.writes : 0;
      const recs = r.after ? r.after.records - r.before.records : 0;
      rows.push([mode, ms(pct(r.seq, 0.5)), ms(pct(r.seq, 0.95)), ms(r.parMillis / N),
        tx ? `${recs} in ${tx} tx (${(recs / tx).toFixed(1)}/tx)` : '-',
        tx ? ms(r.after.millis / r.after.writes) : '-']);
    } finally {
      await browser.close();
    }
  }
} finally {
  server.stop();
}
const head = ['store', 'sequential median', 'sequential p95', 'concurrent (20 at a time), per write', 'IndexedDB grouping', 'mean IndexedDB tx'];
const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
const line = (r) => '| ' + r.map((c, i) => String(c).padEnd(w[i])).join(' | ') + ' |';
console.log(`\nConfigMap create, ${N} sequential then ${N} concurrent\n` + [line(head), line(w.map((n) => '-'.repeat(n))), ...rows.map(line)].join('\n'));
