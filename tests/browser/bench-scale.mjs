// Start-up at scale (issue #16; reported, never asserted), each against a
// baseline measured in the same run and the same browser profile:
//
//   restore     a revisit (service worker and wasm cached, a new
//               SharedWorker) of a sandbox holding BENCH_OBJECTS (10,000)
//               ConfigMaps of ~1 KiB in IndexedDB → its first answer
//               (/version) and a GET of one stored object, against the same
//               revisit of an empty sandbox (target ≤ 2×); where the time
//               goes: the worker's fetch+compile, Go's init, New + restore
//               (the IndexedDB read inside it is timed by the worker)
//   examples    a docs page of 5 <kube-example>s → every one ready, each in
//               a sandbox of its own (5 cores in the one SharedWorker and
//               Go instance) and all sharing the page's, against a page of
//               one example (target: 5 sandboxes ≤ 1.5× one example), on revisits
//
// Run: make bench-scale (part of make bench-browser). BENCH_ROUNDS (3)
// revisits of each kind, BENCH_OBJECTS (10000) objects; BENCH_COMPARE=DIR
// adds another build's web-dist to both (before/after).
import { startStatic, launch, closeAll } from './lib.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const OBJECTS = Number(process.env.BENCH_OBJECTS || 10000);
const ms = (n) => (n == null || Number.isNaN(n) ? '–' : n.toFixed(1) + ' ms');
const x = (a, b) => (a / b).toFixed(2) + '×';
const median = (xs) => { const s = xs.filter((v) => v != null && !Number.isNaN(v)).sort((a, b) => a - b); return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN; };

function table(title, head, rows) {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (r) => '| ' + r.map((c, i) => String(c).padEnd(w[i])).join(' | ') + ' |';
  console.log(`\n${title}\n` + [line(head), line(w.map((n) => '-'.repeat(n))), ...rows.map(line)].join('\n'));
}

const GET = '/api/v1/namespaces/default/configmaps/cm-0';

// visit opens the start-up probe of one named sandbox, reads its timings
// and the worker's IndexedDB load, closes it and waits until its
// SharedWorker has ended (the next visit starts a new one).
async function visit(browser, url, sandbox) {
  const page = await browser.context.newPage();
  await page.goto(`${url}/fixtures/start-db.html?sandbox=${sandbox}&get=${encodeURIComponent(GET)}`);
  const r = await page.evaluate(() => window.started);
  r.db = (await page.evaluate(() => window.sandbox.stats())).db;
  await closeAll(browser, [page]);
  if (r.status !== 200) throw new Error(`${sandbox}: /version answered ${r.status}`);
  return r;
}

// fill stores n ConfigMaps of ~1 KiB (8 keys of 100 bytes, as make
// bench's) in the sandbox's default namespace. Creating them through the
// API takes ~60 ms each on the loaded 2-core machine (10 minutes for
// 10,000), so one, cm-template, is created through the API and its stored
// form copied n times under other names and uids straight into the
// sandbox's IndexedDB, as one snapshot in the core's format
// (fixtures/snapshot-copies.mjs) holding everything live: what the core
// restores is its own encoding of a real object. The worker is not
// running meanwhile.
async function fill(browser, url, sandbox, n) {
  const t0 = Date.now();
  let page = await browser.context.newPage();
  await page.goto(`${url}/fixtures/start-db.html?sandbox=${sandbox}`);
  await page.evaluate(() => window.started);
  const data = Object.fromEntries(Array.from({ length: 8 }, (_, i) => ['key' + i, String(i).repeat(100)]));
  const st = await page.evaluate(async (data) => (await window.sandbox.fetch('/api/v1/namespaces/default/configmaps', {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-template', labels: { app: 'bench' } }, data }),
  })).status, data);
  if (st !== 201) throw new Error(`create cm-template: ${st}`);
  await closeAll(browser, [page]);
  page = await browser.context.newPage();
  await page.goto(`${url}/fixtures/plain.html`);
  const r = await page.evaluate(writeSnapshot, { db: `kubesandbox:${sandbox}`, n });
  await closeAll(browser, [page]);
  return { seconds: (Date.now() - t0) / 1000, ...r };
}

