// Which functions a start of the core compiles, under Node (issue #16).
// V8 compiles a wasm function (Liftoff) on its first call; a browser's code
// cache only holds the functions that ran hot enough to be tiered up, so
// every function a start runs once — package init, New, restore — is
// compiled again on every revisit. This counts them, by Go package.
//
//   node web/tools/startfuncs.mjs NAMED.wasm [--visit revisit|first] [--top 25] [--funcs PKG-REGEXP]
//   node web/tools/startfuncs.mjs A.wasm B.wasm … --cpu ROUNDS
//
// NAMED.wasm: a build with its name section (without -ldflags='-s -w'),
// e.g. GOOS=js GOARCH=wasm go build -trimpath -gcflags=all=-l
// -modfile=bin/smd-src/wasm.mod -o bin/named.wasm ./wasm.
// A revisit (the default) is measured in a fresh process over the saved
// state of a first visit made in another process (an in-memory
// kubesandboxDB, as web/tools/startbench.mjs), from go.run to the first
// answer (GET /version). Printed: per package the functions compiled and
// their wasm body bytes, largest first, then the totals; with --funcs,
// each compiled function of the packages matching PKG-REGEXP, in order.
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { uleb, readName, sections } from './wasmbin.mjs';

const args = process.argv.slice(2);

