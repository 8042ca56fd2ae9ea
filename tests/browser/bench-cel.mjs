// The CEL engine in the browser, measured (reported, never asserted):
//
//   size      bin/web/cel-crd.wasm and cel-policy.wasm raw, gzip and brotli
//             (what a page with a CRD rule, a policy downloads once),
//             beside the core's kubesandbox.wasm
//   load      fetch + compile + instantiate + Go init of a part in the
//             core's worker (its stats().cel.millis), and the first engine
//             call that waited for it, on a first visit (fresh profile) and
//             on revisits (a new worker; the wasm from the service
//             worker's cache, and Chromium's compiled code)
//   phases    where each load's time went (the worker's performance marks)
//   write     on each visit: a CRD with the rule `self.replicas <=
//             self.maxReplicas` is created (the write that loads cel-crd.wasm:
//             its CEL is checked) against a CRD without rules, then the
//             first custom resource written under the rule — target ≤ 1.5 s
//             for both — against the same write for a CRD without rules in
//             the same run (the ratio); then a second write
//   restored  that sandbox reopened (a new worker restoring it): page ready
//             → cel-crd.wasm loaded in the background, then the first write
//             under the rule
//
// Run: make bench-cel (also part of make bench-browser).
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { repo, startStatic, launch, openSandbox, api, closeAll } from './lib.mjs';

const VISITS = Number(process.env.BENCH_CEL_VISITS || 3);
const web = join(repo, process.env.BIN || 'bin', 'web');
const mb = (n) => (n / 1e6).toFixed(2) + ' MB';
const ms = (n) => (n == null || Number.isNaN(n) ? '–' : n.toFixed(0) + ' ms');

function table(title, head, rows) {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (r) => '| ' + r.map((c, i) => String(c).padEnd(w[i])).join(' | ') + ' |';
  console.log(`\n${title}\n` + [line(head), line(w.map((n) => '-'.repeat(n))), ...rows.map(line)].join('\n'));
}

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const crd = (plural, rules) => ({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
  metadata: { name: `${plural}.bench.example.com` },
  spec: {
    group: 'bench.example.com', scope: 'Namespaced',
    names: { plural, singular: plural.slice(0, -1), kind: plural[0].toUpperCase() + plural.slice(1, -1), listKind: plural[0].toUpperCase() + plural.slice(1, -1) + 'List' },
    versions: [{
      name: 'v1', served: true, storage: true,
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: {
        type: 'object',
        properties: { replicas: { type: 'integer' }, maxReplicas: { type: 'integer' } },
        ...(rules ? { 'x-kubernetes-validations': [{ rule: 'self.replicas <= self.maxReplicas' }] } : {}),
      } } } },
    }],
  },
});

// timedCreate waits until the custom resource's collection is served,
// then times one POST (ms, status).
async function timedCreate(page, plural, name) {
  const path = `/apis/bench.example.com/v1/namespaces/default/${plural}`;
  for (let i = 0; i < 200 && (await api(page, 'GET', path)).status !== 200; i++) await new Promise((r) => setTimeout(r, 50));
  return page.evaluate(async ({ path, plural, name }) => {
    const kind = plural[0].toUpperCase() + plural.slice(1, -1);
    const t0 = performance.now();
    const r = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'bench.example.com/v1', kind, metadata: { name }, spec: { replicas: 1, maxReplicas: 3 } }) });
    await r.text();
    return { ms: performance.now() - t0, status: r.status };
  }, { path, plural, name });
}

const size = (f) => statSync(join(web, f)).size;
table('the CEL engine\'s size (two parts, each loaded on first use)', ['file', 'raw', 'gzip', 'brotli'], ['cel-crd.wasm', 'cel-policy.wasm', 'kubesandbox.wasm'].map((f) =>
  [f, mb(size(f)), mb(size(f + '.gz')), mb(size(f + '.br'))]));

