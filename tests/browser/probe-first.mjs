// Where a first visit's time goes (issue #16): per round a fresh profile
// opens the start-up probe once; printed per program (median over rounds):
// page start → service worker controls the page (its install stored the
// runtime), → the core's worker is ready (fetch + compile + Go start), →
// first answer; and how often the static server was asked for the wasm.
//
//   make web-dist web-baseline static-server
//   CHROMIUM=/usr/bin/chromium node tests/browser/probe-first.mjs [DIR …]
import { join, resolve } from 'node:path';
import { repo, startStatic, launch } from './lib.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const bin = join(repo, process.env.BIN || 'bin');
const dirs = process.argv.slice(2);
const variants = dirs.length ? Object.fromEntries(dirs.map((d) => [d, resolve(d)])) : { baseline: join(bin, 'web-baseline'), core: join(bin, 'web') };
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };

// the programs alternate within each round, as bench.mjs's, so that drift
// in the machine's load hits all of them
const servers = {}, rows = {};
for (const [name, web] of Object.entries(variants)) { servers[name] = await startStatic({ web }); rows[name] = []; }
try {
  for (let round = 0; round < ROUNDS; round++) {
    const names = Object.keys(variants);
    for (const name of names.map((_, i) => names[(i + round) % names.length])) {
      const server = servers[name];
      const browser = await launch();
      try {
        const before = ((await server.requests()) || []).length;
        const page = await browser.context.newPage();
        await page.goto(server.url + '/fixtures/start-phases.html');
        const r = await page.evaluate(() => window.started);
        const reqs = ((await server.requests()) || []).slice(before);
        r.wasmFetches = reqs.filter((u) => /kubesandbox\.wasm(\?|$)/.test(u)).length;
        rows[name].push(r);
        await page.close();
      } finally {
        await browser.close();
      }
    }
  }
} finally {
  for (const s of Object.values(servers)) s.stop();
}
for (const name of Object.keys(variants)) {
  const m = (f) => median(rows[name].map(f)).toFixed(0);
  console.log(`${name}: first visit, median of ${ROUNDS}: service worker controls ${m((r) => r.controlled)} ms, core ready ${m((r) => r.ready)} ms (worker fetch+compile ${m((r) => r.compileMillis)}), answered ${m((r) => r.answered)} ms; wasm fetched ${rows[name].map((r) => r.wasmFetches).join('/')} times`);
}
