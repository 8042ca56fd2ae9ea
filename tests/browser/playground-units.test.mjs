// Unit tests of the playground's pure modules (no browser): YAML (the
// `yaml` package through playground/js/yaml.js: make playground-build
// first), managedFields ownership and conflict explanations, the
// curl/kubectl renderings, paths, the line diff and scenario variables.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { repo } from './lib.mjs';
import { parse, parseAll, documents, stringify, lines, YAMLError } from '../../playground/js/yaml.js';
import { ownership, ownersOf, parseFieldPath, lookup, explainConflicts, pathKey } from '../../playground/js/fields.js';
import { toCurl, toKubectl, parsePath, buildPath, withQuery, bodyText, splitWarnings, watchRequest, objectPath } from '../../playground/js/api.js';
import { diffLines } from '../../playground/js/diff.js';
import { fill, get, check } from '../../playground/js/scenario.js';
import { parseLine, templateLine } from '../../playground/js/scenario-view.js';

test('yaml: kubectl-style output reads back to the same value', () => {
  const cases = {
    deployment: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { app: 'web' } }, spec: { replicas: 2, template: { spec: { containers: [{ name: 'app', image: 'nginx', args: ['-v', '--x', 'yes', ''] }] } } } },
    scalars: { t: true, f: false, n: null, i: -3, x: 1.5, s1: '123', s2: 'true', s3: 'a: b', s4: ' pad', s5: '#x', s6: 'null', s7: '~', s8: '0x1F', s9: '1e3', big: 'x'.repeat(300) },
    empties: { m: {}, l: [], nested: [[], {}, [1, [2]]] },
    multiline: { script: 'echo a\necho b\n', noNewline: 'a\nb', keep: 'a\n\n' },
    fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'k:{"name":"app"}': { 'f:image': {} }, 'v:"x"': {} },
    unicode: { name: 'café ✓', quote: 'it\'s "quoted"' },
  };
  for (const [name, v] of Object.entries(cases)) {
    assert.deepEqual(parse(stringify(v)), v, name);
  }
  assert.equal(stringify({ a: { b: [{ c: 1, d: 'x' }] } }), 'a:\n  b:\n  - c: 1\n    d: x\n');
  assert.equal(stringify({ s: '1' }), 's: "1"\n');
});

test('yaml: reads what people write', () => {
  const doc = `# a comment
---
apiVersion: v1   # trailing comment
kind: ConfigMap
metadata:
  name: demo
  labels: {app: web, "tier": 'db'}
data:
  script: |
    line 1
    line 2
  folded: >-
    one
    two
  list:
    - a
    - b: 1
      c: [x, "y, z"]
  url: http://example.com:8080/x#frag
  empty:
`;
  assert.deepEqual(parse(doc), {
    apiVersion: 'v1', kind: 'ConfigMap',
    metadata: { name: 'demo', labels: { app: 'web', tier: 'db' } },
    data: { script: 'line 1\nline 2\n', folded: 'one two', list: ['a', { b: 1, c: ['x', 'y, z'] }], url: 'http://example.com:8080/x#frag', empty: null },
  });
  assert.deepEqual(parse('{"a": [1, 2]}'), { a: [1, 2] });
  assert.deepEqual(parse('[a, {b: c}]'), ['a', { b: 'c' }]);
  assert.equal(parse(''), null);
  assert.equal(parse('just a string'), 'just a string');
});

test('yaml: errors name the line', () => {
  for (const [src, msg] of [
    ['a: 1\na: 2\n', /^line 2: Map keys must be unique$/],
    ['a:\n  b: 1\n c: 2\n', /^line 3: /],
    ['a: [1, 2\n', /^line 2: Flow sequence in block collection must be sufficiently indented and end with a \]$/],
    ['a: 1\n---\nb: 2\n', /^line 2: Source contains multiple documents/],
  ]) {
    assert.throws(() => parse(src), (e) => e instanceof YAMLError && msg.test(e.message), src);
  }
});

