// Schema-driven help in the playground's console (issue 17), from the
// OpenAPI the sandbox serves: the cursor's path in a half-typed YAML or
// JSON body (no browser); then in Debian's headless Chromium a "New
// object…" template per kind that the API accepts as it is, field-name
// completion in the editor keyed by the kind and the cursor's path, and a
// field's type, required and description on hover (a CRD's schema carries
// descriptions and required fields; built-in kinds may not, and then the
// type and "optional" are shown).
// Run: make web-dist static-server playground-build &&
//   CHROMIUM=/usr/bin/chromium node --test --test-concurrency=1 tests/browser/playground-schema.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { startStatic, launch, repo } from './lib.mjs';
import { yamlAt, yamlKeyAt, jsonAt, jsonKeyAt, docKind } from '../../playground/js/cursor-path.js';
import { templated } from '../../playground/js/templates.js';

const shots = process.env.UPDATE_SCREENSHOTS ? join(repo, 'docs', 'screenshots') : mkdtempSync(join(tmpdir(), 'playground-shots-'));
const WAIT = 60000;

test('cursor path: YAML keys by indentation, compact lists, block scalars, documents', () => {
  const at = (text) => { const r = yamlAt(text, text.length); return r && [r.path.join('.'), r.prefix]; };
  const cases = [
    ['top level', 'apiVersion: v1\nki', ['', 'ki']],
    ['nested', 'spec:\n  template:\n    spec:\n      node', ['spec.template.spec', 'node']],
    ['a compact list item', 'spec:\n  containers:\n  - name: app\n    ima', ['spec.containers.[]', 'ima']],
    ['a new item', 'spec:\n  containers:\n  - name: app\n  - ', ['spec.containers.[]', '']],
    ['an indented list', 'spec:\n  ports:\n    - port: 80\n      tar', ['spec.ports.[]', 'tar']],
    ['back out of a list', 'spec:\n  containers:\n  - name: app\n    image: x\n  vol', ['spec', 'vol']],
    ['after a block scalar', 'data:\n  script: |\n    a: b\n    c: d\n  mo', ['data', 'mo']],
    ['second document', 'kind: A\nspec:\n  x: 1\n---\nkind: B\nme', ['', 'me']],
    ['a quoted key before', 'metadata:\n  "labels":\n    ap', ['metadata.labels', 'ap']],
    ['in a value', 'spec:\n  replicas: 3', null],
  ];
  for (const [name, text, want] of cases) assert.deepEqual(at(text), want, name);
  const y = 'spec:\n  containers:\n  - name: app\n    image: nginx\n';
  assert.deepEqual(yamlKeyAt(y, y.indexOf('image') + 2), { path: ['spec', 'containers', '[]', 'image'], from: y.indexOf('image'), to: y.indexOf('image') + 5 });
  assert.deepEqual(yamlKeyAt(y, y.indexOf('name') + 1).path, ['spec', 'containers', '[]', 'name']);
  assert.equal(yamlKeyAt(y, y.indexOf('nginx') + 1), null, 'a value is not a key');
  assert.deepEqual(docKind('kind: A\napiVersion: v1\n---\napiVersion: x.io/v1\nkind: "B" # b\n', 30), { apiVersion: 'x.io/v1', kind: 'B' });
});

test('cursor path: JSON keys by brackets, strings with braces, arrays', () => {
  const at = (text) => { const r = jsonAt(text, text.length); return r && [r.path.join('.'), r.prefix, r.quoted]; };
  assert.deepEqual(at('{"spec": {"repl'), ['spec', 'repl', true]);
  assert.deepEqual(at('{"a": "{[", "spec": {"template": {"spec": {"containers": [{"name": "x", "im'), ['spec.template.spec.containers.[]', 'im', true]);
  assert.deepEqual(at('{"spec": {"replicas": 1, '), ['spec', '', false]);
  assert.equal(at('{"spec": {"replicas": "1'), null, 'a value is not a key');
  const j = '{"spec": {"containers": [{"name": "a"}]}}';
  assert.deepEqual(jsonKeyAt(j, j.indexOf('name') + 1), { path: ['spec', 'containers', '[]', 'name'], from: j.indexOf('"name"'), to: j.indexOf('"name"') + 6 });
  assert.equal(jsonKeyAt(j, j.indexOf('"a"') + 1), null);
  assert.deepEqual(docKind('{"kind": "Pod", "apiVersion": "v1"}'), { apiVersion: 'v1', kind: 'Pod' });
});

