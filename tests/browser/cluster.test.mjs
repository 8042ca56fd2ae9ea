// A living cluster in the browser (issue #13): the in-process controllers
// (core/controllers, the same code `make serve` runs) work behind
// page → service worker → SharedWorker → Go. Deployments get ReplicaSets
// and Pods, the simulated kubelet makes Pods Running (no container runs),
// scale and rollouts converge, foreground deletion removes dependents
// before their owner, and a namespace goes with everything in it.
//
// Every wait is a condition polled with a generous deadline (the machine
// is shared; Pods may pass through phases before Running).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openSandbox, api } from './lib.mjs';
import { waitFor, deployment, podsOf, running, ensureNamespace, startWatches } from './cluster-lib.mjs';

let page;
const env = useBrowser(async ({ browser, server }) => {
  page = await openSandbox(browser.context, server.url, '/fixtures/start.html');
});

const DEPLOY = (ns) => `/apis/apps/v1/namespaces/${ns}/deployments`;
const RS = (ns) => `/apis/apps/v1/namespaces/${ns}/replicasets`;

test('a Deployment of 3 gets 3 Running Pods; scaled to 5 and back to 3, the Pods follow', async () => {
  const ns = await ensureNamespace(page, 'scale');
  const r = await api(page, 'POST', DEPLOY(ns), deployment('web', 3));
  assert.equal(r.status, 201, JSON.stringify(r.body));
  await waitFor('3 Running Pods', async () => running(await podsOf(page, ns, 'web')).length === 3);
  await waitFor('status.readyReplicas 3', async () => {
    const d = (await api(page, 'GET', `${DEPLOY(ns)}/web`)).body;
    return d.status && d.status.readyReplicas === 3 && d.status.replicas === 3;
  });
  const rs = (await api(page, 'GET', RS(ns))).body.items;
  assert.equal(rs.length, 1, 'one ReplicaSet');
  assert.equal(rs[0].metadata.ownerReferences[0].name, 'web');
  for (const p of await podsOf(page, ns, 'web')) {
    assert.equal(p.metadata.ownerReferences[0].kind, 'ReplicaSet');
    assert.equal(p.metadata.ownerReferences[0].uid, rs[0].metadata.uid);
  }

  const scale = async (n) => {
    const s = await api(page, 'PATCH', `${DEPLOY(ns)}/web/scale`, { spec: { replicas: n } }, 'application/merge-patch+json');
    assert.equal(s.status, 200, JSON.stringify(s.body));
  };
  await scale(5);
  await waitFor('5 Running Pods', async () => {
    const pods = await podsOf(page, ns, 'web');
    return pods.length === 5 && running(pods).length === 5;
  });
  await scale(3);
  await waitFor('back to 3 Pods', async () => {
    const pods = await podsOf(page, ns, 'web');
    return pods.length === 3 && running(pods).length === 3;
  });
  // the Deployment's status follows its ReplicaSet's, one write later
  await waitFor('status.replicas 3', async () => {
    const d = (await api(page, 'GET', `${DEPLOY(ns)}/web`)).body;
    return d.status && d.status.replicas === 3 && d.status.readyReplicas === 3;
  });
});

test('changing the image rolls out: a new ReplicaSet, the old one scaled to 0, revision 2', async () => {
  const ns = await ensureNamespace(page, 'rollout');
  assert.equal((await api(page, 'POST', DEPLOY(ns), deployment('web', 3))).status, 201);
  await waitFor('3 Running Pods', async () => running(await podsOf(page, ns, 'web')).length === 3);
  const first = (await api(page, 'GET', RS(ns))).body.items;
  assert.equal(first.length, 1);
  const d0 = (await api(page, 'GET', `${DEPLOY(ns)}/web`)).body;
  assert.equal(d0.metadata.annotations['deployment.kubernetes.io/revision'], '1');

  const patch = { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } } } };
  const p = await api(page, 'PATCH', `${DEPLOY(ns)}/web`, patch, 'application/strategic-merge-patch+json');
  assert.equal(p.status, 200, JSON.stringify(p.body));
  await waitFor('the rollout to finish', async () => {
    const rs = (await api(page, 'GET', RS(ns))).body.items;
    const pods = await podsOf(page, ns, 'web');
    const old = rs.find((x) => x.metadata.uid === first[0].metadata.uid);
    const next = rs.find((x) => x.metadata.uid !== first[0].metadata.uid);
    return rs.length === 2 && old.spec.replicas === 0 && next && next.spec.replicas === 3 &&
      pods.length === 3 && running(pods).length === 3 &&
      pods.every((x) => x.spec.containers[0].image === 'nginx:1.27');
  });
  const d = (await api(page, 'GET', `${DEPLOY(ns)}/web`)).body;
  assert.equal(d.metadata.annotations['deployment.kubernetes.io/revision'], '2');
  const rs = (await api(page, 'GET', RS(ns))).body.items;
  const next = rs.find((x) => x.metadata.uid !== first[0].metadata.uid);
  assert.equal(next.metadata.annotations['deployment.kubernetes.io/revision'], '2');
  assert.equal(next.spec.template.spec.containers[0].image, 'nginx:1.27');
  assert.notEqual(next.metadata.labels['pod-template-hash'], first[0].metadata.labels['pod-template-hash']);
});

