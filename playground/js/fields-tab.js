// The managedFields tab: pick an object (any path), see its fields
// coloured by the manager that owns them, with the legend of managers.
import { h } from './dom.js';
import { send, history } from './api.js';
import { ownershipView } from './view.js';

export function createFieldsTab(root) {
  const path = h('input#f-path', { type: 'text', list: 'f-paths', placeholder: '/api/v1/namespaces/default/configmaps/NAME', 'aria-label': 'object path', spellcheck: false });
  const paths = h('datalist#f-paths');
  const out = h('div.fields-out', h('p.muted', 'Each line of the object is coloured by the field manager that owns it (from metadata.managedFields[].fieldsV1). Lines with a faint colour exist because a manager set something inside them.'));
  const form = h('form.req-row', { onsubmit: (e) => { e.preventDefault(); show(path.value.trim()); } }, path, paths, h('button.primary#f-show', { type: 'submit' }, 'Show'));
  root.append(form, out);

  path.addEventListener('focus', () => {
    const seen = [];
    for (const versions of history.values()) {
      const last = [...versions.values()].pop();
      const m = last.metadata || {};
      const api = String(last.apiVersion || 'v1');
      const base = api.includes('/') ? `/apis/${api}` : `/api/${api}`;
      const plural = guessPlural(last.kind);
      seen.push(`${base}${m.namespace ? `/namespaces/${m.namespace}` : ''}/${plural}/${m.name}`);
    }
    paths.replaceChildren(...seen.slice(-100).map((p) => h('option', { value: p })));
  });

  async function show(p) {
    path.value = p;
    const res = await send({ method: 'GET', path: p });
    if (res.status !== 200) { out.replaceChildren(h('p.error', `GET ${p}: ${res.status} ${(res.body && res.body.message) || res.text}`)); return; }
    out.replaceChildren(h('h3', `${res.body.kind} ${res.body.metadata.name}`, h('span.muted.small', ` rv ${res.body.metadata.resourceVersion}`)), ownershipView(res.body));
  }
  return { show };
}

// guessPlural is only for suggestions (discovery has the real names).
function guessPlural(kind) {
  const k = String(kind || '').toLowerCase();
  if (/(s|x|ch|sh)$/.test(k)) return k + 'es';
  if (/[^aeiou]y$/.test(k)) return k.slice(0, -1) + 'ies';
  return k + 's';
}
