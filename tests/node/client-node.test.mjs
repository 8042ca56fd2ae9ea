// @kubernetes/client-node (the official JavaScript client) against the
// native kubesandbox server: list, watch, merge patch, server-side apply,
// delete — and the error a cluster gives for a missing object.
//
//   node --test tests/node/     (or: make test-clients)
//
// The test builds cmd/kubesandbox with `go build`, starts it on a
// free port without controllers and stops it at the end.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';
import * as k8s from '@kubernetes/client-node';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const ns = 'default';
let dir, server, kc, core;

function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

// start runs the server and resolves with its URL once it prints
// "serving on http://ADDR".
function start(bin, port, kubeconfig) {
  return new Promise((ok, fail) => {
    const p = spawn(bin, ['-addr', `127.0.0.1:${port}`, '-kubeconfig', kubeconfig, '-controllers=false'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => fail(new Error(`server did not start: ${out}`)), 20000);
    p.stdout.on('data', (b) => {
      out += b;
      const m = out.match(/serving on (http:\/\/\S+)/);
      if (m) {
        clearTimeout(timer);
        ok({ proc: p, url: m[1] });
      }
    });
    p.stderr.on('data', (b) => (out += b));
    p.on('exit', (code) => fail(new Error(`server exited ${code}: ${out}`)));
  });
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ksb-node-'));
  const bin = join(dir, 'kubesandbox');
  execFileSync('go', ['build', '-o', bin, './cmd/kubesandbox'], { cwd: root, stdio: 'inherit' });
  const kubeconfig = join(dir, 'kubeconfig.yaml');
  server = await start(bin, await freePort(), kubeconfig);
  const written = new k8s.KubeConfig();
  written.loadFromFile(kubeconfig); // the kubeconfig the server wrote
  assert.equal(written.getCurrentCluster().server, server.url);
  // client-node refuses plain http unless skipTLSVerify is set (the
  // written kubeconfig has no insecure-skip-tls-verify)
  kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: written.clusters.map((c) => ({ ...c, skipTLSVerify: true })),
    users: written.users, contexts: written.contexts, currentContext: written.currentContext,
  });
  core = kc.makeApiClient(k8s.CoreV1Api);
});

after(() => {
  server?.proc.kill('SIGTERM');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const cm = (name, data, labels) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data });

test('create and list', async () => {
  const created = await core.createNamespacedConfigMap({ namespace: ns, body: cm('node-a', { k: 'v' }, { app: 'node' }) });
  assert.equal(created.metadata.name, 'node-a');
  assert.match(created.metadata.uid, /^[0-9a-f-]{36}$/);
  assert.match(created.metadata.resourceVersion, /^\d+$/);
  await core.createNamespacedConfigMap({ namespace: ns, body: cm('node-b', { k: 'w' }, { app: 'node' }) });

  const list = await core.listNamespacedConfigMap({ namespace: ns, labelSelector: 'app=node' });
  assert.deepEqual(list.items.map((i) => i.metadata.name), ['node-a', 'node-b']);
  assert.match(list.metadata.resourceVersion, /^\d+$/);

  const page = await core.listNamespacedConfigMap({ namespace: ns, labelSelector: 'app=node', limit: 1 });
  assert.deepEqual(page.items.map((i) => i.metadata.name), ['node-a']);
  assert.ok(page.metadata._continue, 'a continue token');
  // no remainingItemCount with a selector: the server cannot count
  assert.equal(page.metadata.remainingItemCount, undefined);
  const rest = await core.listNamespacedConfigMap({ namespace: ns, labelSelector: 'app=node', limit: 1, _continue: page.metadata._continue });
  assert.deepEqual(rest.items.map((i) => i.metadata.name), ['node-b']);
  assert.equal(rest.metadata._continue, undefined);
});

test('a missing object is a 404 Status', async () => {
  await assert.rejects(core.readNamespacedConfigMap({ namespace: ns, name: 'nope' }), (err) => {
    assert.equal(err.code, 404);
    const status = JSON.parse(err.body);
    assert.deepEqual(status, {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'configmaps "nope" not found', reason: 'NotFound',
      details: { name: 'nope', kind: 'configmaps' }, code: 404,
    });
    return true;
  });
});

