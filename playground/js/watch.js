// The live watch panel: several watches side by side, each a timeline of
// events (ADDED/MODIFIED/DELETED/BOOKMARK/ERROR, with resourceVersions).
// When the server ends a stream (its watch timeout), the watch resumes from
// the last resourceVersion it saw — no event lost or repeated. A 410 Gone
// (the resourceVersion left the server's history window) is shown, with a
// "list again" follow-up that restarts from the current state.
import { h } from './dom.js';
import { withQuery, remember } from './api.js';
import { sandboxModule } from './boot.js';
import { eventEntry, noteEntry } from './timeline.js';

const MAX_ENTRIES = 500;

export function createWatchPanel(root) {
  const path = h('input#w-path', { type: 'text', value: '/api/v1/namespaces/default/configmaps', list: 'c-paths', 'aria-label': 'collection to watch', spellcheck: false });
  const rv = h('input#w-rv', { type: 'text', placeholder: 'latest', size: 8, spellcheck: false });
  const labels = h('input#w-labels', { type: 'text', placeholder: 'app=web', spellcheck: false });
  const bookmarks = h('input#w-bookmarks', { type: 'checkbox', checked: true });
  const initial = h('input#w-initial', { type: 'checkbox' });
  const resume = h('input#w-resume', { type: 'checkbox', checked: true });
  const timeout = h('input#w-timeout', { type: 'number', min: '1', placeholder: 'server default', size: 6 });
  const grid = h('div.watch-grid', { 'aria-label': 'watches' });
  const form = h('form.watch-form', { onsubmit: (e) => { e.preventDefault(); add(path.value.trim(), formQuery()); } },
    h('label.grow', { for: 'w-path' }, h('span', 'collection'), path),
    h('label', { for: 'w-rv' }, h('span', 'resourceVersion'), rv),
    h('label', { for: 'w-labels' }, h('span', 'labelSelector'), labels),
    h('label', { for: 'w-timeout' }, h('span', 'timeoutSeconds'), timeout),
    h('label.check', { for: 'w-bookmarks' }, bookmarks, h('span', 'allowWatchBookmarks')),
    h('label.check', { for: 'w-initial' }, initial, h('span', 'sendInitialEvents')),
    h('label.check', { for: 'w-resume' }, resume, h('span', 'resume when the stream ends')),
    h('button.primary#w-add', { type: 'submit' }, 'Add watch'));
  root.append(form, grid);

  function formQuery() {
    const q = {};
    if (rv.value.trim()) q.resourceVersion = rv.value.trim();
    if (labels.value.trim()) q.labelSelector = labels.value.trim();
    if (bookmarks.checked) q.allowWatchBookmarks = 'true';
    if (initial.checked) { q.sendInitialEvents = 'true'; q.resourceVersionMatch = 'NotOlderThan'; }
    if (timeout.value) q.timeoutSeconds = timeout.value;
    return q;
  }

  const watches = new Set();

  /** add starts a watch on a collection path with query parameters. */
  function add(p, query = {}) {
    const w = new Watch(p, { ...query }, { autoResume: () => resume.checked, onClose: () => watches.delete(w) });
    watches.add(w);
    grid.prepend(w.el);
    w.start();
    return w;
  }

  return { add, form, grid, get watches() { return [...watches]; } };
}

class Watch {
  constructor(path, query, { autoResume, onClose }) {
    this.path = path;
    this.query = query;
    this.autoResume = autoResume;
    this.onClose = onClose;
    this.rv = query.resourceVersion || '';
    this.ctl = null;
    this.count = 0;
    const q = { ...query };
    delete q.watch;
    this.state = h('span.w-state', { 'aria-live': 'polite' });
    this.toggle = h('button.small.w-toggle', { type: 'button', onclick: () => (this.ctl ? this.stop() : this.start()) }, 'Stop');
    this.list = h('ol.timeline', { 'aria-label': `events of ${path}` });
    this.el = h('section.watch-card', { 'aria-label': `watch ${path}` },
      h('header',
        h('div.w-title', h('code', path), Object.keys(q).length ? h('div.muted.small', new URLSearchParams(q).toString()) : null),
        h('div.w-actions', this.state, this.toggle,
          h('button.small', { type: 'button', onclick: () => this.list.replaceChildren(), 'aria-label': 'clear events' }, 'Clear'),
          h('button.small', { type: 'button', onclick: () => this.close(), 'aria-label': `close watch ${path}` }, 'Close'))),
      this.list,
      // shown while the timeline is empty (CSS), instead of a blank box
      h('p.w-empty.muted.small', `no events yet: changes to ${path} will show here`));
  }

