// Schema-driven help from the OpenAPI the sandbox serves (/openapi/v3, one
// document per group/version, fetched on first use and cached by its
// ?hash= link): the schema of a kind, the fields at a path inside it (for
// completion), a field's type / required / description (for hover), and a
// "new object" template per kind.
//
//   const s = await kindSchema('apps/v1', 'Deployment');
//   fieldsAt(s, ['spec', 'template', 'spec', 'containers', '[]'])
//     → [{name:'args', type:'[]string', required:false, description:''}, {name:'image', …}, …]
//   fieldInfo(s, ['spec', 'replicas']) → {name:'replicas', type:'integer', required:false, description:''}
//   await newObject({group:'apps', version:'v1', kind:'Deployment'}, 'web')
//     → {apiVersion:'apps/v1', kind:'Deployment', metadata:{name:'web'}, spec:{replicas:1, selector:…, template:…}}
//
// A path is a list of keys; '[]' steps into an array's items. Keys under a
// map (labels, data) take the map's value schema.
import { minimalSpec } from './templates.js';

let root = null; // /openapi/v3's {paths: {"apis/apps/v1": {serverRelativeURL}}}
const docs = new Map(); // serverRelativeURL → Promise(document)

async function getJSON(url) {
  const r = await fetch(url, { headers: { Accept: 'application/json' } });
  if (!r.ok) throw new Error(`${url}: ${r.status}`);
  return r.json();
}

/** gvPath names a group/version as /openapi/v3 does: 'v1' → 'api/v1', 'apps/v1' → 'apis/apps/v1'. */
export function gvPath(apiVersion) {
  return String(apiVersion).includes('/') ? 'apis/' + apiVersion : 'api/' + apiVersion;
}

async function gvDocument(apiVersion, refresh) {
  if (!root || refresh) root = getJSON('/openapi/v3').catch((e) => { root = null; throw e; });
  const paths = (await root).paths || {};
  const entry = paths[gvPath(apiVersion)];
  if (!entry) {
    if (!refresh) return gvDocument(apiVersion, true); // a CRD created since
    return null;
  }
  const url = entry.serverRelativeURL;
  if (!docs.has(url)) docs.set(url, getJSON(url).catch((e) => { docs.delete(url); throw e; }));
  return docs.get(url);
}

/**
 * kindSchema finds the schema of apiVersion/kind (by its
 * x-kubernetes-group-version-kind): {doc, schema, name} or null.
 */
export async function kindSchema(apiVersion, kind) {
  if (!apiVersion || !kind) return null;
  const [group, version] = String(apiVersion).includes('/') ? String(apiVersion).split('/') : ['', String(apiVersion)];
  for (const refresh of [false, true]) {
    const doc = await gvDocument(apiVersion, refresh);
    const schemas = (doc && doc.components && doc.components.schemas) || {};
    for (const [name, s] of Object.entries(schemas)) {
      const gvks = s['x-kubernetes-group-version-kind'] || [];
      if (gvks.some((g) => (g.group || '') === group && g.version === version && g.kind === kind)) return { doc, schema: s, name };
    }
  }
  return null;
}

// resolve follows $ref and the single-$ref allOf kube-openapi writes
// around a property ({allOf:[{$ref}], default:{}}), keeping the outer
// description: {node, ref (the short type name or '')}.
function resolve(doc, node) {
  let ref = '';
  let description = node && node.description;
  for (let i = 0; node && i < 8; i++) {
    let target = node.$ref;
    if (!target && Array.isArray(node.allOf) && node.allOf.length === 1 && node.allOf[0].$ref) target = node.allOf[0].$ref;
    if (!target) break;
    const name = target.replace('#/components/schemas/', '');
    ref = name.split('.').pop();
    node = ((doc.components || {}).schemas || {})[name];
    description = description || (node && node.description);
  }
  return { node: node || {}, ref, description: description || '' };
}