test('propagationPolicy=Foreground: the Pods go first, then the ReplicaSet, the Deployment last', async () => {
  const ns = await ensureNamespace(page, 'foreground');
  assert.equal((await api(page, 'POST', DEPLOY(ns), deployment('web', 2))).status, 201);
  await waitFor('2 Running Pods', async () => running(await podsOf(page, ns, 'web')).length === 2);
  const pods = await podsOf(page, ns, 'web');
  const rs = (await api(page, 'GET', RS(ns))).body.items;
  const events = await startWatches(page, [DEPLOY(ns), RS(ns), `/api/v1/namespaces/${ns}/pods`]);

  const del = await api(page, 'DELETE', `${DEPLOY(ns)}/web`, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground' });
  assert.equal(del.status, 200, JSON.stringify(del.body));
  assert.ok(del.body.metadata.deletionTimestamp, 'the Deployment is being deleted');
  assert.deepEqual(del.body.metadata.finalizers, ['foregroundDeletion']);

  const deletedRV = async (kind, name) => {
    const e = (await events()).find((x) => x.type === 'DELETED' && x.kind === kind && x.name === name);
    return e ? Number(e.rv) : 0;
  };
  await waitFor('the Deployment to go', async () => (await deletedRV('Deployment', 'web')) > 0);
  const deployRV = await deletedRV('Deployment', 'web');
  const rsRV = await deletedRV('ReplicaSet', rs[0].metadata.name);
  assert.ok(rsRV > 0 && rsRV < deployRV, `ReplicaSet deleted (rv ${rsRV}) before the Deployment (rv ${deployRV})`);
  for (const p of pods) {
    const podRV = await deletedRV('Pod', p.metadata.name);
    assert.ok(podRV > 0 && podRV < rsRV, `Pod ${p.metadata.name} deleted (rv ${podRV}) before its ReplicaSet (rv ${rsRV})`);
  }
  // while it waited, the ReplicaSet carried foregroundDeletion too
  const rsEvents = (await events()).filter((x) => x.kind === 'ReplicaSet' && x.type === 'MODIFIED');
  assert.ok(rsEvents.some((x) => x.finalizers.includes('foregroundDeletion') && x.deleting), 'the ReplicaSet was deleted in the foreground too');
  assert.equal((await api(page, 'GET', `${DEPLOY(ns)}/web`)).status, 404);
  assert.equal((await api(page, 'GET', `/api/v1/namespaces/${ns}/pods`)).body.items.length, 0);
});

test('deleting a namespace with workloads in it removes it and everything in it', async () => {
  const ns = await ensureNamespace(page, 'doomed');
  assert.equal((await api(page, 'POST', DEPLOY(ns), deployment('web', 2))).status, 201);
  assert.equal((await api(page, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } })).status, 201);
  await waitFor('2 Running Pods', async () => running(await podsOf(page, ns, 'web')).length === 2);
  await waitFor('the namespace\'s default ServiceAccount', async () => (await api(page, 'GET', `/api/v1/namespaces/${ns}/serviceaccounts/default`)).status === 200);

  const del = await api(page, 'DELETE', `/api/v1/namespaces/${ns}`);
  assert.equal(del.status, 200, JSON.stringify(del.body));
  await waitFor('the namespace to go', async () => (await api(page, 'GET', `/api/v1/namespaces/${ns}`)).status === 404);
  for (const path of [DEPLOY(ns), RS(ns), `/api/v1/namespaces/${ns}/pods`, `/api/v1/namespaces/${ns}/configmaps`, `/api/v1/namespaces/${ns}/serviceaccounts`]) {
    const l = await api(page, 'GET', path);
    assert.equal(l.status, 200);
    assert.deepEqual(l.body.items.map((i) => i.metadata.name), [], `${path} is empty`);
  }
});

test('createSandbox({nodes: 0}): the controllers make the Pods, nothing runs them — they stay Pending', async () => {
  const p = await openSandbox(env.browser.context, env.server.url, '/fixtures/no-nodes.html');
  const base = await p.evaluate(() => window.sandbox.base);
  assert.equal(base, '/sandbox/no-nodes');
  const ns = 'default';
  assert.equal((await api(p, 'POST', base + DEPLOY(ns), deployment('web', 2))).status, 201);
  const pods = async () => (await api(p, 'GET', `${base}/api/v1/namespaces/${ns}/pods?labelSelector=app%3Dweb`)).body.items;
  await waitFor('2 Pods and the Deployment\'s status', async () => (await pods()).length === 2 &&
    (await api(p, 'GET', `${base}${DEPLOY(ns)}/web`)).body.status.replicas === 2);
  for (const pod of await pods()) {
    assert.equal(pod.status.phase, 'Pending', `${pod.metadata.name} is Pending`);
    assert.equal(pod.spec.nodeName, undefined, `${pod.metadata.name} is on no Node`);
  }
  const d = (await api(p, 'GET', `${base}${DEPLOY(ns)}/web`)).body;
  assert.equal(d.status.readyReplicas, undefined, 'no replica ready');
  await p.close();
});
