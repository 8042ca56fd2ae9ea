// Durability of the browser runtime: the core's state lives in IndexedDB
// (snapshot + event log, written through), so reloading every page, the
// SharedWorker ending, or the browser killing it loses no acknowledged
// write. Also: export / reset / import. Run: make test-browser.
//
// Pages load tests/browser/fixtures/durable.html: a sandbox with its own
// SharedWorker that snapshots every 20 events and keeps 5 after the
// snapshot, so compaction and the watch window's edge are reached quickly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openSandbox, api, killSharedWorkers, closeAll as closeAllPages } from './lib.mjs';

const env = useBrowser();

const CM = '/api/v1/namespaces/default/configmaps';

const open = () => openSandbox(env.browser.context, env.server.url, '/fixtures/durable.html');

const closeAll = (pages) => closeAllPages(env.browser, pages);
async function killWorker() {
  assert.equal(await killSharedWorkers(env.browser), 1, 'one SharedWorker');
}

const cm = (name, data = { k: 'v' }) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });
const rv = (r) => Number(r.body.metadata.resourceVersion);

async function create(page, name, data) {
  const r = await api(page, 'POST', CM, cm(name, data));
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r;
}

// Tests run in order and hand one open page on (each restart costs a Go
// start-up of a few seconds).
let page;

test('writes survive a reload of every page; a killed SharedWorker comes back with every acknowledged write', async () => {
  const a = await open();
  const b = await open();
  const first = await create(a, 'reload-1');
  await create(b, 'reload-2');
  await Promise.all([a.reload(), b.reload()]);
  for (const p of [a, b]) await p.evaluate(() => window.sandbox.ready);
  const got = await api(a, 'GET', `${CM}/reload-1`);
  assert.equal(got.status, 200);
  assert.equal(got.body.metadata.resourceVersion, first.body.metadata.resourceVersion);
  assert.deepEqual((await api(b, 'GET', `${CM}/reload-2`)).body.data, { k: 'v' });
  await b.close();
  page = a;

  // concurrent writes (grouped into IndexedDB transactions), then a kill
  const made = await page.evaluate(async (path) => Promise.all(Array.from({ length: 30 }, (_, i) => fetch(path, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kill-' + i } }),
  }).then(async (r) => ({ status: r.status, body: await r.json() })))), CM);
  assert.deepEqual(made.map((r) => r.status), Array(30).fill(201));
  const rvs = made.map((r) => Number(r.body.metadata.resourceVersion));
  assert.equal(new Set(rvs).size, 30, 'no resourceVersion reused');
  const db = (await page.evaluate(() => window.sandbox.stats())).db;
  assert.ok(db.writes < db.records, `30 concurrent writes were grouped: ${db.writes} IndexedDB transactions for ${db.records} records`);
  const before = await page.evaluate(() => window.sandbox.info.instance);
  await killWorker();
  // the page notices (through the service worker) and starts a new worker
  const list = await api(page, 'GET', CM);
  assert.equal(list.status, 200, JSON.stringify(list.body));
  assert.notEqual(await page.evaluate(() => window.sandbox.info.instance), before, 'a new SharedWorker');
  const names = list.body.items.map((i) => i.metadata.name);
  assert.equal(names.filter((n) => n.startsWith('kill-')).length, 30);
  assert.ok(names.includes('reload-1') && names.includes('reload-2'));
  assert.ok(Number(list.body.metadata.resourceVersion) >= Math.max(...rvs));
  const next = await create(page, 'after-kill');
  assert.ok(rv(next) > Math.max(...rvs), `resourceVersion ${rv(next)} after the restart must exceed ${Math.max(...rvs)}`);
});

test('after every page closed, a watch resumed with a recent RV gets the later events; an old RV gets 410', async () => {
  const old = rv(await create(page, 'w-old'));
  // 40 writes: snapshots (every 20 events, 5 kept after them) move past `old`
  for (let i = 0; i < 40; i++) await create(page, 'w-more-' + i);
  const start = rv(await create(page, 'w-0'));
  await create(page, 'w-1');
  await api(page, 'DELETE', `${CM}/w-0`);
  const instance = await page.evaluate(() => window.sandbox.info.instance);
  await closeAll([page]);
  page = await open();
  assert.notEqual(await page.evaluate(() => window.sandbox.info.instance), instance, 'a new SharedWorker');
  // resume from `start`: the two later events, in order, nothing skipped
  const events = await page.evaluate(async ({ path, start }) => {
    const out = [];
    for await (const ev of window.sandbox.watch(path, { resourceVersion: String(start) })) {
      if (ev.type === 'BOOKMARK') continue;
      out.push([ev.type, ev.object.metadata.name, ev.object.metadata.resourceVersion]);
      if (out.length === 2) break;
    }
    return out;
  }, { path: CM, start });
  assert.deepEqual(events.map((e) => e.slice(0, 2)), [['ADDED', 'w-1'], ['DELETED', 'w-0']]);
  assert.equal(Number(events[0][2]), start + 1);
  const gone = await page.evaluate(async ({ path, old }) => {
    try {
      for await (const ev of window.sandbox.watch(path, { resourceVersion: String(old) })) return ['event', ev.type];
    } catch (e) { return [e.name, e.status, e.body && e.body.reason]; }
    return ['ended'];
  }, { path: CM, old });
  assert.deepEqual(gone, ['WatchError', 410, 'Expired']);
  const db = (await page.evaluate(() => window.sandbox.stats())).db;
  assert.ok(db.loadedRecords <= 20, `the restored log is compacted: ${db.loadedRecords} records`);
});

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com', scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [{
      name: 'v1', served: true, storage: true,
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } },
    }],
  },
};

