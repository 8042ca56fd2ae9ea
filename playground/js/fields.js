// managedFields as a picture: which manager owns which field, read from
// metadata.managedFields[].fieldsV1, and server-side apply conflicts
// explained field by field.
//
// fieldsV1 is a tree of path elements (structured-merge-diff's format):
//   {"f:data": {".": {}, "f:a": {}}}                         the field data.a (and data itself)
//   {"f:spec": {"f:containers": {"k:{\"name\":\"app\"}": {"f:image": {}}}}}
//                                                           containers[name="app"].image
//   {"f:metadata": {"f:finalizers": {"v:\"example.com/x\"": {}}}}  an item of a set
//   "i:3"                                                    an item by index
// An empty {} marks a field the manager owns; "." marks the map or list
// item itself (it exists because the manager set something inside it).

export const PALETTE = ['#2f6fdf', '#d9480f', '#2b8a3e', '#ae3ec9', '#c2255c', '#0c8599', '#e67700', '#5f3dc4'];

const deepEqual = (a, b) => JSON.stringify(a) === JSON.stringify(b);
export const pathKey = (path) => JSON.stringify(path);

/**
 * ownership reads an object's managedFields.
 *   managers: [{name, operation, subresource, time, apiVersion, color}]
 *   owners:   Map(pathKey([...]) → [{manager: index, self: bool}])
 */
export function ownership(obj) {
  const mf = (obj && obj.metadata && obj.metadata.managedFields) || [];
  const managers = [];
  const owners = new Map();
  mf.forEach((entry, i) => {
    if (!entry || typeof entry !== 'object') entry = {};
    managers.push({
      name: entry.manager || '(unnamed)', operation: entry.operation || '', subresource: entry.subresource || '',
      time: entry.time || '', apiVersion: entry.apiVersion || '', color: PALETTE[i % PALETTE.length],
    });
    const mark = (path, self) => {
      const k = pathKey(path);
      if (!owners.has(k)) owners.set(k, []);
      const list = owners.get(k);
      if (!list.some((o) => o.manager === i && o.self === self)) list.push({ manager: i, self });
    };
    walk(entry.fieldsV1 || {}, obj, [], mark);
  });
  return { managers, owners };
}

function walk(node, value, path, mark) {
  if (!node || typeof node !== 'object') return;
  for (const [k, child] of Object.entries(node)) {
    if (k === '.') { mark(path, true); continue; }
    const kind = k.slice(0, 2);
    const rest = k.slice(2);
    let seg;
    let childValue;
    try {
      if (kind === 'f:') {
        seg = rest;
        childValue = value && typeof value === 'object' ? value[rest] : undefined;
      } else if (kind === 'k:') {
        const key = JSON.parse(rest);
        seg = Array.isArray(value) ? value.findIndex((it) => it && Object.entries(key).every(([kk, vv]) => deepEqual(it[kk], vv))) : -1;
        childValue = seg >= 0 ? value[seg] : undefined;
      } else if (kind === 'v:') {
        const v = JSON.parse(rest);
        seg = Array.isArray(value) ? value.findIndex((it) => deepEqual(it, v)) : -1;
        childValue = seg >= 0 ? value[seg] : undefined;
      } else if (kind === 'i:') {
        seg = Number(rest);
        childValue = Array.isArray(value) ? value[seg] : undefined;
      } else continue;
    } catch (e) { continue; } // a malformed element: skip it, never fail the view
    if (seg === -1 || seg === undefined || (typeof seg === 'number' && Number.isNaN(seg))) continue;
    const p = [...path, seg];
    if (!child || typeof child !== 'object' || Object.keys(child).length === 0) mark(p, false);
    else walk(child, childValue, p, mark);
  }
}

/**
 * ownersOf gives the owners of the value at path: its own marks, else
 * those of the nearest ancestor owned as a whole (an atomic map or list).
 * → {owners: [...], inherited: bool}
 */
export function ownersOf(own, path) {
  const direct = own.owners.get(pathKey(path));
  if (direct && direct.length) return { owners: direct, inherited: false };
  for (let n = path.length - 1; n > 0; n--) {
    const up = (own.owners.get(pathKey(path.slice(0, n))) || []).filter((o) => !o.self);
    if (up.length) return { owners: up, inherited: true };
  }
  return { owners: [], inherited: false };
}

