// Requests to the sandbox as the playground shows them: one place that
// sends a request and records what came back (status, headers, Warning
// headers, body), parses API paths, and renders a request as curl or
// kubectl. Every object version a response or watch event carries is
// remembered in `history`, for the diff view.
import { parse as parseYAML, stringify as toYAML } from './yaml.js';

export const PATCH_TYPES = [
  { type: 'application/strategic-merge-patch+json', name: 'strategic merge patch', kubectl: 'strategic' },
  { type: 'application/merge-patch+json', name: 'JSON merge patch', kubectl: 'merge' },
  { type: 'application/json-patch+json', name: 'JSON patch', kubectl: 'json' },
  { type: 'application/apply-patch+yaml', name: 'server-side apply', kubectl: 'apply' },
];

/** The address shown in copied curl commands (the native server: `make serve ADDR=127.0.0.1:6443`). */
export const CURL_SERVER = 'http://127.0.0.1:6443';

/**
 * parsePath splits an API path into its parts:
 *   /apis/apps/v1/namespaces/ns1/deployments/web/scale
 *   → {group:'apps', version:'v1', namespace:'ns1', resource:'deployments', name:'web', subresource:'scale'}
 * Returns null for paths that are not resource paths (/version, /apis).
 */
export function parsePath(path) {
  const p = String(path).split('?')[0].split('/').filter(Boolean).map(decodeURIComponent);
  let group; let version; let rest;
  if (p[0] === 'api' && p.length >= 2) { group = ''; version = p[1]; rest = p.slice(2); }
  else if (p[0] === 'apis' && p.length >= 3) { group = p[1]; version = p[2]; rest = p.slice(3); }
  else return null;
  if (!rest.length) return { group, version };
  let namespace;
  if (rest[0] === 'namespaces' && rest.length >= 3) { namespace = rest[1]; rest = rest.slice(2); }
  const [resource, name, subresource] = rest;
  return { group, version, namespace, resource, name, subresource };
}

/** buildPath is parsePath's inverse. */
export function buildPath({ group, version, namespace, resource, name, subresource }) {
  let s = group ? `/apis/${group}/${version}` : `/api/${version}`;
  if (namespace) s += `/namespaces/${encodeURIComponent(namespace)}`;
  if (resource) s += `/${resource}`;
  if (name) s += `/${encodeURIComponent(name)}`;
  if (subresource) s += `/${subresource}`;
  return s;
}

/** withQuery appends the non-empty parameters of query to path. */
export function withQuery(path, query = {}) {
  const [base, existing] = String(path).split('?');
  const sp = new URLSearchParams(existing || '');
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '' || v === false) continue;
    sp.set(k, String(v));
  }
  const q = sp.toString();
  return q ? `${base}?${q}` : base;
}

// isTrue reads a boolean query parameter as the API server does: only
// "0" and "false" (any case) are false; `?watch` (no value) is true.
const isTrue = (v) => v != null && v !== '0' && String(v).toLowerCase() !== 'false';

/**
 * watchRequest tells whether a request is a watch as the API server reads
 * it — a GET with `watch` in the path's query or in query (`?watch=1`,
 * `?watch`, `watch=true`) or on a legacy /watch/ path — and gives it as
 * the watch panel takes it: {path (without its query), query (both merged,
 * without watch)}; null when it is not a watch.
 *   {method:'GET', path:'/api/v1/namespaces/x/pods?watch=1&limit=5'} → {path:'/api/v1/namespaces/x/pods', query:{limit:'5'}}
 */
export function watchRequest({ method = 'GET', path, query = {} }) {
  if (method !== 'GET') return null;
  const [base, qs] = String(path).split('?');
  const q = { ...Object.fromEntries(new URLSearchParams(qs || '')) };
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '' && v !== false) q[k] = String(v);
  const legacy = /^\/(api\/[^/]+|apis\/[^/]+\/[^/]+)\/watch\//.test(base);
  if (!legacy && !('watch' in q && isTrue(q.watch))) return null;
  delete q.watch;
  return { path: base, query: q };
}

/**
 * objectPath tells where one object of a multi-document body goes, as
 * kubectl routes each object of a manifest: found by its apiVersion and
 * kind among resources (discovery), in its own metadata.namespace, else
 * the typed path's, else default. POST → its collection; PUT and PATCH →
 * the object by name. An object without apiVersion/kind (a patch) goes to
 * the typed path. Returns {path} or {error}.
 *   ({apiVersion:'v1', kind:'Secret', metadata:{name:'s'}}, {method:'POST', path:'/api/v1/namespaces/x/configmaps'}, rs)
 *   → {path: '/api/v1/namespaces/x/secrets'}
 */