test('yaml: anchors, aliases and several documents, as people paste manifests', () => {
  assert.deepEqual(parse('base: &b {app: web}\nlabels: *b\nmerged:\n  <<: *b\n  tier: db\n'),
    { base: { app: 'web' }, labels: { app: 'web' }, merged: { app: 'web', tier: 'db' } });
  const stream = '# two objects\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n# nothing here\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: b\n';
  assert.deepEqual(parseAll(stream).map((o) => `${o.kind}/${o.metadata.name}`), ['ConfigMap/a', 'Secret/b']);
  assert.deepEqual(documents(stream), ['apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n', 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: b\n']);
  // YAML 1.1, as Kubernetes reads it: yes/on/n are booleans, so such strings are written quoted
  assert.deepEqual(parse('a: yes\nb: "yes"\n'), { a: true, b: 'yes' });
  assert.equal(stringify({ a: 'yes', n: 'on' }), 'a: "yes"\n"n": "on"\n');
});

test('yaml: lines give each line the path of the value it shows', () => {
  const got = lines({ metadata: { name: 'x', labels: { a: 'b' } }, data: { s: 'l1\nl2\n' }, list: ['a', { b: 1, c: [1] }] })
    .map((l) => `${JSON.stringify(l.path)} ${l.text}`);
  assert.deepEqual(got, [
    '["metadata"] metadata:', '["metadata","name"]   name: x', '["metadata","labels"]   labels:', '["metadata","labels","a"]     a: b',
    '["data"] data:', '["data","s"]   s: |', '["data","s"]     l1', '["data","s"]     l2',
    '["list"] list:', '["list",0] - a', '["list",1,"b"] - b: 1', '["list",1,"c"]   c:', '["list",1,"c",0]   - 1',
  ]);
});

test('yaml: random values survive a round trip', () => {
  let seed = 7;
  const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const atoms = ['', 'a', 'a b', ' x', 'x:', 'x: y', '- x', '#', 'yes', 'No', '1', '-1.5', '0o7', '"q"', "'", 'a\nb', 'a\n', 'a\n\n', 'a \nb', '\n', ' \n', 'x\n  y', '\\', '{}', '[]', 'ü', 0, 1, -2, 3.25, true, false, null];
  const gen = (d) => {
    const k = rnd(d > 3 ? 1 : 3);
    if (k === 0) return atoms[rnd(atoms.length)];
    if (k === 1) return Array.from({ length: rnd(4) }, () => gen(d + 1));
    return Object.fromEntries(Array.from({ length: rnd(4) }, () => [String(atoms[rnd(atoms.length)]), gen(d + 1)]));
  };
  for (let i = 0; i < 2000; i++) {
    const v = gen(0);
    assert.deepEqual(parse(stringify(v)), v, JSON.stringify(v));
  }
});

test('fields: ownership follows fieldsV1 into maps, keyed lists and sets', () => {
  const obj = {
    metadata: {
      name: 'web', finalizers: ['a/x', 'b/y'],
      managedFields: [
        { manager: 'alice', operation: 'Apply', fieldsV1: { 'f:metadata': { 'f:finalizers': { 'v:"a/x"': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"app"}': { '.': {}, 'f:name': {}, 'f:image': {} } } } } },
        { manager: 'bob', operation: 'Update', fieldsV1: { 'f:spec': { 'f:containers': { 'k:{"name":"side"}': { '.': {}, 'f:image': {} }, 'k:{"name":"gone"}': { 'f:image': {} } }, 'f:selector': {} } } },
      ],
    },
    spec: { containers: [{ name: 'side', image: 'busybox' }, { name: 'app', image: 'nginx' }], selector: { matchLabels: { app: 'web' } } },
  };
  const own = ownership(obj);
  assert.deepEqual(own.managers.map((m) => m.name), ['alice', 'bob']);
  const who = (p) => ownersOf(own, p).owners.map((o) => `${own.managers[o.manager].name}${o.self ? '.' : ''}`);
  assert.deepEqual(who(['spec', 'containers', 1, 'image']), ['alice']);
  assert.deepEqual(who(['spec', 'containers', 1]), ['alice.']);
  assert.deepEqual(who(['spec', 'containers', 0, 'image']), ['bob']);
  assert.deepEqual(who(['spec', 'containers', 0, 'name']), []);
  assert.deepEqual(who(['metadata', 'finalizers', 0]), ['alice']);
  assert.deepEqual(who(['metadata', 'finalizers', 1]), []);
  // an atomic field owned as a whole colours what is inside it
  assert.deepEqual(ownersOf(own, ['spec', 'selector', 'matchLabels', 'app']), { owners: [{ manager: 1, self: false }], inherited: true });
  assert.equal(own.owners.has(pathKey(['spec', 'containers', -1])), false, 'a key that matches no item is skipped');
  // malformed entries never throw
  assert.doesNotThrow(() => ownership({ metadata: { managedFields: [{ fieldsV1: { 'k:{bad': {}, 'i:x': {}, 'z:1': {} } }, null] } }));
});

test('fields: conflict causes are explained field by field', () => {
  assert.deepEqual(parseFieldPath('.spec.containers[name="app"].ports[containerPort=80,protocol="TCP"].name'),
    [{ field: 'spec' }, { field: 'containers' }, { key: { name: 'app' } }, { field: 'ports' }, { key: { containerPort: 80, protocol: 'TCP' } }, { field: 'name' }]);
  assert.deepEqual(parseFieldPath('.metadata.finalizers[="a/x"]'), [{ field: 'metadata' }, { field: 'finalizers' }, { value: 'a/x' }]);
  assert.deepEqual(parseFieldPath('.items[2]'), [{ field: 'items' }, { index: 2 }]);
  const live = { spec: { containers: [{ name: 'app', image: 'nginx:1' }] }, data: { a: '1' } };
  assert.equal(lookup(live, parseFieldPath('.spec.containers[name="app"].image')), 'nginx:1');
  const status = {
    kind: 'Status', code: 409, reason: 'Conflict', message: 'Apply failed with 2 conflicts: conflicts with "alice": .data.a, .spec.containers[name="app"].image',
    details: { causes: [
      { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.data.a' },
      { reason: 'FieldManagerConflict', message: 'conflict with "alice" using v1', field: '.spec.containers[name="app"].image' },
    ] },
  };
  const applied = { data: { a: '2' }, spec: { containers: [{ name: 'app', image: 'nginx:2' }] } };
  const ex = explainConflicts(status, live, applied, 'bob');
  assert.deepEqual(ex.fields.map((f) => f.text), [
    '.data.a is owned by "alice". It holds "1" now; "bob" wants "2". Apply will not take a field from another manager unless you force it.',
    '.spec.containers[name="app"].image is owned by "alice" (through v1). It holds "nginx:1" now; "bob" wants "nginx:2". Apply will not take a field from another manager unless you force it.',
  ]);
  assert.match(ex.summary, /^"bob" tried to change 2 fields that "alice" already manage\. Choose one: force the apply \(force=true\)/);
});

test('api: paths, queries, Warning headers', () => {
  assert.deepEqual(parsePath('/apis/apps/v1/namespaces/ns1/deployments/web/scale?x=1'), { group: 'apps', version: 'v1', namespace: 'ns1', resource: 'deployments', name: 'web', subresource: 'scale' });
  assert.deepEqual(parsePath('/api/v1/namespaces/kube-system'), { group: '', version: 'v1', namespace: undefined, resource: 'namespaces', name: 'kube-system', subresource: undefined });
  assert.equal(parsePath('/version'), null);
  assert.equal(buildPath(parsePath('/apis/apps/v1/namespaces/ns1/deployments/web')), '/apis/apps/v1/namespaces/ns1/deployments/web');
  assert.equal(withQuery('/api/v1/pods?limit=1', { watch: 'true', force: false, x: '' }), '/api/v1/pods?limit=1&watch=true');
  assert.equal(bodyText('a: 1\n', 'application/merge-patch+json'), '{"a":1}');
  assert.equal(bodyText('a: 1\n', 'application/apply-patch+yaml'), 'a: 1\n');
  assert.deepEqual(splitWarnings('299 - "unknown field \\"a\\"", 299 - "b, c"'), ['unknown field "a"', 'b, c']);
});

test('api: a watch is recognised as the API server reads the request', async (t) => {
  const cases = [
    { name: '?watch=1 typed into the path', req: { path: '/api/v1/namespaces/x/pods?watch=1&limit=5' }, want: { path: '/api/v1/namespaces/x/pods', query: { limit: '5' } } },
    { name: '?watch without a value', req: { path: '/api/v1/pods?watch' }, want: { path: '/api/v1/pods', query: {} } },
    { name: '?watch=True', req: { path: '/api/v1/pods?watch=True' }, want: { path: '/api/v1/pods', query: {} } },
    { name: 'the watch box', req: { path: '/api/v1/pods', query: { watch: 'true', labelSelector: 'a=b' } }, want: { path: '/api/v1/pods', query: { labelSelector: 'a=b' } } },
    { name: 'the legacy /watch/ path', req: { path: '/apis/apps/v1/watch/namespaces/x/deployments' }, want: { path: '/apis/apps/v1/watch/namespaces/x/deployments', query: {} } },
    { name: '?watch=false', req: { path: '/api/v1/pods?watch=false' }, want: null },
    { name: '?watch=0', req: { path: '/api/v1/pods?watch=0' }, want: null },
    { name: 'no watch', req: { path: '/api/v1/pods?limit=1' }, want: null },
    { name: 'a POST', req: { method: 'POST', path: '/api/v1/pods?watch=1' }, want: null },
    { name: 'a namespace called watch', req: { path: '/api/v1/namespaces/watch/pods' }, want: null },
  ];
  for (const c of cases) await t.test(c.name, () => assert.deepEqual(watchRequest(c.req), c.want));
});

test('api: each object of a multi-document body goes to its own resource, as kubectl routes a manifest', async (t) => {
  const rs = [
    { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true },
    { group: '', version: 'v1', resource: 'secrets', kind: 'Secret', namespaced: true },
    { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', namespaced: false },
    { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true },
  ];
  const typed = '/api/v1/namespaces/team/configmaps';
  const cases = [
    { name: 'a Secret POSTed from a configmaps path: its collection, the typed namespace', obj: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } }, req: { method: 'POST', path: typed }, want: { path: '/api/v1/namespaces/team/secrets' } },
    { name: 'its own namespace wins', obj: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'web' } }, req: { method: 'POST', path: typed }, want: { path: '/apis/apps/v1/namespaces/web/deployments' } },
    { name: 'cluster-scoped', obj: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' } }, req: { method: 'POST', path: typed }, want: { path: '/api/v1/namespaces' } },
    { name: 'PATCH (apply) goes to the object', obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }, req: { method: 'PATCH', path: '/api/v1/namespaces/team/configmaps/other' }, want: { path: '/api/v1/namespaces/team/configmaps/c' } },
    { name: 'no namespace anywhere: default', obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }, req: { method: 'PUT', path: '/api/v1/namespaces' }, want: { path: '/api/v1/namespaces/default/configmaps/c' } },
    { name: 'a patch document (no kind) goes to the typed path', obj: { data: { a: '1' } }, req: { method: 'PATCH', path: typed + '/x' }, want: { path: typed + '/x' } },
    { name: 'a kind the server does not serve', obj: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }, req: { method: 'POST', path: typed }, want: { error: 'the server does not serve Widget in example.com/v1' } },
    { name: 'PATCH without a name', obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} }, req: { method: 'PATCH', path: typed }, want: { error: 'ConfigMap without metadata.name: PATCH needs one' } },
  ];
  for (const c of cases) await t.test(c.name, () => assert.deepEqual(objectPath(c.obj, c.req, rs), c.want));
});

