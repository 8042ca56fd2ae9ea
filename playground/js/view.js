// Views shared by the playground tabs and <kube-example>: a response
// (status, Warning headers, headers, body, conflict explanation), an object
// as YAML, the managedFields picture, and a diff.
import { h, copyText } from './dom.js';
import { stringify, lines, parse as parseYAML } from './yaml.js';
import { ownership, ownersOf, explainConflicts } from './fields.js';
import { diffLines } from './diff.js';

// The service worker builds its Responses without a reason phrase: supply it.
const REASONS = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 304: 'Not Modified', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 406: 'Not Acceptable', 409: 'Conflict', 410: 'Gone', 413: 'Request Entity Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Entity', 429: 'Too Many Requests', 500: 'Internal Server Error', 503: 'Service Unavailable', 504: 'Gateway Timeout' };
export const reason = (code, text) => text || REASONS[code] || '';

export function statusClass(code) {
  if (!code) return 'st-err';
  if (code < 300) return 'st-ok';
  if (code < 400) return 'st-info';
  if (code < 500) return 'st-warn';
  return 'st-err';
}

/** yamlBlock shows a value as YAML in a <pre>. */
export function yamlBlock(value, cls = '') {
  return h('pre.code' + (cls ? '.' + cls : ''), { tabindex: '0' }, stringify(value));
}

/**
 * responseView renders a send() result. opts.onForce(): shown as the
 * one-click "force" follow-up when an apply conflicted; opts.live: the
 * stored object, to explain conflicts with current values.
 */
export function responseView(res, opts = {}) {
  const root = h('div.response', { 'aria-live': 'polite' });
  const st = h('div.status-line',
    h('span.status.' + statusClass(res.status), { 'data-status': String(res.status) }, res.status ? `${res.status} ${reason(res.status, res.statusText)}`.trim() : 'failed'),
    h('span.muted', ` ${res.method} ${res.path}`),
    h('span.muted.ms', `${res.ms.toFixed(1)} ms`));
  root.append(st);
  const b = res.body;
  if (b && b.kind === 'Status' && b.status === 'Failure') {
    root.append(h('div.status-msg', h('b', b.reason || 'Failure'), ': ', b.message || ''));
  }
  if (res.warnings.length) {
    root.append(h('div.warnings', { role: 'note' },
      h('b', `${res.warnings.length} Warning header${res.warnings.length > 1 ? 's' : ''}`),
      h('ul', res.warnings.map((w) => h('li.warning', w)))));
  }
  if (res.status === 409 && b && b.details && (b.details.causes || []).some((c) => c.reason === 'FieldManagerConflict')) {
    root.append(conflictView(b, opts));
  }
  root.append(h('details.headers', h('summary', `Headers (${res.headers.length})`),
    h('table', h('tbody', res.headers.map(([k, v]) => h('tr' + (k.toLowerCase() === 'warning' ? '.hl-warning' : ''), h('th', k), h('td', v)))))));
  root.append(bodyView(res));
  return root;
}

function bodyView(res) {
  const wrap = h('div.body');
  if (!res.text) { wrap.append(h('p.muted', '(empty body)')); return wrap; }
  const table = res.body && res.body.kind === 'Table' && Array.isArray(res.body.columnDefinitions);
  let mode = table ? 'table' : res.body && !res.contentType.includes('yaml') ? 'yaml' : 'raw';
  const pre = h('pre.code', { tabindex: '0' });
  const grid = table ? tableView(res.body) : null;
  const render = () => {
    pre.textContent = mode === 'yaml' && res.body ? stringify(res.body) : mode === 'json' && res.body ? JSON.stringify(res.body, null, 2) : res.text;
    pre.hidden = mode === 'table';
    if (grid) grid.hidden = mode !== 'table';
    for (const btn of bar.querySelectorAll('button[data-mode]')) btn.setAttribute('aria-pressed', String(btn.dataset.mode === mode));
  };
  const modes = res.body ? [...(table ? ['table'] : []), 'yaml', 'json', 'raw'] : [];
  const bar = h('div.toolbar.small', h('span.muted', 'Body'),
    modes.map((m) => h('button.seg', { type: 'button', dataset: { mode: m }, onclick: () => { mode = m; render(); } }, m.toUpperCase())),
    h('button', { type: 'button', onclick: (e) => copyText(pre.textContent, e.currentTarget) }, 'copy'));
  wrap.append(bar, ...(grid ? [grid] : []), pre);
  render();
  return wrap;
}

