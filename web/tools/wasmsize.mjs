// Size attribution for a Go-built wasm ("twiggy-style", issue #16): which
// packages the bytes belong to, raw and roughly after brotli.
//
// The wasm must keep its "name" section, so build it without `-s -w`:
//
//   GOOS=js GOARCH=wasm go build -trimpath -o /tmp/named.wasm ./wasm
//   node web/tools/wasmsize.mjs /tmp/named.wasm            # top 15 packages
//   node web/tools/wasmsize.mjs /tmp/named.wasm --top 40 --funcs 20
//   node web/tools/wasmsize.mjs /tmp/named.wasm --group module
//
// Every function body in the code section is charged to the Go package its
// name starts with ("net/http.(*Transport).roundTrip" → net/http;
// "slices.SortFunc[...]" → slices). The data section (type descriptors,
// pclntab, string and table literals) carries no names and is shown as one
// row. "brotli" compresses each package's code alone (quality 11), so the
// column adds up to more than the whole file's brotli — read it as a ranking
// and an order of magnitude, not as an exact share; the section rows are the
// exact brotli of each section on its own.
//
// --group module folds packages into modules (std, github.com/x/y, ...).
// --funcs N prints the N biggest functions too.
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { brotliSize as brotli, cli, readName as nameAt, sections as sectionsOf, uleb } from './wasmbin.mjs';

const { file, opt } = cli('usage: wasmsize.mjs FILE.wasm [--top N] [--funcs N] [--group package|module]');
const top = Number(opt('top', 15));
const nfuncs = Number(opt('funcs', 0));
const group = opt('group', 'package');

const buf = readFileSync(file);
const readU32 = (pos) => uleb(buf, pos);
const readName = (pos) => nameAt(buf, pos);

// Sections: [{id, name (custom only), body, end}] with body/end of the payload.
const sections = sectionsOf(buf);
const sec = (id, name) => sections.find((s) => s.id === id && (id !== 0 || s.name === name));

// Imported functions take the first function indices.
let nimports = 0;
const imp = sec(2);
if (imp) {
  let [n, p] = readU32(imp.body);
  for (let i = 0; i < n; i++) {
    [, p] = readName(p); // module
    [, p] = readName(p); // field
    const kind = buf[p++];
    if (kind === 0) { [, p] = readU32(p); nimports++; }
    else if (kind === 1) { p += 1; const [flags, q] = readU32(p); [, p] = readU32(q); if (flags & 1) [, p] = readU32(p); }
    else if (kind === 2) { const [flags, q] = readU32(p); [, p] = readU32(q); if (flags & 1) [, p] = readU32(p); }
    else if (kind === 3) { p += 2; }
    else throw new Error('unknown import kind ' + kind);
  }
}

const names = new Map();
const nameSec = sec(0, 'name');
if (!nameSec) {
  console.error(`${file} has no "name" section: build it without -ldflags='-s -w'`);
  process.exit(1);
}
for (let p = readName(nameSec.body)[1]; p < nameSec.end;) {
  const sub = buf[p];
  const [size, q] = readU32(p + 1);
  if (sub === 1) {
    let [n, r] = readU32(q);
    for (let i = 0; i < n; i++) {
      let idx, name;
      [idx, r] = readU32(r);
      [name, r] = readName(r);
      names.set(idx, name);
    }
  }
  p = q + size;
}

// The linker writes names with every character outside [A-Za-z0-9_.] as
// "_" (cmd/link/internal/wasm: nameRegexp), so "github.com/a/b.(*T).M" is
// "github.com_a_b.__T_.M". Packages are found by the longest import path
// (written the same way) that the name starts with, followed by a dot; the
// paths come from `go list -deps` of the program (--pkg, default ./wasm).
const mangle = (s) => s.replace(/[^\w.]/g, '_');
const listed = spawnSync('go', ['list', '-deps', opt('pkg', './wasm')], {
  encoding: 'utf8', env: { ...process.env, GOOS: 'js', GOARCH: 'wasm' },
});
if (listed.status !== 0) {
  console.error('go list failed:', listed.stderr);
  process.exit(1);
}
const pkgs = listed.stdout.trim().split('\n').map((p) => [mangle(p) + '.', p])
  .sort((a, b) => b[0].length - a[0].length);
