// The playground's defects from issue 17, each as a user meets it, in
// Debian's headless Chromium: a watch typed into the console's path, a
// reset under open watches, and the small ones (scroll, titles, copy box,
// force, Browse following a watch, 390 px, YAML labels, empty watch card).
// Run: make test-browser (or node --test tests/browser/playground-defects.test.mjs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startStatic, launch } from './lib.mjs';

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
