// Browser runtime measurements (reported, not asserted): wasm size, cold
// start, per-request latency against a pure-JS service worker and a plain
// loopback fetch measured in the same run. Run: make bench-browser.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { repo, startStatic, launch } from './lib.mjs';

const N = Number(process.env.BENCH_REQUESTS || 300);
const web = join(repo, process.env.BIN || 'bin', 'web');
const mb = (n) => (n / 1e6).toFixed(2) + ' MB';
const ms = (n) => n.toFixed(2) + ' ms';

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

const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor(xs.length * p))];

const wasm = join(web, 'kubesandbox.wasm');
table('wasm size (Go, -trimpath -ldflags=-s -w; brotli 11 / gzip 9 via Node zlib)',
  ['file', 'raw', 'gzip', 'brotli'],
  [['kubesandbox.wasm', mb(statSync(wasm).size), mb(statSync(wasm + '.gz').size), mb(statSync(wasm + '.br').size)]]);

const server = await startStatic();
const browser = await launch();
try {
  // Cold start: fresh profile (nothing cached, no service worker yet), then
  // again with the HTTP cache warm after every page (and so the SharedWorker) closed.
  const starts = [];
  for (const label of ['first visit (empty profile)', 'revisit (HTTP cache warm, new SharedWorker)']) {
    const page = await browser.context.newPage();
    const t0 = Date.now();
    await page.goto(server.url + '/');
    const r = await page.evaluate(async () => {
      await window.sandbox.ready;
      const ready = performance.now();
      await (await fetch('/version')).text();
      const { startMillis, compileMillis } = window.sandbox.info;
      return { ready, first: performance.now(), worker: startMillis, compile: compileMillis };
    });
    starts.push([label, ms(Date.now() - t0), ms(r.ready), ms(r.first), ms(r.compile), ms(r.worker - r.compile)]);
    await page.close();
    await new Promise((res) => setTimeout(res, 500)); // let the SharedWorker go away
  }
  table('cold start', ['visit', 'goto→first answer (node clock)', 'page start→ready', 'page start→first /version', 'worker: fetch+compile', 'worker: Go init (core New)'], starts);

  const page = await browser.context.newPage();
  await page.goto(server.url + '/');
  await page.evaluate(() => window.sandbox.ready);
  const mem0 = await page.evaluate(() => window.sandbox.stats());
  const viaWasm = await latencies(page, '/version', N);
  const mem1 = await page.evaluate(() => window.sandbox.stats());
  const viaNet = await latencies(page, '/__static/ping', N);
  const echo = await browser.context.newPage();
  await echo.goto(server.url + '/fixtures/echo/page.html');
  await echo.evaluate(() => window.echoReady);
  const viaJS = await latencies(echo, '/fixtures/echo/version', N);
  const base = pct(viaJS, 0.5);
  const row = (name, xs) => [name, ms(pct(xs, 0.5)), ms(pct(xs, 0.95)), ms(xs.reduce((a, b) => a + b, 0) / xs.length), (pct(xs, 0.5) / base).toFixed(2) + '×'];
  table(`per-request latency, ${N} sequential fetches of /version from a page`,
    ['path', 'median', 'p95', 'mean', 'median / pure-JS SW'],
    [
      row('page → SW → SharedWorker (Go wasm core)', viaWasm),
      row('page → SW answering in pure JS (floor)', viaJS),
      row('page → SW pass-through → loopback static server', viaNet),
    ]);
  table('wasm memory (Go linear memory; it never shrinks)', ['when', 'memory', 'requests served'], [
    ['before the latency run', mb(mem0.memoryBytes), mem0.served],
    [`after ${N + 20} more requests`, mb(mem1.memoryBytes), mem1.served],
  ]);
} finally {
  await browser.close();
  server.stop();
}
