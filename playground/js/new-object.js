// The console's "New object…" picker: every kind the sandbox can create
// (discovery), the common ones first; picking one fills the form with a
// POST to its collection and its template (schema.js newObject).
//
//   newObjectPicker({ ready, namespace: () => 'default', onPick: (req) => console.load(req) }) → {el, pick(group, kind)}
// (ready: the sandbox's ready promise; discovery is read after it.)
import { h } from './dom.js';
import { resources, collectionPath } from './discovery.js';
import { newObject } from './schema.js';
import { templated, templateName } from './templates.js';
import { stringify } from './yaml.js';

const COMMON = ['apps/Deployment', '/ConfigMap', '/Pod', '/Service', '/Secret', 'batch/Job', 'batch/CronJob', '/Namespace'];

export function newObjectPicker({ ready = Promise.resolve(), namespace, onPick }) {
  const select = h('select#c-new', { 'aria-label': 'new object from a template' }, h('option', { value: '' }, 'New object…'));
  let rs = [];
  const key = (r) => `${r.group}/${r.kind}`;
  async function fill() {
    rs = (await resources().catch(() => [])).filter((r) => r.verbs.includes('create'));
    const label = (r) => `${r.kind} (${r.group ? r.group + '/' : ''}${r.version})`;
    const byName = (a, b) => a.kind.localeCompare(b.kind);
    const common = COMMON.map((k) => rs.find((r) => key(r) === k)).filter(Boolean);
    const rest = rs.filter((r) => !COMMON.includes(key(r))).sort(byName);
    const opt = (r) => h('option', { value: key(r) }, label(r) + (templated.includes(key(r)) ? '' : ' — fields from the schema only'));
    select.replaceChildren(select.options[0],
      h('optgroup', { label: 'common' }, common.map(opt)),
      h('optgroup', { label: 'all kinds' }, rest.map(opt)));
  }
  async function pick(group, kind) {
    const find = () => rs.find((x) => x.group === group && x.kind === kind);
    if (!find()) { await resources(true).catch(() => []); await fill(); } // a CRD created since
    const r = find();
    if (!r) throw new Error(`the sandbox cannot create ${kind}`);
    const obj = await newObject(r, templateName(group, kind));
    const req = { method: 'POST', path: collectionPath(r, namespace() || 'default'), query: {}, contentType: 'application/json', body: stringify(obj) };
    onPick(req, obj);
    return req;
  }
  select.addEventListener('focus', () => { if (!rs.length) ready.then(fill); });
  select.addEventListener('change', async () => {
    const v = select.value;
    select.value = '';
    if (!v) return;
    const i = v.indexOf('/');
    await pick(v.slice(0, i), v.slice(i + 1));
  });
  ready.then(fill, () => {});
  return { el: select, pick, refresh: fill };
}
