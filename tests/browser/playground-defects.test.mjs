// The playground's defects from issue 17, each as a user meets it, in
// Debian's headless Chromium: a watch typed into the console's path, a
// reset under open watches, and the small ones (scroll, titles, copy box,
// force, Browse following a watch, 390 px, YAML labels, empty watch card).
// Run: make test-browser (or node --test tests/browser/playground-defects.test.mjs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startStatic, startPlainStatic, launch } from './lib.mjs';

const WAIT = 60000; // generous: CI machines have 2 cores, often shared

let server;
let browser;

before(async () => {
  server = await startStatic();
  browser = await launch();
  // keep one page open, so each test's page joins the running core
  const anchor = await browser.context.newPage();
  await anchor.goto(server.url + '/');
  await anchor.waitForFunction(() => document.body.classList.contains('ready'), null, { timeout: 2 * WAIT });
});

after(async () => {
  await browser?.close();
  server?.stop();
});

async function open(hash = '', viewport = { width: 1280, height: 800 }) {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.setDefaultTimeout(WAIT);
  await page.setViewportSize(viewport);
  await page.goto(server.url + '/' + hash);
  await page.waitForFunction(() => document.body.classList.contains('ready'), null, { timeout: 2 * WAIT });
  page.errors = errors;
  return page;
}

const post = (page, path, obj) => page.evaluate(async ([p, o]) => {
  const r = await fetch(p, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(o) });
  return { status: r.status, body: await r.json() };
}, [path, obj]);

const newNamespace = async (page, prefix) => {
  const ns = `${prefix}-${Date.now().toString(36)}`;
  assert.equal((await post(page, '/api/v1/namespaces', { metadata: { name: ns } })).status, 201);
  return ns;
};

