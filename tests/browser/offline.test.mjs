// Offline after the first visit: the service worker stores the runtime
// (worker.js, wasm_exec.js, kubesandbox.wasm, sandbox.js) and the pages, so
// a reload with the network off — and a fresh start of the Go core with the
// static server gone — still loads the page, starts the wasm and answers
// the API. API requests never reach the static server, online or offline.
// Run: make test-browser (or node --test tests/browser/offline.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openSandbox } from './lib.mjs';

const env = useBrowser();

const CM = '/api/v1/namespaces/default/configmaps';
const API = /^\/(version|api|apis|openapi|livez|readyz|healthz)(\/|\?|$)/;

// api runs one fetch in the page and returns {status, body}.
function api(page, method, path, obj) {
  return page.evaluate(async ({ method, path, obj }) => {
    const init = { method };
    if (obj) {
      init.headers = { 'Content-Type': 'application/json' };
      init.body = JSON.stringify(obj);
    }
    const res = await fetch(path, init);
    const text = await res.text();
    let body = text;
    try { body = JSON.parse(text); } catch (e) { /* not JSON */ }
    return { status: res.status, body };
  }, { method, path, obj });
}

const configMap = (name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: name } });

// cached lists what the page's origin holds in its kubesandbox caches:
// {cacheName: [[path, content-type], …]}.
function cached(page) {
  return page.evaluate(async () => {
    const out = {};
    for (const name of await caches.keys()) {
      const c = await caches.open(name);
      out[name] = await Promise.all((await c.keys()).map(async (r) => {
        const res = await c.match(r);
        return [new URL(r.url).pathname, res.headers.get('Content-Type')];
      }));
    }
    return out;
  });
}

// waitCached polls until the runtime cache, the page itself and every
// script and stylesheet it loaded (its module graph: one missing module
// and the offline page never starts) are stored.
async function waitCached(page) {
  const loaded = await page.evaluate(() => performance.getEntriesByType('resource')
    .map((e) => new URL(e.name)).filter((u) => u.origin === location.origin && /\.(js|css)$/.test(u.pathname) && !u.pathname.startsWith('/web/'))
    .map((u) => u.pathname));
  for (let i = 0; i < 300; i++) {
    const all = await cached(page);
    const runtime = Object.keys(all).find((k) => k.startsWith('kubesandbox-v1-runtime-'));
    const pages = (all['kubesandbox-v1-pages'] || []).map(([p]) => p);
    if (runtime && all[runtime].length === 7 && ['/', ...loaded].every((p) => pages.includes(p))) return all;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the runtime and page were not cached: ' + JSON.stringify(await cached(page)));
}

test('after one visit the playground loads and answers the API offline', async () => {
  const { context } = env.browser;
  // 1. First visit, online: store a ConfigMap (IndexedDB) and let the caches fill.
  let page = await openSandbox(context, env.server.url);
  assert.equal((await api(page, 'POST', CM, configMap('before-offline'))).status, 201);
  const all = await waitCached(page);
  const runtime = Object.keys(all).find((k) => k.startsWith('kubesandbox-v1-runtime-'));
  assert.match(runtime, /^kubesandbox-v1-runtime-[0-9a-f]{16}$/, 'the runtime cache is named after its build');
  assert.deepEqual(Object.fromEntries(all[runtime]), {
    '/web/worker.js': 'text/javascript; charset=utf-8',
    '/web/worker-db.js': 'text/javascript; charset=utf-8',
    '/web/worker-cel.js': 'text/javascript; charset=utf-8',
    '/web/wasm_exec.js': 'text/javascript; charset=utf-8',
    '/web/kubesandbox.wasm': 'application/wasm',
    '/web/sandbox.js': 'text/javascript; charset=utf-8',
    '/web/kubesandbox-docs.json': 'application/json',
  });
  const pagePaths = all['kubesandbox-v1-pages'].map(([p]) => p);
  for (const p of ['/', '/css/playground.css', '/js/app.js']) assert.ok(pagePaths.includes(p), p + ' is cached');
  assert.ok(!pagePaths.some((p) => API.test(p)), 'no API response is cached: ' + pagePaths);
  // The cached wasm is what the browser received: a complete, decoded module.
  assert.equal(await page.evaluate(async () => {
    const c = await caches.open((await caches.keys()).find((k) => k.includes('runtime')));
    return WebAssembly.validate(await (await c.match('/web/kubesandbox.wasm')).arrayBuffer());
  }), true);
  const firstInstance = await page.evaluate(() => window.sandbox.info.instance);

  // 2. Network off, reload: the page comes from the cache, the API answers.
  await context.setOffline(true);
  await page.reload();
  await page.evaluate(() => window.sandbox.ready);
  const ns = await api(page, 'GET', '/api/v1/namespaces');
  assert.equal(ns.status, 200);
  assert.equal(ns.body.kind, 'NamespaceList');
  assert.ok(ns.body.items.some((n) => n.metadata.name === 'default'));
  assert.equal((await api(page, 'GET', CM + '/before-offline')).body.data.k, 'before-offline');
  assert.equal((await api(page, 'POST', CM, configMap('offline-1'))).status, 201);
  assert.equal((await api(page, 'GET', CM + '/offline-1')).status, 200);
  assert.equal((await api(page, 'GET', '/api/v1/namespaces/nope/configmaps/x')).status, 404);

  const seen = await env.server.requests();
  assert.ok(seen.includes('/'), 'the first visit came from the static server');
  assert.deepEqual(seen.filter((p) => API.test(p)), [], 'no API path reached the static server');

  // 3. Static server gone, every page closed: a new page starts a new Go core,
  //    its worker.js (+ worker-db.js, worker-cel.js), wasm_exec.js and kubesandbox.wasm all from the cache.
  env.server.stop();
  await new Promise((r) => setTimeout(r, 300));
  await assert.rejects(fetch(env.server.url + '/'), 'the static server is stopped');
  await page.close();
  await new Promise((r) => setTimeout(r, 1000)); // the SharedWorker ends with its last page
  page = await openSandbox(context, env.server.url);
  const info = await page.evaluate(() => ({ ...window.sandbox.info }));
  assert.notEqual(info.instance, firstInstance, 'a fresh core started from the cached wasm');
  assert.equal(await page.title(), (await page.evaluate(() => document.title)));
  assert.ok(await page.evaluate(() => document.querySelector('link[rel=stylesheet]').sheet.cssRules.length > 0),
    'the stylesheet came from the cache');
  for (const name of ['before-offline', 'offline-1']) {
    const got = await api(page, 'GET', CM + '/' + name);
    assert.equal(got.status, 200, name);
    assert.equal(got.body.data.k, name);
  }
  assert.equal((await api(page, 'POST', CM, configMap('offline-2'))).status, 201);
  // kubectl explain offline: the fresh core's OpenAPI descriptions come from the cache too
  const v2 = await api(page, 'GET', '/openapi/v2');
  assert.equal(v2.body.definitions['io.k8s.api.apps.v1.DeploymentStrategy'].description,
    'DeploymentStrategy describes how to replace existing pods with new ones.');
  const list = await api(page, 'GET', CM);
  assert.deepEqual(list.body.items.map((c) => c.metadata.name).filter((n) => /offline/.test(n)).sort(),
    ['before-offline', 'offline-1', 'offline-2']);
  await page.close();
  await context.setOffline(false);
});
