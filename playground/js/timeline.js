// Watch events as a timeline: a coloured type, the resourceVersion, the
// object's name, and its YAML on demand.
import { h } from './dom.js';
import { stringify } from './yaml.js';

/**
 * eventEntry renders one watch event:
 *   {type: 'ADDED', object: {...}} → <li class="ev ev-ADDED">ADDED rv 42 default/demo</li>
 */
export function eventEntry(ev, { at = new Date() } = {}) {
  const o = ev.object || {};
  const m = o.metadata || {};
  const type = String(ev.type || 'UNKNOWN');
  const name = type === 'ERROR' ? `${o.code || ''} ${o.reason || ''}: ${o.message || ''}` : (m.namespace ? `${m.namespace}/` : '') + (m.name || '');
  const initialEnd = type === 'BOOKMARK' && m.annotations && m.annotations['k8s.io/initial-events-end'] === 'true';
  return h('li.ev.ev-' + type, { dataset: { type, rv: m.resourceVersion || '', name: m.name || '' } },
    h('details',
      h('summary',
        h('span.ev-type', type),
        h('span.ev-rv', { title: 'resourceVersion' }, m.resourceVersion ? `rv ${m.resourceVersion}` : ''),
        h('span.ev-name', name),
        initialEnd ? h('span.ev-note', 'initial events end') : null,
        m.deletionTimestamp && type !== 'DELETED' ? h('span.ev-note', 'deleting') : null,
        h('time.muted', { datetime: at.toISOString() }, at.toLocaleTimeString())),
      h('pre.code', stringify(o))));
}

/** noteEntry is a line in a timeline that is not an event (stream ended, resumed, 410 …). */
export function noteEntry(text, kind = 'note') {
  return h('li.ev.ev-note-' + kind, { dataset: { type: 'NOTE-' + kind } }, h('span.ev-text', text));
}
