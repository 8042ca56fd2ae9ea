// make dist, as a docs site uses it: the npm package is built
// (web/tools/dist.mjs) and packed (npm pack) here, installed from the
// tarball into a site project, copied into the site with its own command
// (kubesandbox-copy static: the runtime in static/kubesandbox/, sw.js at
// static/kubesandbox-sw.js), and a plain HTML page with one <script
// type=module> is served by a plain static server: no special headers (no
// Service-Worker-Allowed), the right MIME types only. Its examples run,
// the site's own /api/ page stays its own (the examples' API is under
// /sandbox/docs/), no API request reaches the server, and after the first
// visit they run again offline. Without the root copy of sw.js the
// examples say what to fix.
// Run: make web-dist static-server playground-build, then
//   CHROMIUM=/usr/bin/chromium node --test tests/browser/dist.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from './lib.mjs';
import { packAndInstall, serve } from './dist-lib.mjs';

const WAIT = 120000;
let tmp;
let site; // the static site's root (the project's static/)
let server;
let browser;
let tarball;

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Docs with examples</title>
<script type="module" src="/kubesandbox/kube-example.js?sw=../kubesandbox-sw.js"></script>
</head><body>
<h1>Examples</h1>
<kube-example id="dry" title="Create a ConfigMap, as a dry run" method="POST"
    path="/api/v1/namespaces/{{ns}}/configmaps" query="dryRun=All" expect-status="201"
    playground="https://playground.example/">
  <script type="application/yaml">
    apiVersion: v1
    kind: ConfigMap
    metadata: {name: settings}
    data: {color: blue}
  </script>