let server;
let browser;
let page;
let kons;

before(async () => {
  server = await startStatic();
  browser = await launch();
  page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.errors = errors;
  page.setDefaultTimeout(WAIT);
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(server.url + '/#console');
  await page.waitForFunction(() => document.body.classList.contains('ready'), null, { timeout: 2 * WAIT });
  kons = await page.evaluateHandle(() => window.playground.console);
  await page.evaluate(() => window.playground.welcome.hide()); // a first visit: greeted (playground-firstrun.test.mjs)
  // when the completion list last opened (for takesKeys)
  await page.evaluate(() => {
    window.completionOpenedAt = null;
    new MutationObserver(() => {
      const open = document.querySelector('.cm-tooltip-autocomplete');
      if (!open) window.completionOpenedAt = null;
      else if (window.completionOpenedAt === null) window.completionOpenedAt = performance.now();
    }).observe(document.body, { childList: true, subtree: true });
  });
});

after(async () => {
  await browser?.close();
  server?.stop();
});

const call = (page, method, path, body) => page.evaluate(async ([m, p, b]) => {
  const r = await fetch(p, { method: m, headers: { 'Content-Type': 'application/json' }, body: b == null ? undefined : JSON.stringify(b) });
  return { status: r.status, body: await r.json() };
}, [method, path, body]);

// setBody puts text in the editor with the cursor at its end, focused, in
// the given format. The editor is emptied first: the format buttons convert
// the body, and one that does not parse (a step that failed) keeps the old
// format, which would fail every step after it.
const setBody = async (text, format = 'yaml') => {
  const pressed = await page.evaluate(([k, t, f]) => {
    k.editor.value = '';
    const button = document.querySelector(`.seg-group button:nth-child(${f === 'json' ? 2 : 1})`);
    button.click();
    k.editor.value = t;
    k.editor.view.dispatch({ selection: { anchor: t.length } });
    k.editor.focus();
    return button.getAttribute('aria-pressed');
  }, [kons, text, format]);
  assert.equal(pressed, 'true', `the editor is in ${format}`);
};

const options = () => page.$$eval('.cm-tooltip-autocomplete li', (ls) => ls.map((l) => [l.querySelector('.cm-completionLabel').textContent, (l.querySelector('.cm-completionDetail') || {}).textContent || '']));

async function complete(text, typed, format = 'yaml') {
  await setBody(text, format);
  await page.keyboard.type(typed);
  await page.waitForSelector('.cm-tooltip-autocomplete li');
  return options();
}

// takesKeys waits until the open completion list takes Enter: CodeMirror
// ignores keys for its interactionDelay (75 ms; waited here with a margin)
// after the list opens, so that a key pressed just as it appears is not
// taken for a choice (Enter then inserts a line break), and while a new
// query is pending (the list is marked disabled).
const takesKeys = () => page.waitForFunction(() => {
  const list = document.querySelector('.cm-tooltip-autocomplete');
  return list && !list.classList.contains('cm-tooltip-autocomplete-disabled') && window.completionOpenedAt !== null &&
    performance.now() - window.completionOpenedAt > 85;
});

// hoverTip moves the mouse over the text at offset pos and returns the hover card's text.
async function hoverTip(pos) {
  await page.mouse.move(1, 1);
  await page.waitForSelector('.cm-tooltip-hover', { state: 'detached' });
  const c = await page.evaluate(([k, p]) => { const r = k.editor.view.coordsAtPos(p); return { x: r.left + 2, y: (r.top + r.bottom) / 2 }; }, [kons, pos]);
  await page.mouse.move(c.x - 1, c.y);
  await page.mouse.move(c.x, c.y, { steps: 2 });
  await page.waitForSelector('.cm-tooltip-hover .field-tip');
  return page.textContent('.cm-tooltip-hover .field-tip');
}

