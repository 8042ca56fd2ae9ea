// The pieces of the wasm binary format the size tools share (wasmpack.mjs,
// wasmdata.mjs, wasmsize.mjs): LEB128, the section list, the data
// segments and the memory image they make, the tools' command line and a
// brotli size.
//
//   const { file, opt } = cli('usage: tool.mjs FILE.wasm [--top N]');
//   const buf = readFileSync(file);
//   const data = sections(buf).find((s) => s.id === 11);
//   const { segs } = dataSegments(buf, data);   // or { why } if not plain
//   const { lo, mem } = memoryImage(segs);       // memory from address lo
import { brotliCompressSync, constants } from 'node:zlib';

// cli reads `FILE [--name value]…`: the first argument that is neither a
// flag nor a flag's value is the file; opt(name, dflt) a flag's value.
export function cli(usage) {
  const args = process.argv.slice(2);
  const file = args.find((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--')));
  if (!file) {
    console.error(usage);
    process.exit(2);
  }
  const opt = (name, dflt) => {
    const i = args.indexOf('--' + name);
    return i >= 0 ? args[i + 1] : dflt;
  };
  return { file, opt };
}

// uleb decodes an unsigned LEB128 at pos: [value, next pos].
export function uleb(buf, pos) {
  let result = 0, shift = 0, b;
  do {
    b = buf[pos++];
    result += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  return [result, pos];
}

// sleb decodes a signed LEB128 at pos: [value, next pos].
export function sleb(buf, pos) {
  let result = 0, shift = 0, b;
  do {
    b = buf[pos++];
    result += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  if (b & 0x40) result -= 2 ** shift;
  return [result, pos];
}

export function encUleb(n) {
  const bytes = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    bytes.push(b);
  } while (n > 0);
  return Buffer.from(bytes);
}

export function encSleb(n) {
  const bytes = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7; // offsets are i32
    if ((n === 0 && !(b & 0x40)) || (n === -1 && (b & 0x40))) { bytes.push(b); break; }
    bytes.push(b | 0x80);
  }
  return Buffer.from(bytes);
}

// readName decodes a length-prefixed UTF-8 name at pos: [name, next pos].
export function readName(buf, pos) {
  const [len, p] = uleb(buf, pos);
  return [buf.toString('utf8', p, p + len), p + len];
}

// sections of a module: [{id, start (of the id byte), body, end, name
// (custom sections only)}], body..end being the payload.
export function sections(buf) {
  if (buf.readUInt32LE(0) !== 0x6d736100 || buf.readUInt32LE(4) !== 1) throw new Error('not a wasm module (version 1)');
  const secs = [];
  for (let pos = 8; pos < buf.length;) {
    const [size, body] = uleb(buf, pos + 1);
    const s = { id: buf[pos], start: pos, body, end: body + size, name: '' };
    if (s.id === 0) s.name = readName(buf, body)[0];
    secs.push(s);
    pos = body + size;
  }
  return secs;
}

// dataSegments of a data section: {segs: [{addr, bytes}]}, or {why} they
// are not plain active segments of memory 0 at i32.const offsets.
export function dataSegments(buf, sec) {
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

// memoryImage lays the segments out at their addresses: mem holds the
// bytes from address lo to the end of the last segment (zeros between).
// Overlapping segments are an error.
export function memoryImage(segs) {
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
  return { lo, hi, mem };
}

// brotliSize is b's length after brotli at WASMSIZE_QUALITY (default 11;
// 5 for a faster, rougher ranking).
const QUALITY = Number(process.env.WASMSIZE_QUALITY || 11);
export function brotliSize(b) {
  if (b.length === 0) return 0;
  return brotliCompressSync(b, { params: {
    [constants.BROTLI_PARAM_QUALITY]: QUALITY,
    [constants.BROTLI_PARAM_LGWIN]: 24,
    [constants.BROTLI_PARAM_SIZE_HINT]: b.length,
  } }).length;
}