/**
 * parseFieldPath reads a conflict cause's field (structured-merge-diff's
 * path string) into elements:
 *   .spec.containers[name="app"].image → [{field:'spec'},{field:'containers'},{key:{name:'app'}},{field:'image'}]
 *   .metadata.finalizers[="x"] → [...,{value:'x'}]     .items[2] → [...,{index:2}]
 */
export function parseFieldPath(s) {
  const out = [];
  let i = 0;
  const str = String(s || '');
  while (i < str.length) {
    if (str[i] === '.') {
      let j = i + 1;
      while (j < str.length && str[j] !== '.' && str[j] !== '[') j++;
      out.push({ field: str.slice(i + 1, j) });
      i = j;
    } else if (str[i] === '[') {
      let j = i + 1;
      let q = false;
      for (; j < str.length; j++) {
        if (q) { if (str[j] === '\\') j++; else if (str[j] === '"') q = false; } else if (str[j] === '"') q = true;
        else if (str[j] === ']') break;
      }
      const inner = str.slice(i + 1, j);
      i = j + 1;
      if (/^\d+$/.test(inner)) out.push({ index: Number(inner) });
      else if (inner.startsWith('=')) out.push({ value: parseJSONish(inner.slice(1)) });
      else {
        const key = {};
        for (const part of splitTop(inner)) {
          const eq = part.indexOf('=');
          if (eq > 0) key[part.slice(0, eq)] = parseJSONish(part.slice(eq + 1));
        }
        out.push({ key });
      }
    } else {
      i++;
    }
  }
  return out;
}

function splitTop(s) {
  const parts = [];
  let q = false; let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (q) { if (s[i] === '\\') i++; else if (s[i] === '"') q = false; } else if (s[i] === '"') q = true;
    else if (s[i] === ',') { parts.push(s.slice(start, i)); start = i + 1; }
  }
  parts.push(s.slice(start));
  return parts;
}

function parseJSONish(s) { try { return JSON.parse(s); } catch (e) { return s; } }

/** lookup follows parsed path elements in a value; undefined when absent. */
export function lookup(value, elements) {
  let v = value;
  for (const e of elements) {
    if (v == null) return undefined;
    if ('field' in e) v = typeof v === 'object' && !Array.isArray(v) ? v[e.field] : undefined;
    else if ('index' in e) v = Array.isArray(v) ? v[e.index] : undefined;
    else if ('value' in e) v = Array.isArray(v) ? v.find((x) => deepEqual(x, e.value)) : undefined;
    else if ('key' in e) v = Array.isArray(v) ? v.find((x) => x && Object.entries(e.key).every(([k, kv]) => deepEqual(x[k], kv))) : undefined;
  }
  return v;
}

/**
 * explainConflicts turns a 409 apply response into sentences, one per field:
 *   {manager, fields: [{field, owner, current, applied, text}], summary}
 * status: the Status body; live: the object as stored (or null);
 * applied: the applied configuration (parsed); manager: the fieldManager sent.
 */
export function explainConflicts(status, live, applied, manager) {
  const causes = ((status && status.details && status.details.causes) || []).filter((c) => c.reason === 'FieldManagerConflict');
  const me = manager || 'your field manager';
  const fields = causes.map((c) => {
    const m = /conflict with "([^"]*)"(?: using (\S+))?/.exec(c.message || '');
    const owner = m ? m[1] : c.message;
    const els = parseFieldPath(c.field);
    const current = lookup(live, els);
    const mine = lookup(applied, els);
    const show = (v) => (v === undefined ? '(not set)' : JSON.stringify(v));
    const text = `${c.field} is owned by "${owner}"${m && m[2] ? ` (through ${m[2]})` : ''}. It holds ${show(current)} now; `
      + `"${me}" wants ${show(mine)}. Apply will not take a field from another manager unless you force it.`;
    return { field: c.field, owner, current, applied: mine, text };
  });
  const owners = [...new Set(fields.map((f) => `"${f.owner}"`))].join(', ');
  const summary = fields.length
    ? `"${me}" tried to change ${fields.length} field${fields.length > 1 ? 's' : ''} that ${owners} already manage${fields.length > 1 || owners.includes(',') ? '' : 's'}. `
      + `Choose one: force the apply (force=true): "${me}" takes these fields over and ${owners} stop${owners.includes(',') ? '' : 's'} managing them; `
      + 'or remove them from your configuration; or set the same values as now, and the ownership is shared.'
    : '';
  return { manager: me, fields, summary };
}