const server = await startStatic();
const browser = await launch(); // a fresh profile: nothing cached
const loads = [];
const phaseRows = []; // where each load's time went (stats().cel.phases)
const phaseCols = ['fetch', 'compile', 'main', 'warm', 'ready'];
// phases: the worker's marks are ms since the load began; each column is
// the step's own share (fetch: to the headers, compile: to instantiated —
// the download streams into it —, main: Go's package init, warm: the CEL
// environment, ready: the rest), then the first call after the load, the
// total. (stats' phases.download, the last byte counted on a clone of the
// response, lags: the clone is read when the thread is free, after Go's
// start-up.)
function phases(label, s) {
  const p = s.phases || {};
  let prev = 0;
  const cells = phaseCols.map((k) => {
    if (p[k] == null) return '–';
    const d = p[k] - prev;
    prev = p[k];
    return ms(d);
  });
  phaseRows.push([label, ...cells, ms(s.firstCallMillis), ms(s.millis)]);
}
const writes = [];
const restoredRows = [];
try {
  for (let v = 0; v < VISITS; v++) {
    // a visit whose worker has not loaded cel.wasm (the first: a fresh
    // profile, cel.wasm never fetched): the first write under a rule
    const label = v === 0 ? 'first visit' : `revisit ${v}`;
    let page = await openSandbox(browser.context, server.url, '/fixtures/durable.html?worker=' + encodeURIComponent('db=bench-cel-write-' + v));
    const crdMs = {};
    for (const [plural, rules] of [['plains', false], ['ruleds', true]]) {
      const t = Date.now();
      const r = await api(page, 'POST', CRDS, crd(plural, rules));
      crdMs[plural] = Date.now() - t;
      if (r.status !== 201) throw new Error(JSON.stringify(r.body));
    }
    const plain = await timedCreate(page, 'plains', 'a');
    const first = await timedCreate(page, 'ruleds', 'a');
    const second = await timedCreate(page, 'ruleds', 'b');
    const st = (await page.evaluate(() => window.sandbox.stats())).cel;
    phases(`${label}: the CRD with the rule`, st);
    writes.push([label, `${ms(crdMs.ruleds)} / ${ms(crdMs.plains)}`, `${ms(first.ms)} (${first.status})`, `${ms(second.ms)} (${second.status})`, `${ms(plain.ms)} (${plain.status})`,
      (first.ms / plain.ms).toFixed(1) + '×', `${st.state}, ${st.loads} load(s), ${ms(st.millis)}`]);
    await closeAll(browser, [page]);
    // the same sandbox restored (a new worker): cel.wasm loads in the
    // background after the first answer; then the first write under the rule
    page = await openSandbox(browser.context, server.url, '/fixtures/durable.html?worker=' + encodeURIComponent('db=bench-cel-write-' + v));
    const t1 = Date.now();
    for (let i = 0; i < 600 && (await page.evaluate(() => window.sandbox.stats())).cel.state !== 'ready'; i++) await new Promise((r) => setTimeout(r, 50));
    const bg = Date.now() - t1;
    phases(`${label}: restored, in the background`, (await page.evaluate(() => window.sandbox.stats())).cel);
    const restored = await timedCreate(page, 'ruleds', 'c');
    restoredRows.push([label, ms(bg), `${ms(restored.ms)} (${restored.status})`]);
    await closeAll(browser, [page]);
    // each visit: a new sandbox database and worker, the same profile
    const open = () => openSandbox(browser.context, server.url, '/fixtures/durable.html?worker=' + encodeURIComponent('db=bench-cel-' + v));
    page = await open();
    const t0 = Date.now();
    const call = await page.evaluate(async () => {
      const t = performance.now();
      const err = await window.sandbox._cel('Mutate', {}).then(() => null, (e) => String(e.message || e));
      return { ms: performance.now() - t, err };
    });
    if (!/unknown method/.test(call.err || '')) throw new Error('cel.wasm did not answer: ' + call.err);
    const s = (await page.evaluate(() => window.sandbox.stats())).cel;
    loads.push([v === 0 ? 'first visit (after the write test)' : `revisit ${v}`, ms(s.millis), ms(s.compileMillis), ms(call.ms), ms(Date.now() - t0)]);
    phases(`${label}: _cel call (CRD part)`, s);
    // the policy part, loaded by its first method
    const pol = await page.evaluate(() => window.sandbox._cel('CheckPolicy', {}).then(() => null, (e) => String(e.message || e)));
    if (/could not be loaded|unknown method/.test(pol || '')) throw new Error('cel-policy.wasm did not answer: ' + pol);
    phases(`${label}: CheckPolicy (policy part)`, (await page.evaluate(() => window.sandbox.stats())).cel.parts.policy);
    await closeAll(browser, [page]);
  }
} finally {
  await browser.close();
  server.stop();
}
table('the CRD part\'s load (in the core\'s worker)', ['visit', 'load (fetch+compile+init)', 'compile part', 'first call', 'page→answer'], loads);
table('where the load\'s time goes (ms per step; main = Go\'s package init, warm = the CEL environment)', ['load', ...phaseCols, 'first call', 'total'], phaseRows);
table('a restored sandbox with the rule: cel-crd.wasm loads in the background, then the first write under it', ['visit', 'page ready → cel-crd.wasm ready', 'first CR under the rule'], restoredRows);
table('first write after a rule appears (target ≤ 1.5 s on a revisit; the first visit fetches cel-crd.wasm)', ['visit', 'CRD with the rule / without', 'first CR under it', 'second', 'CR without rules', 'ratio', 'cel-crd.wasm'], writes);
