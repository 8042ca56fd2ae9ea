// The resource browser: namespaces → kinds → objects; an object as YAML,
// its managedFields picture, and a diff between any two resourceVersions
// this page has seen (from responses and watch events). The listed
// collection is watched, so the list and the object shown follow changes
// made anywhere (another tab, a scenario, kubectl through the console).
// "Owners & dependents" shows the namespace's workloads as a live tree
// (tree.js), and Delete… deletes the object shown with the propagation
// policy picked (Background, Foreground, Orphan), then shows that tree so
// the garbage collector's work can be watched.
import { h } from './dom.js';
import { send, history, keyOf, onRemember, remember, withQuery } from './api.js';
import { sandboxModule } from './boot.js';
import { resources, namespaces, collectionPath } from './discovery.js';
import { yamlBlock, ownershipView, diffView } from './view.js';
import { createTree } from './tree.js';

export const POLICIES = [
  ['Background', 'the object goes now; the garbage collector then deletes its dependents'],
  ['Foreground', 'the dependents are deleted first; the object waits (finalizer foregroundDeletion) and goes last'],
  ['Orphan', 'the object goes; its dependents stay, without this owner'],
];

export function createBrowser(root, { onOpen, onWatch, onFields } = {}) {
  const nsList = h('ul.nav-list', { 'aria-label': 'namespaces' });
  const kindList = h('ul.nav-list', { 'aria-label': 'kinds' });
  const objList = h('ul.nav-list', { 'aria-label': 'objects' });
  const detail = h('div.detail', h('p.muted', 'Pick a namespace, a kind and an object.'));
  const refresh = h('button.small#b-refresh', { type: 'button', onclick: () => load() }, 'Refresh');
  root.append(h('div.toolbar', refresh, h('span.muted', 'Versions seen by this page are kept for the diff view.')),
    h('div.browser-grid',
      h('nav.col', h('h3', 'Namespace'), nsList),
      h('nav.col', h('h3', 'Kind'), kindList),
      h('nav.col', h('h3', 'Object'), objList),
      detail));
  let ns = 'default';
  let kind = null;
  let current = null; // {path, obj, deleted}
  let shownTab = 'yaml';
  let collection = null; // the listed collection's path
  let objects = new Map(); // its objects by name, kept up to date by a watch
  let follow = null; // that watch's AbortController
  let tree = null; // the owners-and-dependents tree of the shown object's namespace
  let deleteNote = ''; // what the last Delete of the object shown answered

  const item = (list, label, selected, onclick, extra) => {
    const b = h('button.nav-item', { type: 'button', 'aria-current': selected ? 'true' : null, onclick }, label, extra ? h('span.muted.small', ' ' + extra) : null);
    list.append(h('li', b));
    return b;
  };

  async function load() {
    const [nss, rs] = await Promise.all([namespaces(), resources(true)]);
    nsList.replaceChildren();
    item(nsList, '(cluster-scoped)', ns === '', () => { ns = ''; kind = null; load(); });
    for (const n of nss) item(nsList, n, n === ns, () => { ns = n; load(); });
    kindList.replaceChildren();
    const kinds = rs.filter((r) => r.namespaced === (ns !== '') && r.verbs.includes('list'));
    if (kind && !kinds.some((r) => r.resource === kind.resource && r.group === kind.group)) kind = null;
    for (const r of kinds) item(kindList, r.kind, kind && r.resource === kind.resource && r.group === kind.group, () => { kind = r; load(); }, r.group || 'core');
    if (follow) follow.abort();
    follow = null;
    stopTree();
    objList.replaceChildren();
    if (!kind) return;
    const path = collectionPath(kind, ns);
    const res = await send({ method: 'GET', path });
    objects = new Map(((res.body && res.body.items) || []).map((it) => [it.metadata.name, it]));
    collection = path;
    renderObjects();
    const rv = res.body && res.body.metadata && res.body.metadata.resourceVersion;
    if (res.status === 200 && rv && kind.verbs.includes('watch')) followCollection(path, rv);
  }

  function renderObjects() {
    const path = collection;
    objList.replaceChildren();
    if (!objects.size) objList.append(h('li.muted', 'none'));
    for (const name of [...objects.keys()].sort()) {
      const obj = objects.get(name);
      const p = `${path}/${encodeURIComponent(name)}`;
      item(objList, name, current && current.path === p, () => show(p), obj.metadata.deletionTimestamp ? 'terminating' : null);
    }
    if (onWatch) objList.append(h('li', h('button.small', { type: 'button', onclick: () => onWatch(path, { allowWatchBookmarks: 'true' }) }, 'Watch this collection')));
  }

  // followCollection watches the listed collection from the list's
  // resourceVersion, so the list and the detail pane follow every change:
  // a deleted object leaves the list and the pane says so. Another load()
  // stops it; a 410 (the version left the history window) lists again.
  async function followCollection(path, rv) {
    const ctl = new AbortController();
    follow = ctl;
    const { readWatch } = await sandboxModule();
    while (!ctl.signal.aborted) {
      try {
        const res = await fetch(withQuery(path, { watch: 'true', resourceVersion: rv, allowWatchBookmarks: 'true' }), { signal: ctl.signal });
        if (!res.ok) { if (res.status === 410) load(); return; }
        for await (const ev of readWatch(res)) {
          if (ctl.signal.aborted) return;
          if (ev.type === 'ERROR') { if (ev.object.code === 410) load(); return; }
          rv = (ev.object.metadata && ev.object.metadata.resourceVersion) || rv;
          if (ev.type !== 'BOOKMARK') changed(path, ev);
        }
      } catch (e) {
        return; // stopped, or the stream broke: Refresh lists again
      }
    }
  }

  function changed(path, ev) {
    const obj = ev.object;
    const name = obj.metadata.name;
    remember(obj);
    if (ev.type === 'DELETED') objects.delete(name);
    else objects.set(name, obj);
    renderObjects();
    if (!current || current.path !== `${path}/${encodeURIComponent(name)}`) return;
    current = { path: current.path, obj, deleted: ev.type === 'DELETED' };
    if (shownTab !== 'diff') render(shownTab);
  }

  /** show opens one object by path. */
  async function show(path, tab = 'yaml') {
    const res = await send({ method: 'GET', path });
    if (res.status !== 200) { detail.replaceChildren(h('p.error', `GET ${path}: ${res.status} ${(res.body && res.body.message) || ''}`)); return; }
    if (!current || current.path !== path) deleteNote = '';
    current = { path, obj: res.body };
    render(tab);
    for (const b of objList.querySelectorAll('.nav-item')) b.setAttribute('aria-current', String(path.endsWith('/' + encodeURIComponent(b.firstChild.textContent))));
  }

  const TAB_NAMES = { yaml: 'YAML', managedFields: 'managedFields', diff: 'Diff', tree: 'Owners & dependents' };

  function render(tab) {
    shownTab = tab;
    const { path, obj, deleted } = current;
    const tabs = ['yaml', 'managedFields', 'diff', 'tree'];
    const body = h('div.detail-body');
    const bar = h('div.toolbar', { role: 'tablist', 'aria-label': 'object views' }, tabs.map((t) => h('button.seg', { type: 'button', role: 'tab', 'aria-selected': String(t === tab), onclick: () => render(t) }, TAB_NAMES[t])),
      onOpen ? h('button.small', { type: 'button', onclick: () => onOpen({ method: 'GET', path }) }, 'Open in console') : null,
      onFields ? h('button.small', { type: 'button', onclick: () => onFields(path) }, 'Fields picture') : null,
      deleted ? null : deleteControl(path));
    detail.replaceChildren(h('h3', `${obj.kind || kind.kind} ${obj.metadata.namespace ? obj.metadata.namespace + '/' : ''}${obj.metadata.name}`, h('span.muted.small', ` rv ${obj.metadata.resourceVersion}`)),
      deleted ? h('p.deleted.error', `This object was deleted (at resourceVersion ${obj.metadata.resourceVersion}); below is the last version this page saw.`) : null,
      bar, deleteNote ? h('p.muted.small#b-delete-note', { 'aria-live': 'polite' }, deleteNote) : null, body);
    if (tab !== 'tree') stopTree();
    if (tab === 'yaml') body.append(yamlBlock(obj));
    else if (tab === 'managedFields') body.append(ownershipView(obj));
    else if (tab === 'diff') body.append(diffPicker(obj));
    else body.append(treeOf(obj));
  }

  // treeOf is the live tree of obj's namespace, kept while the tab stays
  // on it (the object's own changes re-render around the same tree).
  function treeOf(obj) {
    const ns = obj.metadata.namespace;
    if (!ns) return h('p.muted', 'Owners and dependents are shown for namespaced objects.');
    if (!tree || tree.ns !== ns) {
      stopTree();
      tree = createTree(ns, { onPick: (o) => o.metadata.uid !== current.obj.metadata.uid && showObject(o) });
    }
    tree.select(obj.metadata.uid);
    return tree.el;
  }

  function stopTree() {
    if (tree) tree.stop();
    tree = null;
  }

  // showObject opens an object picked in the tree, on the same tab.
  async function showObject(o) {
    const r = (await resources()).find((x) => x.kind === o.kind && x.namespaced && (o.apiVersion ? `${x.group ? x.group + '/' : ''}${x.version}` === o.apiVersion : true));
    if (r) show(`${collectionPath(r, o.metadata.namespace)}/${encodeURIComponent(o.metadata.name)}`, 'tree');
  }

  // deleteControl: Delete… with the three propagation policies; the tree
  // then shows what the garbage collector does.
  function deleteControl(path) {
    const policy = h('select#b-policy', { 'aria-label': 'propagation policy' }, POLICIES.map(([p, what]) => h('option', { value: p, title: what }, p)));
    const go = h('button.small.danger#b-delete', { type: 'button', onclick: async () => {
      const res = await send({ method: 'DELETE', path, body: { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: policy.value } });
      const what = POLICIES.find(([p]) => p === policy.value)[1];
      if (!current || current.path !== path) return;
      deleteNote = res.status < 300 ? `DELETE ${policy.value}: ${res.status} — ${what}.` : `DELETE: ${res.status} ${(res.body && res.body.message) || ''}`;
      // the answer is the object as the DELETE left it (still there with a
      // finalizer, or its last state), unless a watch event was newer
      const newer = res.status === 200 && res.body && res.body.metadata && Number(res.body.metadata.resourceVersion) > Number(current.obj.metadata.resourceVersion);
      if (newer && !current.deleted) current = { path, obj: res.body, deleted: false };
      render('tree');
    } }, 'Delete');
    return h('span.delete-control', h('label', { for: 'b-policy' }, 'propagationPolicy '), policy, go);
  }

  function diffPicker(obj) {
    const key = keyOf(obj);
    const versions = [...((key && history.get(key)) || new Map()).entries()].sort((a, b) => Number(a[0]) - Number(b[0]));
    if (versions.length < 2) return h('p.muted', `Only resourceVersion ${obj.metadata.resourceVersion} has been seen by this page. Change the object (console, scenario, watch) and come back.`);
    const from = h('select#b-from', { 'aria-label': 'from resourceVersion' }, versions.map(([rv]) => h('option', { value: rv }, rv)));
    const to = h('select#b-to', { 'aria-label': 'to resourceVersion' }, versions.map(([rv]) => h('option', { value: rv }, rv)));
    from.value = versions[versions.length - 2][0];
    to.value = versions[versions.length - 1][0];
    const out = h('div.diff-out');
    const draw = () => {
      const m = new Map(versions);
      out.replaceChildren(diffView(m.get(from.value), m.get(to.value)));
    };
    from.addEventListener('change', draw);
    to.addEventListener('change', draw);
    draw();
    return h('div', h('div.toolbar', h('label', { for: 'b-from' }, 'from rv '), from, h('label', { for: 'b-to' }, ' to rv '), to), out);
  }

  onRemember((key) => {
    if (current && keyOf(current.obj) === key && detail.querySelector('#b-from') === null && detail.querySelector('[aria-selected="true"]')?.textContent === 'Diff') render('diff');
  });

  return { load, show, get current() { return current; } };
}
