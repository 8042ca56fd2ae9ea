// Faults injected into the browser runtime while it works: the SharedWorker
// killed in the middle of a burst of writes and under open watches, the
// service worker stopped mid-burst, a page reloaded mid-request, and
// several pages racing read-modify-write on one object. After each:
// every acknowledged write is there, resourceVersions only go up, and a
// watch either continues without a gap or says 410 — never a silent gap.
// Run: make test-browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openSandbox, api, killSharedWorkers, sharedWorkers, waitUntil } from './lib.mjs';
import { waitFor } from './cluster-lib.mjs';

const env = useBrowser();

const CM = '/api/v1/namespaces/default/configmaps';
const rvOf = (o) => Number(o.metadata.resourceVersion);

const open = () => openSandbox(env.browser.context, env.server.url, '/fixtures/durable.html');

// burst starts n concurrent creates named prefix-0…n-1 in the page; the
// outcomes collect in window.burst (status + body, or the network error).
function burst(page, prefix, n) {
  return page.evaluate(({ path, prefix, n }) => {
    window.burst = { acked: 0, done: null };
    window.burst.done = Promise.all(Array.from({ length: n }, (_, i) => fetch(path, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${prefix}-${i}` }, data: { i: String(i) } }),
    }).then(async (r) => {
      const body = await r.json().catch(() => null);
      if (r.status === 201) window.burst.acked++;
      return { name: `${prefix}-${i}`, status: r.status, body };
    }, (err) => ({ name: `${prefix}-${i}`, status: 0, error: String(err) }))));
  }, { path: CM, prefix, n });
}

const burstDone = (page) => page.evaluate(() => window.burst.done);

// checkOutcome: every 201 is stored with its resourceVersion; every other
// name is either absent or whole (its data intact: never half-written).
async function checkOutcome(page, results) {
  const list = await api(page, 'GET', CM);
  assert.equal(list.status, 200, JSON.stringify(list.body));
  const stored = new Map(list.body.items.map((o) => [o.metadata.name, o]));
  for (const r of results) {
    const o = stored.get(r.name);
    if (r.status === 201) {
      assert.ok(o, `${r.name} was acknowledged (201) and is missing`);
      assert.equal(o.metadata.resourceVersion, r.body.metadata.resourceVersion, `${r.name}: resourceVersion`);
    }
    if (o) assert.deepEqual(o.data, { i: r.name.split('-').pop() }, `${r.name} is whole`);
  }
  const rvs = list.body.items.map(rvOf);
  assert.equal(new Set(rvs).size, rvs.length, 'no resourceVersion shared by two objects');
  return { list, maxRV: Math.max(...rvs, Number(list.body.metadata.resourceVersion)) };
}

test('bad requests through the page → service worker → wasm path get the real Status and change nothing', async () => {
  const page = await open();
  // the controllers publish kube-root-ca.crt in every namespace: let them
  await waitFor('kube-root-ca.crt in default', async () => (await api(page, 'GET', `${CM}/kube-root-ca.crt`)).status === 200);
  const before = await api(page, 'GET', CM);
  const cases = await page.evaluate(async (path) => {
    const send = async (method, url, body, type = 'application/json') => {
      const r = await fetch(url, { method, body, headers: body == null ? {} : { 'Content-Type': type } });
      const text = await r.text();
      let j = null;
      try { j = JSON.parse(text); } catch (e) { /* not JSON */ }
      return [r.status, j && j.kind, j && j.reason, j && j.message && j.message.slice(0, 60)];
    };
    const big = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: { k: 'x'.repeat(3 * 1024 * 1024) } });
    return {
      badJSON: await send('POST', path, '{"apiVersion": "v1",'),
      badName: await send('POST', path, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Bad_Name' } })),
      tooLarge: await send('POST', path, big),
      mediaType: await send('PATCH', path + '/whatever', '{}', 'text/plain'),
      missing: await send('GET', path + '/does-not-exist'),
      badRV: await send('GET', path + '?resourceVersion=abc'),
    };
  }, CM);
  assert.deepEqual(cases.badJSON.slice(0, 3), [400, 'Status', 'BadRequest']);
  assert.deepEqual(cases.badName.slice(0, 3), [422, 'Status', 'Invalid']);
  assert.deepEqual(cases.tooLarge, [413, 'Status', 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728']);
  assert.deepEqual(cases.mediaType.slice(0, 3), [415, 'Status', 'UnsupportedMediaType']);
  assert.deepEqual(cases.missing.slice(0, 3), [404, 'Status', 'NotFound']);
  assert.deepEqual(cases.badRV.slice(0, 3), [400, 'Status', 'BadRequest']);
  // The list's resourceVersion is the cluster's (the controllers write
  // elsewhere meanwhile): the objects themselves must be unchanged.
  const after = await api(page, 'GET', CM);
  const objs = (l) => l.body.items.map((i) => `${i.metadata.name}@${i.metadata.resourceVersion}`);
  assert.deepEqual(objs(after), objs(before), 'nothing was written');
  for (const name of ['big', 'Bad_Name', 'whatever']) assert.notEqual((await api(page, 'GET', `${CM}/${name}`)).status, 200, `${name} is not stored`);
  await page.close();
});

test('SharedWorker killed during a burst of writes: acknowledged writes survive, none half-written, RVs go up', async () => {
  const page = await open();
  await burst(page, 'kb', 60);
  await page.waitForFunction(() => window.burst.acked >= 5, null, { polling: 10 });
  const before = await page.evaluate(() => window.sandbox.info.instance);
  assert.equal(await killSharedWorkers(env.browser), 1);
  const results = await burstDone(page);
  const acked = results.filter((r) => r.status === 201).length;
  const failed = results.filter((r) => r.status !== 201);
  // A request cut off by the kill is re-sent once to the restarted core;
  // if its first attempt had been committed, the retry meets 409.
  for (const r of failed) assert.ok([0, 409, 503].includes(r.status), `${r.name}: ${r.status} ${JSON.stringify(r.body || r.error)}`);
  assert.ok(acked >= 5, `acknowledged before the kill: ${acked}`);
  const { maxRV } = await checkOutcome(page, results);
  assert.notEqual(await page.evaluate(() => window.sandbox.info.instance), before, 'a new SharedWorker took over');
  const next = await api(page, 'POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kb-after' }, data: { i: 'after' } });
  assert.equal(next.status, 201);
  assert.ok(rvOf(next.body) > maxRV, `after the restart ${rvOf(next.body)} > ${maxRV}`);
  await page.close();
});

test('SharedWorker killed under an open watch: the watch resumes from its last resourceVersion, no gap, no repeat', async () => {
  const page = await open();
  const writer = await open();
  // the watch collects into window.seen until it has every wk-* name
  const from = (await api(page, 'GET', CM)).body.metadata.resourceVersion;
  await page.evaluate(({ path, from }) => {
    window.seen = [];
    window.watchError = null;
    (async () => {
      try {
        for await (const ev of window.sandbox.watch(path, { resourceVersion: from })) {
          if (ev.type === 'BOOKMARK') continue;
          window.seen.push([ev.type, ev.object.metadata.name, ev.object.metadata.resourceVersion]);
        }
      } catch (e) { window.watchError = [e.name, e.status || 0, e.message]; }
    })();
  }, { path: CM, from });
  const write = async (name) => {
    for (let attempt = 0; attempt < 20; attempt++) {
      const r = await api(writer, 'POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { i: '0' } });
      if (r.status === 201 || r.status === 409) return r;
      await writer.waitForTimeout(100); // 503 while the worker restarts: try again
    }
    throw new Error('no core answered');
  };
  for (let i = 0; i < 5; i++) await write('wk-' + i);
  await page.waitForFunction(() => window.seen.length >= 5, null, { polling: 20 });
  assert.equal(await killSharedWorkers(env.browser), 1);
  for (let i = 5; i < 10; i++) await write('wk-' + i);
  await page.waitForFunction(() => window.seen.filter((e) => e[1].startsWith('wk-')).length >= 10 || window.watchError,
    null, { polling: 50, timeout: 60000 });
  const [seen, error] = await page.evaluate(() => [window.seen, window.watchError]);
  assert.equal(error, null, 'the watch resumed instead of failing');
  const names = seen.filter((e) => e[1].startsWith('wk-')).map((e) => e[0] + ' ' + e[1]);
  assert.deepEqual(names, Array.from({ length: 10 }, (_, i) => 'ADDED wk-' + i));
  const rvs = seen.map((e) => Number(e[2]));
  assert.deepEqual(rvs, [...rvs].sort((a, b) => a - b), 'resourceVersions in order');
  assert.equal(new Set(rvs).size, rvs.length, 'no event delivered twice');
  await page.close();
  await writer.close();
});

test('service worker stopped during a burst of writes and under a watch: the next requests work, nothing acknowledged is lost', async () => {
  const page = await open();
  const from = (await api(page, 'GET', CM)).body.metadata.resourceVersion;
  await page.evaluate(({ path, from }) => {
    window.seen = [];
    window.watchError = null;
    (async () => {
      try {
        for await (const ev of window.sandbox.watch(path, { resourceVersion: from })) {
          if (ev.type !== 'BOOKMARK') window.seen.push([ev.type, ev.object.metadata.name, ev.object.metadata.resourceVersion]);
        }
      } catch (e) { window.watchError = [e.name, e.status || 0, e.message]; }
    })();
  }, { path: CM, from });
  await burst(page, 'sb', 40);
  await page.waitForFunction(() => window.burst.acked >= 3, null, { polling: 10 });
  const cdp = await env.browser.context.newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  const results = await burstDone(page);
  for (const r of results) assert.ok([0, 201, 409, 503].includes(r.status), `${r.name}: ${r.status}`);
  await checkOutcome(page, results);
  // the watch: every stored sb-* object was seen once, in order (it resumed), or it said 410
  const stored = (await api(page, 'GET', CM)).body.items.filter((o) => o.metadata.name.startsWith('sb-'));
  await page.waitForFunction((n) => window.seen.filter((e) => e[1].startsWith('sb-')).length >= n || window.watchError,
    stored.length, { polling: 50, timeout: 60000 });
  const [seen, error] = await page.evaluate(() => [window.seen, window.watchError]);
  if (error) assert.equal(error[1], 410, 'a watch may only fail with 410: ' + error);
  else {
    const got = seen.filter((e) => e[1].startsWith('sb-'));
    assert.deepEqual(got.map((e) => e[1]).sort(), stored.map((o) => o.metadata.name).sort());
    assert.equal(new Set(got.map((e) => e[2])).size, got.length, 'no event twice');
  }
  assert.equal((await api(page, 'GET', '/version')).status, 200);
  await cdp.detach();
  await page.close();
});

test('a page reloaded in the middle of its requests: each write happened whole or not at all; the core serves on', async () => {
  const page = await open();
  await burst(page, 'rl', 30);
  await page.waitForFunction(() => window.burst.acked >= 2, null, { polling: 5 });
  await page.reload();
  await page.evaluate(() => window.sandbox.ready);
  const list = await api(page, 'GET', CM);
  const mine = list.body.items.filter((o) => o.metadata.name.startsWith('rl-'));
  assert.ok(mine.length >= 2, `${mine.length} of the 30 writes were stored`);
  for (const o of mine) assert.deepEqual(o.data, { i: o.metadata.name.split('-').pop() });
  // nothing is left streaming in the worker, and it still writes
  await waitUntil(page, async () => (await window.sandbox.stats()).live === 0, null, { polling: 100, timeout: 10000 });
  const next = await api(page, 'POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'rl-after' }, data: { i: 'after' } });
  assert.equal(next.status, 201);
  assert.ok(rvOf(next.body) > Math.max(...mine.map(rvOf)));
  await page.close();
});

test('four pages racing RV-guarded read-modify-write on one object: no lost update, every 409 retried', async () => {
  const pages = [await open(), await open(), await open(), await open()];
  assert.equal((await sharedWorkers(env.browser)).length, 1, 'one core for all pages');
  const made = await api(pages[0], 'POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'counter' }, data: { n: '0' } });
  assert.equal(made.status, 201);
  const PER = 15;
  const outcomes = await Promise.all(pages.map((p) => p.evaluate(async ({ url, per }) => {
    let conflicts = 0;
    for (let done = 0; done < per;) {
      const cur = await (await fetch(url)).json();
      cur.data.n = String(Number(cur.data.n) + 1);
      const r = await fetch(url, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(cur) });
      if (r.status === 200) done++;
      else if (r.status === 409) conflicts++;
      else throw new Error('PUT: ' + r.status + ' ' + await r.text());
    }
    return conflicts;
  }, { url: `${CM}/counter`, per: PER })));
  const final = await api(pages[0], 'GET', `${CM}/counter`);
  assert.equal(final.body.data.n, String(4 * PER), `no lost update (409s retried: ${outcomes.join(', ')})`);
  // the object's history holds every value once, in order
  const history = await pages[1].evaluate(async ({ path, from, n }) => {
    const values = [];
    for await (const ev of window.sandbox.watch(path + '?fieldSelector=metadata.name%3Dcounter', { resourceVersion: from })) {
      if (ev.type === 'MODIFIED') values.push(Number(ev.object.data.n));
      if (values.length === n) break;
    }
    return values;
  }, { path: CM, from: made.body.metadata.resourceVersion, n: 4 * PER });
  assert.deepEqual(history, Array.from({ length: 4 * PER }, (_, i) => i + 1));
  for (const p of pages) await p.close();
});

test('ten reloads in a row, each while the previous SharedWorker may still be shutting down: every one gets a ready core with the state', async () => {
  const page = await open();
  const made = await api(page, 'POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'reloads' }, data: { i: 'r' } });
  assert.equal(made.status, 201);
  for (let i = 0; i < 10; i++) {
    await page.reload();
    await page.waitForFunction(() => window.sandbox);
    await page.evaluate(() => window.sandbox.ready);
    const got = await api(page, 'GET', `${CM}/reloads`);
    assert.equal(got.status, 200, `reload ${i + 1}: ${JSON.stringify(got.body)}`);
    assert.equal(got.body.metadata.resourceVersion, made.body.metadata.resourceVersion);
  }
  await page.close();
});
