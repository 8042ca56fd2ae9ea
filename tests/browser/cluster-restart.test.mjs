// The browser cluster's controllers survive their SharedWorker: killed
// during a scale-up, or every page closed in the middle of a rollout, the
// next core restores the state from IndexedDB and its controllers resync
// from it — the scale-up ends with exactly `replicas` Pods (none created
// twice), the rollout goes on to its end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openSandbox, api, killSharedWorkers, closeAll } from './lib.mjs';
import { waitFor, deployment, podsOf, running, ensureNamespace } from './cluster-lib.mjs';

const env = useBrowser();

const open = () => openSandbox(env.browser.context, env.server.url, '/fixtures/start.html');
const DEPLOY = (ns) => `/apis/apps/v1/namespaces/${ns}/deployments`;

// podEvents follows the Pods of ns through sandbox.watch, which resumes
// across a worker restart from its last resourceVersion (no gap, no repeat).
async function podEvents(page, ns, from) {
  await page.evaluate(({ path, from }) => {
    window.podEvents = [];
    (async () => {
      for await (const ev of window.sandbox.watch(path, { resourceVersion: from })) {
        if (ev.type !== 'BOOKMARK') window.podEvents.push([ev.type, ev.object.metadata.name]);
      }
    })().catch((e) => window.podEvents.push(['ERROR', String(e)]));
  }, { path: `/api/v1/namespaces/${ns}/pods`, from });
  return () => page.evaluate(() => window.podEvents.slice());
}

test('SharedWorker killed during a scale-up: the new core\'s controllers finish it, with exactly replicas Pods', async (t) => {
  const page = await open();
  const ns = await ensureNamespace(page, 'restart');
  assert.equal((await api(page, 'POST', DEPLOY(ns), deployment('web', 1))).status, 201);
  await waitFor('1 Running Pod', async () => running(await podsOf(page, ns, 'web')).length === 1);
  const from = (await api(page, 'GET', `/api/v1/namespaces/${ns}/pods`)).body.metadata.resourceVersion;
  const events = await podEvents(page, ns, from);

  const N = 40;
  const s = await api(page, 'PATCH', `${DEPLOY(ns)}/web/scale`, { spec: { replicas: N } }, 'application/merge-patch+json');
  assert.equal(s.status, 200, JSON.stringify(s.body));
  await waitFor('the scale-up to start', async () => (await events()).filter(([t]) => t === 'ADDED').length >= 3, 60000);
  const before = await page.evaluate(() => window.sandbox.info.instance);
  const midway = (await events()).filter(([t]) => t === 'ADDED').length;
  assert.equal(await killSharedWorkers(env.browser), 1, 'one SharedWorker');
  t.diagnostic(`killed after ${midway} of ${N - 1} new Pods`);
  assert.ok(midway < N - 1, `the kill came in the middle of the scale-up (${midway} of ${N - 1} Pods made)`);

  await waitFor(`${N} Running Pods`, async () => {
    const pods = await podsOf(page, ns, 'web');
    return pods.length === N && running(pods).length === N;
  });
  assert.notEqual(await page.evaluate(() => window.sandbox.info.instance), before, 'a new SharedWorker took over');
  const d = (await api(page, 'GET', `${DEPLOY(ns)}/web`)).body;
  await waitFor('status.readyReplicas', async () => (await api(page, 'GET', `${DEPLOY(ns)}/web`)).body.status.readyReplicas === N);
  assert.equal(d.spec.replicas, N);
  // every Pod in the namespace, terminating or not: none too many
  const all = (await api(page, 'GET', `/api/v1/namespaces/${ns}/pods`)).body.items;
  assert.equal(all.length, N, `${all.length} Pods for ${N} replicas`);
  // the watch saw N-1 Pods created, each once, and none deleted
  await waitFor('the watch to catch up', async () => new Set((await events()).filter(([t]) => t === 'ADDED').map(([, n]) => n)).size === N - 1);
  const evs = await events();
  const added = evs.filter(([t]) => t === 'ADDED').map(([, n]) => n);
  assert.equal(added.length, N - 1, `each Pod added once (${midway} before the kill)`);
  assert.deepEqual(evs.filter(([t]) => t === 'DELETED' || t === 'ERROR'), [], 'no Pod deleted, no watch error');
  await page.close();
});

test('every page closed in the middle of a rollout: the next core restores it from IndexedDB and the rollout ends', async () => {
  let page = await open();
  const ns = await ensureNamespace(page, 'rollout-restart');
  assert.equal((await api(page, 'POST', DEPLOY(ns), deployment('web', 10))).status, 201);
  await waitFor('10 Running Pods', async () => running(await podsOf(page, ns, 'web')).length === 10);
  const patch = { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } } } };
  assert.equal((await api(page, 'PATCH', `${DEPLOY(ns)}/web`, patch, 'application/strategic-merge-patch+json')).status, 200);
  await waitFor('the new ReplicaSet', async () => (await api(page, 'GET', `/apis/apps/v1/namespaces/${ns}/replicasets`)).body.items.length === 2, 60000);
  const before = await page.evaluate(() => window.sandbox.info.instance);
  await closeAll(env.browser, [page]); // the SharedWorker ends with its last page

  page = await open();
  assert.notEqual(await page.evaluate(() => window.sandbox.info.instance), before, 'a new SharedWorker');
  await waitFor('the rollout to end', async () => {
    const pods = await podsOf(page, ns, 'web');
    const rs = (await api(page, 'GET', `/apis/apps/v1/namespaces/${ns}/replicasets`)).body.items;
    return pods.length === 10 && running(pods).length === 10 && pods.every((p) => p.spec.containers[0].image === 'nginx:1.27') &&
      rs.length === 2 && rs.some((r) => r.spec.replicas === 0) && rs.some((r) => r.spec.replicas === 10);
  });
  const d = (await api(page, 'GET', `${DEPLOY(ns)}/web`)).body;
  assert.equal(d.metadata.annotations['deployment.kubernetes.io/revision'], '2');
  await waitFor('updatedReplicas 10', async () => {
    const st = (await api(page, 'GET', `${DEPLOY(ns)}/web`)).body.status;
    return st.updatedReplicas === 10 && st.readyReplicas === 10 && st.replicas === 10;
  });
  await page.close();
});
