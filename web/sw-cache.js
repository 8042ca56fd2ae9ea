// kubesandbox offline cache, for the service worker (web/sw.js loads it
// with importScripts, so it is stored and updated with the worker itself).
// The router calls it for everything that is not an API path:
//
//   importScripts('sw-cache.js');
//   const offline = kubesandboxOfflineCache({ isAPI: (path) => …, runtime: folderURL });
//   install: e.waitUntil(offline.install())    activate: offline.activate()
//   a page handed a port: e.waitUntil(offline.warm([pageURL]))
//   fetch: offline.fetch(e) answers it (e.respondWith) or leaves it alone
//
// The runtime (ASSETS, in `runtime`: the folder of sw.js unless sw.js?runtime=… says) is stored on install, as a unit, in
// a cache named after its build (kubesandbox.wasm.sha256), e.g.
// "kubesandbox-v1-runtime-5b8cf8fe188ef433"; the first SharedWorker starts
// before the service worker controls anything, so it cannot be cached on
// the way. Every other same-origin GET under the scope that is not an API
// path (pages, css, scripts) is stale-while-revalidate in
// "kubesandbox-v1-pages". Each start of the runtime checks the build in
// the background: a new build is downloaded whole, then replaces the old
// cache — the next load runs it. API requests are never cached (the
// router never hands them here).
'use strict';

