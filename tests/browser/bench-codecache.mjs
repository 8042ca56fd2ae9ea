// Does Chromium's code cache hold the whole module on a revisit? (issue #16)
// Per round a fresh profile: one first visit, then BENCH_REVISITS (6)
// revisits of the start-up probe page, each a new SharedWorker; printed per
// revisit number (median over rounds): the worker's fetch + compile and Go's
// runtime + package init. V8 caches a module's optimised (tiered-up) code
// and adds to the cache as more is tiered up; what is not in it is compiled
// on first call. If the cache filled up over revisits, later revisits would
// compile faster than the first.
//
//   make web-dist web-baseline static-server
//   CHROMIUM=/usr/bin/chromium node tests/browser/bench-codecache.mjs
import { join } from 'node:path';
import { repo, startStatic, launch } from './lib.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const REVISITS = Number(process.env.BENCH_REVISITS || 6);
const bin = join(repo, process.env.BIN || 'bin');
const variants = { baseline: join(bin, 'web-baseline'), core: join(bin, 'web') };
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };

async function visit(context, url) {
  const page = await context.newPage();
  await page.goto(url + '/fixtures/start.html');
  const r = await page.evaluate(() => window.started);
  await page.close();
  await new Promise((res) => setTimeout(res, 700)); // the SharedWorker ends with its last page
  return r;
}

const out = {};
for (const [name, web] of Object.entries(variants)) {
  const server = await startStatic({ web });
  out[name] = Array.from({ length: REVISITS + 1 }, () => []);
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const browser = await launch();
      try {
        for (let i = 0; i <= REVISITS; i++) out[name][i].push(await visit(browser.context, server.url));
      } finally {
        await browser.close();
      }
    }
  } finally {
    server.stop();
  }
}
console.log(`median of ${ROUNDS} rounds, ms: fetch + compile / Go runtime + package init / first answer`);
console.log(`| visit | ${Object.keys(variants).join(' | ')} |`);
console.log(`| --- |${Object.keys(variants).map(() => ' --- |').join('')}`);
for (let i = 0; i <= REVISITS; i++) {
  const cells = Object.keys(variants).map((n) => {
    const rs = out[n][i];
    return [median(rs.map((r) => r.compileMillis)), median(rs.map((r) => r.goMillis ? r.goMillis.init : NaN)), median(rs.map((r) => r.answered))]
      .map((v) => v.toFixed(0)).join(' / ');
  });
  console.log(`| ${i === 0 ? 'first visit' : 'revisit ' + i} | ${cells.join(' | ')} |`);
}