  setState(text, cls) {
    this.state.textContent = text;
    this.state.className = 'w-state ' + (cls || '');
    this.el.dataset.state = cls || '';
  }

  push(li) {
    this.list.append(li);
    while (this.list.children.length > MAX_ENTRIES) this.list.firstElementChild.remove();
    li.scrollIntoView({ block: 'nearest' });
  }

  async start({ relist = false } = {}) {
    if (this.ctl) return;
    const ctl = new AbortController();
    this.ctl = ctl;
    this.toggle.textContent = 'Stop';
    const q = { ...this.query, watch: 'true' };
    if (relist) { this.rv = ''; delete q.sendInitialEvents; delete q.resourceVersionMatch; }
    if (this.rv) {
      q.resourceVersion = this.rv;
      if (this.count) { delete q.sendInitialEvents; delete q.resourceVersionMatch; } // resuming: only what changed since
    } else delete q.resourceVersion;
    const url = withQuery(this.path, q);
    this.setState('connecting', 'connecting');
    let reason = 'ended';
    try {
      const res = await fetch(url, { signal: ctl.signal });
      if (!res.ok) {
        const text = await res.text();
        let body = null;
        try { body = JSON.parse(text); } catch (e) { /* plain text */ }
        this.gone(res.status, (body && body.message) || text, body && body.reason);
        reason = 'error';
        return;
      }
      this.setState('streaming', 'streaming');
      const { readWatch } = await sandboxModule();
      for await (const ev of readWatch(res)) {
        if (ev.type === 'ERROR') {
          const s = ev.object || {};
          this.gone(s.code, s.message, s.reason);
          reason = 'error';
          return;
        }
        const v = ev.object.metadata && ev.object.metadata.resourceVersion;
        if (v) this.rv = v;
        this.count++;
        if (ev.type !== 'BOOKMARK') remember(ev.object);
        this.push(eventEntry(ev));
      }
    } catch (e) {
      if (ctl.signal.aborted) { reason = 'stopped'; return; }
      if (e.name === 'WatchError') this.gone(e.status, e.message, e.body && e.body.reason); // a line that is not an event
      else {
        this.push(noteEntry('the stream failed: ' + (e.message || e), 'error'));
        this.setState('failed', 'error'); // not "streaming" over a dead stream: Resume is one click away
      }
      reason = 'error';
    } finally {
      if (this.ctl === ctl) this.ctl = null;
      this.toggle.textContent = 'Resume';
      if (reason === 'stopped') this.setState('stopped', 'stopped');
      else if (reason === 'ended') {
        this.push(noteEntry(`the server ended the stream${this.rv ? ` at rv ${this.rv}` : ''}`, 'end'));
        if (this.autoResume() && this.el.isConnected) {
          this.push(noteEntry(`resuming from rv ${this.rv || '(latest)'}`, 'resume'));
          setTimeout(() => this.start(), 50);
        } else this.setState('ended', 'ended');
      }
    }
  }

  /** gone shows an error answer; for 410 it offers to list again. */
  gone(code, message, reason) {
    const is410 = Number(code) === 410;
    const li = noteEntry(`${code || ''} ${reason || (is410 ? 'Expired' : 'Error')}: ${message || ''}`, is410 ? 'gone' : 'error');
    if (is410) {
      li.append(h('p.small', 'The resourceVersion is older than the server keeps history for. A client must list again and watch from the new list\'s resourceVersion.'),
        h('button.small.relist', { type: 'button', onclick: () => this.start({ relist: true }) }, 'List again and watch'));
    }
    this.push(li);
    this.setState(is410 ? '410 Gone' : `error ${code || ''}`, is410 ? 'gone' : 'error');
  }

  stop() {
    if (this.ctl) this.ctl.abort();
  }

  close() {
    this.stop();
    this.el.remove();
    this.onClose();
  }
}
