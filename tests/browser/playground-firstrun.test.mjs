// The playground as a newcomer meets it (issue 17, "First run"), in
// Debian's headless Chromium: the welcome with its three things to try, at
// 1400×900 and 390×800, remembered once seen and opened again from Help;
// the console's custom request headers (Accept: …;as=Table drawn as a
// table) and its request history, which survives a reload and runs again.
// Run: make web-dist static-server playground-build &&
//   CHROMIUM=/usr/bin/chromium node --test --test-concurrency=1 tests/browser/playground-firstrun.test.mjs
// With UPDATE_SCREENSHOTS=1 (make playground-screenshots) the screenshots go to docs/screenshots/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { startStatic, launch, repo } from './lib.mjs';

const shots = process.env.UPDATE_SCREENSHOTS ? join(repo, 'docs', 'screenshots') : mkdtempSync(join(tmpdir(), 'playground-shots-'));
const WAIT = 60000; // generous: CI machines have 2 cores, often shared
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

let server;
let browser;

before(async () => {
  server = await startStatic();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.stop();
});

// open loads the playground; fresh: as on a first visit (nothing remembered).
async function open(hash = '', viewport = { width: 1400, height: 900 }, { fresh = false } = {}) {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.setDefaultTimeout(WAIT);
  await page.setViewportSize(viewport);
  if (fresh) {
    await page.goto(server.url + '/web/wasm_exec.js'); // same origin, no playground: clear what it remembers
    await page.evaluate(() => localStorage.clear());
  }
  await page.goto(server.url + '/' + hash);
  await page.waitForFunction(() => document.body.classList.contains('ready'), null, { timeout: 2 * WAIT });
  page.errors = errors;
  return page;
}

// inView tells whether the element lies inside the viewport, and whether the page scrolls sideways.
const layout = (page, sel) => page.evaluate((s) => {
  const r = document.querySelector(s).getBoundingClientRect();
  return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, vw: innerWidth, vh: innerHeight, sw: document.documentElement.scrollWidth, cw: document.documentElement.clientWidth };
}, sel);

