// CEL in the browser: the engine of CRD validation rules and
// ValidatingAdmissionPolicies is two wasm programs of its own
// (cel-crd.wasm, cel-policy.wasm), each loaded by the worker the first
// time the core calls one of its methods (wasm/cel.go, web/worker.js). A
// sandbox without rules downloads neither, one with CRD rules alone never
// the policy half; a restored one with rules loads what it needs in the
// background after its first answer. Run: make web-dist
// static-server && node --test tests/browser/cel.test.mjs.
//
// Each test has a sandbox of its own (its own SharedWorker, by worker URL, and IndexedDB).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openSandbox, api, closeAll } from './lib.mjs';

const env = useBrowser();

const open = (db) => openSandbox(env.browser.context, env.server.url, '/fixtures/durable.html?worker=' + encodeURIComponent('db=' + db));
const stats = (page) => page.evaluate(() => window.sandbox.stats());
// celFetches counts the fetches of a part (crd, policy) or of both.
const celFetches = async (part = '(crd|policy)') => (await env.server.requests()).filter((u) => new RegExp(`/cel-${part}\\.wasm(\\?|$)`).test(u)).length;
// callCEL makes one engine call through the core, as the core makes it;
// resolves {error} or {result}.
const callCEL = (page, method, request) => page.evaluate(([m, r]) => window.sandbox._cel(m, r).then(
  (result) => ({ result }), (e) => ({ error: String(e.message || e) })), [method, request]);

async function until(what, f, ms = 60000) {
  const end = Date.now() + ms;
  let last;
  while (Date.now() < end) {
    last = await f();
    if (last) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`timed out waiting for ${what}`);
}

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const crd = (rules) => ({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.cel.example.com' },
  spec: {
    group: 'cel.example.com', scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [{
      name: 'v1', served: true, storage: true,
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: {
        type: 'object',
        properties: { replicas: { type: 'integer' }, maxReplicas: { type: 'integer' } },
        ...(rules ? { 'x-kubernetes-validations': [{ rule: 'self.replicas <= self.maxReplicas' }] } : {}),
      } } } },
    }],
  },
});