function parent() {
  if (args.includes('--cpu')) return cpuRounds();
  const opt = (name, dflt) => {
    const i = args.indexOf('--' + name);
    return i >= 0 ? args[i + 1] : dflt;
  };
  const file = args.find((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--')));
  const visit = opt('visit', 'revisit'), top = Number(opt('top', 25));
  const self = fileURLToPath(import.meta.url);
  const state = join(mkdtempSync(join(tmpdir(), 'startfuncs-')), 'db.json');
  if (visit === 'revisit') {
    const p = spawnSync(process.execPath, [self, '--child', file, 'save', state], { encoding: 'utf8' });
    if (p.status !== 0) throw new Error(p.stderr);
  }
  const p = spawnSync(process.execPath, ['--trace-wasm-compilation-times', self, '--child', file, visit, state],
    { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (p.status !== 0) throw new Error(p.stderr);
  const names = funcNames(readFileSync(file));
  const per = new Map(); // package → [functions, body bytes]
  let on = false, n = 0, bytes = 0;
  const funcs = opt('funcs', null) && new RegExp(opt('funcs')), listed = [];
  // V8 prints its trace through its own buffered stdout, so console.log
  // lines would not keep their place: the marks are V8's own lines, the
  // compile of a one-function module (start) and a two-function one (end),
  // "0xMODULE#INDEX using Liftoff …"; the program is the other module.
  const lines = p.stdout.split('\n').map((l) => /(0x[0-9a-f]+)#(\d+) using (\w+).* bodysize (\d+)/.exec(l)).filter(Boolean);
  const count = new Map();
  for (const m of lines) count.set(m[1], (count.get(m[1]) || 0) + 1);
  const prog = [...count].sort((a, b) => b[1] - a[1])[0][0];
  for (const m of lines) {
    if (m[1] !== prog) { on = m[2] === '0' && !lines.some((x) => x[1] === m[1] && x[2] === '1'); continue; }
    if (!on || m[3] !== 'Liftoff') continue;
    const name = names.get(Number(m[2])) || '?';
    const pkg = pkgOf(name), size = Number(m[4]);
    const e = per.get(pkg) || [0, 0];
    e[0]++; e[1] += size; per.set(pkg, e);
    n++; bytes += size;
    if (funcs && funcs.test(pkg)) listed.push([name, size]);
  }
  console.log(`${file}, ${visit}: functions compiled from go.run to the first answer, by package`);
  console.log('| package | functions | body KB |');
  console.log('| --- | ---: | ---: |');
  for (const [pkg, [c, b]] of [...per].sort((a, b) => b[1][1] - a[1][1]).slice(0, top)) {
    console.log(`| ${pkg} | ${c} | ${(b / 1024).toFixed(1)} |`);
  }
  console.log(`| all (${per.size} packages) | ${n} | ${(bytes / 1024).toFixed(1)} |`);
  for (const [name, size] of listed) console.log(`${size}\t${name}`);
}

// cpuRounds: with --cpu N, the revisit of each file given (no trace), N
// rounds of fresh processes, files alternating; medians of the CPU and wall
// time from go.run to the first answer, and the ratio to the first file.
function cpuRounds() {
  const i = args.indexOf('--cpu'), rounds = Number(args[i + 1]);
  const files = args.filter((a, j) => !a.startsWith('--') && j !== i + 1);
  const self = fileURLToPath(import.meta.url);
  const dir = mkdtempSync(join(tmpdir(), 'startfuncs-'));
  const res = files.map(() => ({ cpu: [], wall: [] }));
  files.forEach((f, k) => {
    const p = spawnSync(process.execPath, [self, '--child', f, 'save', join(dir, k + '.json')], { encoding: 'utf8' });
    if (p.status !== 0) throw new Error(p.stderr);
  });
  for (let r = 0; r < rounds; r++) {
    files.forEach((f, k) => {
      const p = spawnSync(process.execPath, [self, '--child', f, 'revisit', join(dir, k + '.json')], { encoding: 'utf8' });
      if (p.status !== 0) throw new Error(p.stderr);
      const t = JSON.parse(p.stdout.trim().split('\n').pop());
      res[k].cpu.push(t.cpu); res[k].wall.push(t.wall);
    });
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  console.log(`revisit in a fresh process (nothing compiled yet), go.run → first answer, median of ${rounds}`);
  console.log('| build | CPU ms | wall ms | CPU ÷ first |');
  console.log('| --- | ---: | ---: | ---: |');
  files.forEach((f, k) => console.log(`| ${f} | ${median(res[k].cpu).toFixed(1)} | ${median(res[k].wall).toFixed(1)} | ${(median(res[k].cpu) / median(res[0].cpu)).toFixed(2)}× |`));
}

// funcNames: function index → name, from the name section.
function funcNames(buf) {
  const names = new Map();
  const sec = sections(buf).find((s) => s.id === 0 && s.name === 'name');
  if (!sec) throw new Error('no name section: build without -ldflags=-s -w');
  for (let p = readName(buf, sec.body)[1]; p < sec.end;) {
    const sub = buf[p];
    const [size, q] = uleb(buf, p + 1);
    if (sub === 1) {
      let [n, r] = uleb(buf, q);
      for (let i = 0; i < n; i++) {
        let idx, name;
        [idx, r] = uleb(buf, r);
        [name, r] = readName(buf, r);
        names.set(idx, name);
      }
    }
    p = q + size;
  }
  return names;
}

// pkgOf: the linker writes every character outside [A-Za-z0-9_.] as "_"
// ("github.com/a/b.(*T).M" is "github.com_a_b.__T_.M"): the package is the
// longest import path of the program (go list -deps ./wasm), written the
// same way, that the name starts with, followed by a dot (wasmsize.mjs).
let prefixes = null;
function pkgOf(sym) {
  if (!prefixes) {
    const listed = spawnSync('go', ['list', '-deps', './wasm'], {
      encoding: 'utf8', env: { ...process.env, GOOS: 'js', GOARCH: 'wasm' },
    });
    prefixes = listed.stdout.trim().split('\n').map((p) => [p.replace(/[^\w.]/g, '_') + '.', p])
      .sort((a, b) => b[0].length - a[0].length);
  }
  for (const [prefix, path] of prefixes) if (sym.startsWith(prefix)) return path;
  const dot = sym.indexOf('.');
  return dot < 0 ? sym : sym.slice(0, dot);
}

// mark(n) compiles and calls a module of n empty functions (see parent).
function mark(n) {
  const body = [2, 0, 0x0b];
  const bytes = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    1, 4, 1, 0x60, 0, 0,
    3, 1 + n, n, ...Array(n).fill(0),
    7, 5, 1, 1, 0x66, 0, n - 1,
    10, 1 + n * body.length, n, ...Array(n).fill(body).flat()]);
  new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports.f();
}

async function child(file, visit, state) {
  const goroot = spawnSync('go', ['env', 'GOROOT'], { encoding: 'utf8' }).stdout.trim();
  await import(pathToFileURL(goroot + '/lib/wasm/wasm_exec.js'));
  const mod = await WebAssembly.compile(readFileSync(file));
  const db = { log: new Map(), snapshot: null };
  if (visit === 'revisit') {
    const s = JSON.parse(readFileSync(state, 'utf8'));
    db.snapshot = s.snapshot && { rev: s.snapshot.rev, data: Buffer.from(s.snapshot.data, 'base64') };
    for (const [r, rec] of s.log) db.log.set(r, new Uint8Array(Buffer.from(rec, 'base64')));
  }
  globalThis.kubesandboxDB = {
    async load() {
      const revs = [...db.log.keys()].sort((a, b) => a - b);
      return { snapshot: db.snapshot && new Uint8Array(db.snapshot.data), revs, records: revs.map((r) => db.log.get(r)) };
    },
    async write(revs, records, snapshot, snapRev) {
      revs.forEach((r, i) => db.log.set(r, records[i].slice()));
      if (snapshot) {
        db.snapshot = { rev: snapRev, data: snapshot.slice() };
        for (const r of [...db.log.keys()]) if (r <= snapRev) db.log.delete(r);
      }
    },
    async clear() { db.log.clear(); db.snapshot = null; },
  };
  globalThis.kubesandboxOptions = { nodes: 0 };
  const go = new globalThis.Go();
  const instance = await WebAssembly.instantiate(mod, go.importObject);
  const ready = new Promise((resolve, reject) => {
    globalThis.kubesandboxReady = (failure) => (failure ? reject(new Error(failure)) : resolve());
  });
  const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e3; };
  mark(1);
  const c0 = cpu(), w0 = performance.now();
  let took = null;
  const exited = go.run(instance);
  await ready;
  await new Promise((resolve, reject) => {
    const err = globalThis.kubesandboxServe(1, 'GET', 'http://sandbox/version', [], null,
      // marked in the sink: Go goes on (the controllers start) before it yields
      (kind, status) => { if (kind === 'head') { mark(2); took = { cpu: cpu() - c0, wall: performance.now() - w0 }; resolve(status); } else if (kind === 'end' && status) reject(new Error(status)); });
    if (err) reject(new Error(err));
  });
  console.log(JSON.stringify(took));
  if (visit === 'save') {
    await new Promise((resolve) => globalThis.kubesandboxControl('shutdown', '', resolve));
    await exited;
    const b64 = (u) => Buffer.from(u).toString('base64');
    writeFileSync(state, JSON.stringify({
      snapshot: db.snapshot && { rev: db.snapshot.rev, data: b64(db.snapshot.data) },
      log: [...db.log].map(([r, rec]) => [r, b64(rec)]),
    }));
  }
  process.exit(0);
}

if (args[0] === '--child') await child(args[1], args[2], args[3]);
else parent();
