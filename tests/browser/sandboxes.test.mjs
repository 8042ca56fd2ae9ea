// Several sandboxes in one Go instance (issue #16: a docs page of 5
// examples pays one compile and one Go start-up): the sandboxes of a page
// share the origin's SharedWorker, and each is still a cluster of its own
// — writes, watches, reset and restore of one never reach another, and
// no request header can address another sandbox. Run: make test-browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openSandbox, sharedWorkers, killSharedWorkers, closeAll, waitUntil } from './lib.mjs';

const env = useBrowser();
const CMS = '/api/v1/namespaces/default/configmaps';

// open loads two-sandboxes.html (window.a, window.b) and waits for both.
async function open() {
  const page = await env.browser.context.newPage();
  page.on('pageerror', (e) => console.error('[page error]', e.message));
  await page.goto(env.server.url + '/fixtures/two-sandboxes.html');
  await page.waitForFunction(() => window.both);
  await page.evaluate(() => window.both);
  return page;
}

// helpers defines in the page: create(ks, name) → status, get(ks, name) → status.
const helpers = () => {
  window.create = async (ks, name, data = {}) => (await ks.fetch('/api/v1/namespaces/default/configmaps', {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data }),
  })).status;
  window.get = async (ks, name) => (await ks.fetch('/api/v1/namespaces/default/configmaps/' + name)).status;
};

test('the sandboxes of a page share one SharedWorker and Go instance', async () => {
  const page = await open();
  const workers = await sharedWorkers(env.browser);
  assert.equal(workers.length, 1, `one SharedWorker: ${JSON.stringify(workers.map((w) => w.url))}`);
  const [ia, ib] = await page.evaluate(() => [window.a.info.instance, window.b.info.instance]);
  assert.ok(ia);
  assert.equal(ia, ib, 'one Go instance serves both');
  await closeAll(env.browser, [page]);
});

