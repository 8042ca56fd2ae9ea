// The leader-tab fallback for browsers without SharedWorker (e.g. Chrome
// on Android): tabs elect a leader with Web Locks, the leader runs the core
// in a dedicated Worker, and every tab's API requests reach that one core
// through the service worker. Closing the leader hands the lock to the next
// tab, whose new core restores the state from IndexedDB.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser } from './lib.mjs';

const env = useBrowser();

const CM = '/api/v1/namespaces/default/configmaps';

// openWithoutSharedWorker opens the playground as a browser without SharedWorker would.
async function openWithoutSharedWorker() {
  const page = await env.browser.context.newPage();
  page.on('pageerror', (e) => console.error('[page error]', e.message));
  await page.addInitScript(() => { delete window.SharedWorker; });
  await page.goto(env.server.url + '/');
  await page.evaluate(() => window.sandbox.ready);
  return page;
}

async function post(page, name) {
  return page.evaluate(async ({ path, name }) => {
    const res = await fetch(path, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } }),
    });
    return { status: res.status, body: await res.text() };
  }, { path: CM, name });
}

async function get(page, name) {
  return page.evaluate(async (p) => {
    const r = await fetch(p);
    return { status: r.status, body: await r.json() };
  }, `${CM}/${name}`);
}

test('without SharedWorker a leader tab runs the core for every tab; its successor restores the state', async () => {
  const a = await openWithoutSharedWorker();
  const b = await openWithoutSharedWorker();
  assert.equal(await a.evaluate(() => typeof window.SharedWorker), 'undefined');
  assert.equal(await a.evaluate(() => window.sandbox.info.leader), true, 'the first tab leads');
  assert.equal(await b.evaluate(() => window.sandbox.info.leader), false, 'the second tab follows');
  const ia = await a.evaluate(() => window.sandbox.info.instance);
  assert.ok(ia);
  assert.equal(await b.evaluate(() => window.sandbox.info.instance), ia, 'both tabs use the leader\'s core');

  // one cluster: a write in A is read in B, and the other way round
  const n1 = 'leader-a-' + Date.now();
  const created = await post(a, n1);
  assert.equal(created.status, 201, created.body);
  const got = await get(b, n1);
  assert.equal(got.status, 200);
  assert.equal(got.body.metadata.name, n1);
  const n2 = 'leader-b-' + Date.now();
  assert.equal((await post(b, n2)).status, 201);
  assert.equal((await get(a, n2)).status, 200);

  // the follower's export goes to the leader's core
  const yaml = await b.evaluate(() => window.sandbox.export());
  assert.match(yaml, new RegExp(`name: ${n1}`));

  // close the leader: B takes the lock and starts a core restored from IndexedDB
  await a.close({ runBeforeUnload: false });
  await b.waitForFunction(() => window.sandbox.info.leader === true, null, { timeout: 15000 });
  await b.evaluate(() => window.sandbox.ready);
  await b.waitForFunction((ia) => window.sandbox.info.instance && window.sandbox.info.instance !== ia, ia, { timeout: 30000 });
  const after1 = await get(b, n1);
  assert.equal(after1.status, 200, JSON.stringify(after1.body));
  assert.equal(after1.body.metadata.name, n1);
  assert.equal((await get(b, n2)).status, 200);
  // and the new leader still takes writes
  const n3 = 'leader-c-' + Date.now();
  assert.equal((await post(b, n3)).status, 201);
  assert.equal((await get(b, n3)).status, 200);

  // a new tab follows the new leader
  const c = await openWithoutSharedWorker();
  assert.equal(await c.evaluate(() => window.sandbox.info.leader), false);
  assert.equal((await get(c, n3)).status, 200);
  await c.close();
  await b.close();
});