// writeSnapshot runs in a page: it replaces database db's snapshot and log
// with one snapshot of what they hold plus n copies of cm-template
// (fixtures/snapshot-copies.mjs).
async function writeSnapshot({ db: name, n }) {
  const { withCopies } = await import('/fixtures/snapshot-copies.mjs');
  const open = await new Promise((resolve, reject) => {
    const req = indexedDB.open(name, 1);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  const done = (tx) => new Promise((resolve, reject) => { tx.oncomplete = resolve; tx.onabort = () => reject(tx.error); });
  let tx = open.transaction(['log', 'meta'], 'readonly');
  const got = {};
  tx.objectStore('meta').get('snapshot').onsuccess = (e) => { got.snap = e.target.result; };
  tx.objectStore('log').getAll().onsuccess = (e) => { got.log = e.target.result; };
  await done(tx);
  const { snapshot, rev, objects } = withCopies(got.snap ? got.snap.data : null, got.log, n);
  tx = open.transaction(['log', 'meta'], 'readwrite');
  tx.objectStore('log').clear();
  tx.objectStore('meta').put({ rev, data: snapshot }, 'snapshot');
  await done(tx);
  open.close();
  return { objects, bytes: snapshot.length, rev };
}

// examples opens examples.html?n=…&own=… and returns ms from the page's
// start until every example is ready.
async function examples(browser, url, n, own) {
  const page = await browser.context.newPage();
  page.on('pageerror', (e) => console.error('[page error]', e.message));
  await page.goto(`${url}/fixtures/examples.html?n=${n}&own=${own ? 1 : 0}`);
  await page.waitForFunction(() => window.allReady);
  const at = await page.evaluate(() => window.allReady);
  await closeAll(browser, [page]);
  return at;
}

// BENCH_COMPARE=DIR: a second build's web-dist (e.g. the commit before a
// change) served from a server (an origin) of its own, its sandboxes
// visited in the same rounds, alternating with this build's.
const builds = [{ name: 'this build', web: undefined }];
if (process.env.BENCH_COMPARE) builds.push({ name: process.env.BENCH_COMPARE, web: process.env.BENCH_COMPARE });
for (const b of builds) b.server = await startStatic(b.web ? { web: b.web } : {});
const server = builds[0].server;
const browser = await launch();
try {
  // ---- restore of a big sandbox ----
  for (const b of builds) {
    const filled = await fill(browser, b.server.url, 'big', OBJECTS);
    console.log(`${b.name}: sandbox "big": ${OBJECTS} ConfigMaps stored in ${filled.seconds.toFixed(1)} s (one snapshot of ${filled.objects} objects, ${(filled.bytes / 1e6).toFixed(2)} MB, at revision ${filled.rev})`);
    await visit(browser, b.server.url, 'empty'); // its database exists from here on
    b.runs = { empty: [], big: [] };
  }
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? ['big', 'empty'] : ['empty', 'big'];
    for (const b of round % 2 ? [...builds].reverse() : builds) {
      for (const s of order) b.runs[s].push(await visit(browser, b.server.url, s));
    }
  }
  const rows = [];
  for (const b of builds) {
    for (const r of b.runs.big) if (r.gotStatus !== 200) throw new Error(`${b.name}: GET ${GET} after the restore: ${r.gotStatus}`);
    const col = (s, f) => median(b.runs[s].map(f));
    const row = (label, s) => [b.name, label,
      ms(col(s, (r) => r.answered)), ms(col(s, (r) => r.got)), ms(col(s, (r) => r.compileMillis)),
      ms(col(s, (r) => r.goMillis && r.goMillis.init)), ms(col(s, (r) => r.goMillis && r.goMillis.serve)),
      ms(col(s, (r) => r.db && r.db.loadMillis)), String(col(s, (r) => r.db && r.db.loadedRecords)),
      s === 'empty' ? '1.00×' : x(col(s, (r) => r.answered), col('empty', (r) => r.answered))];
    rows.push(row('empty', 'empty'), row(`${OBJECTS.toLocaleString('en')} ConfigMaps`, 'big'));
  }
  table(`revisit of a sandbox with ${OBJECTS.toLocaleString('en')} stored ConfigMaps (median of ${ROUNDS}; page start → …)`,
    ['build', 'sandbox', 'first answer (/version)', 'GET of one object', 'worker: fetch+compile', 'Go: runtime + init', 'Go: New + restore', 'IndexedDB read (in restore)', 'log records read', '÷ empty'],
    rows);

  // ---- a docs page of examples ----
  // (each build in the same rounds, alternating; every ratio is against
  // that build's own page of one example)
  const kinds = [['one example', 1, false], ['5 examples, one shared sandbox', 5, false], ['5 examples, 5 sandboxes', 5, true]];
  for (const b of builds) {
    for (const [, n, own] of kinds) await examples(browser, b.server.url, n, own); // first visits: caches, databases
    b.ex = kinds.map(() => []);
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < kinds.length; k++) {
      const i = (k + round) % kinds.length;
      for (const b of round % 2 ? [...builds].reverse() : builds) b.ex[i].push(await examples(browser, b.server.url, kinds[i][1], kinds[i][2]));
    }
  }
  table(`a docs page of <kube-example>s, revisits (median of ${ROUNDS}; page start → every example ready)`,
    ['build', 'page', 'all ready', 'runs', '÷ one example'],
    builds.flatMap((b) => kinds.map(([label], i) => [b.name, label, ms(median(b.ex[i])), b.ex[i].map((v) => v.toFixed(0)).join(', '), x(median(b.ex[i]), median(b.ex[0]))])));
} finally {
  await browser.close();
  for (const b of builds) b.server?.stop();
}