test('New object…: every common kind\'s template is accepted by the API as it is (dry run)', async () => {
  const served = await page.evaluate(async () => {
    const { resources } = await import('/js/discovery.js');
    return (await resources()).map((r) => `${r.group}/${r.kind}`);
  });
  const kinds = templated.filter((k) => served.includes(k));
  assert.ok(kinds.length >= 30, `templates for ${kinds.length} served kinds`);
  const failed = [];
  for (const key of kinds) {
    const i = key.indexOf('/');
    const req = await page.evaluate(([k, g, kind]) => k.newObject(g, kind), [kons, key.slice(0, i), key.slice(i + 1)]);
    assert.equal(await page.inputValue('#c-method'), 'POST');
    assert.equal(await page.inputValue('#c-path'), req.path);
    await page.selectOption('#c-q-dryRun', 'All');
    await page.selectOption('#c-q-fieldValidation', 'Strict');
    const res = await page.evaluate((k) => k.send(), kons);
    if (res.status !== 201) failed.push(`${key}: ${res.status} ${res.body && res.body.message}`);
  }
  await page.selectOption('#c-q-dryRun', '');
  await page.selectOption('#c-q-fieldValidation', '');
  assert.deepEqual(failed, []);

  // the picker itself: a Deployment into the typed namespace
  await page.fill('#c-path', '/api/v1/namespaces/kube-public/configmaps');
  await page.selectOption('#c-new', 'apps/Deployment');
  await page.waitForFunction((k) => /kind: Deployment/.test(k.editor.value), kons);
  assert.equal(await page.inputValue('#c-path'), '/apis/apps/v1/namespaces/kube-public/deployments');
  const body = await page.evaluate((k) => k.editor.value, kons);
  assert.match(body, /^apiVersion: apps\/v1\nkind: Deployment\nmetadata:\n  name: my-deployment\nspec:\n  replicas: 1\n  selector:\n    matchLabels:\n      app: my-deployment\n/);
  await page.waitForFunction(() => document.querySelector('#c-schema').textContent === 'fields of Deployment (apps/v1)');
  // a kind without a minimal spec: what the schema requires, apiVersion, kind and name
  const cr = await page.evaluate(([k]) => k.newObject('apps', 'ControllerRevision').then(() => k.editor.value), [kons]);
  assert.match(cr, /^apiVersion: apps\/v1\nkind: ControllerRevision\nmetadata:\n  name: my-controller-revision\n/);
  assert.deepEqual(page.errors, []);
});

test('completion: field names for the kind and the cursor\'s path, in YAML and JSON', async () => {
  // (for the screenshot: a Deployment's template sent as a dry run beside it)
  await page.evaluate((k) => k.newObject('apps', 'Deployment'), kons);
  await page.selectOption('#c-q-dryRun', 'All');
  assert.equal((await page.evaluate((k) => k.send(), kons)).status, 201);
  await page.selectOption('#c-q-dryRun', '');
  const deploy = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n      - name: app\n        ima';
  // CodeMirror matches fuzzily (terminationMessagePath has i-m-a-g too): the prefix matches come first
  const found = await complete(deploy, 'g');
  assert.deepEqual(found.slice(0, 2), [['image', 'string'], ['imagePullPolicy', 'string']]);
  assert.ok(found.every(([l]) => /i.*m.*a.*g/i.test(l)), JSON.stringify(found));
  await page.screenshot({ path: join(shots, 'schema-help.png') });
  await takesKeys();
  await page.keyboard.press('Enter');
  const after = await page.evaluate((k) => k.editor.value, kons);
  assert.ok(after.endsWith('\n      - name: app\n        image: '), JSON.stringify(after.slice(-40)));

  // under spec: DeploymentSpec's fields; under metadata: ObjectMeta's
  const specFields = await complete('apiVersion: apps/v1\nkind: Deployment\nspec:\n  re', 'p');
  assert.deepEqual(specFields.map(([l]) => l), ['replicas']);
  assert.deepEqual(specFields[0], ['replicas', 'integer']);
  assert.ok((await complete('apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  lab', 'e')).some(([l, d]) => l === 'labels' && d === 'map[string]string'));
  // JSON: the same schema through brackets
  assert.deepEqual((await complete('{"apiVersion": "apps/v1", "kind": "Deployment", "spec": {"template": {"spec": {"restart', 'P', 'json')).map(([l]) => l), ['restartPolicy']);
  await takesKeys();
  await page.keyboard.press('Enter');
  assert.match(await page.evaluate((k) => k.editor.value, kons), /"restartPolicy": $/);
  // a PATCH body has no kind: the path's kind
  await page.evaluate((k) => k.load({ method: 'PATCH', path: '/apis/batch/v1/namespaces/default/cronjobs/x', contentType: 'application/merge-patch+json' }), kons);
  assert.deepEqual((await complete('spec:\n  suspen', 'd')).map(([l]) => l), ['suspend']);
  assert.deepEqual(page.errors, []);
});