test('a write in one sandbox of the instance is invisible to the other, whatever the headers say', async () => {
  const page = await open();
  await page.evaluate(helpers);
  const out = await page.evaluate(async () => {
    const created = await window.create(window.a, 'w-only-a', { k: 'a' });
    // a client naming the other sandbox in the worker's header reaches its own sandbox still
    const spoofed = await fetch('/sandbox/b/api/v1/namespaces/default/configmaps/w-only-a', { headers: { 'Kubesandbox-Sandbox': 'a' } });
    const spoofedPost = await fetch('/sandbox/b/api/v1/namespaces/default/configmaps', {
      method: 'POST', headers: { 'Content-Type': 'application/json', 'Kubesandbox-Sandbox': 'a' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w-posted-to-b' } }),
    });
    return {
      created, inA: await window.get(window.a, 'w-only-a'), inB: await window.get(window.b, 'w-only-a'),
      spoofed: spoofed.status, spoofedPost: spoofedPost.status,
      postedInB: await window.get(window.b, 'w-posted-to-b'), postedInA: await window.get(window.a, 'w-posted-to-b'),
      sameName: await window.create(window.b, 'w-only-a'),
      dbA: (await window.a.stats()).db.writes, dbB: (await window.b.stats()).db.writes,
    };
  });
  assert.deepEqual([out.created, out.inA, out.inB], [201, 200, 404]);
  assert.equal(out.spoofed, 404, 'the header is the worker\'s, not the client\'s');
  assert.deepEqual([out.spoofedPost, out.postedInB, out.postedInA], [201, 200, 404]);
  assert.equal(out.sameName, 201, 'names do not collide');
  assert.ok(out.dbA > 0 && out.dbB > 0, `each sandbox counts its own database writes: ${out.dbA}, ${out.dbB}`);
  await closeAll(env.browser, [page]);
});

// helpers also: open(ks) → a watch of the ConfigMaps from now, open once it
// resolves (its head has arrived); names(res, last) → the names it
// delivers up to last; text(res) → the rest of the stream.
const watchHelpers = async () => {
  const { readWatch } = await import('/web/sandbox.js');
  window.openWatch = async (ks) => {
    const rv = (await (await ks.fetch('/api/v1/namespaces/default/configmaps?limit=1')).json()).metadata.resourceVersion;
    return ks.fetch('/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=' + rv);
  };
  window.names = async (res, last) => {
    const seen = [];
    for await (const ev of readWatch(res)) {
      seen.push(ev.type === 'ERROR' ? 'ERROR' : ev.object.metadata.name);
      if (seen.at(-1) === last) break;
    }
    return seen;
  };
};

test('a watch on one sandbox sees its own writes only', async () => {
  const page = await open();
  await page.evaluate(helpers);
  await page.evaluate(watchHelpers);
  const names = await page.evaluate(async () => {
    const res = await window.openWatch(window.b);
    await window.create(window.a, 'x-in-a');
    await window.create(window.b, 'x-in-b');
    return window.names(res, 'x-in-b');
  });
  assert.deepEqual(names.filter((n) => n.startsWith('x-')), ['x-in-b'], `b's watch saw: ${names}`);
  await closeAll(env.browser, [page]);
});

test('a reset of one sandbox leaves the other, its objects and its open watch', async () => {
  const page = await open();
  await page.evaluate(helpers);
  await page.evaluate(watchHelpers);
  const out = await page.evaluate(async () => {
    await window.create(window.a, 'r-in-a');
    await window.create(window.b, 'r-in-b');
    const rvBefore = (await (await window.a.fetch('/api/v1/namespaces/default/configmaps')).json()).metadata.resourceVersion;
    const aRes = await window.openWatch(window.a);
    const bRes = await window.openWatch(window.b);
    await window.a.reset();
    const aEvents = await aRes.text();
    await window.create(window.b, 'r-after-reset');
    const bSeen = await window.names(bRes, 'r-after-reset');
    const rvAfter = (await (await window.a.fetch('/api/v1/namespaces/default/configmaps')).json()).metadata.resourceVersion;
    return {
      aEvents, bSeen, inA: await window.get(window.a, 'r-in-a'), inB: await window.get(window.b, 'r-in-b'),
      rvBefore: Number(rvBefore), rvAfter: Number(rvAfter), instances: [window.a.info.instance, window.b.info.instance],
    };
  });
  const last = JSON.parse(out.aEvents.trim().split('\n').at(-1));
  assert.deepEqual([last.type, last.object.code, last.object.reason], ['ERROR', 410, 'Expired'], 'a\'s watch ended with 410 Expired');
  assert.deepEqual(out.bSeen.filter((n) => n.startsWith('r-') || n === 'ERROR'), ['r-after-reset'], `b's watch went on through a's reset: ${out.bSeen}`);
  assert.equal(out.inA, 404, 'a is empty after its reset');
  assert.equal(out.inB, 200, 'b kept its object');
  assert.ok(out.rvAfter >= out.rvBefore, `a's resourceVersions go on: ${out.rvBefore} → ${out.rvAfter}`);
  assert.equal(out.instances[0], out.instances[1], 'the same Go instance');
  await closeAll(env.browser, [page]);
});

test('after the shared worker is killed, each sandbox restores its own state', async () => {
  let page = await open();
  await page.evaluate(helpers);
  assert.deepEqual(await page.evaluate(async () => [await window.create(window.a, 'k-in-a', { v: 'a' }), await window.create(window.b, 'k-in-b', { v: 'b' })]), [201, 201]);
  const before = await page.evaluate(() => window.a.info.instance);
  await page.close();
  await killSharedWorkers(env.browser);
  page = await open();
  await page.evaluate(helpers);
  const out = await page.evaluate(async () => {
    const data = async (ks, n) => { const r = await ks.fetch('/api/v1/namespaces/default/configmaps/' + n); return r.status === 200 ? (await r.json()).data : r.status; };
    return { instance: window.a.info.instance, aa: await data(window.a, 'k-in-a'), ab: await data(window.a, 'k-in-b'), bb: await data(window.b, 'k-in-b'), ba: await data(window.b, 'k-in-a') };
  });
  assert.notEqual(out.instance, before, 'a new worker');
  assert.deepEqual([out.aa, out.ab, out.bb, out.ba], [{ v: 'a' }, 404, { v: 'b' }, 404]);
  await closeAll(env.browser, [page]);
});

test('a sandbox none of whose pages is left is closed while others keep the worker, and opens again with its state', async () => {
  const q = (name) => `/fixtures/sandbox-q.html?sandbox=${name}&worker=${encodeURIComponent('closeAfter=300')}`;
  const a = await openSandbox(env.browser.context, env.server.url, q('idle-a'));
  const keep = await openSandbox(env.browser.context, env.server.url, q('idle-keep'));
  const created = await a.evaluate(async () => (await window.sandbox.fetch('/api/v1/namespaces/default/configmaps', {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kept' }, data: { k: 'v' } }),
  })).status);
  assert.equal(created, 201);
  assert.deepEqual((await keep.evaluate(() => window.sandbox.stats())).sandboxes.sort(), ['idle-a', 'idle-keep']);
  await a.close();
  await waitUntil(keep, async () => !(await window.sandbox.stats()).sandboxes.includes('idle-a'), null, { timeout: 30000, polling: 100 });
  // a request for it (here from a page of another sandbox) opens it again, restored
  const got = await keep.evaluate(async () => {
    const r = await fetch('/sandbox/idle-a/api/v1/namespaces/default/configmaps/kept');
    return { status: r.status, data: r.status === 200 ? (await r.json()).data : null, sandboxes: (await window.sandbox.stats()).sandboxes.sort() };
  });
  assert.deepEqual(got, { status: 200, data: { k: 'v' }, sandboxes: ['idle-a', 'idle-keep'] });
  await closeAll(env.browser, [keep]);
});