test('a sandbox without rules never loads the engine; the first call of a part loads that part once, later calls reuse it', async () => {
  const page = await open('cel-plumbing');
  // writes without any rule, a CRD without rules among them
  assert.equal((await api(page, 'POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } })).status, 201);
  assert.equal((await api(page, 'POST', CRDS, crd(false))).status, 201);
  const before = await stats(page);
  assert.deepEqual([before.cel.state, before.cel.loads], ['absent', 0]);
  assert.equal(await celFetches(), 0, 'no part of the engine was fetched');

  // the engine answers through core → worker → cel.wasm → core: an
  // unknown method is cel.Dispatch's error, from the other wasm
  assert.deepEqual(await callCEL(page, 'Mutate', {}), { error: 'cel: unknown method "Mutate"' });
  const after = await stats(page);
  assert.equal(after.cel.state, 'ready');
  assert.equal(after.cel.loads, 1);
  assert.ok(after.cel.millis > 0 && after.cel.total > 0, JSON.stringify(after.cel));
  assert.deepEqual([after.cel.parts.crd.state, after.cel.parts.policy.state], ['ready', 'absent'], 'an unknown method went to the CRD part');
  // every method of the contract is served by its part (answers or its
  // own error, never unknown, never the other part's), twice: each part
  // loads once
  for (const round of [1, 2]) {
    for (const m of ['CheckCRD', 'ValidateCustomResource', 'CheckPolicy', 'Admit', 'TypeCheck']) {
      const got = await callCEL(page, m, {});
      assert.doesNotMatch(got.error || '', /unknown method|could not be loaded|other part/, `${m}, round ${round}: ${JSON.stringify(got)}`);
    }
  }
  const parts = (await stats(page)).cel.parts;
  assert.deepEqual([parts.crd.state, parts.crd.loads, parts.policy.state, parts.policy.loads], ['ready', 1, 'ready', 1], JSON.stringify(parts));
  assert.equal((await stats(page)).cel.loads, 2, 'each part loaded once');
  await closeAll(env.browser, [page]);
});

test('a failed load fails the call (nothing kept) and the next call loads again', async () => {
  const page = await open('cel-failure');
  await page.evaluate(() => window.sandbox._celURL('/web/no-such-cel.wasm'));
  const failed = await callCEL(page, 'Mutate', {});
  assert.match(failed.error || '', /the CEL engine \(cel\.wasm\) could not be loaded: fetching .*no-such-cel\.wasm: HTTP 404/);
  assert.deepEqual([(await stats(page)).cel.state, (await stats(page)).cel.loads], ['failed', 1]);
  await page.evaluate(() => window.sandbox._celURL(null));
  assert.deepEqual(await callCEL(page, 'Mutate', {}), { error: 'cel: unknown method "Mutate"' });
  const s = await stats(page);
  assert.deepEqual([s.cel.state, s.cel.loads, s.cel.error], ['ready', 2, null]);
  await closeAll(env.browser, [page]);
});

test('a restored sandbox with rules loads cel.wasm in the background after its first answer, or without one', async () => {
  let page = await open('cel-restore');
  assert.equal((await api(page, 'POST', CRDS, crd(true))).status, 201);
  for (const ask of [true, false]) {
    await closeAll(env.browser, [page]); // the SharedWorker ends: the next page restores from IndexedDB
    page = await open('cel-restore');
    if (ask) assert.equal((await api(page, 'GET', CRDS + '/widgets.cel.example.com')).status, 200);
    const s = await until(`cel.wasm loaded in the background (${ask ? 'after an answer' : 'no request'})`, async () => {
      const st = await stats(page);
      return st.cel.state === 'ready' && st;
    });
    assert.equal(s.cel.loads, 1);
  }
  await closeAll(env.browser, [page]);
});

test('a CRD rule holds in the browser: kube\'s 422 with the rule\'s cause, 201 for a good object, and again after a restore', async () => {
  let page = await open('cel-e2e');
  const fetchedBefore = await celFetches();
  // writes without rules never load the engine
  assert.equal((await api(page, 'POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } })).status, 201);
  assert.deepEqual([(await stats(page)).cel.state, (await stats(page)).cel.loads], ['absent', 0]);
  assert.equal(await celFetches(), fetchedBefore, 'no fetch of cel.wasm before a rule exists');

  const policyFetches = await celFetches('policy');
  const made = await api(page, 'POST', CRDS, crd(true));
  assert.equal(made.status, 201, JSON.stringify(made.body));
  assert.equal((await stats(page)).cel.state, 'ready', 'the CRD with a rule loaded cel-crd.wasm');
  const widgets = '/apis/cel.example.com/v1/namespaces/default/widgets';
  await until('widgets served', async () => (await api(page, 'GET', widgets)).status === 200);
  const widget = (name, replicas, maxReplicas) => ({ apiVersion: 'cel.example.com/v1', kind: 'Widget', metadata: { name }, spec: { replicas, maxReplicas } });
  const rule = (p) => p.evaluate(async (path) => {
    const bad = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'cel.example.com/v1', kind: 'Widget', metadata: { name: 'too-many' }, spec: { replicas: 5, maxReplicas: 3 } }) });
    return { status: bad.status, body: await bad.json() };
  }, widgets);
  const wantRefusal = {
    apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', reason: 'Invalid', code: 422,
    message: 'Widget.cel.example.com "too-many" is invalid: spec: Invalid value: failed rule: self.replicas <= self.maxReplicas',
    details: { name: 'too-many', group: 'cel.example.com', kind: 'Widget',
      causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: failed rule: self.replicas <= self.maxReplicas', field: 'spec' }] },
  };
  const bad = await rule(page);
  assert.deepEqual(bad, { status: 422, body: wantRefusal });
  assert.equal((await api(page, 'POST', widgets, widget('fine', 2, 3))).status, 201);
  assert.equal((await api(page, 'GET', widgets + '/too-many')).status, 404, 'the refused object was not stored');

  // restored state: a new worker from IndexedDB; the rule still holds
  await closeAll(env.browser, [page]);
  page = await open('cel-e2e');
  assert.deepEqual(await rule(page), { status: 422, body: wantRefusal });
  const upd = await api(page, 'PUT', widgets + '/fine', { ...widget('fine', 4, 3), metadata: { name: 'fine', resourceVersion: (await api(page, 'GET', widgets + '/fine')).body.metadata.resourceVersion } });
  assert.equal(upd.status, 422, JSON.stringify(upd.body));
  assert.equal((await api(page, 'POST', widgets, widget('also-fine', 3, 3))).status, 201);
  assert.equal((await stats(page)).cel.loads, 1, 'loaded once in the new worker');
  assert.equal((await stats(page)).cel.parts.policy.state, 'absent', 'CRD rules alone never load the policy part');
  assert.equal(await celFetches('policy'), policyFetches, 'cel-policy.wasm was not fetched');
  await closeAll(env.browser, [page]);
});

test('a policy holds in the browser: cel-policy.wasm denies a write in a namespace its binding selects, allows it elsewhere; the CRD part never loads', async () => {
  const page = await open('cel-policy');
  const crdFetches = await celFetches('crd');
  const ADM = '/apis/admissionregistration.k8s.io/v1';
  for (const [ns, labels] of [['prod', { environment: 'prod' }], ['dev', {}]]) {
    assert.equal((await api(page, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels } })).status, 201);
  }
  const made = await api(page, 'POST', ADM + '/validatingadmissionpolicies', {
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'small' },
    spec: {
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] }] },
      validations: [{ expression: 'object == null || !has(object.data) || size(object.data) <= 1' }],
    },
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  assert.equal((await api(page, 'POST', ADM + '/validatingadmissionpolicybindings', {
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'small-prod' },
    spec: { policyName: 'small', validationActions: ['Deny'], matchResources: { namespaceSelector: { matchLabels: { environment: 'prod' } } } },
  })).status, 201);
  const cm = (ns) => api(page, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'two' }, data: { a: '1', b: '2' } });
  const denied = await cm('prod');
  assert.equal(denied.status, 422, JSON.stringify(denied.body));
  assert.equal(denied.body.message, 'configmaps "two" is forbidden: ValidatingAdmissionPolicy \'small\' with binding \'small-prod\' denied request: failed expression: object == null || !has(object.data) || size(object.data) <= 1');
  assert.equal((await cm('dev')).status, 201);
  const s = (await stats(page)).cel;
  assert.deepEqual([s.parts.policy.state, s.parts.policy.loads, s.parts.crd.state], ['ready', 1, 'absent'], JSON.stringify(s.parts));
  assert.equal(await celFetches('crd'), crdFetches, 'cel-crd.wasm was not fetched');
  await closeAll(env.browser, [page]);
});
