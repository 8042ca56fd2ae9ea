// Helpers for the tests of the browser cluster's controllers
// (cluster*.test.mjs, durability of controllers, the playground's tree).
import { api } from './lib.mjs';

/** waitFor polls cond (async → truthy) every 100 ms until it holds, or
 *  throws after deadlineMs naming what it waited for and the last error. */
export async function waitFor(what, cond, deadlineMs = 90000) {
  const end = Date.now() + deadlineMs;
  let last = null;
  for (;;) {
    try {
      if (await cond()) return;
      last = null;
    } catch (e) { last = e; }
    if (Date.now() > end) throw new Error(`timed out after ${deadlineMs} ms waiting for ${what}${last ? ': ' + last.message : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** deployment is an apps/v1 Deployment of n nginx replicas labelled app=name. */
export function deployment(name, n, image = 'nginx:1.25') {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
    spec: {
      replicas: n, selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image }] } },
    },
  };
}

/** podsOf lists the Pods labelled app=name in ns that are not being deleted. */
export async function podsOf(page, ns, name) {
  const r = await api(page, 'GET', `/api/v1/namespaces/${ns}/pods?labelSelector=app%3D${name}`);
  if (r.status !== 200) throw new Error(`list pods: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.items.filter((p) => !p.metadata.deletionTimestamp);
}

/** running keeps the Pods whose phase is Running and Ready is True. */
export function running(pods) {
  return pods.filter((p) => p.status && p.status.phase === 'Running' &&
    (p.status.conditions || []).some((c) => c.type === 'Ready' && c.status === 'True'));
}

let nextNS = 0;
/** ensureNamespace creates a fresh namespace named after prefix; returns its name. */
export async function ensureNamespace(page, prefix) {
  const name = `${prefix}-${Date.now().toString(36)}-${nextNS++}`;
  const r = await api(page, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  if (r.status !== 201) throw new Error(`create namespace ${name}: ${r.status} ${JSON.stringify(r.body)}`);
  return name;
}

/** startWatches watches each collection path in the page from its current
 *  resourceVersion and returns events(): every event so far as
 *  {type, kind, name, rv, finalizers, deleting}. resourceVersions are one
 *  sequence across kinds, so they order events of different watches. */
export async function startWatches(page, paths) {
  const key = 'w' + Math.random().toString(36).slice(2);
  await page.evaluate(async ({ paths, key }) => {
    const { readWatch } = await import('/web/sandbox.js');
    const out = (window[key] = []);
    await Promise.all(paths.map(async (path) => {
      const list = await (await fetch(path)).json();
      const res = await fetch(`${path}?watch=1&resourceVersion=${list.metadata.resourceVersion}`);
      (async () => {
        for await (const ev of readWatch(res)) {
          const m = ev.object.metadata || {};
          out.push({ type: ev.type, kind: ev.object.kind, name: m.name, rv: m.resourceVersion, finalizers: m.finalizers || [], deleting: !!m.deletionTimestamp });
        }
      })();
    }));
  }, { paths, key });
  return () => page.evaluate((key) => window[key].slice(), key);
}
