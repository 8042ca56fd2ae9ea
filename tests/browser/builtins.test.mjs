// Built-in kinds validated in the browser as kube-apiserver validates them:
// the examples a learner meets first (a Pod with no containers, a container
// without an image, a Deployment whose selector does not match its
// template) answer the real 422 through page → service worker → wasm, and
// nothing is stored. The texts are those of tests/conformance's transcripts
// recorded from a real v1.37.2 control plane. Run: make test-browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openSandbox, api } from './lib.mjs';

const env = useBrowser();

const PODS = '/api/v1/namespaces/default/pods';
const DEPLOYS = '/apis/apps/v1/namespaces/default/deployments';

const cases = [
  {
    name: 'a Pod with containers: []',
    path: PODS,
    body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'empty' }, spec: { containers: [] } },
    message: 'Pod "empty" is invalid: spec.containers: Required value',
    causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers' }],
  },
  {
    name: 'a container without an image',
    path: PODS,
    body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'noimage' }, spec: { containers: [{ name: 'app' }] } },
    message: 'Pod "noimage" is invalid: spec.containers[0].image: Required value',
    causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers[0].image' }],
  },
  {
    name: 'a Deployment whose selector does not match its template labels',
    path: DEPLOYS,
    body: {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'api' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } },
      },
    },
    message: 'Deployment.apps "web" is invalid: spec.template.metadata.labels: Invalid value: {"app":"api"}: `selector` does not match template `labels`',
    causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: {"app":"api"}: `selector` does not match template `labels`', field: 'spec.template.metadata.labels' }],
  },
];

test('invalid built-ins answer kube-apiserver\'s 422 in the browser and store nothing', async () => {
  const page = await openSandbox(env.browser.context, env.server.url, '/fixtures/durable.html');
  for (const c of cases) {
    const before = await api(page, 'GET', c.path);
    const r = await api(page, 'POST', c.path, c.body);
    assert.equal(r.status, 422, `${c.name}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.kind, 'Status', c.name);
    assert.equal(r.body.reason, 'Invalid', c.name);
    assert.equal(r.body.message, c.message, c.name);
    assert.deepEqual(r.body.details.causes, c.causes, c.name);
    // The list's resourceVersion is the cluster's, which the controllers
    // move (ServiceAccounts, Pods' status): compare the objects instead.
    const after = await api(page, 'GET', c.path);
    const objs = (l) => l.body.items.map((i) => `${i.metadata.name}@${i.metadata.resourceVersion}`);
    assert.deepEqual(objs(after), objs(before), `${c.name}: nothing written`);
    assert.equal((await api(page, 'GET', `${c.path}/${c.body.metadata.name}`)).status, 404, `${c.name}: nothing stored`);
  }
  // the same objects made valid are created: the rules are not blanket refusals
  const ok = await api(page, 'POST', PODS, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'fine' }, spec: { containers: [{ name: 'app', image: 'nginx' }] } });
  assert.equal(ok.status, 201, JSON.stringify(ok.body));
  await page.close();
});
