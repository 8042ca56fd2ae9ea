// Unit tests of web/kubectl-fs.js (no browser): the in-memory filesystem
// that Go's js/wasm syscall package calls for kubectl.wasm — Node's fs
// callback API, Node's error codes (Go maps them to syscall errors). The
// script runs in a vm context of its own, as it would in the worker (it
// sets globalThis.fs, process and path there, not in this Node process).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';
import { repo } from './lib.mjs';

const source = readFileSync(join(repo, 'web', 'kubectl-fs.js'), 'utf8');

// load returns a fresh filesystem: {kfs, call(name, ...args) → Promise, g (its globals), out: [[fd, text]]}.
function load() {
  const g = vm.createContext({ TextEncoder, TextDecoder, Uint8Array });
  vm.runInContext(source + '\nthis.kfs = kubesandboxKubectlFS({ home: "/home/user" });', g);
  const out = [];
  const call = (name, ...args) => new Promise((resolve, reject) => {
    g.fs[name](...args, (err, v) => (err ? reject(err) : resolve(v)));
  });
  return { kfs: g.kfs, call, g, out };
}

const text = (bytes) => new TextDecoder().decode(bytes);
const C = { O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_TRUNC: 512, O_APPEND: 1024 };

test('kubectl-fs: stdin, output, page files and kubectl\'s own files', async (t) => {
  await t.test('fd 0 reads the call\'s stdin, then EOF; the next call has its own', async () => {
    const { kfs, call } = load();
    kfs.begin({ stdin: 'kind: ConfigMap\n' });
    const buf = new Uint8Array(64);
    const n = await call('read', 0, buf, 0, 64, null);
    assert.equal(text(buf.subarray(0, n)), 'kind: ConfigMap\n');
    assert.equal(await call('read', 0, buf, 0, 64, null), 0);
    kfs.begin({ stdin: 'x' });
    assert.equal(await call('read', 0, buf, 0, 64, null), 1);
  });

  await t.test('fds 1 and 2 (write and the runtime\'s writeSync) go to the call\'s output', async () => {
    const { kfs, call, g } = load();
    const got = [];
    kfs.begin({ output: (fd, b) => got.push([fd, text(b)]) });
    const enc = new TextEncoder();
    assert.equal(await call('write', 1, enc.encode('pods\n'), 0, 5, null), 5);
    await call('write', 2, enc.encode('xxerror\n'), 2, 6, null);
    g.fs.writeSync(2, enc.encode('panic\n'));
    assert.deepEqual(got, [[1, 'pods\n'], [2, 'error\n'], [2, 'panic\n']]);
  });

  await t.test('a page file is read by its relative name (cwd is home) and its absolute one', async () => {
    const { kfs, call, g } = load();
    kfs.begin({ files: { 'cm.yaml': 'data: {}\n', 'dir/x.yaml': 'x' } });
    assert.equal(g.process.cwd(), '/home/user');
    for (const p of ['cm.yaml', '/home/user/cm.yaml', './dir/../cm.yaml']) {
      const fd = await call('open', p, C.O_RDONLY, 0);
      const st = await call('fstat', fd);
      assert.equal(st.size, 9, p);
      assert.equal(st.isDirectory(), false);
      const buf = new Uint8Array(9);
      await call('read', fd, buf, 0, 9, null);
      assert.equal(text(buf), 'data: {}\n', p);
      await call('close', fd);
    }
    assert.equal((await call('stat', 'dir')).isDirectory(), true);
    assert.deepEqual([...await call('readdir', '/home/user')], ['cm.yaml', 'dir']);
  });

  await t.test('errors carry Node\'s codes', async () => {
    const { call } = load();
    const cases = [
      ['open a missing file', () => call('open', 'nope.yaml', C.O_RDONLY, 0), 'ENOENT'],
      ['create in a missing directory', () => call('open', '/no/dir/f', C.O_WRONLY | C.O_CREAT, 0o644), 'ENOENT'],
      ['mkdir without its parent', () => call('mkdir', '/a/b', 0o755), 'ENOENT'],
      ['mkdir an existing directory', () => call('mkdir', '/home/user', 0o755), 'EEXIST'],
      ['read a closed fd', () => call('read', 99, new Uint8Array(1), 0, 1, null), 'EBADF'],
      ['stat a missing path', () => call('stat', '/home/user/.kube/config'), 'ENOENT'],
      ['rmdir a file\'s parent that is not empty', async () => {
        await call('mkdir', '/home/user/d', 0o755);
        await call('close', await call('open', '/home/user/d/f', C.O_WRONLY | C.O_CREAT, 0o644));
        return call('rmdir', '/home/user/d');
      }, 'ENOTEMPTY'],
      ['O_CREAT|O_EXCL on an existing file', async () => {
        await call('close', await call('open', 'e', C.O_WRONLY | C.O_CREAT, 0o644));
        return call('open', 'e', C.O_WRONLY | C.O_CREAT | C.O_EXCL, 0o644);
      }, 'EEXIST'],
    ];
    for (const [name, run, code] of cases) await assert.rejects(run(), (e) => e.code === code, name);
  });

  await t.test('the discovery cache\'s pattern: mkdir -p, a temp file written, renamed into place, read back', async () => {
    const { kfs, call } = load();
    let dir = '';
    for (const seg of ['.kube', 'cache', 'discovery', 'host_8080']) {
      dir += '/' + seg;
      await call('mkdir', '/home/user' + dir, 0o750);
    }
    const tmp = '/home/user/.kube/cache/discovery/host_8080/tmp123';
    const fd = await call('open', tmp, C.O_RDWR | C.O_CREAT | C.O_EXCL, 0o600);
    const enc = new TextEncoder();
    await call('write', fd, enc.encode('{"kind":'), 0, 8, null);
    await call('write', fd, enc.encode('"APIGroupList"}'), 0, 15, null);
    await call('close', fd);
    await call('rename', tmp, '/home/user/.kube/cache/discovery/host_8080/servergroups.json');
    assert.equal(text(kfs.readFile('.kube/cache/discovery/host_8080/servergroups.json')), '{"kind":"APIGroupList"}');
    assert.equal(kfs.exists(tmp), false);
    // O_TRUNC rewrites, O_APPEND appends, a positioned write overwrites in place
    const p = '.kube/config';
    let f = await call('open', p, C.O_WRONLY | C.O_CREAT | C.O_TRUNC, 0o600);
    await call('write', f, enc.encode('abcdef'), 0, 6, null);
    await call('write', f, enc.encode('XY'), 0, 2, 1);
    await call('close', f);
    f = await call('open', p, C.O_WRONLY | C.O_APPEND, 0);
    await call('write', f, enc.encode('!'), 0, 1, null);
    await call('close', f);
    assert.equal(text(kfs.readFile(p)), 'aXYdef!');
    f = await call('open', p, C.O_WRONLY | C.O_TRUNC, 0);
    await call('close', f);
    assert.equal((await call('stat', p)).size, 0);
  });
});

test('terminal: command lines split as a shell splits them; runtime-only commands are refused', async () => {
  const { words, refuse } = await import('../../playground/js/terminal.js');
  const cases = [
    ['kubectl get pods -o name', ['kubectl', 'get', 'pods', '-o', 'name']],
    ['kubectl get cm -o jsonpath="{.items[*].metadata.name}"', ['kubectl', 'get', 'cm', '-o', 'jsonpath={.items[*].metadata.name}']],
    [`kubectl patch cm a -p '{"data":{"k":"v w"}}'`, ['kubectl', 'patch', 'cm', 'a', '-p', '{"data":{"k":"v w"}}']],
    ['a\\ b "" c', ['a b', '', 'c']],
    ['  ', []],
  ];
  for (const [line, want] of cases) assert.deepEqual(words(line), want, line);
  assert.throws(() => words('kubectl get "pods'), /unterminated " quote/);
  assert.match(refuse(['exec', '-it', 'web', '--', 'sh']), /^kubectl exec needs a container runtime/);
  assert.match(refuse(['logs', 'web', '-f']), /^kubectl logs -f needs a container runtime/);
  assert.equal(refuse(['logs', 'web']), '');
  assert.equal(refuse(['get', 'pods', '-w']), '');
});
