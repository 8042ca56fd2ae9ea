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
import { cli, dataSegments as segments, encSleb, encUleb, memoryImage as image, sections } from './wasmbin.mjs';

const { file, opt } = cli('usage: wasmpack.mjs FILE.wasm [--out OUT.wasm] [--min-gap BYTES]');
const out = opt('out', file);
const minGap = Number(opt('min-gap', 65536));

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