test('watch receives events', async () => {
  const watch = new k8s.Watch(kc);
  const seen = [];
  let resolveDone;
  const gotDelete = new Promise((ok) => (resolveDone = ok));
  const { resourceVersion } = (await core.listNamespacedConfigMap({ namespace: ns })).metadata;
  const req = await watch.watch(`/api/v1/namespaces/${ns}/configmaps`,
    { resourceVersion, allowWatchBookmarks: true },
    (type, obj) => {
      if (type === 'BOOKMARK') return;
      seen.push(`${type} ${obj.metadata.name} ${obj.data?.n ?? ''}`.trim());
      if (type === 'DELETED') resolveDone();
    },
    () => {});
  try {
    await core.createNamespacedConfigMap({ namespace: ns, body: cm('node-w', { n: '1' }) });
    await core.replaceNamespacedConfigMap({ namespace: ns, name: 'node-w', body: cm('node-w', { n: '2' }) });
    await core.deleteNamespacedConfigMap({ namespace: ns, name: 'node-w' });
    await Promise.race([gotDelete, new Promise((_, no) => setTimeout(() => no(new Error(`timeout, saw ${seen}`)), 10000))]);
  } finally {
    req.abort();
  }
  assert.deepEqual(seen, ['ADDED node-w 1', 'MODIFIED node-w 2', 'DELETED node-w 2']);
});

test('patch: merge and server-side apply', async () => {
  const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
  const merged = await core.patchNamespacedConfigMap(
    { namespace: ns, name: 'node-a', body: { data: { added: 'yes' }, metadata: { labels: { tier: 'x' } } } }, merge);
  assert.deepEqual(merged.data, { added: 'yes', k: 'v' });
  assert.deepEqual(merged.metadata.labels, { app: 'node', tier: 'x' });

  const apply = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.ServerSideApply);
  const applied = await core.patchNamespacedConfigMap(
    { namespace: ns, name: 'node-ssa', fieldManager: 'node-test', body: cm('node-ssa', { owned: '1' }) }, apply);
  assert.deepEqual(applied.data, { owned: '1' });
  const mf = applied.metadata.managedFields;
  assert.equal(mf.length, 1);
  assert.equal(mf[0].manager, 'node-test');
  assert.equal(mf[0].operation, 'Apply');
  assert.deepEqual(mf[0].fieldsV1, { 'f:data': { 'f:owned': {} } });

  // another manager changing the field conflicts, as on a cluster
  await assert.rejects(
    core.patchNamespacedConfigMap({ namespace: ns, name: 'node-ssa', fieldManager: 'intruder', body: cm('node-ssa', { owned: '2' }) }, apply),
    (err) => {
      assert.equal(err.code, 409);
      const st = JSON.parse(err.body);
      assert.equal(st.reason, 'Conflict');
      assert.equal(st.message, 'Apply failed with 1 conflict: conflict with "node-test": .data.owned');
      assert.deepEqual(st.details.causes, [{ reason: 'FieldManagerConflict', message: 'conflict with "node-test"', field: '.data.owned' }]);
      return true;
    });
  const forced = await core.patchNamespacedConfigMap(
    { namespace: ns, name: 'node-ssa', fieldManager: 'intruder', force: true, body: cm('node-ssa', { owned: '2' }) }, apply);
  assert.equal(forced.data.owned, '2');
  assert.deepEqual(forced.metadata.managedFields.map((m) => m.manager), ['intruder']);
});

test('delete', async () => {
  const before = await core.readNamespacedConfigMap({ namespace: ns, name: 'node-b' });
  const st = await core.deleteNamespacedConfigMap({ namespace: ns, name: 'node-b' });
  // an immediate delete answers with a Success Status naming the object
  assert.equal(st.kind, 'Status');
  assert.equal(st.status, 'Success');
  assert.equal(st.details.name, 'node-b');
  assert.equal(st.details.kind, 'configmaps');
  assert.equal(st.details.uid, before.metadata.uid);
  await assert.rejects(core.readNamespacedConfigMap({ namespace: ns, name: 'node-b' }), (err) => err.code === 404);
  const list = await core.listNamespacedConfigMap({ namespace: ns, labelSelector: 'app=node' });
  assert.deepEqual(list.items.map((i) => i.metadata.name), ['node-a']);
});

// StatusDetails.group is `json:"group,omitempty"`: a core-group delete
// answers {"name","kind","uid"} without "group".
test('delete: no empty group in the Status details', async () => {
  await core.createNamespacedConfigMap({ namespace: ns, body: cm('node-g', {}) });
  const st = await core.deleteNamespacedConfigMap({ namespace: ns, name: 'node-g' });
  assert.equal(st.details.group, undefined);
});
