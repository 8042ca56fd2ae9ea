// <kube-example> (playground/js/kube-example.js): editable steps that run
// again, one Run button for a one-step example, the playground link, and
// a failed step's status line saying what to fix. The fixture page is
// tests/browser/fixtures/kube-example-edit.html. A failed start: see
// playground-defects.test.mjs and dist.test.mjs; kubectl steps'
// failures: kubectl.test.mjs.
// Run: make web-dist static-server playground-build, then
//   CHROMIUM=/usr/bin/chromium node --test tests/browser/kube-example.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser } from './lib.mjs';

const WAIT = 120000;
const env = useBrowser();
let page;

async function open() {
  if (page) return page;
  page = await env.browser.context.newPage();
  page.setDefaultTimeout(WAIT);
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  await page.goto(env.server.url + '/fixtures/kube-example-edit.html');
  await page.waitForFunction(() => [...document.querySelectorAll('kube-example')].every((e) => e.dataset.state === 'ready'));
  return page;
}

// inEx runs fn(root) in the example's shadow root (fn: source text of a function).
const inEx = (id, fn, arg) => page.evaluate(({ id, fn, arg }) => {
  const root = document.getElementById(id).shadowRoot;
  return new Function('root', 'arg', `return (${fn})(root, arg)`)(root, arg);
}, { id, fn: fn.toString(), arg });

// runAndWait clicks a button of the example and waits for the run's outcome.
async function click(id, selector, index = 0) {
  await page.evaluate(({ id }) => { delete document.getElementById(id).dataset.result; }, { id });
  await inEx(id, (root, { selector, index }) => root.querySelectorAll(selector)[index].click(), { selector, index });
  await page.waitForFunction((id) => document.getElementById(id).dataset.result, id);
  return page.evaluate((id) => {
    const e = document.getElementById(id);
    return { result: e.dataset.result, status: e.shadowRoot.querySelector('.ex-status').textContent };
  }, id);
}

const setValue = (id, selector, index, value) => inEx(id, (root, { selector, index, value }) => { root.querySelectorAll(selector)[index].value = value; }, { selector, index, value });
const runButtons = (id) => inEx(id, (root) => [...root.querySelectorAll('button')].filter((b) => /^Run/.test(b.textContent)).map((b) => b.textContent));

test('a one-step example has one Run button; each press runs the step again, with the edited request and body', async () => {
  await open();
  assert.deepEqual(await runButtons('one'), ['Run']);
  assert.deepEqual(await runButtons('kubectl-one'), ['Run'], 'one kubectl line: its own Run, no Run all');
  assert.deepEqual(await runButtons('two'), ['Run', 'Run', 'Run'], 'two steps: Run (all) and one per step');

  assert.equal(await inEx('one', (root) => root.querySelector('.req-edit').value), 'POST /api/v1/namespaces/{{ns}}/configmaps');
  assert.deepEqual(await click('one', 'button.run-all'), { result: 'ok', status: 'done: every step passed' });
  // again (a fresh namespace each time: no AlreadyExists)
  assert.equal((await click('one', 'button.run-all')).result, 'ok');
  // an edited body: the server's answer, and what to fix
  await setValue('one', '.body-edit', 0, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: Bad_Name\n');
  const bad = await click('one', 'button.run-all');
  assert.equal(bad.result, 'failed');
  assert.match(bad.status, /^step 1 failed: status 201, got 422 — the server said: ConfigMap "Bad_Name" is invalid: metadata\.name: Invalid value: "Bad_Name": .* — edit the step and run it again\.$/);
  assert.match(await inEx('one', (root) => root.querySelector('.step-error').textContent), /got 422/);
  assert.equal(await inEx('one', (root) => root.querySelector('.ex-status').classList.contains('error')), true);
  // an edited request line, and a body that is not YAML
  await setValue('one', '.body-edit', 0, 'metadata: {name: [unclosed\n');
  const notYAML = await click('one', 'button.run-all');
  assert.match(notYAML.status, /^step 1 failed: the body is not valid YAML: /);
  await setValue('one', '.body-edit', 0, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fixed\n');
  await setValue('one', '.req-edit', 0, 'nonsense');
  assert.match((await click('one', 'button.run-all')).status, /^step 1 failed: write the request as METHOD \/path\?query/);
  await setValue('one', '.req-edit', 0, 'POST /api/v1/namespaces/{{ns}}/configmaps?dryRun=All');
  assert.equal((await click('one', 'button.run-all')).result, 'ok');
  const shown = await inEx('one', (root) => root.querySelector('.step-result').textContent);
  assert.match(shown, /201/);
  assert.doesNotMatch(shown, /"resourceVersion"|resourceVersion:/, 'dryRun=All was sent: nothing stored');
  assert.deepEqual(page.errors, []);
});

test('a step that ran runs again alone, with its edits, in the same namespace', async () => {
  await open();
  assert.equal((await click('two', 'button.run-all')).result, 'ok');
  const ns = await inEx('two', (root) => root.querySelector('.ns-note').textContent);
  assert.match(ns, /^namespace ex-two-/);
  await setValue('two', '.req-edit', 1, 'GET /api/v1/namespaces/{{ns}}/configmaps/b');
  const missing = await click('two', 'button.run-step', 1);
  assert.equal(missing.result, 'failed');
  assert.match(missing.status, /^step 2 failed: status 200, got 404 — the server said: configmaps "b" not found — edit the step and run it again\.$/);
  // step 1, edited to create b, runs alone; then step 2 finds it
  await setValue('two', '.body-edit', 0, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n');
  assert.equal((await click('two', 'button.run-step', 0)).result, 'ok');
  assert.equal((await click('two', 'button.run-step', 1)).result, 'ok');
  assert.equal(await inEx('two', (root) => root.querySelector('.ns-note').textContent), ns, 'the same namespace: nothing started over');
  const names = await page.evaluate(async (ns) => (await (await fetch(`/api/v1/namespaces/${ns}/configmaps`)).json()).items.map((c) => c.metadata.name).filter((n) => n !== 'kube-root-ca.crt').sort(), ns.slice('namespace '.length));
  assert.deepEqual(names, ['a', 'b']);
});

test('playground="…" links each example to the playground, which opens it', async () => {
  await open();
  const links = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('kube-example')].map((e) => {
    const a = e.shadowRoot.querySelector('a.ex-playground');
    return [e.id, a.hidden ? null : a.getAttribute('href')];
  })));
  assert.equal(links.named, env.server.url + '/#scenarios/dry-run');
  assert.match(links.one, new RegExp('^' + env.server.url + '/#scenarios/inline:[\\w-]+$'));
  // without the attribute (in this repository): the playground beside the page
  assert.match(links.two, /\/#scenarios\/inline:/);
  const pg = await env.browser.context.newPage();
  pg.setDefaultTimeout(WAIT);
  await pg.goto(links.one);
  await pg.waitForSelector('#scenario-host .scenario h2');
  assert.equal(await pg.textContent('#scenario-host .scenario h2'), 'Create a ConfigMap');
  assert.match(await pg.textContent('#scenario-host .scenario code.req-line'), /^POST \/api\/v1\/namespaces\/one-\w+\/configmaps$/);
  await pg.evaluate(() => window.sandbox.ready);
  await pg.click('#scenario-host button.run-all');
  await pg.waitForSelector('#scenario-host li.step[data-ok="true"]');
  await pg.close();
});