/** typeName writes a schema's type as kubectl explain does: string, integer, Object (as its name), []Container, map[string]string. */
function typeName(doc, node) {
  const { node: n, ref } = resolve(doc, node);
  if (n['x-kubernetes-int-or-string']) return 'IntOrString';
  if (n.type === 'array') return '[]' + typeName(doc, n.items || {});
  if (n.type === 'object' && n.additionalProperties && typeof n.additionalProperties === 'object' && !n.properties) return `map[string]${typeName(doc, n.additionalProperties)}`;
  if (ref && (n.type === 'object' || n.properties || !n.type)) return ref;
  return n.type === 'object' || !n.type ? 'Object' : n.type;
}

/** nodeAt walks path from the kind's schema; null when the path leaves it. */
function nodeAt(s, path) {
  let node = s.schema;
  for (const seg of path) {
    const n = resolve(s.doc, node).node;
    if (seg === '[]') node = n.type === 'array' ? n.items : null;
    else if (n.properties && n.properties[seg]) node = n.properties[seg];
    else if (n.additionalProperties && typeof n.additionalProperties === 'object') node = n.additionalProperties;
    else node = null;
    if (!node) return null;
  }
  return node;
}

/** fieldsAt lists the fields of the object at path: [{name, type, required, description}], sorted by name. */
export function fieldsAt(s, path) {
  const node = s && nodeAt(s, path);
  if (!node) return [];
  let n = resolve(s.doc, node).node;
  if (n.type === 'array' && path.length) n = resolve(s.doc, n.items || {}).node; // "- " not typed yet
  const required = new Set(n.required || []);
  return Object.entries(n.properties || {}).map(([name, p]) => ({
    name, type: typeName(s.doc, p), required: required.has(name), description: resolve(s.doc, p).description,
  })).sort((a, b) => a.name.localeCompare(b.name));
}

/** fieldInfo describes the field at path (its last key): {name, type, required, description, enum} or null. */
export function fieldInfo(s, path) {
  const keys = path.filter((p) => p !== '[]');
  if (!s || !keys.length) return null;
  const node = nodeAt(s, path);
  if (!node) return null;
  let i = path.length - 1;
  while (path[i] === '[]') i--;
  const parent = nodeAt(s, path.slice(0, i));
  const pn = parent ? resolve(s.doc, parent).node : {};
  const name = path[i];
  const r = resolve(s.doc, node);
  return {
    name,
    type: typeName(s.doc, node),
    required: (pn.required || []).includes(name),
    description: r.description,
    enum: r.node.enum || null,
  };
}

// zero gives a placeholder for a required field of the given schema,
// filling its own required fields: '' for strings, 0, false, [] or [{…}].
function zero(doc, node, depth = 0) {
  const { node: n } = resolve(doc, node);
  if (depth > 6) return undefined;
  if (n.type === 'string' || n['x-kubernetes-int-or-string']) return '';
  if (n.type === 'integer' || n.type === 'number') return 0;
  if (n.type === 'boolean') return false;
  if (n.type === 'array') {
    const item = resolve(doc, n.items || {}).node;
    return (item.required || []).length ? [zero(doc, n.items, depth + 1)] : [];
  }
  const out = {};
  for (const k of n.required || []) {
    if (n.properties && n.properties[k]) out[k] = zero(doc, n.properties[k], depth + 1);
  }
  return out;
}

/**
 * newObject builds the "new object" template of a kind: apiVersion, kind,
 * metadata.name, every field the schema marks required (placeholders; in
 * spec too, e.g. a CRD's {spec: {size: 0}}), and
 * for the common kinds a minimal spec that the API accepts as it is
 * (templates.js). r: {group, version, kind} as discovery gives it.
 */
export async function newObject(r, name) {
  const apiVersion = r.group ? `${r.group}/${r.version}` : r.version;
  const obj = { apiVersion, kind: r.kind, metadata: { name } };
  const s = await kindSchema(apiVersion, r.kind).catch(() => null);
  if (s) {
    const n = resolve(s.doc, s.schema).node;
    // what is required, and spec with its own required fields (a CRD's usually has some)
    for (const k of [...(n.required || []), 'spec']) {
      if (!(k in obj) && n.properties && n.properties[k]) obj[k] = zero(s.doc, n.properties[k]);
    }
    if (obj.spec && typeof obj.spec === 'object' && !Object.keys(obj.spec).length && !(n.required || []).includes('spec')) delete obj.spec;
  }
  return Object.assign(obj, minimalSpec(r.group, r.kind, name));
}