export function objectPath(obj, { method, path }, resources) {
  if (!obj || typeof obj !== 'object' || !obj.apiVersion || !obj.kind) return { path };
  const [group, version] = String(obj.apiVersion).includes('/') ? String(obj.apiVersion).split('/') : ['', String(obj.apiVersion)];
  const r = resources.find((x) => x.group === group && x.kind === obj.kind);
  if (!r) return { error: `the server does not serve ${obj.kind} in ${obj.apiVersion}` };
  const meta = obj.metadata || {};
  const typed = parsePath(path);
  const namespace = r.namespaced ? meta.namespace || (typed && typed.namespace) || 'default' : undefined;
  const name = method === 'POST' ? undefined : meta.name;
  if (method !== 'POST' && !name) return { error: `${obj.kind} without metadata.name: ${method} needs one` };
  return { path: buildPath({ group, version, namespace, resource: r.resource, name }) };
}

/**
 * bodyBytes turns the editor's text into what is sent: apply patches and
 * application/yaml go as written; the JSON types are converted from YAML.
 */
export function bodyText(text, contentType) {
  if (text == null || String(text).trim() === '') return null;
  if (contentType === 'application/apply-patch+yaml' || contentType === 'application/yaml') return String(text);
  return JSON.stringify(parseYAML(String(text)));
}

export const history = new Map(); // "group/resource|ns|name" → Map(rv → object)
const listeners = new Set();

function objectKey(obj) {
  const m = obj && obj.metadata;
  if (!m || !m.name || !obj.kind || obj.kind === 'Status' || /List$/.test(obj.kind)) return null;
  const group = String(obj.apiVersion || '').includes('/') ? obj.apiVersion.split('/')[0] : '';
  return `${group}/${obj.kind}|${m.namespace || ''}|${m.name}`;
}

/** remember records an object version (and the items of a List). */
export function remember(obj) {
  if (!obj || typeof obj !== 'object') return;
  if (Array.isArray(obj.items)) {
    const kind = String(obj.kind || '').replace(/List$/, '');
    for (const it of obj.items) remember({ apiVersion: obj.apiVersion, kind, ...it });
    return;
  }
  const key = objectKey(obj);
  const rv = obj.metadata && obj.metadata.resourceVersion;
  if (!key || !rv) return;
  if (!history.has(key)) history.set(key, new Map());
  const versions = history.get(key);
  if (!versions.has(rv)) {
    versions.set(rv, obj);
    for (const l of listeners) l(key);
  }
}

export function onRemember(fn) { listeners.add(fn); return () => listeners.delete(fn); }

/** keyOf gives the history key of an object. */
export { objectKey as keyOf };

/**
 * send performs one request and returns what the response view needs
 * (headers: [[name, value]] sent as well, replacing Content-Type or Accept):
 *   {method, path, status, statusText, headers:[[k,v]], warnings:[text], body (parsed JSON or null), text, ms, contentType}
 * Network-level failures come back as status 0 with the error message as text.
 */
export async function send({ method = 'GET', path, query, contentType, body, accept, headers: extra = [], signal }) {
  const url = withQuery(path, query);
  const init = { method, headers: {}, signal };
  let payload = null;
  if (body != null && method !== 'GET' && method !== 'HEAD') {
    payload = typeof body === 'string' ? body : JSON.stringify(body);
    init.body = payload;
    init.headers['Content-Type'] = contentType || 'application/json';
  }
  if (accept) init.headers.Accept = accept;
  for (const [k, v] of extra) {
    for (const have of Object.keys(init.headers)) if (have.toLowerCase() === k.toLowerCase()) delete init.headers[have];
    init.headers[k] = v;
  }
  const t0 = performance.now();
  let res;
  try {
    res = await fetch(url, init);
  } catch (err) {
    return { method, path: url, status: 0, statusText: 'network error', headers: [], warnings: [], body: null, text: String(err.message || err), ms: performance.now() - t0, sent: payload };
  }
  const text = await res.text();
  const headers = [...res.headers];
  const warnings = headers.filter(([k]) => k.toLowerCase() === 'warning').flatMap(([, v]) => splitWarnings(v));
  let parsed = null;
  const ct = res.headers.get('content-type') || '';
  if (ct.includes('json')) { try { parsed = JSON.parse(text); } catch (e) { /* not JSON after all */ } }
  else if (ct.includes('yaml')) { try { parsed = parseYAML(text); } catch (e) { /* leave as text */ } }
  if (parsed) remember(parsed);
  return { method, path: url, status: res.status, statusText: res.statusText, headers, warnings, body: parsed, text, ms: performance.now() - t0, contentType: ct, sent: payload };
}

/**
 * splitWarnings reads a Warning header value, which the Fetch API joins with
 * ", " when several were sent: '299 - "a", 299 - "b, c"' → ['a', 'b, c'].
 */
export function splitWarnings(v) {
  const out = [];
  const re = /(\d{3}) (\S+) "((?:[^"\\]|\\.)*)"/g;
  let m;
  while ((m = re.exec(v))) out.push(m[3].replace(/\\(.)/g, '$1'));
  return out.length ? out : [v];
}

const sq = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;

