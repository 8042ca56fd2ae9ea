// Isolation of the browser runtime: the service worker sends exactly its
// API paths to the core (nothing else, and never an API call to the
// network, even when no core can answer), leaves other origins alone, and
// sandboxes on one origin — and the docs examples built on them — are
// separate clusters. Run: make test-browser.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startStatic, launch, openSandbox, api, killSharedWorkers, sharedWorkers } from './lib.mjs';

let server;
let other; // a second origin
let browser;

before(async () => {
  server = await startStatic();
  other = await startStatic();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.stop();
  other?.stop();
});

const API = /^\/(version|api|apis|openapi|livez|readyz|healthz)(\/|\?|$)/;
const NOT_API = ['/apisx', '/api2/v1', '/versionz', '/healthzz', '/openapi-spec', '/sandbox/a/index.html', '/sandbox//api/v1', '/x/api/v1'];

test('only the API prefixes go to the core; every other path, and no API path, reaches the network', async () => {
  const page = await openSandbox(browser.context, server.url);
  const answers = await page.evaluate(async (paths) => Promise.all(paths.map(async (p) => {
    const r = await fetch(p);
    const text = await r.text();
    return [p, r.status, text.includes('"kind":"Status"') || text.includes('"kind": "Status"')];
  })), ['/api', '/apis', '/version', '/openapi/v2', '/livez', '/readyz', '/healthz', '/api/v1/namespaces', '/apis/apps/v1', '/api/v1/namespaces/default/configmaps/nope']);
  for (const [p, status] of answers) assert.ok(status === 200 || (p.endsWith('/nope') && status === 404), `${p}: ${status}`);
  assert.equal(answers.at(-1)[2], true, 'the 404 is the core\'s Status');
  const passed = await page.evaluate(async (paths) => Promise.all(paths.map(async (p) => (await fetch(p)).status)), NOT_API);
  assert.deepEqual(passed, NOT_API.map(() => 404), 'the static server has none of them');
  const seen = await server.requests();
  for (const p of NOT_API) assert.ok(seen.includes(p), `${p} reached the static server`);
  assert.deepEqual(seen.filter((p) => API.test(p)), [], 'no API path reached the static server');
  await page.close();
});

test('requests to another origin are not intercepted, API paths included', async () => {
  const page = await openSandbox(browser.context, server.url);
  const r = await page.evaluate(async (url) => {
    const res = await fetch(url + '/api/v1/namespaces?cross=1', { mode: 'no-cors' });
    return res.type;
  }, other.url);
  assert.equal(r, 'opaque', 'the browser fetched it from the other origin');
  assert.ok((await other.requests()).includes('/api/v1/namespaces?cross=1'), 'the other origin received it');
  assert.deepEqual((await server.requests()).filter((p) => API.test(p)), []);
  await page.close();
});

test('with no core to answer, an API call gets a 503 Status and never goes to the network', async () => {
  const page = await openSandbox(browser.context, server.url);
  assert.equal((await api(page, 'GET', '/api/v1/namespaces')).status, 200);
  await page.close();
  await killSharedWorkers(browser);
  // a page under the service worker that runs no sandbox: nobody can start a core
  const plain = await browser.context.newPage();
  await plain.goto(server.url + '/fixtures/plain.html');
  assert.equal(await plain.evaluate(() => navigator.serviceWorker.controller !== null), true);
  // also an API path of a sandbox whose name is a malformed escape
  const [r, odd] = await Promise.all([api(plain, 'GET', '/api/v1/namespaces/default/configmaps'), api(plain, 'GET', '/sandbox/%E0%A4%A/api/v1/namespaces')]);
  assert.equal(odd.status, 503);
  assert.equal(odd.body.reason, 'ServiceUnavailable');
  assert.equal(r.status, 503);
  assert.equal(r.body.kind, 'Status');
  assert.equal(r.body.reason, 'ServiceUnavailable');
  assert.deepEqual((await server.requests()).filter((p) => API.test(p)), [], 'no API path reached the static server');
  await plain.close();
});

test('two sandboxes on one origin are separate clusters', async () => {
  const page = await browser.context.newPage();
  await page.goto(server.url + '/fixtures/two-sandboxes.html');
  await page.waitForFunction(() => window.both);
  await page.evaluate(() => window.both);
  // one SharedWorker (one Go instance) hosts both: sandboxes.test.mjs
  assert.ok((await sharedWorkers(browser)).length >= 1);
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'only-in-a' }, data: { k: 'a' } };
  const out = await page.evaluate(async (cm) => {
    const j = (r) => r.json();
    const post = (ks) => ks.fetch('/api/v1/namespaces/default/configmaps', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(cm) });
    const created = await post(window.a);
    const inA = await window.a.fetch('/api/v1/namespaces/default/configmaps/only-in-a');
    const inB = await window.b.fetch('/api/v1/namespaces/default/configmaps/only-in-a');
    const byPath = await fetch('/sandbox/b/api/v1/namespaces/default/configmaps/only-in-a');
    const listB = await j(await window.b.fetch('/api/v1/configmaps'));
    const sameName = await post(window.b); // b has no such object: 201, not 409
    const rvA = (await j(await window.a.fetch('/api/v1/namespaces/default/configmaps'))).metadata.resourceVersion;
    const rvB = listB.metadata.resourceVersion;
    const dbs = (await indexedDB.databases()).map((d) => d.name).sort();
    return { created: created.status, inA: inA.status, inB: inB.status, byPath: byPath.status,
      listB: listB.items.map((o) => o.metadata.name), sameName: sameName.status, rvA, rvB, dbs, bases: [window.a.base, window.b.base] };
  }, cm);
  assert.deepEqual(out.bases, ['/sandbox/a', '/sandbox/b']);
  assert.equal(out.created, 201);
  assert.equal(out.inA, 200);
  assert.equal(out.inB, 404, 'b cannot read a\'s object');
  assert.equal(out.byPath, 404, 'not through its URL either');
  // b's only ConfigMaps are its own controllers' kube-root-ca.crt, one per namespace
  assert.deepEqual(out.listB.filter((n) => n !== 'kube-root-ca.crt'), [], 'b lists none of a\'s objects');
  assert.equal(out.sameName, 201, 'names do not collide across sandboxes');
  assert.ok(out.dbs.includes('kubesandbox:a') && out.dbs.includes('kubesandbox:b'), `a database each: ${out.dbs}`);
  // each keeps its own state across a reload
  await page.reload();
  await page.evaluate(() => window.both);
  const after = await page.evaluate(async () => [
    (await window.a.fetch('/api/v1/namespaces/default/configmaps/only-in-a')).status,
    (await (await window.b.fetch('/api/v1/namespaces/default/configmaps/only-in-a')).json()).data,
  ]);
  assert.deepEqual(after, [200, { k: 'a' }]);
  await page.close();
});

test('docs examples in different sandboxes cannot read each other\'s objects', async () => {
  const page = await browser.context.newPage();
  page.on('pageerror', (e) => console.error('[page error]', e.message));
  await page.goto(server.url + '/fixtures/isolated-examples.html');
  await page.waitForFunction(() => [...document.querySelectorAll('kube-example')].every((e) => e.dataset.state === 'ready'), null, { timeout: 120000 });
  const run = (id) => page.evaluate((id) => document.getElementById(id).run(), id);
  assert.equal(await run('writer'), true, 'the writer created its ConfigMap');
  assert.equal(await run('reader'), true, 'a reader in another sandbox finds no such ConfigMap');
  assert.equal(await run('neighbour'), true, 'an example in the same sandbox finds it');
  await page.close();
});