test('export → reset → import brings the same objects back', async () => {
  assert.equal((await api(page, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } })).status, 201);
  assert.equal((await api(page, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', CRD)).status, 201);
  assert.equal((await api(page, 'POST', '/apis/example.com/v1/namespaces/team/widgets',
    { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 3 } })).status, 201);
  assert.equal((await api(page, 'POST', '/api/v1/namespaces/team/configmaps', cm('settings', { a: '1' }))).status, 201);
  const yaml = await page.evaluate(() => window.sandbox.export());
  assert.match(yaml, /^apiVersion: v1\nitems:\n- apiVersion: apiextensions.k8s.io\/v1\n  kind: CustomResourceDefinition\n/);
  assert.doesNotMatch(yaml, /resourceVersion|uid:|creationTimestamp|managedFields/);
  const before = await api(page, 'GET', '/api/v1/namespaces/team/configmaps/settings');

  await page.evaluate(() => window.sandbox.reset());
  assert.equal((await api(page, 'GET', '/api/v1/namespaces/team/configmaps/settings')).status, 404);
  assert.equal((await api(page, 'GET', '/apis/example.com/v1/namespaces/team/widgets/w')).status, 404);
  const namespaces = (await api(page, 'GET', '/api/v1/namespaces')).body.items.map((n) => n.metadata.name).sort();
  assert.deepEqual(namespaces, ['default', 'kube-node-lease', 'kube-public', 'kube-system']);
  // the reset dropped the saved state too: a new worker starts empty
  await closeAll([page]);
  const p2 = page = await open();
  assert.equal((await api(p2, 'GET', '/api/v1/namespaces/team')).status, 404);
  assert.equal((await api(p2, 'GET', `${CM}/after-kill`)).status, 404);

  await p2.evaluate((y) => window.sandbox.import(y), yaml);
  const after = await api(p2, 'GET', '/api/v1/namespaces/team/configmaps/settings');
  assert.equal(after.status, 200);
  assert.deepEqual(after.body.data, before.body.data);
  const [rvBefore, rvAfter] = [before, after].map((r) => Number(r.body.metadata.resourceVersion));
  assert.ok(rvAfter > rvBefore, `resourceVersions go on after a reset and a restart: ${rvAfter} > ${rvBefore}`);
  const w = await api(p2, 'GET', '/apis/example.com/v1/namespaces/team/widgets/w');
  assert.equal(w.status, 200);
  assert.deepEqual(w.body.spec, { size: 3 });
  assert.equal(await p2.evaluate(() => window.sandbox.export()), yaml);
  // an import that fails for one object names it, and applies the rest
  const err = await p2.evaluate(() => window.sandbox.import(
    'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fine}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: Bad_Name}\n',
  ).then(() => null, (e) => e.message));
  assert.match(err, /^import: 1 of 2 objects failed:\nConfigMap default\/Bad_Name: /);
  assert.equal((await api(p2, 'GET', `${CM}/fine`)).status, 200);
});

test('a full quota fails the write with a Status, and nothing is half-written', async (t) => {
  const okRV = rv(await create(page, 'q-ok'));
  const check = async (label) => {
    const big = await api(page, 'POST', CM, cm('q-big', { blob: 'x'.repeat(200000) }));
    assert.equal(big.status, 500, label + ': ' + JSON.stringify(big.body).slice(0, 300));
    assert.equal(big.body.kind, 'Status');
    assert.equal(big.body.reason, 'InternalError');
    assert.match(big.body.message, /^Internal error occurred: kubesandbox storage: IndexedDB quota exceeded \(QuotaExceededError\): /);
    assert.equal((await api(page, 'GET', `${CM}/q-big`)).status, 404, label + ': not visible');
  };
  // 1. a fault injected into the worker's IndexedDB writes (the transaction is aborted)
  await page.evaluate(() => window.sandbox._fault('QuotaExceededError'));
  await check('injected');
  await page.evaluate(() => window.sandbox._fault(null));
  // 2. the browser's own quota, made tiny through CDP
  const cdp = await env.browser.context.newCDPSession(page);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: env.server.url, quotaSize: 1 });
  const real = await api(page, 'POST', CM, cm('q-big', { blob: 'x'.repeat(200000) }));
  if (real.status === 201) {
    t.diagnostic('the overridden origin quota did not fail the IndexedDB write (quota accounting is lazy)');
    await api(page, 'DELETE', `${CM}/q-big`);
  } else {
    await cdp.send('Storage.overrideQuotaForOrigin', { origin: env.server.url, quotaSize: 1 }); // (kept)
    assert.equal(real.status, 500, JSON.stringify(real.body).slice(0, 300));
    assert.match(real.body.message, /QuotaExceededError/);
  }
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: env.server.url });
  await cdp.detach();
  // the next write works and takes the next revision; after a restart the
  // failed write is nowhere and the revisions still only go up
  const next = await create(page, 'q-next');
  assert.ok(rv(next) > okRV);
  await closeAll([page]);
  page = await open();
  assert.equal((await api(page, 'GET', `${CM}/q-big`)).status, 404);
  assert.equal((await api(page, 'GET', `${CM}/q-next`)).body.metadata.resourceVersion, next.body.metadata.resourceVersion);
  // imported objects (previous test) are durable too
  assert.equal((await api(page, 'GET', '/apis/example.com/v1/namespaces/team/widgets/w')).status, 200);
  assert.ok(rv(await create(page, 'q-after')) > rv(next));
  await page.close();
});