for (const [name, viewport, shot] of [['1400×900', { width: 1400, height: 900 }, 'welcome.png'], ['390×800', { width: 390, height: 800 }, 'narrow-welcome.png']]) {
  test(`first run at ${name}: the welcome shows three things to try, on screen, and is remembered`, async () => {
    const page = await open('', viewport, { fresh: true });
    assert.equal(await page.isVisible('#welcome'), true, 'a first visit is greeted');
    assert.deepEqual(await page.$$eval('#welcome li.try', (ls) => ls.map((l) => l.dataset.try)), ['scenario', 'kubectl', 'request']);
    const box = await layout(page, '#welcome');
    assert.ok(box.top >= 0 && box.bottom <= box.vh && box.left >= 0 && box.right <= box.vw, `the welcome fits the viewport: ${JSON.stringify(box)}`);
    assert.ok(box.sw <= box.cw + 1, `no sideways scrolling: ${box.sw}px wide in ${box.cw}px`);
    for (const b of await page.$$('#welcome li.try button')) assert.equal(await b.isVisible(), true);
    await page.screenshot({ path: join(shots, shot) });
    assert.equal(await page.evaluate(() => localStorage.getItem('kubesandbox.playground.welcomed')), '1');

    await page.reload();
    await page.waitForFunction(() => document.body.classList.contains('ready'), null, { timeout: 2 * WAIT });
    assert.equal(await page.isVisible('#welcome'), false, 'seen once: not shown again');
    await page.click('#btn-help');
    assert.equal(await page.isVisible('#welcome'), true, 'Help opens it again');
    await page.click('#welcome .w-close');
    assert.equal(await page.isVisible('#welcome'), false);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test('first run: a link to a tab or scenario is not greeted; nothing is remembered then', async () => {
  const page = await open('#scenarios/dry-run', undefined, { fresh: true });
  assert.equal(await page.isVisible('#welcome'), false);
  assert.equal(await page.evaluate(() => localStorage.getItem('kubesandbox.playground.welcomed')), null);
  await page.close();
});

test('first run: each of the three things to try works', async () => {
  const page = await open('', undefined, { fresh: true });
  // 3. a request: the namespaces as a Table, through a custom Accept header
  await page.click('#welcome li[data-try=request] button');
  await page.waitForSelector('.response-pane .status[data-status="200"]');
  assert.equal(await page.isVisible('#welcome'), false, 'acting on it closes the welcome');
  assert.deepEqual(await page.$$eval('.response-pane table.k-table th', (ths) => ths.map((t) => t.textContent)), ['NAME', 'STATUS', 'AGE']);
  const names = await page.$$eval('.response-pane table.k-table tbody tr', (rows) => rows.map((r) => r.cells[0].textContent));
  assert.ok(names.includes('default') && names.includes('kube-system'), names.join(','));
  // 2. kubectl in the Terminal
  await page.click('#btn-help');
  await page.click('#welcome li[data-try=kubectl] button');
  // done when a new prompt follows the command's output
  await page.waitForFunction(() => /\$ kubectl get nodes,deployments -A\n[\s\S]+\n\$ kubectl\n$/.test(window.playground.terminal.text()), null, { timeout: 2 * WAIT });
  const out = await page.evaluate(() => window.playground.terminal.text());
  assert.match(out, /\$ kubectl get nodes,deployments -A\n/);
  assert.match(out, /node\/\S+\s+Ready/);
  assert.equal(await page.isVisible('#panel-terminal'), true);
  // 1. a guided scenario
  await page.click('#btn-help');
  await page.click('#welcome li[data-try=scenario] button');
  await page.waitForSelector('#scenario-host .scenario[data-scenario="deploy-rollout"]');
  assert.equal(await page.isVisible('#panel-scenarios'), true);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('console: custom headers are sent (Accept as=Table), copied into curl, and bad ones refused', async () => {
  const page = await open('#console');
  const kons = await page.evaluateHandle(() => window.playground.console);
  await page.evaluate((k) => k.load({ method: 'GET', path: '/apis/apps/v1/namespaces/kube-system/deployments' }), kons);
  await page.click('summary:has-text("Headers")');
  await page.click('button[data-preset="as Table"]');
  assert.equal(await page.inputValue('#c-headers'), `Accept: ${TABLE}`);
  await page.click('#c-send');
  await page.waitForSelector('.response-pane .status[data-status="200"]');
  const body = await page.evaluate(async (k) => { const r = await k.send(); return r.body; }, kons);
  assert.equal(body.kind, 'Table', 'the server answered with a Table');
  assert.deepEqual(body.columnDefinitions.filter((c) => !c.priority).map((c) => c.name), ['Name', 'Ready', 'Up-to-date', 'Available', 'Age']);
  assert.deepEqual(await page.$$eval('.response-pane table.k-table th', (ths) => ths.map((t) => t.textContent)), ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
  await page.click('#c-curl');
  assert.equal(await page.textContent('pre.cmd'), `curl -sS -H 'Accept: ${TABLE}' 'http://127.0.0.1:6443/apis/apps/v1/namespaces/kube-system/deployments'`);

  await page.fill('#c-headers', 'Accept application/json');
  await page.click('#c-send');
  assert.equal(await page.textContent('.response-pane p.error'), 'Headers: line 1: "Accept application/json" is not Name: value');
  await page.fill('#c-headers', 'Host: example.com');
  await page.click('#c-send');
  assert.match(await page.textContent('.response-pane p.error'), /a browser page cannot set Host/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('console: the request history survives a reload, runs again, keeps the last 50', async () => {
  const page = await open('#console');
  const kons = await page.evaluateHandle(() => window.playground.console);
  await page.evaluate((k) => k.history.clear(), kons);
  const name = 'h-' + Date.now().toString(36);
  await page.evaluate(([k, n]) => k.load({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${n}\ndata:\n  a: "1"\n` }), [kons, name]);
  await page.click('#c-send');
  await page.waitForSelector('.response-pane .status[data-status="201"]');
  await page.evaluate((k) => k.load({ method: 'GET', path: '/api/v1/namespaces/default/configmaps', headers: 'Accept: application/yaml' }), kons);
  await page.click('#c-send');
  await page.waitForSelector('.response-pane .status[data-status="200"]');
  await page.click('#c-send'); // the same again: moved to the top, not repeated
  await page.waitForSelector('.response-pane .status[data-status="200"]');
  const rows = () => page.$$eval('#c-history li.history-item', (ls) => ls.map((l) => l.querySelector('.history-load').textContent));
  assert.equal((await rows()).length, 2);
  assert.match((await rows())[0], /^200 GET \/api\/v1\/namespaces\/default\/configmaps \+headers/);
  assert.match((await rows())[1], /^201 POST \/api\/v1\/namespaces\/default\/configmaps \+body/);
  await page.click('details.params > summary:has-text("Query parameters")'); // folded, for the screenshot
  await page.$eval('#c-history', (e) => e.scrollIntoView({ block: 'end' }));
  await page.screenshot({ path: join(shots, 'history.png') });

  await page.reload();
  await page.waitForFunction(() => document.body.classList.contains('ready'), null, { timeout: 2 * WAIT });
  assert.equal((await rows()).length, 2, 'the history survives a reload');
  // loading one fills the form, headers and body included
  await page.click('#c-history li.history-item[data-index="1"] .history-load');
  assert.equal(await page.inputValue('#c-method'), 'POST');
  const k2 = await page.evaluateHandle(() => window.playground.console);
  assert.match(await page.evaluate((k) => k.request().body, k2), new RegExp(`name: ${name}`));
  // ↻ runs one again: the POST again is a 409 AlreadyExists, now at the top
  await page.click('#c-history li.history-item[data-index="1"] .history-run');
  await page.waitForSelector('.response-pane .status[data-status="409"]');
  assert.match(await page.textContent('.response-pane .status-msg'), new RegExp(`AlreadyExists: configmaps "${name}" already exists`));
  assert.match((await rows())[0], /^409 POST/);
  // ↻ on the GET sends its header again
  await page.click('#c-history li.history-item[data-index="1"] .history-run');
  await page.waitForSelector('.response-pane .status[data-status="200"]');
  assert.match(await page.evaluate(() => [...document.querySelectorAll('.response-pane details.headers tr')].map((r) => r.textContent).join('\n')), /content-typeapplication\/yaml/i);
  // capped
  await page.evaluate((k) => { for (let i = 0; i < 60; i++) k.history.add({ method: 'GET', path: `/api/v1/namespaces/n${i}` }, 404); }, k2);
  assert.equal((await rows()).length, 50);
  assert.equal(await page.evaluate(() => JSON.parse(localStorage.getItem('kubesandbox.playground.history')).length), 50);
  assert.match((await rows())[0], /n59/);
  await page.click('#c-history button:has-text("clear")');
  assert.equal((await rows()).length, 0);
  assert.deepEqual(page.errors, []);
  await page.close();
});