function kubesandboxOfflineCache({ isAPI, runtime = self.location.href }) {
  const CACHE_PREFIX = 'kubesandbox-v1-'; // bump when the cache layout changes
  const PAGES = CACHE_PREFIX + 'pages';
  const RUNTIME = CACHE_PREFIX + 'runtime-';
  // kubesandbox-docs.json: the OpenAPI descriptions (kubectl explain), which
  // the worker fetches on the first OpenAPI request; stored with the build
  // it belongs to, so that explain works offline too.
  const ASSETS = ['worker.js', 'worker-db.js', 'worker-cel.js', 'wasm_exec.js', 'kubesandbox.wasm', 'sandbox.js', 'kubesandbox-docs.json'].map((f) => new URL(f, runtime).href);
  const SUM = new URL('kubesandbox.wasm.sha256', runtime).href;
  // kubectl (web/kubectl.js) and the CEL engine's two parts (cel-crd.wasm
  // and cel-policy.wasm, which the worker loads the first time a CRD rule,
  // a policy exists) are loaded on first use, never on install: each wasm
  // is stored when first fetched, and replaced when its .sha256 changes.
  const LAZY = Object.fromEntries(['kubectl', 'cel-crd', 'cel-policy'].map((n) => [n, new URL(n + '.wasm', runtime).href]));
  const LAZY_SUMS = Object.values(LAZY).map((u) => u + '.sha256');
  const WARM_AT_ONCE = 6; // files warm fetches at a time (a browser's connections per host)
  // hrefs the server answered with an error status (a string in a script
  // that only looked like a path): later warms of this worker's life skip them
  const refused = new Set();
  let runtimeName = null; // the current runtime cache
  let refreshing = null;
  let refreshedAt = 0;

  // onFetch answers a non-API request from the caches (runtime assets,
  // pages) when it is a plain GET under the scope; else the browser's.
  function onFetch(e) {
    const r = e.request;
    if (r.method !== 'GET' || r.headers.has('Range') || !r.url.startsWith(self.registration.scope)) return;
    const url = new URL(r.url);
    if (url.origin !== self.location.origin) return;
    url.search = '';
    if (ASSETS.includes(url.href)) e.respondWith(runtimeAsset(e, url.href));
    else if (Object.values(LAZY).includes(url.href)) e.respondWith(lazyWasm(e, Object.keys(LAZY).find((n) => LAZY[n] === url.href)));
    else if (url.href !== SUM && !LAZY_SUMS.includes(url.href)) e.respondWith(staleWhileRevalidate(e));
  }

  // activate drops the caches of older layouts.
  async function activate() {
    for (const k of await caches.keys()) {
      // kubesandbox-v1-cel: the engine in one wasm, before its two parts
      if ((k.startsWith('kubesandbox-') && !k.startsWith(CACHE_PREFIX)) || k === CACHE_PREFIX + 'cel') await caches.delete(k);
    }
  }

  return {
    install: () => refreshRuntime().catch(() => {}), // offline or a broken build: the router still works
    activate,
    warm: (urls) => warm(urls).catch(() => {}),
    fetch: onFetch,
  };

  function cacheable(href) {
    const u = new URL(href);
    const path = u.pathname;
    u.search = '';
    return href.startsWith(self.registration.scope) && !ASSETS.includes(u.href) && u.href !== SUM && !isAPI(path);
  }

  // warm stores pages not yet in the pages cache and, transitively, the
  // same-origin files they name: src="…" / href="…" in HTML and CSS url(…),
  // import … from '…' / import('…') in scripts (at most 200 files; a
  // reference is a quoted path without spaces, braces, parentheses or $, so
  // code such as el.href = `${base}/x` is not taken for a file). E.g.
  // / → css/playground.css, js/app.js → js/dom.js, …. A file already
  // stored (the page fetched it through this worker) is not fetched
  // again, but what it names is still followed: a module a tab imports
  // later is stored now, not when the tab opens. WARM_AT_ONCE files are
  // fetched at a time, so a reader going offline seconds after a first
  // visit has them all.
  async function warm(urls) {
    const cache = await caches.open(PAGES);
    const seen = new Set();
    const queue = [];
    const add = (href) => {
      if (seen.has(href) || seen.size >= 200) return;
      seen.add(href);
      queue.push(href);
    };
    urls.filter(cacheable).forEach(add);
    const visit = async (href) => {
      let res = await cache.match(href, { ignoreVary: true });
      if (!res) {
        if (refused.has(href)) return;
        res = await fetch(href, { cache: 'no-cache' }).catch(() => null);
        if (res && !res.ok) refused.add(href);
        if (!res || !res.ok || res.redirected) return;
        await cache.put(href, res.clone());
      }
      const type = res.headers.get('Content-Type') || '';
      const text = /html|javascript|css/.test(type) ? await res.text() : '';
      const refs = /(?:src|href)\s*=\s*["']([^"'#\s<>{}()$`,]+)["'#]|url\(\s*["']?([^"')#\s<>{}($`,]+)|(?:\bfrom|\bimport\s*\(?)\s*["']([^"'\s<>{}()$`,]+)["']/g;
      for (const m of text.matchAll(refs)) {
        const ref = m[1] || m[2] || m[3];
        let u;
        try { u = new URL(ref, href); } catch (err) { continue; }
        u.hash = '';
        if (u.origin === self.location.origin && cacheable(u.href)) add(u.href);
      }
    };
    // at most WARM_AT_ONCE visits run; each one's end starts the next
    // (the files it named are queued by then); none left running: done
    await new Promise((done) => {
      let running = 0;
      const pump = () => {
        while (running < WARM_AT_ONCE && queue.length) {
          running++;
          visit(queue.shift()).catch(() => {}).finally(() => { running--; pump(); });
        }
        if (!running) done();
      };
      pump();
    });
  }

  // runtimeAsset answers worker.js?… (any query), wasm_exec.js, … from the
  // current runtime cache, and checks for a new build in the background.
  async function runtimeAsset(e, key) {
    if (Date.now() - refreshedAt > 10000) e.waitUntil(refreshRuntime().catch(() => {}));
    if (!runtimeName) runtimeName = (await caches.keys()).filter((k) => k.startsWith(RUNTIME)).pop() || null;
    const hit = runtimeName && await (await caches.open(runtimeName)).match(key, { ignoreVary: true });
    if (!hit) return fetch(e.request);
    // The wasm is answered as stored: the Response keeps its URL, which is
    // what Chromium keys its compiled-code cache on (a revisit then skips
    // most of the compile). Scripts get a fresh Response without a URL, so a
    // worker keeps its own (worker.js?snapshotEvery=…).
    if (key.endsWith('.wasm')) return hit;
    return new Response(hit.body, { status: hit.status, statusText: hit.statusText, headers: hit.headers });
  }

  // refreshRuntime stores the runtime of the served build: only the scripts
  // when the build is the cached one, else all ASSETS, in a new cache that
  // then replaces the others (so the wasm and wasm_exec.js always match).
  function refreshRuntime() {
    refreshedAt = Date.now();
    refreshing = refreshing || (async () => {
      const sum = await fetch(SUM, { cache: 'no-cache' });
      const build = sum.ok ? (await sum.text()).trim().slice(0, 16) : 'unversioned';
      const name = RUNTIME + build;
      const same = build !== 'unversioned' && await caches.has(name) &&
        (await (await caches.open(name)).keys()).length === ASSETS.length;
      const want = same ? ASSETS.filter((u) => !u.endsWith('.wasm')) : ASSETS;
      const got = await Promise.all(want.map(async (u) => {
        const res = await fetch(u, { cache: 'no-cache' });
        if (!res.ok || res.redirected) throw new Error(u + ': HTTP ' + res.status);
        return res;
      }));
      const cache = await caches.open(name);
      await Promise.all(want.map((u, i) => cache.put(u, got[i])));
      runtimeName = name;
      for (const k of await caches.keys()) if (k.startsWith(RUNTIME) && k !== name) await caches.delete(k);
    })().finally(() => { refreshing = null; });
    return refreshing;
  }

  // lazyWasm answers kubectl.wasm or a CEL part from its own cache
  // ("kubesandbox-v1-kubectl", "kubesandbox-v1-cel-crd", …), storing it on the
  // first fetch (a page's first ks.kubectl(), the core's first rule), and
  // checks the build's sum in the background: a new build is downloaded
  // for the next start. The Response is answered as stored (its URL keys
  // Chromium's compiled-code cache).
  async function lazyWasm(e, name) {
    const url = LAZY[name];
    const sumURL = url + '.sha256';
    const cache = await caches.open(CACHE_PREFIX + name);
    const hit = await cache.match(url, { ignoreVary: true });
    const store = async (sum) => {
      const res = await fetch(url, { cache: 'no-cache' });
      if (!res.ok || res.redirected) return res;
      await cache.put(url, res.clone());
      if (sum) await cache.put(sumURL, new Response(sum));
      return res;
    };
    const sumNow = () => fetch(sumURL, { cache: 'no-cache' }).then((r) => (r.ok ? r.text() : '')).then((t) => t.trim());
    if (!hit) return store(await sumNow().catch(() => ''));
    e.waitUntil((async () => {
      const sum = await sumNow();
      const had = await cache.match(sumURL);
      if (sum && (!had || (await had.text()) !== sum)) await store(sum);
    })().catch(() => {}));
    return hit;
  }

  // staleWhileRevalidate answers from the pages cache when it can, and
  // stores the network's answer for the next time.
  async function staleWhileRevalidate(e) {
    const cache = await caches.open(PAGES);
    const hit = await cache.match(e.request, { ignoreVary: true });
    const net = fetch(e.request).then((res) => {
      if (res.ok && res.type === 'basic' && !res.redirected) e.waitUntil(cache.put(e.request, res.clone()).catch(() => {}));
      return res;
    });
    e.waitUntil(net.catch(() => {}));
    return hit || net;
  }
}