/** tableView draws a meta.k8s.io Table (Accept: …;as=Table) as kubectl get prints it: the priority-0 columns. */
function tableView(t) {
  const cols = t.columnDefinitions.map((c, i) => ({ ...c, i })).filter((c) => !c.priority);
  const cell = (v) => (v == null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  return h('div.table-wrap', h('table.k-table',
    h('thead', h('tr', cols.map((c) => h('th', { title: c.description || '' }, c.name.toUpperCase())))),
    h('tbody', (t.rows || []).map((r) => h('tr', cols.map((c) => h('td', cell((r.cells || [])[c.i]))))))));
}

/** conflictView explains a 409 from apply field by field, with the force follow-up. */
export function conflictView(status, { live, applied, manager, onForce } = {}) {
  let appliedObj = applied;
  if (typeof applied === 'string') { try { appliedObj = parseYAML(applied); } catch (e) { appliedObj = null; } }
  const ex = explainConflicts(status, live, appliedObj, manager);
  const box = h('div.conflict', { role: 'group', 'aria-label': 'apply conflict' },
    h('b', 'Apply conflict, field by field'),
    h('ul', ex.fields.map((f) => h('li.conflict-field',
      h('code', f.field), ' — owned by ', h('b.owner', `"${f.owner}"`), '. Now ', h('code', show(f.current)),
      '; you apply ', h('code', show(f.applied)), '.'))),
    h('p.conflict-summary', ex.summary));
  if (onForce) box.append(h('button.primary.force', { type: 'button', onclick: onForce }, 'Apply again with force=true'));
  return box;
}

const show = (v) => (v === undefined ? '(not set)' : JSON.stringify(v));

/**
 * ownershipView draws an object with each line coloured by the manager
 * that owns it, plus the legend of managers.
 */
export function ownershipView(obj) {
  const own = ownership(obj);
  const shown = JSON.parse(JSON.stringify(obj));
  if (shown.metadata) delete shown.metadata.managedFields;
  const legend = h('ul.legend', { 'aria-label': 'field managers' }, own.managers.map((m, i) => h('li.legend-item', { dataset: { manager: m.name } },
    h('span.swatch', { style: { background: m.color }, 'aria-hidden': 'true' }),
    h('b', m.name), ' ', h('span.muted', [m.operation, m.subresource && `/${m.subresource}`, m.apiVersion, m.time].filter(Boolean).join(' · ')),
    h('span.count.muted', ` ${countOwned(own, i)} field${countOwned(own, i) === 1 ? '' : 's'}`))));
  if (!own.managers.length) legend.append(h('li.muted', 'no managedFields on this object'));
  const pre = h('pre.code.owned', { tabindex: '0', role: 'list', 'aria-label': 'object fields by manager' });
  for (const l of lines(shown)) {
    const { owners, inherited } = ownersOf(own, l.path);
    const row = h('span.line', { role: 'listitem' }, l.text || ' ');
    if (owners.length) {
      const cols = owners.map((o) => own.managers[o.manager].color);
      row.style.borderLeftColor = cols[0];
      row.style.background = cols.length === 1
        ? hexAlpha(cols[0], owners[0].self || inherited ? 0.08 : 0.18)
        : `linear-gradient(90deg, ${cols.map((c, k) => `${hexAlpha(c, 0.2)} ${k * 100 / cols.length}% ${(k + 1) * 100 / cols.length}%`).join(', ')})`;
      row.classList.add(owners.every((o) => o.self) ? 'owned-self' : 'owned');
      row.title = owners.map((o) => own.managers[o.manager].name + (o.self ? ' (exists because of it)' : '')).join(', ');
      row.dataset.managers = [...new Set(owners.map((o) => own.managers[o.manager].name))].join(',');
    }
    pre.append(row, '\n');
  }
  return h('div.ownership', legend, pre);
}

function countOwned(own, i) {
  let n = 0;
  for (const list of own.owners.values()) if (list.some((o) => o.manager === i && !o.self)) n++;
  return n;
}

function hexAlpha(hex, a) {
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${n >> 16}, ${(n >> 8) & 255}, ${n & 255}, ${a})`;
}

/** diffView shows the line diff between two objects (managedFields left out). */
export function diffView(a, b) {
  const strip = (o) => { const c = JSON.parse(JSON.stringify(o)); if (c.metadata) delete c.metadata.managedFields; return stringify(c); };
  const d = diffLines(strip(a), strip(b));
  const pre = h('pre.code.diff', { tabindex: '0' });
  let changed = 0;
  for (const l of d) {
    if (l.op !== ' ') changed++;
    pre.append(h('span.line.' + (l.op === '+' ? 'add' : l.op === '-' ? 'del' : 'same'), `${l.op} ${l.text}`), '\n');
  }
  return h('div', h('p.muted', changed ? `${changed} changed line${changed > 1 ? 's' : ''}` : 'no difference'), pre);
}
