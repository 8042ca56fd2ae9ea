// The rest of issue #13's "done when" in the browser: a Service gets
// EndpointSlices listing its ready Pods, and a CronJob `*/1 * * * *`
// creates a Job within a minute. Both need the EndpointSlice and CronJob
// controllers of core/controllers (branch h13-ctl): without them these
// tests fail, as they should — the browser runs whatever controllers the
// core has, with nothing browser-specific to add.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openSandbox, api } from './lib.mjs';
import { waitFor, deployment, podsOf, running, ensureNamespace } from './cluster-lib.mjs';

let page;
const env = useBrowser(async ({ browser, server }) => {
  page = await openSandbox(browser.context, server.url, '/fixtures/start.html');
});

test('a Service gets an EndpointSlice listing its ready Pods', async () => {
  const ns = await ensureNamespace(page, 'svc');
  assert.equal((await api(page, 'POST', `/apis/apps/v1/namespaces/${ns}/deployments`, deployment('web', 2))).status, 201);
  const svc = await api(page, 'POST', `/api/v1/namespaces/${ns}/services`, {
    apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' },
    spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] },
  });
  assert.equal(svc.status, 201, JSON.stringify(svc.body));
  await waitFor('2 Running Pods', async () => running(await podsOf(page, ns, 'web')).length === 2);
  const slices = async () => (await api(page, 'GET', `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3Dweb`)).body.items || [];
  await waitFor('an EndpointSlice with both Pods ready', async () => {
    const eps = (await slices()).flatMap((s) => s.endpoints || []);
    return eps.length === 2 && eps.every((e) => e.conditions && e.conditions.ready === true);
  });
  const [slice] = await slices();
  assert.equal(slice.addressType, 'IPv4');
  assert.deepEqual(slice.ports, [{ name: 'http', port: 8080, protocol: 'TCP' }]);
  assert.equal(slice.metadata.ownerReferences[0].kind, 'Service');
  assert.equal(slice.metadata.ownerReferences[0].name, 'web');
  const pods = await podsOf(page, ns, 'web');
  assert.deepEqual(slice.endpoints.map((e) => e.targetRef.name).sort(), pods.map((p) => p.metadata.name).sort());
  assert.deepEqual(slice.endpoints.map((e) => e.addresses[0]).sort(), pods.map((p) => p.status.podIP).sort());
});

test('a CronJob "*/1 * * * *" creates a Job within a minute', async () => {
  const ns = await ensureNamespace(page, 'cron');
  const cj = await api(page, 'POST', `/apis/batch/v1/namespaces/${ns}/cronjobs`, {
    apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'tick' },
    spec: {
      schedule: '*/1 * * * *',
      jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'tick', image: 'busybox', command: ['date'] }] } } } },
    },
  });
  assert.equal(cj.status, 201, JSON.stringify(cj.body));
  // the next minute starts at most 60 s after the create; the rest is slack
  // for a loaded machine
  const jobs = async () => (await api(page, 'GET', `/apis/batch/v1/namespaces/${ns}/jobs`)).body.items || [];
  await waitFor('a Job of the CronJob', async () => (await jobs()).length >= 1, 150000);
  const [job] = await jobs();
  assert.equal(job.metadata.ownerReferences[0].kind, 'CronJob');
  assert.equal(job.metadata.ownerReferences[0].name, 'tick');
  assert.match(job.metadata.name, /^tick-\d+$/);
  await waitFor('status.lastScheduleTime', async () => !!(await api(page, 'GET', `/apis/batch/v1/namespaces/${ns}/cronjobs/tick`)).body.status.lastScheduleTime);
});