</kube-example>
<kube-example id="conflict" scenario="apply-conflict"></kube-example>
</body></html>
`;

before(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'kubesandbox-dist-'));
  let project;
  ({ tarball, project } = packAndInstall(tmp));
  const out = execFileSync(join(project, 'node_modules', '.bin', 'kubesandbox-copy'), ['static'], { cwd: project }).toString();
  assert.match(out, /<script type="module" src="\/kubesandbox\/kube-example\.js\?sw=\.\.\/kubesandbox-sw\.js"><\/script>/);
  site = join(project, 'static');
  writeFileSync(join(site, 'index.html'), PAGE);
  writeFileSync(join(site, 'no-root-sw.html'), PAGE.replace('?sw=../kubesandbox-sw.js', ''));
  mkdirSync(join(site, 'api'));
  writeFileSync(join(site, 'api', 'index.html'), '<!doctype html><title>API reference</title><p id="site-api">the site\'s own API reference page</p>');
  server = await serve(site);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

test('npm pack: the package has the runtime, the element, its CSS and types, and exports them', () => {
  for (const f of ['package.json', 'sandbox.js', 'sandbox.d.ts', 'sw.js', 'sw-cache.js', 'worker.js', 'worker-db.js', 'worker-cel.js', 'wasm_exec.js',
    'kubesandbox.wasm', 'kubesandbox.wasm.br', 'kubesandbox.wasm.gz', 'kubesandbox.wasm.sha256', 'kubesandbox-docs.json',
    'cel-crd.wasm', 'cel-crd.wasm.br', 'cel-crd.wasm.gz', 'cel-crd.wasm.sha256',
    'cel-policy.wasm', 'cel-policy.wasm.br', 'cel-policy.wasm.gz', 'cel-policy.wasm.sha256',
    'kube-example.js', 'kube-example.d.ts', 'kube-example.css', 'copy.mjs', 'scenarios/apply-conflict.json']) {
    assert.ok(tarball.files.includes(f), `${f} is in the tarball`);
  }
  const pkg = JSON.parse(readFileSync(join(tmp, 'project', 'node_modules', 'kubesandbox', 'package.json'), 'utf8'));
  assert.equal(pkg.type, 'module');
  assert.deepEqual(pkg.exports['.'], { types: './sandbox.d.ts', default: './sandbox.js' });
  assert.deepEqual(pkg.exports['./kube-example.js'], { types: './kube-example.d.ts', default: './kube-example.js' });
  // the bundle loads no playground code it does not need (editor, terminal)
  const bundle = readFileSync(join(site, 'kubesandbox', 'kube-example.js'), 'utf8');
  assert.doesNotMatch(bundle, /xterm-viewport|EditorView\.theme/);
  assert.ok(existsSync(join(site, 'kubesandbox-sw.js')), 'kubesandbox-copy put sw.js at the site root');
});

// waitCached polls until the runtime and everything the page loaded is stored.
async function waitCached(page) {
  const want = ['/', '/kubesandbox/kube-example.js', '/kubesandbox/kube-example.css', '/kubesandbox/scenarios/apply-conflict.json'];
  for (let i = 0; i < 600; i++) {
    const got = await page.evaluate(async () => {
      const names = await caches.keys();
      const pages = names.includes('kubesandbox-v1-pages') ? (await (await caches.open('kubesandbox-v1-pages')).keys()).map((r) => new URL(r.url).pathname) : [];
      return { runtime: names.some((n) => n.startsWith('kubesandbox-v1-runtime-')), pages };
    });
    if (got.runtime && want.every((p) => got.pages.includes(p))) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the runtime and the page were not cached');
}

const examples = (page) => page.evaluate(() => [...document.querySelectorAll('kube-example')].map((e) => ({
  state: e.dataset.state, result: e.dataset.result || '', status: e.shadowRoot.querySelector('.ex-status').textContent,
})));

test('a page built from the package, on a host without Service-Worker-Allowed: without the root sw.js the examples say what to fix', async () => {
  const page = await browser.context.newPage();
  page.setDefaultTimeout(WAIT);
  await page.goto(server.url + '/no-root-sw.html');
  await page.waitForFunction(() => [...document.querySelectorAll('kube-example')].every((e) => e.dataset.state === 'failed'));
  for (const ex of await examples(page)) {
    assert.match(ex.status, /could not start: .*sw\.js may not control \/: serve it with the header "Service-Worker-Allowed: \/", or serve a copy of sw\.js from \/ and name it: .*kube-example\.js\?sw=/s);
  }
  await page.close();
});

test('a page built from the package runs its examples from a plain static server, then offline', async () => {
  const page = await browser.context.newPage();
  page.setDefaultTimeout(WAIT);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.url + '/');
  await page.waitForFunction(() => [...document.querySelectorAll('kube-example')].every((e) => e.dataset.state === 'ready'));
  assert.deepEqual(await page.evaluate(() => Promise.all([...document.querySelectorAll('kube-example')].map((e) => e.run()))), [true, true]);
  assert.deepEqual((await examples(page)).map((e) => e.result), ['ok', 'ok']);
  // the examples' API lives under /sandbox/docs/: their namespaces are there
  const nss = await page.evaluate(async () => (await (await fetch('/sandbox/docs/api/v1/namespaces')).json()).items.map((n) => n.metadata.name));
  assert.ok(nss.some((n) => n.startsWith('ex-dry-')) && nss.some((n) => n.startsWith('ex-apply-conflict-')), nss.join(' '));
  // the playground link opens this example (its steps, in the fragment)
  const link = await page.evaluate(() => document.querySelector('#dry').shadowRoot.querySelector('a.ex-playground').href);
  assert.match(link, /^https:\/\/playground\.example\/#scenarios\/inline:[\w-]+$/);
  // the site's own /api/ page is the site's, not the sandbox's
  const own = await page.evaluate(async () => { const r = await fetch('/api/'); return { status: r.status, text: await r.text() }; });
  assert.equal(own.status, 200);
  assert.match(own.text, /the site's own API reference page/);
  assert.deepEqual(server.seen.filter((p) => p.startsWith('/sandbox/')), [], 'no API request reached the static server');

  await waitCached(page);
  await browser.context.setOffline(true);
  try {
    await page.reload();
    // really offline: what was never stored does not load
    assert.equal(await page.evaluate(() => fetch('/never-stored.txt').then(() => 'loaded', () => 'failed')), 'failed');
    await page.waitForFunction(() => [...document.querySelectorAll('kube-example')].every((e) => e.dataset.state === 'ready'));
    assert.deepEqual(await page.evaluate(() => Promise.all([...document.querySelectorAll('kube-example')].map((e) => e.run()))), [true, true]);
    // styled offline too: the stylesheet came from the cache
    assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('#dry').shadowRoot.querySelector('.ex')).borderTopStyle), 'solid');
  } finally {
    await browser.context.setOffline(false);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('the same site served under /project/: the root copy of sw.js controls /project/, the examples run', async () => {
  const sub = await serve(site, '/project/');
  writeFileSync(join(site, 'sub.html'), PAGE.replace('src="/kubesandbox/', 'src="kubesandbox/'));
  const b = await launch();
  try {
    const page = await b.context.newPage();
    page.setDefaultTimeout(WAIT);
    await page.goto(sub.url + '/project/sub.html');
    await page.waitForFunction(() => [...document.querySelectorAll('kube-example')].every((e) => e.dataset.state === 'ready'));
    assert.equal(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).scope), sub.url + '/project/');
    assert.deepEqual(await page.evaluate(() => Promise.all([...document.querySelectorAll('kube-example')].map((e) => e.run()))), [true, true]);
    assert.deepEqual(sub.seen.filter((p) => p.startsWith('/sandbox/')), [], 'no API request reached the static server');
  } finally {
    await b.close();
    sub.stop();
  }
});