test('console: a watch typed into the path (?watch=1, as curl has it) streams in the Watch tab and leaves the console usable', async (t) => {
  const page = await open('#console');
  const ns = await newNamespace(page, 'typed');
  for (const [name, path] of [
    ['?watch=1', `/api/v1/namespaces/${ns}/configmaps?watch=1&allowWatchBookmarks=true`],
    ['?watch (no value)', `/api/v1/namespaces/${ns}/configmaps?watch`],
    ['the /watch/ path', `/api/v1/watch/namespaces/${ns}/configmaps`],
  ]) {
    await t.test(name, async () => {
      const before = await page.$$eval('.watch-card', (cs) => cs.length);
      await page.click('#tab-console');
      await page.fill('#c-path', path);
      await page.click('#c-send');
      await page.waitForFunction((n) => document.querySelectorAll('.watch-card').length === n + 1 && document.querySelector('.watch-card').dataset.state === 'streaming', before);
      assert.equal(await page.getAttribute('#tab-watch', 'aria-selected'), 'true');
      assert.equal(await page.$eval('#c-send', (b) => b.disabled), false, 'Send is enabled again');
      const cm = `cm-${before}`;
      assert.equal((await post(page, `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: cm } })).status, 201);
      await page.waitForFunction((n) => [...document.querySelector('.watch-card').querySelectorAll('li.ev-ADDED')].some((l) => l.dataset.name === n), cm);
    });
  }
  // a GET that is not a watch is still answered in the console
  await page.click('#tab-console');
  await page.fill('#c-path', `/api/v1/namespaces/${ns}/configmaps?watch=false`);
  await page.click('#c-send');
  await page.waitForSelector('.response-pane .status[data-status="200"]');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a start that fails says so, with what to fix, in the header and in every <kube-example>', async () => {
  // a host that does not send Service-Worker-Allowed: / for /web/sw.js
  const plain = await startPlainStatic();
  const b = await launch();
  try {
    const page = await b.context.newPage();
    page.setDefaultTimeout(WAIT);
    await page.goto(plain.url + '/');
    await page.waitForSelector('#loading.failed');
    // the Go core itself starts fine in its worker: wait until it did, so
    // that every progress report it sends has arrived
    const core = () => page.evaluate(() => new Promise((resolve) => {
      const w = new SharedWorker('/web/worker.js', { name: 'kubesandbox' });
      w.port.onmessage = (e) => { if (e.data.t === 'state' && e.data.state !== 'loading') resolve(e.data.state); };
      w.port.start();
      w.port.postMessage({ t: 'hello' });
    }));
    assert.equal(await core(), 'ready');
    const status = await page.textContent('#load-status');
    assert.match(status, /^failed: /);
    assert.match(status, /Service-Worker-Allowed: \//, 'it names the header to send');
    assert.equal(await page.isVisible('#load-progress'), false, 'no full progress bar over the failure');
    assert.match(await page.textContent('#loading-text'), /could not start.*Service-Worker-Allowed/s);
    assert.equal(await page.evaluate(() => document.body.classList.contains('ready')), false);

    const docs = await b.context.newPage();
    docs.setDefaultTimeout(WAIT);
    await docs.goto(plain.url + '/docs-example.html');
    await docs.waitForFunction(() => [...document.querySelectorAll('kube-example')].every((e) => e.dataset.state === 'failed'));
    assert.equal(await core(), 'ready');
    const texts = await docs.evaluate(() => [...document.querySelectorAll('kube-example')].map((e) => e.shadowRoot.querySelector('.ex-status').textContent));
    assert.equal(texts.length, 3);
    for (const t of texts) assert.match(t, /could not start: .*Service-Worker-Allowed: \//s);
  } finally {
    await b.close();
    plain.stop();
  }
});

// Last: it empties the sandbox that the tests above share.
test('reset under an open watch: resourceVersions keep increasing, the watch ends saying why, and lists again', async () => {
  const page = await open('#watch');
  const ns = await newNamespace(page, 'rs');
  for (let i = 0; i < 5; i++) assert.equal((await post(page, `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `before-${i}` } })).status, 201);
  const rvBefore = await page.evaluate(async () => Number((await (await fetch('/api/v1/namespaces')).json()).metadata.resourceVersion));
  await page.evaluate(() => window.playground.watch.add('/api/v1/namespaces/default/configmaps', {}));
  await page.waitForSelector('.watch-card[data-state=streaming]');
  page.once('dialog', (d) => d.accept());
  await page.click('#btn-reset');
  await page.waitForFunction(() => /was reset/.test(document.querySelector('#state-note').textContent));
  // the open watch ended with the reason (a 410: list again), not "streaming" over a dead stream
  await page.waitForFunction(() => document.querySelector('.watch-card').dataset.state !== 'streaming');
  assert.equal(await page.$eval('.watch-card', (c) => c.dataset.state), 'gone');
  assert.match(await page.textContent('.watch-card li.ev-note-gone'), /410 Expired: .*reset/);
  // a write after the reset gets a resourceVersion after every one before it
  const after = await post(page, '/api/v1/namespaces/default/configmaps', { metadata: { name: 'after-reset' } });
  assert.equal(after.status, 201);
  const rvAfter = Number(after.body.metadata.resourceVersion);
  assert.ok(rvAfter > rvBefore, `resourceVersion after the reset ${rvAfter} > ${rvBefore} before it`);
  // a watch from a resourceVersion before the reset: 410, list again (never 504 "too large")
  const old = await page.evaluate(async (rv) => {
    const r = await fetch(`/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${rv}`);
    return r.status === 200 ? (await r.text()).split('\n')[0] : `${r.status} ${(await r.json()).reason}`;
  }, rvBefore - 1);
  assert.match(old, /"code":410|^410 /);
  // List again and watch: the card streams again and shows the new object's change
  await page.click('.watch-card button.relist');
  await page.waitForFunction(() => document.querySelector('.watch-card').dataset.state === 'streaming');
  await page.evaluate(async () => fetch('/api/v1/namespaces/default/configmaps/after-reset', {
    method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: JSON.stringify({ data: { a: 'b' } }),
  }));
  await page.waitForFunction(() => [...document.querySelectorAll('.watch-card li.ev-MODIFIED')].some((l) => l.dataset.name === 'after-reset'));
  assert.deepEqual(page.errors, []);
  await page.close();
});