/** toCurl renders a request as a curl command for the native server. */
export function toCurl({ method = 'GET', path, query, contentType, body, headers = [] }, server = CURL_SERVER) {
  const url = server + withQuery(path, query);
  const parts = ['curl -sS'];
  if (method !== 'GET') parts.push(`-X ${method}`);
  if (query && String(query.watch) === 'true') parts.push('-N');
  const data = body != null && method !== 'GET' ? bodyText(body, contentType) : null;
  const own = (name) => headers.some(([k]) => k.toLowerCase() === name);
  if (data != null && !own('content-type')) parts.push(`-H ${sq('Content-Type: ' + (contentType || 'application/json'))}`);
  for (const [k, v] of headers) parts.push(`-H ${sq(`${k}: ${v}`)}`);
  parts.push(sq(url));
  if (data != null) parts.push(`--data-binary ${sq(data)}`);
  return parts.join(' ');
}

/**
 * toKubectl renders a request as the nearest kubectl command: typed verbs
 * where kubectl has one (get/create/replace/patch/apply/delete), else --raw.
 */
export function toKubectl({ method = 'GET', path, query = {}, contentType, body }) {
  const p = parsePath(path);
  const q = { ...query };
  const raw = () => {
    const verb = { GET: 'get', POST: 'create', PUT: 'replace', DELETE: 'delete' }[method];
    if (!verb) return `# kubectl has no --raw for ${method}; use curl against \`kubectl proxy\``;
    const file = body && method !== 'GET' ? ' -f - <<\'EOF\'\n' + yamlOf(body) + 'EOF' : '';
    return `kubectl ${verb} --raw ${sq(withQuery(path, query))}${file}`;
  };
  if (!p || !p.resource) return raw();
  const res = p.group ? `${p.resource}.${p.version}.${p.group}` : p.resource;
  const flags = [];
  if (p.namespace) flags.push(`-n ${p.namespace}`);
  const take = (k) => { const v = q[k]; delete q[k]; return v; };
  const dry = take('dryRun'); if (dry) flags.push('--dry-run=server');
  const fv = take('fieldValidation'); if (fv) flags.push(`--validate=${String(fv).toLowerCase()}`);
  const fm = take('fieldManager'); if (fm) flags.push(`--field-manager=${fm}`);
  if (p.subresource && method !== 'GET') flags.push(`--subresource=${p.subresource}`);
  const rest = () => Object.keys(q).filter((k) => q[k] !== undefined && q[k] !== '' && q[k] !== false);
  switch (method) {
    case 'GET': {
      const ls = take('labelSelector'); if (ls) flags.push(`-l ${sq(ls)}`);
      const fs = take('fieldSelector'); if (fs) flags.push(`--field-selector ${sq(fs)}`);
      const lim = take('limit'); if (lim) flags.push(`--chunk-size=${lim}`);
      const w = take('watch'); if (w && String(w) !== 'false') flags.push('--watch -o json --output-watch-events');
      else flags.push('-o yaml');
      take('allowWatchBookmarks'); take('timeoutSeconds');
      if (rest().length || p.subresource) return raw();
      return `kubectl get ${res}${p.name ? ' ' + p.name : ''} ${flags.join(' ')}`.trim();
    }
    case 'DELETE': {
      const pp = take('propagationPolicy'); if (pp) flags.push(`--cascade=${pp === 'Orphan' ? 'orphan' : pp === 'Foreground' ? 'foreground' : 'background'}`);
      if (!p.name || rest().length) return raw();
      return `kubectl delete ${res} ${p.name} ${flags.join(' ')}`.trim();
    }
    case 'POST':
      if (rest().length) return raw();
      return `kubectl create ${flags.join(' ')} -f - <<'EOF'\n${yamlOf(body)}EOF`.replace('create  -f', 'create -f');
    case 'PUT':
      if (rest().length) return raw();
      return `kubectl replace ${flags.join(' ')} -f - <<'EOF'\n${yamlOf(body)}EOF`.replace('replace  -f', 'replace -f');
    case 'PATCH': {
      const t = PATCH_TYPES.find((x) => x.type === contentType) || PATCH_TYPES[0];
      if (t.kubectl === 'apply') {
        const force = take('force');
        if (force && String(force) !== 'false') flags.push('--force-conflicts');
        if (rest().length) return raw();
        return `kubectl apply --server-side ${flags.join(' ')} -f - <<'EOF'\n${yamlOf(body)}EOF`;
      }
      if (rest().length) return raw();
      return `kubectl patch ${res} ${p.name || ''} ${flags.join(' ')} --type=${t.kubectl} -p ${sq(bodyText(body, 'application/json') || '{}')}`;
    }
    default:
      return raw();
  }
}

function yamlOf(body) {
  if (body == null) return '';
  if (typeof body !== 'string') return toYAML(body);
  try { return toYAML(parseYAML(body)); } catch (e) { return body.endsWith('\n') ? body : body + '\n'; }
}