test('a CRD\'s schema: completion marks required fields, hover shows its descriptions; built-in fields show type and optional', async () => {
  const crd = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gadgets.pg.example.com' },
    spec: { group: 'pg.example.com', scope: 'Namespaced', names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', description: 'What the gadget should be.', required: ['size'],
        properties: { size: { type: 'integer', description: 'How big the gadget is.' }, color: { type: 'string', enum: ['red', 'blue'] } } } } } } }] } };
  assert.equal((await call(page, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status, 201);
  for (let i = 0; i < 200 && (await call(page, 'GET', '/apis/pg.example.com/v1')).status !== 200; i++) await page.waitForTimeout(100);

  assert.deepEqual(await complete('apiVersion: pg.example.com/v1\nkind: Gadget\nmetadata:\n  name: g\nspec:\n  ', 's'), [['size', 'integer · required']]);
  await page.keyboard.press('Escape');
  const text = 'apiVersion: pg.example.com/v1\nkind: Gadget\nmetadata:\n  name: g\nspec:\n  size: 3\n  color: red\n';
  await setBody(text);
  assert.equal(await hoverTip(text.indexOf('size') + 1), 'spec.size <integer> requiredHow big the gadget is.');
  await page.screenshot({ path: join(shots, 'schema-hover.png') });
  assert.equal(await hoverTip(text.indexOf('color') + 1), 'spec.color <string> optional' + 'one of: red, blue' + 'no description in the OpenAPI of pg.example.com/v1 Gadget');
  assert.equal(await hoverTip(text.indexOf('spec') + 1), 'spec <Object> optionalWhat the gadget should be.');
  // its template fills the required field
  await page.evaluate((k) => k.newObject('pg.example.com', 'Gadget'), kons);
  assert.match(await page.evaluate((k) => k.editor.value, kons), /\nspec:\n  size: 0\n$/);
  assert.equal((await page.evaluate((k) => k.send(), kons)).status, 201);

  // a built-in field: what the served OpenAPI says (the real server's description)
  const want = await page.evaluate(async () => {
    const root = await (await fetch('/openapi/v3')).json();
    const doc = await (await fetch(root.paths['apis/apps/v1'].serverRelativeURL)).json();
    return doc.components.schemas['io.k8s.api.apps.v1.DeploymentSpec'].properties.replicas.description || '';
  });
  assert.equal(want, 'Number of desired pods. This is a pointer to distinguish between explicit zero and not specified. Defaults to 1.');
  const d = 'apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: 2\n';
  await setBody(d);
  assert.equal(await hoverTip(d.indexOf('replicas') + 2), `spec.replicas <integer> optional${want}`);
  assert.equal((await call(page, 'DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.pg.example.com')).status, 200);
  assert.deepEqual(page.errors, []);
});
