// What the data section of a Go-built wasm is made of (issue #16): the part
// wasmsize.mjs shows as one row, "no names". Works on the shipped file
// (-s -w keeps all of it: the runtime needs it).
//
//   node web/tools/wasmdata.mjs bin/web/kubesandbox.wasm
//   node web/tools/wasmdata.mjs bin/web/kubesandbox.wasm --strings 30
//
// The data segments are laid out at their addresses; the runtime's
// moduledata (found through the pclntab header's magic) says where each
// region starts: read-only data (string literals, static tables, embedded
// files), type descriptors, the pclntab (function names, file names, the
// pc-value tables of stack maps and line numbers, the func table), and
// the writable data. Each region is brotli'd alone (quality 11), so the
// sum is a little more than the section's own brotli.
//
// --strings N lists the N longest runs of printable bytes of .rodata and
// noptrdata (embedded JSON, message tables, …).
import { readFileSync } from 'node:fs';
import { brotliSize as brotli, cli, dataSegments, memoryImage, sections } from './wasmbin.mjs';

const { file, opt } = cli('usage: wasmdata.mjs FILE.wasm [--strings N]');
const nstrings = Number(opt('strings', 0));
const buf = readFileSync(file);

// The data section: active segments of memory 0, each `i32.const ADDR end`.
const dataSec = sections(buf).find((s) => s.id === 11);
if (!dataSec) { console.error(`${file} has no data section`); process.exit(1); }
const { segs, why } = dataSegments(buf, dataSec);
if (!segs) throw new Error('unexpected data segment form: ' + why);
const { lo, hi, mem } = memoryImage(segs);
const u64 = (a) => Number(mem.readBigUInt64LE(a - lo));

// pcHeader: magic 0xfffffff1 (go1.20+), pad, pad, minLC 1, ptrSize 8.
let pch = -1;
for (let i = (8 - (lo % 8)) % 8; i + 8 <= mem.length; i += 8) {
  if (mem.readUInt32LE(i) === 0xfffffff1 && mem[i + 4] === 0 && mem[i + 5] === 0 && mem[i + 7] === 8) { pch = lo + i; break; }
}
if (pch < 0) { console.error('no pclntab header found'); process.exit(1); }
// moduledata starts with a pointer to the header, then funcnametab's slice.
let md = -1;
for (let i = (8 - (lo % 8)) % 8; i + 16 <= mem.length; i += 8) {
  if (u64(lo + i) === pch && u64(lo + i + 8) === pch + u64(pch + 32)) { md = lo + i; break; }
}
if (md < 0) { console.error('no moduledata found'); process.exit(1); }
// Field offsets of runtime.moduledata (go1.26, 8-byte words): pcHeader 0,
// five slices of 3 words, ftab slice, findfunctab, minpc, maxpc, then text…
const w = (i) => u64(md + 8 * i);
const M = {
  funcnametab: w(1), cutab: w(4), filetab: w(7), pctab: w(10), pclntable: w(13),
  noptrdata: w(24), enoptrdata: w(25), data: w(26), edata: w(27),
  types: w(37), etypes: w(38), rodata: w(39), gofunc: w(40), epclntab: w(41),
  typelinks: w(45), ntypelinks: w(46), itablinks: w(48), nitablinks: w(49),
};

if (process.env.WASMDATA_DEBUG) console.log({ lo, hi, pch, md, ...M });
const kb = (n) => (n / 1e3).toFixed(1);
const slice = (a, b) => mem.subarray(Math.max(a, lo) - lo, Math.min(b, hi) - lo);

// On js/wasm (no RELRO) the linker's .rodata section holds the type
// descriptors and all other read-only symbols alike, so runtime.types..etypes
// is the whole of it; .gopclntab follows (header, function names, file
// names, pc-value tables, func table, then go:func.*), then typelinks,
// itablinks, noptrdata and data.
const regions = [
  ['.rodata: type descriptors, string literals, read-only tables', M.types, M.etypes],
  ['pclntab: function names', M.funcnametab, M.cutab],
  ['pclntab: compilation units + file names', M.cutab, M.pctab],
  ['pclntab: pc-value tables (stack sizes, lines, files, inlining)', M.pctab, M.pclntable],
  ['pclntab: func table and _func records', M.pclntable, M.gofunc],
  ['go:func.* (funcdata: stack maps, inline trees, arg info)', M.gofunc, M.epclntab],
  ['typelinks + itablinks + moduledata', M.epclntab, M.noptrdata],
  ['noptrdata (initialised data without pointers: []byte embeds, tables)', M.noptrdata, M.enoptrdata],
  ['data (initialised data with pointers)', M.data, M.edata],
];
// Anything not covered by a region (alignment gaps, sections the linker
// orders differently) is reported as one more row.
const covered = Buffer.alloc(mem.length);
const rows = [];
for (const [name, a, b] of regions) {
  if (!(b > a)) { rows.push({ name, raw: 0, br: 0, note: `(${a}..${b})` }); continue; }
  const s = slice(a, b);
  covered.fill(1, Math.max(a, lo) - lo, Math.min(b, hi) - lo);
  rows.push({ name, raw: s.length, br: brotli(s), a, b });
}
let rest = [];
for (let i = 0; i < mem.length;) {
  if (covered[i]) { i++; continue; }
  let j = i; while (j < mem.length && !covered[j]) j++;
  rest.push(mem.subarray(i, j)); i = j;
}
const restBuf = Buffer.concat(rest);
rows.push({ name: 'other (gaps, unlisted sections)', raw: restBuf.length, br: brotli(restBuf) });

console.log(`${file}: data section ${kb(dataSec.end - dataSec.body)} KB raw in ${segs.length} segments, ` +
  `${kb(brotli(buf.subarray(dataSec.body, dataSec.end)))} KB brotli; memory image ${kb(mem.length)} KB`);
console.log('');
console.log('| region | raw KB | brotli KB (alone) |');
console.log('| --- | ---: | ---: |');
for (const r of rows) console.log(`| ${r.name} | ${kb(r.raw)} | ${kb(r.br)} |`);

if (nstrings > 0) {
  // Printable runs of .rodata and noptrdata.
  const ro = [[M.types, M.etypes], [M.noptrdata, M.enoptrdata]];
  const runs = [];
  for (const [a, b] of ro) {
    if (!(b > a)) continue;
    const s = slice(a, b);
    let start = -1;
    for (let i = 0; i <= s.length; i++) {
      const c = i < s.length ? s[i] : 0;
      const printable = (c >= 0x20 && c < 0x7f) || c === 0x0a || c === 0x09;
      if (printable && start < 0) start = i;
      if (!printable && start >= 0) {
        if (i - start >= 64) runs.push({ at: a + start, len: i - start, text: s.subarray(start, Math.min(i, start + 70)).toString('latin1') });
        start = -1;
      }
    }
  }
  runs.sort((x, y) => y.len - x.len);
  console.log('');
  console.log(`| printable run | bytes | starts with |`);
  console.log('| --- | ---: | --- |');
  for (const r of runs.slice(0, nstrings)) console.log(`| 0x${r.at.toString(16)} | ${r.len} | ${JSON.stringify(r.text).replace(/\|/g, '\\|')} |`);
  const total = runs.reduce((s, r) => s + r.len, 0);
  console.log(`(${runs.length} runs of ≥ 64 printable bytes, ${kb(total)} KB)`);
}
