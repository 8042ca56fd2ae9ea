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

// ---- the small ones (issue 17 defect 4), each as a user meets it

const inView = (page, sel) => page.$eval(sel, (el) => {
  const r = el.getBoundingClientRect();
  return r.top >= 0 && r.top < innerHeight && r.bottom > 0;
});

test('scenarios: Next step scrolls to the step it ran', async () => {
  const page = await open('#scenarios', { width: 1280, height: 600 });
  await page.evaluate(() => window.playground.openScenario('paging'));
  const root = '.scenario[data-scenario="paging"]';
  for (let i = 0; i < 6; i++) {
    await page.click(`${root} button.run-next`);
    await page.waitForSelector(`${root} li.step[data-step="${i}"][data-ok]`);
    assert.equal(await inView(page, `${root} li.step[data-step="${i}"] .step-result`), true, `step ${i + 1}'s result is on screen`);
  }
  await page.close();
});

// brokenWords lists the words of the elements' text that are split over two lines.
const brokenWords = (page, sel) => page.$$eval(sel, (els) => els.flatMap((el) => {
  const out = [];
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n; (n = walk.nextNode());) {
    for (const m of n.textContent.matchAll(/\S+/g)) {
      const r = document.createRange();
      r.setStart(n, m.index);
      r.setEnd(n, m.index + m[0].length);
      const tops = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
      if (tops.size > 1) out.push(m[0]);
    }
  }
  return out;
}));

test('scenarios: titles wrap between words, never inside one', async (t) => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await t.test(`${viewport.width} px`, async () => {
      const page = await open('#scenarios/list-then-watch', viewport);
      await page.waitForSelector('#scenario-list .nav-item');
      await page.waitForSelector('.scenario h3');
      assert.deepEqual(await brokenWords(page, '#scenario-list .nav-item, .scenario h2, .scenario li.step h3'), []);
      await page.close();
    });
  }
});

test('scenarios: a step not yet run shows its variables as {{name}}, not %7B%7Bname%7D%7D', async () => {
  const page = await open('#scenarios/list-then-watch');
  const line = '.scenario[data-scenario="list-then-watch"] li.step[data-step="3"] .req-line';
  await page.waitForSelector(line);
  const text = await page.textContent(line);
  assert.doesNotMatch(text, /%7B/i);
  assert.match(text, /resourceVersion=\{\{rv\}\}/);
  await page.close();
});

