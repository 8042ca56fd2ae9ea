// Discovery: what the sandbox serves, read from /api, /apis and each
// group version's resource list, as kubectl does. Used for path completion,
// the resource browser and kubectl names.
import { parsePath } from './api.js';

let cache = null;

/**
 * resources lists every served resource (subresources excluded):
 *   [{group, version, resource, kind, namespaced, verbs, shortNames}]
 * Call with refresh=true after creating a CRD.
 */
export async function resources(refresh = false) {
  if (cache && !refresh) return cache;
  cache = (async () => {
    const gvs = [];
    const api = await getJSON('/api');
    for (const v of (api && api.versions) || []) gvs.push({ group: '', version: v, path: `/api/${v}` });
    const apis = await getJSON('/apis');
    for (const g of (apis && apis.groups) || []) {
      const v = g.preferredVersion || (g.versions || [])[0];
      if (v) gvs.push({ group: g.name, version: v.version, path: `/apis/${v.groupVersion}` });
    }
    const lists = await Promise.all(gvs.map((gv) => getJSON(gv.path)));
    const out = [];
    lists.forEach((list, i) => {
      for (const r of (list && list.resources) || []) {
        if (r.name.includes('/')) continue;
        out.push({ group: gvs[i].group, version: gvs[i].version, resource: r.name, kind: r.kind, namespaced: !!r.namespaced, verbs: r.verbs || [], shortNames: r.shortNames || [] });
      }
    });
    return out;
  })();
  try { return await cache; } catch (e) { cache = null; throw e; }
}

async function getJSON(path) {
  const r = await fetch(path, { headers: { Accept: 'application/json' } });
  if (!r.ok) return null;
  return r.json();
}

export async function namespaces() {
  const l = await getJSON('/api/v1/namespaces');
  return ((l && l.items) || []).map((n) => n.metadata.name);
}

/**
 * completions suggests paths for what has been typed so far: group
 * versions, collections (in the typed or default namespace) and, once a
 * collection is typed, its objects' names.
 */
export async function completions(typed) {
  const rs = await resources();
  const base = String(typed || '').split('?')[0];
  const p = parsePath(base);
  const ns = (p && p.namespace) || 'default';
  const out = new Set(['/api', '/apis', '/version', '/api/v1']);
  for (const r of rs) {
    const gv = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
    out.add(gv);
    if (r.group) out.add(`/apis/${r.group}`);
    out.add(`${gv}/${r.resource}`);
    if (r.namespaced) out.add(`${gv}/namespaces/${ns}/${r.resource}`);
  }
  if (p && p.resource && !p.name) {
    const r = rs.find((x) => x.resource === p.resource && x.group === p.group);
    if (r && r.verbs.includes('list')) {
      const l = await getJSON(base);
      for (const it of (l && l.items) || []) out.add(`${base.replace(/\/$/, '')}/${it.metadata.name}`);
    }
  }
  return [...out].filter((s) => s.startsWith(base.slice(0, Math.max(0, base.lastIndexOf('/')))) || !base).sort();
}

/** collectionPath gives the list path for a resource in a namespace. */
export function collectionPath(r, namespace) {
  const gv = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  return r.namespaced && namespace ? `${gv}/namespaces/${namespace}/${r.resource}` : `${gv}/${r.resource}`;
}
