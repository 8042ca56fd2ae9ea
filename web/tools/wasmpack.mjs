// Post-link step of `make wasm` (issue #16): rewrites the data section of a
// Go-built wasm as a few large data segments instead of up to 100,000 small
// ones. The memory the module starts with is byte-for-byte the same.
//
//   node web/tools/wasmpack.mjs bin/web/kubesandbox.wasm            # in place
//   node web/tools/wasmpack.mjs IN.wasm --out OUT.wasm --min-gap 4096
//
// Why: Go's linker (cmd/link/internal/wasm, writeDataSec) starts a new
// segment at every run of ≥ 8 zero bytes, up to its cap of 100,000, to keep
// the raw file small. Each segment costs a header (flags, `i32.const ADDR`,
// `end`, length) whose address and length change every time: brotli cannot
// predict them. The core's wasm has 100,000 such segments; as one segment
// with the zeros written out its data section is ~1 MB bigger raw but
// ~120 KB smaller after brotli (docs/bench.md, "Where the bytes go").
// Zero runs of at least --min-gap bytes (default 65536) still split
// segments, so large holes are not written out.
//
// Safe by construction: only a data section made solely of active segments
// of memory 0 at constant offsets, without a DataCount section, is rewritten
// (anything else is left untouched and reported); the result is decoded
// again and its memory image compared with the input's before the file is
// written. A wasm that is already packed is left as it is.
import { readFileSync, writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
const file = args.find((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--')));
const opt = (name, dflt) => {
  const i = args.indexOf('--' + name);
  return i >= 0 ? args[i + 1] : dflt;
};
if (!file) {
  console.error('usage: wasmpack.mjs FILE.wasm [--out OUT.wasm] [--min-gap BYTES]');
  process.exit(2);
}
const out = opt('out', file);
const minGap = Number(opt('min-gap', 65536));

function uleb(buf, pos) {
  let result = 0, shift = 0, b;
  do {
    b = buf[pos++];
    result += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  return [result, pos];
}
function sleb(buf, pos) {
  let result = 0, shift = 0, b;
  do {
    b = buf[pos++];
    result += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  if (b & 0x40) result -= 2 ** shift;
  return [result, pos];
}
function encUleb(n) {
  const bytes = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    bytes.push(b);
  } while (n > 0);
  return Buffer.from(bytes);
}
function encSleb(n) {
  const bytes = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7; // offsets are i32
    if ((n === 0 && !(b & 0x40)) || (n === -1 && (b & 0x40))) { bytes.push(b); break; }
    bytes.push(b | 0x80);
  }
  return Buffer.from(bytes);
}

// sections of a module: [{id, start (of the id byte), body, end}]
function sections(buf) {
  if (buf.readUInt32LE(0) !== 0x6d736100 || buf.readUInt32LE(4) !== 1) throw new Error('not a wasm module (version 1)');
  const secs = [];
  for (let pos = 8; pos < buf.length;) {
    const [size, body] = uleb(buf, pos + 1);
    secs.push({ id: buf[pos], start: pos, body, end: body + size });
    pos = body + size;
  }
  return secs;
}

// segments of a data section, or a reason why they are not plain
// active segments of memory 0 at i32.const offsets.
function segments(buf, sec) {
  let [n, p] = uleb(buf, sec.body);
  const segs = [];
  for (let i = 0; i < n; i++) {
    let flags;
    [flags, p] = uleb(buf, p);
    if (flags !== 0) return { why: `segment ${i} has flags ${flags} (not active in memory 0)` };
    if (buf[p] !== 0x41) return { why: `segment ${i}: offset is not an i32.const` };
    let addr;
    [addr, p] = sleb(buf, p + 1);
    if (buf[p++] !== 0x0b) return { why: `segment ${i}: offset expression is not one constant` };
    let len;
    [len, p] = uleb(buf, p);
    segs.push({ addr, bytes: buf.subarray(p, p + len) });
    p += len;
  }
  if (p !== sec.end) return { why: 'data section has trailing bytes' };
  return { segs };
}

function image(segs) {
  const lo = Math.min(...segs.map((s) => s.addr));
  const hi = Math.max(...segs.map((s) => s.addr + s.bytes.length));
  const mem = Buffer.alloc(hi - lo);
  const written = new Uint8Array(hi - lo);
  for (const s of segs) {
    for (let i = 0; i < s.bytes.length; i++) {
      if (written[s.addr - lo + i]) throw new Error(`segments overlap at ${s.addr + i}`);
    }
    written.fill(1, s.addr - lo, s.addr - lo + s.bytes.length);
    s.bytes.copy(mem, s.addr - lo);
  }
  return { lo, mem };
}

const buf = readFileSync(file);
const secs = sections(buf);
const leave = (why) => {
  console.log(`${file}: data segments left as they are (${why})`);
  if (out !== file) writeFileSync(out, buf);
  process.exit(0);
};
if (secs.some((s) => s.id === 12)) leave('it has a DataCount section');
const data = secs.find((s) => s.id === 11);
if (!data) leave('no data section');
const { segs, why } = segments(buf, data);
if (!segs) leave(why);
if (segs.length === 0) leave('no data segments');

// Cut the memory image at zero runs of at least minGap bytes.
const { lo, mem } = image(segs);
const packed = [];
{
  let start = -1, zeros = 0;
  for (let i = 0; i <= mem.length; i++) {
    const z = i === mem.length || mem[i] === 0;
    if (!z) {
      if (start < 0) start = i;
      zeros = 0;
      continue;
    }
    zeros++;
    if (start >= 0 && (zeros >= minGap || i === mem.length)) {
      packed.push({ addr: lo + start, bytes: mem.subarray(start, i - zeros + 1) });
      start = -1;
    }
  }
}
if (packed.length >= segs.length) leave(`already ${segs.length} segment(s)`);

const parts = [encUleb(packed.length)];
for (const s of packed) {
  parts.push(Buffer.from([0x00, 0x41]), encSleb(s.addr), Buffer.from([0x0b]), encUleb(s.bytes.length), s.bytes);
}
const body = Buffer.concat(parts);
const result = Buffer.concat([
  buf.subarray(0, data.start),
  Buffer.from([11]), encUleb(body.length), body,
  buf.subarray(data.end),
]);

// Check: same sections otherwise, same memory image.
const check = sections(result);
const cdata = check.find((s) => s.id === 11);
const again = segments(result, cdata);
if (!again.segs) throw new Error('packed data section does not decode: ' + again.why);
// The packed image must hold the original's bytes at the same addresses,
// with only zeros outside it (the memory starts zeroed).
const img = image(again.segs);
const off = img.lo - lo;
const same = off >= 0 && img.mem.equals(mem.subarray(off, off + img.mem.length)) &&
  !mem.subarray(0, off).some((b) => b !== 0) && !mem.subarray(off + img.mem.length).some((b) => b !== 0);
if (!same) throw new Error('packed memory image differs from the original');
if (check.length !== secs.length || check.some((s, i) => s.id !== secs[i].id)) throw new Error('section list changed');

writeFileSync(out, result);
const kb = (n) => (n / 1e3).toFixed(1) + ' KB';
console.log(`${out}: ${segs.length} data segments → ${packed.length} (zero runs ≥ ${minGap} B split them); ` +
  `data section ${kb(data.end - data.body)} → ${kb(body.length)} raw`);