test('console: the copied curl / kubectl box follows the edits after it was copied', async () => {
  const page = await open('#console');
  await page.fill('#c-path', '/api/v1/namespaces/default/configmaps');
  await page.click('#c-curl');
  assert.match(await page.textContent('pre.cmd'), /configmaps'$/);
  await page.fill('#c-path', '/api/v1/namespaces/kube-system/secrets');
  assert.match(await page.textContent('pre.cmd'), /\/namespaces\/kube-system\/secrets'$/);
  await page.fill('#c-q-limit', '3');
  assert.match(await page.textContent('pre.cmd'), /secrets\?limit=3'$/);
  await page.click('#c-kubectl');
  assert.equal(await page.textContent('pre.cmd'), 'kubectl get secrets -n kube-system --chunk-size=3 -o yaml');
  await page.fill('#c-q-limit', '');
  await page.selectOption('#c-method', 'DELETE');
  await page.fill('#c-path', '/api/v1/namespaces/default/configmaps/x');
  assert.equal(await page.textContent('pre.cmd'), 'kubectl delete configmaps x -n default');
  await page.close();
});

test('console: "Apply again with force=true" forces that one request; force is not left ticked', async () => {
  const page = await open('#console');
  const name = 'f-' + Date.now().toString(36);
  const kons = await page.evaluateHandle(() => window.playground.console);
  const apply = (manager, v) => page.evaluate(([k, n, m, v]) => k.load({ method: 'PATCH', path: `/api/v1/namespaces/default/configmaps/${n}`, query: { fieldManager: m },
    contentType: 'application/apply-patch+yaml', body: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${n}\ndata:\n  a: "${v}"\n` }), [kons, name, manager, v]);
  await apply('one', '1');
  await page.click('#c-send');
  await page.waitForSelector('.response-pane .status[data-status="201"]');
  await apply('two', '2');
  await page.click('#c-send');
  await page.waitForSelector('.response-pane .status[data-status="409"]');
  await page.click('.response-pane button.force');
  await page.waitForSelector('.response-pane .status[data-status="200"]');
  assert.match(await page.textContent('.response-pane .status-line'), /force=true/);
  assert.equal(await page.isChecked('#c-q-force'), false);
  // the next apply (by another manager) is not forced behind the user's back
  await apply('three', '3');
  await page.click('#c-send');
  await page.waitForSelector('.response-pane .status[data-status="409"]');
  await page.close();
});

test('browse: the detail pane follows a watch — a change shows, a deleted object says so and leaves the list', async () => {
  const page = await open('#browse');
  const ns = await newNamespace(page, 'br');
  assert.equal((await post(page, `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'keep' }, data: { v: '1' } })).status, 201);
  assert.equal((await post(page, `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'gone' }, data: { v: '1' } })).status, 201);
  await page.click('#b-refresh');
  await page.click(`nav.col >> text=${ns}`);
  await page.click('nav.col >> text=ConfigMap');
  await page.click('nav.col >> text=gone');
  await page.waitForSelector('.detail pre.code');
  // a change made elsewhere shows in the pane
  await page.evaluate(async (n) => fetch(`/api/v1/namespaces/${n}/configmaps/gone`, {
    method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: JSON.stringify({ data: { v: '2' } }),
  }), ns);
  await page.waitForFunction(() => /v: "2"/.test(document.querySelector('.detail pre.code').textContent));
  // a deletion made elsewhere: the pane says so, the list drops it
  await page.evaluate(async (n) => fetch(`/api/v1/namespaces/${n}/configmaps/gone`, { method: 'DELETE' }), ns);
  await page.waitForSelector('.detail .deleted');
  assert.match(await page.textContent('.detail .deleted'), /deleted/);
  await page.waitForFunction(() => ![...document.querySelectorAll('nav.col .nav-item')].some((b) => b.firstChild.textContent === 'gone'));
  // an object created elsewhere joins the list
  assert.equal((await post(page, `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'new-one' } })).status, 201);
  await page.waitForFunction(() => [...document.querySelectorAll('nav.col .nav-item')].some((b) => b.firstChild.textContent === 'new-one'));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('390 px: every tab, Scenarios included, is on screen', async () => {
  const page = await open('#console', { width: 390, height: 844 });
  for (const tab of ['console', 'watch', 'browse', 'fields', 'scenarios']) {
    const box = await page.$eval(`#tab-${tab}`, (el) => { const r = el.getBoundingClientRect(); return { left: r.left, right: r.right }; });
    assert.ok(box.left >= 0 && box.right <= 390, `${tab} tab at ${box.left}–${box.right} px of 390`);
  }
  await page.close();
});

test('scenarios: a body shown as YAML is labelled YAML, with the type it is sent as', async () => {
  const page = await open('#scenarios/list-then-watch');
  const summary = '.scenario[data-scenario="list-then-watch"] li.step[data-step="0"] details.req-body summary';
  await page.waitForSelector(summary);
  assert.equal(await page.textContent(summary), 'Body (YAML, sent as application/json)');
  assert.match(await page.textContent('.scenario[data-scenario="list-then-watch"] li.step[data-step="0"] details.req-body pre'), /^apiVersion: v1\nkind: ConfigMap\n/);
  await page.close();
});

test('watch: a card without events yet says what it is waiting for', async () => {
  const page = await open('#watch');
  const ns = await newNamespace(page, 'em');
  await page.evaluate((n) => window.playground.watch.add(`/api/v1/namespaces/${n}/secrets`, {}), ns);
  await page.waitForSelector('.watch-card[data-state=streaming]');
  assert.match(await page.textContent('.watch-card .w-empty'), /no events yet/);
  assert.equal(await page.isVisible('.watch-card .w-empty'), true);
  await page.evaluate((n) => fetch(`/api/v1/namespaces/${n}/secrets`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ metadata: { name: 's' } }) }), ns);
  await page.waitForSelector('.watch-card li.ev-ADDED');
  assert.equal(await page.isVisible('.watch-card .w-empty'), false);
  await page.click('.watch-card button[aria-label="clear events"]');
  assert.equal(await page.isVisible('.watch-card .w-empty'), true);
  await page.close();
});

test('console: a multi-document YAML body is sent object by object, each to its own resource', async () => {
  const page = await open('#console');
  const ns = await newNamespace(page, 'md');
  const kons = await page.evaluateHandle(() => window.playground.console);
  await page.evaluate(([k, n]) => k.load({ method: 'POST', path: `/api/v1/namespaces/${n}/configmaps`, contentType: 'application/json',
    body: `# two objects, with an anchor\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: one\n  labels: &l {app: web}\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: two\n  labels: {app: web}\nstringData: {k: v}\n` }), [kons, ns]);
  await page.click('#c-send');
  await page.waitForFunction(() => document.querySelectorAll('.response-pane .doc-result .status').length === 2);
  assert.deepEqual(await page.$$eval('.response-pane .doc-result .status', (els) => els.map((e) => e.dataset.status)), ['201', '201']);
  assert.deepEqual(await page.$$eval('.response-pane .doc-head', (els) => els.map((e) => e.textContent)), ['document 1 of 2: ConfigMap one', 'document 2 of 2: Secret two']);
  const got = await page.evaluate(async (n) => Promise.all([`configmaps/one`, `secrets/two`].map(async (p) => (await fetch(`/api/v1/namespaces/${n}/${p}`)).status)), ns);
  assert.deepEqual(got, [200, 200]);
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
