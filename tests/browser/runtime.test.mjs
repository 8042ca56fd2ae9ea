// The browser runtime end to end, in Debian's headless Chromium:
// page → service worker → SharedWorker (Go wasm core). Run: make test-browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openSandbox, waitUntil } from './lib.mjs';

const env = useBrowser();

const CM = '/api/v1/namespaces/default/configmaps';

// configMap is a minimal ConfigMap with a unique name.
function configMap(name) {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } };
}

async function post(page, path, obj) {
  return page.evaluate(async ({ path, obj }) => {
    const res = await fetch(path, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(obj),
    });
    return { status: res.status, body: await res.text() };
  }, { path, obj });
}

test('the page is controlled on its first visit', async () => {
  const page = await openSandbox(env.browser.context, env.server.url);
  assert.equal(await page.evaluate(() => navigator.serviceWorker.controller !== null), true);
  assert.equal(await page.evaluate(() => navigator.serviceWorker.controller.scriptURL),
    env.server.url + '/web/sw.js');
  await page.close();
});

test('/version is answered by the wasm core, never by the static server', async () => {
  const page = await openSandbox(env.browser.context, env.server.url);
  const res = await page.evaluate(async () => {
    const r = await fetch('/version');
    return { status: r.status, type: r.headers.get('content-type'), body: await r.json() };
  });
  assert.equal(res.status, 200);
  assert.equal(res.type, 'application/json');
  assert.equal(res.body.major, '1');
  assert.match(res.body.gitVersion, /kubesandbox/);
  const seen = await env.server.requests();
  assert.ok(seen.includes('/web/kubesandbox.wasm'), 'the wasm came from the static server');
  assert.deepEqual(seen.filter((p) => /^\/(version|api|apis|openapi|livez|readyz|healthz)(\/|\?|$)/.test(p)), [],
    'no API path reached the static server');
  // and the static server itself would not have answered it
  assert.equal((await fetch(env.server.url + '/version')).status, 404);
  await page.close();
});

test('non-API paths pass through to the static server', async () => {
  const page = await openSandbox(env.browser.context, env.server.url);
  const res = await page.evaluate(async () => {
    const r = await fetch('/fixtures/hello.txt?from=page');
    return { status: r.status, body: await r.text() };
  });
  assert.deepEqual(res, { status: 200, body: 'hello from the static server\n' });
  assert.ok((await env.server.requests()).includes('/fixtures/hello.txt?from=page'));
  // a path that only looks like an API prefix is not one
  const apidocs = await page.evaluate(async () => (await fetch('/apidocs')).status);
  assert.equal(apidocs, 404);
  assert.ok((await env.server.requests()).includes('/apidocs'));
  await page.close();
});

test('two pages share one SharedWorker and see each other\'s writes', async (t) => {
  const a = await openSandbox(env.browser.context, env.server.url);
  const b = await openSandbox(env.browser.context, env.server.url);
  const ia = await a.evaluate(() => window.sandbox.info.instance);
  const ib = await b.evaluate(() => window.sandbox.info.instance);
  assert.ok(ia);
  assert.equal(ia, ib, 'both pages talk to the same core instance');
  const name = 'shared-' + Date.now();
  const created = await post(a, CM, configMap(name));
  if (created.status === 404) {
    t.skip('the core does not serve configmaps yet (POST returned 404)');
  } else {
    assert.equal(created.status, 201, created.body);
    const got = await b.evaluate(async (p) => {
      const r = await fetch(p);
      return { status: r.status, body: await r.json() };
    }, `${CM}/${name}`);
    assert.equal(got.status, 200);
    assert.equal(got.body.metadata.name, name);
    assert.deepEqual(got.body.data, { k: 'v' });
  }
  await a.close();
  await b.close();
});