test('api: copy as curl and as kubectl', () => {
  const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: it\'s\n';
  assert.equal(toCurl({ method: 'GET', path: '/api/v1/namespaces/default/configmaps', query: { watch: 'true', resourceVersion: '5' } }),
    "curl -sS -N 'http://127.0.0.1:6443/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=5'");
  assert.equal(toCurl({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', contentType: 'application/json', body: cm }),
    `curl -sS -X POST -H 'Content-Type: application/json' 'http://127.0.0.1:6443/api/v1/namespaces/default/configmaps' --data-binary '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"it'\\''s"}}'`);
  const k = (r) => toKubectl(r);
  assert.equal(k({ method: 'GET', path: '/apis/apps/v1/namespaces/ns/deployments', query: { labelSelector: 'app=web', limit: '5' } }), "kubectl get deployments.v1.apps -n ns -l 'app=web' --chunk-size=5 -o yaml");
  assert.equal(k({ method: 'GET', path: '/api/v1/namespaces/ns/configmaps', query: { watch: 'true' } }), 'kubectl get configmaps -n ns --watch -o json --output-watch-events');
  assert.equal(k({ method: 'GET', path: '/version' }), "kubectl get --raw '/version'");
  assert.equal(k({ method: 'GET', path: '/api/v1/namespaces/ns/configmaps', query: { resourceVersion: '5' } }), "kubectl get --raw '/api/v1/namespaces/ns/configmaps?resourceVersion=5'");
  assert.equal(k({ method: 'DELETE', path: '/api/v1/namespaces/ns/configmaps/x', query: { dryRun: 'All', propagationPolicy: 'Foreground' } }), 'kubectl delete configmaps x -n ns --dry-run=server --cascade=foreground');
  assert.equal(k({ method: 'PATCH', path: '/apis/apps/v1/namespaces/ns/deployments/web', contentType: 'application/merge-patch+json', body: 'spec:\n  replicas: 3\n' }),
    `kubectl patch deployments.v1.apps web -n ns --type=merge -p '{"spec":{"replicas":3}}'`);
  assert.equal(k({ method: 'PATCH', path: '/api/v1/namespaces/ns/configmaps/c', contentType: 'application/apply-patch+yaml', query: { fieldManager: 'bob', force: 'true' }, body: cm }),
    `kubectl apply --server-side -n ns --field-manager=bob --force-conflicts -f - <<'EOF'\n${cm}EOF`);
  assert.equal(k({ method: 'PATCH', path: '/api/v1/namespaces/ns/pods/p/status', contentType: 'application/json-patch+json', body: '[]' }),
    "kubectl patch pods p -n ns --subresource=status --type=json -p '[]'");
});

test('diff: line diff keeps common lines', () => {
  assert.deepEqual(diffLines('a\nb\nc\n', 'a\nc\nd\n'), [{ op: ' ', text: 'a' }, { op: '-', text: 'b' }, { op: ' ', text: 'c' }, { op: '+', text: 'd' }]);
  assert.deepEqual(diffLines('x', 'x'), [{ op: ' ', text: 'x' }]);
});

test('scenarios: variables, expectations, and every file is well formed', () => {
  assert.deepEqual(fill({ p: '/ns/{{ns}}/x', n: '{{i}}', s: 'v-{{i}}', k: { '{{ns}}': '{{missing}}' } }, { ns: 'a', i: 3 }), { p: '/ns/a/x', n: 3, s: 'v-3', k: { a: '{{missing}}' } });
  assert.equal(get({ items: [{ a: 1 }] }, 'items.0.a'), 1);
  assert.equal(get({ metadata: { annotations: { 'deployment.kubernetes.io/revision': '2' } } }, 'metadata.annotations[deployment.kubernetes.io/revision]'), '2');
  const pods = (...phases) => ({ res: { status: 200, warnings: [], body: { items: phases.map((phase) => ({ status: { phase } })) } } });
  assert.deepEqual(check({ every: { items: { 'status.phase': 'Running' } } }, pods('Running', 'Running')), [{ ok: true, text: 'every items has status.phase = "Running"' }]);
  assert.deepEqual(check({ every: { items: { 'status.phase': 'Running' } } }, pods('Running', 'Pending')), [{ ok: false, text: 'every items has status.phase = "Running", 1 of 2 not' }]);
  assert.equal(check({ every: { items: { 'status.phase': 'Running' } } }, pods())[0].ok, false, 'an empty list is not "every Pod Running"');
  const out = { res: { status: 201, warnings: ['unknown field "x"'], body: { metadata: { name: 'n' }, items: [1, 2] } }, events: [{ type: 'ADDED', object: { metadata: { name: 'n' } } }, { type: 'BOOKMARK', object: { metadata: {} } }] };
  const checks = check({ status: 201, fields: { 'metadata.name': 'n' }, length: { items: 2 }, warnings: ['unknown field'], events: [['ADDED', 'n'], ['BOOKMARK', '']], absent: ['metadata.continue'] }, out);
  assert.deepEqual(checks.map((c) => c.ok), [true, true, true, true, true, true]);
  assert.deepEqual(check({ status: 200 }, out), [{ ok: false, text: 'status 200, got 201' }]);
  const dir = join(repo, 'playground', 'scenarios');
  const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8'));
  const files = readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'index.json').map((f) => f.replace(/\.json$/, '')).sort();
  assert.deepEqual(index.map((s) => s.id).sort(), files, 'index.json lists every scenario');
  for (const id of files) {
    const s = JSON.parse(readFileSync(join(dir, `${id}.json`), 'utf8'));
    assert.equal(s.id, id);
    assert.ok(s.title && s.summary && s.steps.length >= 4, id);
    for (const st of s.steps) {
      assert.ok(st.title && st.explain && st.path && st.expect && typeof st.expect.status === 'number', `${id}: ${st.title}`);
      assert.ok(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(st.method), `${id}: ${st.title}`);
    }
  }
});

test('scenarios: an edited request line (<kube-example>) reads back, and a bad one says what to write', async (t) => {
  const cases = [
    ['a step with a query', { method: 'POST', path: '/api/v1/namespaces/{{ns}}/configmaps', query: { dryRun: 'All' } }, 'POST /api/v1/namespaces/{{ns}}/configmaps?dryRun=All'],
    ['no query', { method: 'GET', path: '/api/v1/namespaces/{{ns}}/configmaps/a', query: {} }, 'GET /api/v1/namespaces/{{ns}}/configmaps/a'],
    ['variables in the query', { method: 'GET', path: '/api/v1/pods', query: { watch: 'true', resourceVersion: '{{rv}}' } }, 'GET /api/v1/pods?watch=true&resourceVersion={{rv}}'],
  ];
  for (const [name, step, line] of cases) {
    await t.test(name, () => {
      assert.equal(templateLine(step), line);
      assert.deepEqual(parseLine(line), step);
    });
  }
  await t.test('lower-case method, escapes, spaces around', () => {
    assert.deepEqual(parseLine('  patch /apis/apps/v1/namespaces/x/deployments/web?fieldManager=a%20b&force  '),
      { method: 'PATCH', path: '/apis/apps/v1/namespaces/x/deployments/web', query: { fieldManager: 'a b', force: '' } });
  });
  for (const bad of ['', 'GET', '/api/v1/pods', 'GET api/v1/pods', 'GET /a /b']) {
    await t.test(`refused: ${JSON.stringify(bad)}`, () => {
      assert.throws(() => parseLine(bad), /write the request as METHOD \/path\?query/);
    });
  }
});
