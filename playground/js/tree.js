// Owners and dependents: a namespace's workloads as a tree built from
// their ownerReferences (Deployment → ReplicaSets → Pods, StatefulSet →
// Pods, CronJob → Jobs → Pods), live. Each kind is listed once and then
// watched from the list's resourceVersion, so the tree follows what the
// controllers do — Pods appear, become Running, a rollout's ReplicaSets
// scale, a foreground deletion takes the dependents first — without
// polling. E.g. a Deployment "web" of 2 replicas:
//
//   Deployment web          2/2 ready · revision 1
//   └ ReplicaSet web-6d4…   2/2 ready
//     ├ Pod web-6d4…-ab12c  Running
//     └ Pod web-6d4…-x9k2f  Running
import { h } from './dom.js';
import { withQuery } from './api.js';
import { sandboxModule } from './boot.js';

/** KINDS are the kinds the tree follows (those not served are skipped). */
export const KINDS = [
  { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment' },
  { group: 'apps', version: 'v1', resource: 'statefulsets', kind: 'StatefulSet' },
  { group: 'apps', version: 'v1', resource: 'daemonsets', kind: 'DaemonSet' },
  { group: 'batch', version: 'v1', resource: 'cronjobs', kind: 'CronJob' },
  { group: 'apps', version: 'v1', resource: 'replicasets', kind: 'ReplicaSet' },
  { group: 'batch', version: 'v1', resource: 'jobs', kind: 'Job' },
  { group: '', version: 'v1', resource: 'pods', kind: 'Pod' },
];

/** SIMULATED is said wherever Pods are shown: nothing runs them. */
export const SIMULATED = 'Pods are simulated: a kubelet inside this page sets their status — no container ever runs, no image is pulled.';

const pathOf = (k, ns) => `${k.group ? `/apis/${k.group}` : '/api'}/${k.version}/namespaces/${encodeURIComponent(ns)}/${k.resource}`;

/** summary is the short live state shown beside an object. */
export function summary(obj) {
  const st = obj.status || {};
  const spec = obj.spec || {};
  switch (obj.kind) {
    case 'Pod': {
      const waiting = (st.containerStatuses || []).map((c) => c.state && c.state.waiting && c.state.waiting.reason).find(Boolean);
      return waiting || st.phase || 'Pending';
    }
    case 'Deployment': {
      const rev = obj.metadata.annotations && obj.metadata.annotations['deployment.kubernetes.io/revision'];
      return `${st.readyReplicas || 0}/${spec.replicas ?? 1} ready${rev ? ` · revision ${rev}` : ''}`;
    }
    case 'ReplicaSet': case 'StatefulSet':
      return `${st.readyReplicas || 0}/${spec.replicas ?? 1} ready`;
    case 'DaemonSet':
      return `${st.numberReady || 0}/${st.desiredNumberScheduled || 0} ready`;
    case 'Job':
      return st.succeeded ? `${st.succeeded} succeeded` : `${st.active || 0} active`;
    default:
      return '';
  }
}

/**
 * createTree follows the workloads of namespace ns; el is the tree (an
 * element kept up to date), select(uid) marks one object, stop() ends the
 * watches. onPick(kind, obj) is called when an object is clicked.
 */
export function createTree(ns, { onPick } = {}) {
  const objs = new Map(); // uid → object
  const list = h('ul.tree', { 'aria-label': `owners and dependents in ${ns}` });
  const el = h('div.tree-view', h('p.simulated', SIMULATED), list);
  const ctl = new AbortController();
  let selected = '';
  let pending = false;

  const schedule = () => {
    if (pending) return;
    pending = true;
    queueMicrotask(() => { pending = false; render(); });
  };

  function render() {
    const owner = (o) => ((o.metadata.ownerReferences || []).find((r) => r.controller) || (o.metadata.ownerReferences || [])[0] || {}).uid;
    const children = new Map();
    const roots = [];
    for (const o of objs.values()) {
      const up = owner(o);
      if (up && objs.has(up)) {
        if (!children.has(up)) children.set(up, []);
        children.get(up).push(o);
      } else roots.push(o);
    }
    const order = (a, b) => KINDS.findIndex((k) => k.kind === a.kind) - KINDS.findIndex((k) => k.kind === b.kind) || a.metadata.name.localeCompare(b.metadata.name);
    const node = (o) => {
      const m = o.metadata;
      const state = summary(o);
      const kids = (children.get(m.uid) || []).sort(order);
      const badges = [];
      if (m.deletionTimestamp) badges.push(h('span.badge.terminating', 'terminating'));
      for (const f of m.finalizers || []) badges.push(h('span.badge.finalizer', f));
      return h('li.tree-node', { 'data-kind': o.kind, 'data-name': m.name, 'data-state': state, 'data-deleting': m.deletionTimestamp ? 'true' : null, 'aria-current': m.uid === selected ? 'true' : null },
        h('button.tree-item', { type: 'button', onclick: () => onPick && onPick(o) }, h('span.tree-kind', o.kind), ' ', h('span.tree-name', m.name)),
        state ? h('span.tree-state', { 'data-phase': o.kind === 'Pod' ? state : null }, state) : null, ...badges,
        kids.length ? h('ul', kids.map(node)) : null);
    };
    list.replaceChildren(...(roots.length ? roots.sort(order).map(node) : [h('li.muted', `No workloads in ${ns} yet.`)]));
  }

  // follow lists one kind, then watches it from the list's resourceVersion
  // (again after the server ends the stream; a 410 lists again).
  async function follow(k) {
    const { readWatch } = await sandboxModule();
    const path = pathOf(k, ns);
    let rv = '';
    while (!ctl.signal.aborted) {
      try {
        if (!rv) {
          const r = await fetch(path, { signal: ctl.signal });
          if (!r.ok) return; // not served here (or no access): skip the kind
          const l = await r.json();
          for (const [uid, o] of objs) if (o.kind === k.kind) objs.delete(uid);
          for (const o of l.items || []) objs.set(o.metadata.uid, { ...o, kind: k.kind });
          rv = l.metadata.resourceVersion;
          schedule();
        }
        const res = await fetch(withQuery(path, { watch: 'true', resourceVersion: rv, allowWatchBookmarks: 'true' }), { signal: ctl.signal });
        if (!res.ok) { rv = ''; continue; }
        for await (const ev of readWatch(res)) {
          if (ev.type === 'ERROR') { rv = ''; break; }
          const o = ev.object;
          rv = (o.metadata && o.metadata.resourceVersion) || rv;
          if (ev.type === 'BOOKMARK') continue;
          if (ev.type === 'DELETED') objs.delete(o.metadata.uid);
          else objs.set(o.metadata.uid, { ...o, kind: k.kind });
          schedule();
        }
      } catch (e) {
        if (ctl.signal.aborted) return;
        await new Promise((r) => setTimeout(r, 500)); // a broken stream: list again
        rv = '';
      }
    }
  }

  render();
  for (const k of KINDS) follow(k);
  return {
    ns,
    el,
    select(uid) { selected = uid || ''; schedule(); },
    stop() { ctl.abort(); },
  };
}