test('a watch streams events through the service worker, and cancelling it breaks nothing', async (t) => {
  const a = await openSandbox(env.browser.context, env.server.url);
  const b = await openSandbox(env.browser.context, env.server.url);
  const probe = await a.evaluate(async (p) => {
    const r = await fetch(p + '?watch=1&timeoutSeconds=1');
    const status = r.status;
    await r.body?.cancel();
    return status;
  }, CM);
  if (probe === 404 || probe === 405 || probe === 501) {
    t.skip(`the core does not serve watch on configmaps yet (HTTP ${probe})`);
    await a.close();
    await b.close();
    return;
  }
  assert.equal(probe, 200);
  // Page A watches; page B writes two ConfigMaps; A sees both as they happen.
  await a.evaluate((p) => {
    window.events = [];
    window.watchDone = (async () => {
      for await (const ev of window.sandbox.watch(p)) {
        window.events.push(ev);
        if (window.events.filter((e) => e.object.metadata.name.startsWith('w-')).length === 2) break;
      }
    })();
  }, CM);
  await a.waitForTimeout(300);
  const n1 = 'w-' + Date.now();
  assert.equal((await post(b, CM, configMap(n1))).status, 201);
  await a.waitForFunction((n) => window.events.some((e) => e.object.metadata.name === n), n1, { timeout: 5000 });
  const n2 = n1 + '-2';
  assert.equal((await post(b, CM, configMap(n2))).status, 201);
  await a.evaluate(() => window.watchDone); // broke out: the stream was cancelled
  const mine = await a.evaluate(() => window.events.filter((e) => e.object.metadata.name.startsWith('w-'))
    .map((e) => [e.type, e.object.metadata.name]));
  assert.deepEqual(mine, [['ADDED', n1], ['ADDED', n2]]);
  // After the cancel, requests still work, from both pages, many times.
  for (const page of [a, b]) {
    const statuses = await page.evaluate(async () => {
      const out = [];
      for (let i = 0; i < 20; i++) out.push((await fetch('/version')).status);
      return out;
    });
    assert.deepEqual(statuses, Array(20).fill(200));
  }
  // A raw watch cancelled mid-stream by the page, then a write: still fine.
  const after = await a.evaluate(async (p) => {
    const r = await fetch(p + '?watch=1');
    const reader = r.body.getReader();
    await reader.cancel();
    return (await fetch('/version')).status;
  }, CM);
  assert.equal(after, 200);
  assert.equal((await post(b, CM, configMap(n1 + '-3'))).status, 201);
  // Every cancelled stream was unregistered in the worker.
  await waitUntil(a, async () => (await window.sandbox.stats()).live === 0, null, { timeout: 5000, polling: 100 });
  await a.close();
  await b.close();
});

test('after the browser stops the service worker, the next request asks a page for a port again', async () => {
  const page = await openSandbox(env.browser.context, env.server.url);
  const before = await page.evaluate(() => window.sandbox.info.instance);
  assert.equal(await page.evaluate(async () => (await fetch('/version')).status), 200);
  // counted once the service worker holds this page's port (a port the
  // page was still handing at start would otherwise count as the restart's)
  const handed = await page.evaluate(() => window.sandbox.info.portsHanded);
  const cdp = await env.browser.context.newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await page.waitForTimeout(200);
  const res = await page.evaluate(async () => {
    const r = await fetch('/version');
    return { status: r.status, body: await r.json() };
  });
  assert.equal(res.status, 200);
  assert.match(res.body.gitVersion, /kubesandbox/);
  assert.equal(await page.evaluate(() => window.sandbox.info.instance), before, 'same core, state kept');
  assert.equal(await page.evaluate(() => window.sandbox.info.portsHanded), handed + 1,
    'the restarted service worker asked this page for a new port');
  await cdp.detach();
  await page.close();
});

test('an API request from a page that is not running sandbox.js is still answered', async () => {
  // The sandbox page hands ports; a second, plain page under the same
  // service worker is answered through the port the worker already holds.
  const owner = await openSandbox(env.browser.context, env.server.url);
  const plain = await env.browser.context.newPage();
  await plain.goto(env.server.url + '/fixtures/plain.html');
  assert.equal(await plain.evaluate(() => navigator.serviceWorker.controller !== null), true);
  const body = await plain.evaluate(async () => (await fetch('/version')).json());
  assert.match(body.gitVersion, /kubesandbox/);
  await plain.close();
  await owner.close();
});

test('wasm memory stays flat over many requests (no per-request leak)', async (t) => {
  const page = await openSandbox(env.browser.context, env.server.url);
  const run = (n) => page.evaluate(async ({ n, path }) => {
    for (let i = 0; i < n; i++) {
      const r = await fetch(i % 2 ? '/version' : path, i % 4 === 2 ? { method: 'POST', body: '{' } : undefined);
      await r.arrayBuffer();
    }
    return window.sandbox.stats();
  }, { n, path: CM });
  const warm = await run(300);
  const later = await run(2000);
  // The SharedWorker counts every request it answers, including any a
  // page of an earlier test still had in flight, so at least our 2000.
  assert.ok(later.served - warm.served >= 2000, `served ${later.served - warm.served} of 2000`);
  const growth = later.memoryBytes - warm.memoryBytes;
  t.diagnostic(`wasm memory ${warm.memoryBytes} → ${later.memoryBytes} bytes over 2000 requests`);
  assert.ok(growth <= 8 << 20, `wasm memory grew ${growth} bytes over 2000 requests (${warm.memoryBytes} → ${later.memoryBytes})`);
  await page.close();
});