// pkgOf("github.com_a_b.__T_.M") → "github.com/a/b"; names of no listed
// package (type:.eq.*, go:buildid) keep what is before their first dot.
function pkgOf(sym) {
  for (const [prefix, path] of pkgs) if (sym.startsWith(prefix)) return path;
  const dot = sym.indexOf('.');
  return dot < 0 ? sym : sym.slice(0, dot);
}
function moduleOf(pkg) {
  const first = pkg.split('/')[0];
  if (!first.includes('.')) return 'std';
  return pkg.split('/').slice(0, first === 'github.com' ? 3 : 2).join('/');
}
const keyOf = group === 'module' ? (sym) => moduleOf(pkgOf(sym)) : pkgOf;

const code = sec(10);
const byKey = new Map();
const funcs = [];
{
  let [n, p] = readU32(code.body);
  for (let i = 0; i < n; i++) {
    const [size, body] = readU32(p);
    const name = names.get(nimports + i) || `func[${nimports + i}]`;
    const k = keyOf(name);
    let e = byKey.get(k);
    if (!e) byKey.set(k, e = { key: k, raw: 0, n: 0, chunks: [] });
    e.raw += size;
    e.n++;
    e.chunks.push(buf.subarray(body, body + size));
    funcs.push({ name, size });
    p = body + size;
  }
}

// brotli: WASMSIZE_QUALITY=5 for a faster, rougher ranking (quality 11
// on a 100 MB wasm takes many CPU minutes)
const kb = (n) => (n / 1e3).toFixed(1).padStart(9);
const pct = (n, d) => ((100 * n) / d).toFixed(1).padStart(5) + '%';

const total = buf.length;
const codeRaw = code.end - code.body;
const data = sec(11);
const dataRaw = data ? data.end - data.body : 0;
const codeBr = brotli(buf.subarray(code.body, code.end));
const dataBr = data ? brotli(buf.subarray(data.body, data.end)) : 0;

console.log(`${file}: ${kb(total).trim()} KB raw (with its name section; -s -w drops it)`);
console.log(`  code section ${kb(codeRaw).trim()} KB raw, ${kb(codeBr).trim()} KB brotli; data section ${kb(dataRaw).trim()} KB raw, ${kb(dataBr).trim()} KB brotli; ${funcs.length} functions`);
console.log('');

const rows = [...byKey.values()].sort((a, b) => b.raw - a.raw);
for (const r of rows.slice(0, top)) r.br = brotli(Buffer.concat(r.chunks));
console.log(`| ${group} | functions | code KB | of code | brotli KB (alone) |`);
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const r of rows.slice(0, top)) {
  console.log(`| ${r.key} | ${r.n} | ${kb(r.raw).trim()} | ${pct(r.raw, codeRaw).trim()} | ${kb(r.br).trim()} |`);
}
const rest = rows.slice(top);
if (rest.length) {
  const raw = rest.reduce((s, r) => s + r.raw, 0);
  console.log(`| ${rest.length} more | ${rest.reduce((s, r) => s + r.n, 0)} | ${kb(raw).trim()} | ${pct(raw, codeRaw).trim()} | |`);
}
console.log(`| (data section: no names) | | ${kb(dataRaw).trim()} | | ${kb(dataBr).trim()} |`);

if (nfuncs > 0) {
  console.log('');
  console.log('| function | bytes |');
  console.log('| --- | ---: |');
  for (const f of funcs.sort((a, b) => b.size - a.size).slice(0, nfuncs)) {
    console.log(`| ${f.name} | ${f.size} |`);
  }
}
