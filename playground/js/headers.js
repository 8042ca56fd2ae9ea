// The console's custom request headers: one "Name: value" a line, as curl
// -H takes them, sent with the request (Accept, Impersonate-User, …) and
// copied into the curl command. A few presets fill the common ones.
//
//   parseHeaders('Accept: application/json;as=Table;v=v1;g=meta.k8s.io\n# a comment\n')
//     → [['Accept', 'application/json;as=Table;v=v1;g=meta.k8s.io']]
//   parseHeaders('oops') → throws 'line 1: "oops" is not Name: value'
import { h } from './dom.js';

// The Fetch API does not let a page set these (it drops them or fails):
// say so instead of sending something else than what is shown.
const FORBIDDEN = /^(accept-charset|accept-encoding|access-control-request-.*|connection|content-length|cookie|cookie2|date|dnt|expect|host|keep-alive|origin|referer|te|trailer|transfer-encoding|upgrade|via|proxy-.*|sec-.*)$/i;

export const PRESETS = [
  { label: 'as Table', name: 'Accept', value: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
  { label: 'as PartialObjectMetadata', name: 'Accept', value: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io' },
  { label: 'YAML', name: 'Accept', value: 'application/yaml' },
];

export function parseHeaders(text) {
  const out = [];
  String(text || '').split('\n').forEach((line, i) => {
    const l = line.trim();
    if (!l || l.startsWith('#')) return;
    const m = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+)\s*:\s*(.*)$/.exec(l);
    if (!m) throw new Error(`line ${i + 1}: "${l}" is not Name: value`);
    if (FORBIDDEN.test(m[1])) throw new Error(`line ${i + 1}: a browser page cannot set ${m[1]}`);
    out.push([m[1], m[2]]);
  });
  return out;
}

/**
 * headersField → {el, text (get/set), headers()}: a <details> with the
 * headers box and its presets; onChange after every edit.
 */
export function headersField({ onChange = () => {} } = {}) {
  const box = h('textarea#c-headers', { rows: 2, spellcheck: false, 'aria-label': 'request headers, one Name: value a line', placeholder: 'Accept: application/json;as=Table;v=v1;g=meta.k8s.io' });
  const count = h('span.muted.count');
  const summary = h('summary', 'Headers ', count);
  const update = () => {
    let n = 0;
    try { n = parseHeaders(box.value).length; } catch (e) { n = '!'; }
    count.textContent = n ? `(${n})` : '';
  };
  const set = (name, value) => {
    const lines = box.value.split('\n').filter((l) => l.trim() && !new RegExp(`^\\s*${name}\\s*:`, 'i').test(l));
    box.value = [...lines, `${name}: ${value}`].join('\n');
    update();
    onChange();
  };
  box.addEventListener('input', () => { update(); onChange(); });
  const el = h('details.params.headers-field', summary,
    box,
    h('div.toolbar.small', h('span.muted', 'Accept:'), PRESETS.map((p) => h('button.small', { type: 'button', dataset: { preset: p.label }, onclick: () => set(p.name, p.value) }, p.label)),
      h('button.small', { type: 'button', onclick: () => { box.value = ''; update(); onChange(); } }, 'clear')));
  return {
    el,
    get text() { return box.value; },
    set text(t) { box.value = t || ''; update(); if (t) el.open = true; },
    headers: () => parseHeaders(box.value),
  };
}
