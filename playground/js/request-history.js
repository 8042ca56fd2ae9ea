// The console's request history: every request sent, newest first, kept in
// localStorage (so it survives a reload), at most LIMIT entries, a request
// sent again moved to the top instead of repeated. Each entry loads back
// into the form, or runs again in one click.
//
//   const log = requestLog();            // reads localStorage
//   log.add({method:'GET', path:'/api/v1/namespaces', query:{}, headers:'', contentType, body:null}, 200);
//   log.entries() → [{method, path, query, headers, contentType, body, status, at}]
//   historyView(log, {onLoad(req), onRun(req)}) → <details> that redraws on every add
import { h } from './dom.js';
import { withQuery } from './api.js';
import { statusClass } from './view.js';

export const KEY = 'kubesandbox.playground.history';
export const LIMIT = 50;
const MAX_BODY = 64 * 1024; // a bigger body is not kept (localStorage holds ~5 MB per site)

function read() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || '[]');
    return Array.isArray(v) ? v.filter((e) => e && typeof e.path === 'string') : [];
  } catch (e) { return []; }
}

const same = (a, b) => a.method === b.method && a.path === b.path && JSON.stringify(a.query || {}) === JSON.stringify(b.query || {})
  && (a.headers || '') === (b.headers || '') && (a.body || null) === (b.body || null) && (a.contentType || '') === (b.contentType || '');

export function requestLog() {
  let list = read();
  const listeners = new Set();
  const save = () => {
    try { localStorage.setItem(KEY, JSON.stringify(list)); } catch (e) { /* full or denied: kept for this page only */ }
    for (const l of listeners) l();
  };
  return {
    entries: () => list.slice(),
    add(req, status) {
      const body = req.body != null && String(req.body).length <= MAX_BODY ? String(req.body) : null;
      const e = { method: req.method, path: req.path, query: req.query || {}, headers: req.headers || '', contentType: req.contentType || '', body, status, at: Date.now() };
      if (req.body != null && body == null) e.bodyDropped = true;
      list = [e, ...list.filter((x) => !same(x, e))].slice(0, LIMIT);
      save();
    },
    clear() { list = []; save(); },
    onChange(fn) { listeners.add(fn); return () => listeners.delete(fn); },
  };
}

function ago(t) {
  const s = Math.max(0, Math.round((Date.now() - t) / 1000));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return new Date(t).toLocaleDateString();
}

/** historyView lists the log's entries: click one to load it, ↻ to send it again. */
export function historyView(log, { onLoad, onRun }) {
  const list = h('ol.history-list');
  const count = h('span.muted.count');
  const clear = h('button.small', { type: 'button', onclick: () => log.clear() }, 'clear');
  const el = h('details.params.history#c-history', { open: true }, h('summary', 'History ', count), list, h('div.toolbar.small', clear, h('span.muted', `the last ${LIMIT} requests, kept in this browser`)));
  const draw = () => {
    const es = log.entries();
    count.textContent = es.length ? `(${es.length})` : '';
    clear.disabled = !es.length;
    list.replaceChildren(...(es.length ? es.map((e, i) => {
      const req = { method: e.method, path: e.path, query: e.query, headers: e.headers, contentType: e.contentType, body: e.body };
      const url = withQuery(e.path, e.query);
      return h('li.history-item', { dataset: { index: String(i) } },
        h('button.history-load', { type: 'button', title: 'load into the form', onclick: () => onLoad(req) },
          h('span.status.' + statusClass(e.status), e.status ? String(e.status) : '—'), ' ',
          h('b.h-method', e.method), ' ', h('span.h-path', url),
          e.headers ? h('span.muted.h-extra', ' +headers') : null, e.body ? h('span.muted.h-extra', ' +body') : null,
          h('span.muted.h-ago', ago(e.at))),
        h('button.small.history-run', { type: 'button', title: 'send again', 'aria-label': `send again: ${e.method} ${url}`, onclick: () => onRun(req) }, '↻'));
    }) : [h('li.muted', 'Requests you send are listed here.')]));
  };
  log.onChange(draw);
  draw();
  return { el, draw };
}
