// web/tools/wasmpack.mjs (the post-link step of `make wasm`): the packed
// module starts with the same memory as the linker's, in fewer segments.
// No browser: Node's WebAssembly instantiates both and compares memories.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repo } from './lib.mjs';

const tool = join(repo, 'web/tools/wasmpack.mjs');
const pack = (input, ...args) => {
  const dir = mkdtempSync(join(tmpdir(), 'wasmpack-'));
  const inFile = join(dir, 'in.wasm'), outFile = join(dir, 'out.wasm');
  writeFileSync(inFile, input);
  const log = execFileSync('node', [tool, inFile, '--out', outFile, ...args], { encoding: 'utf8' });
  return { out: readFileSync(outFile), log };
};

const uleb = (n) => { const b = []; do { let x = n & 0x7f; n >>>= 7; if (n) x |= 0x80; b.push(x); } while (n); return b; };
const sleb = (n) => { const b = []; for (;;) { const x = n & 0x7f; n >>= 7; if ((n === 0 && !(x & 0x40)) || (n === -1 && (x & 0x40))) { b.push(x); return b; } b.push(x | 0x80); } };
const section = (id, body) => [id, ...uleb(body.length), ...body];
// A module with one exported memory (2 pages) and the given active data
// segments [{addr, bytes}], as Go's linker writes them.
function module(segs, { dataCount = false } = {}) {
  const data = [...uleb(segs.length)];
  for (const s of segs) data.push(0x00, 0x41, ...sleb(s.addr), 0x0b, ...uleb(s.bytes.length), ...s.bytes);
  return Buffer.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(5, [1, 0x00, 2]), // memory: min 2 pages
    ...section(7, [1, 3, ...Buffer.from('mem'), 0x02, 0]), // export "mem"
    ...(dataCount ? section(12, uleb(segs.length)) : []),
    ...section(11, data),
  ]);
}
const memoryOf = async (bytes) => {
  const mod = await WebAssembly.compile(bytes);
  // Every import a function that does nothing: only the data segments run.
  const imports = {};
  for (const imp of WebAssembly.Module.imports(mod)) {
    imports[imp.module] ??= {};
    imports[imp.module][imp.name] = () => {};
  }
  const inst = await WebAssembly.instantiate(mod, imports);
  return Buffer.from(inst.exports.mem.buffer);
};
const segmentCount = (bytes) => {
  for (let p = 8; p < bytes.length;) {
    let size = 0, shift = 0, b, q = p + 1;
    do { b = bytes[q++]; size += (b & 0x7f) * 2 ** shift; shift += 7; } while (b & 0x80);
    if (bytes[p] === 11) { let n = 0; shift = 0; do { b = bytes[q++]; n += (b & 0x7f) * 2 ** shift; shift += 7; } while (b & 0x80); return n; }
    p = q + size;
  }
  return 0;
};

test('wasmpack: same memory in fewer segments', async (t) => {
  const bytes = (n, seed) => Array.from({ length: n }, (_, i) => ((i * 31 + seed) % 255) + 1);
  const cases = {
    'short gaps merge into one segment': {
      segs: [{ addr: 1000, bytes: bytes(10, 1) }, { addr: 1020, bytes: bytes(5, 2) }, { addr: 1100, bytes: [0, 7, 0, 0, 9] }],
      minGap: 65536, want: 1,
    },
    'a long zero run still splits': {
      segs: [{ addr: 64, bytes: bytes(40, 3) }, { addr: 64 + 40 + 5000, bytes: bytes(3, 4) }, { addr: 100000, bytes: bytes(1, 5) }],
      minGap: 4096, want: 3,
    },
    'segments given out of order, zeros inside a segment': {
      segs: [{ addr: 9000, bytes: [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2] }, { addr: 300, bytes: bytes(8, 6) }, { addr: 9020, bytes: [3] }],
      minGap: 16, want: 2,
    },
    'addresses whose signed LEB128 needs an extra byte (bit 6 set)': {
      segs: [{ addr: 64, bytes: [5] }, { addr: 0x2000 - 8, bytes: bytes(4, 7) }, { addr: 0x3ff0, bytes: [1] }],
      minGap: 65536, want: 1,
    },
  };
  for (const [name, c] of Object.entries(cases)) {
    await t.test(name, async () => {
      const before = module(c.segs);
      const { out } = pack(before, '--min-gap', String(c.minGap));
      assert.equal(segmentCount(out), c.want);
      assert.ok((await memoryOf(out)).equals(await memoryOf(before)), 'memory after instantiation differs');
    });
  }
});

test('wasmpack: leaves modules it cannot rewrite as they are', async (t) => {
  const cases = {
    'a DataCount section': module([{ addr: 8, bytes: [1] }, { addr: 100, bytes: [2] }], { dataCount: true }),
    'one segment already': module([{ addr: 8, bytes: [1, 2, 3] }]),
    'a passive segment': (() => {
      const m = module([{ addr: 8, bytes: [1] }, { addr: 100, bytes: [2] }]);
      const i = m.lastIndexOf(Buffer.from([0x00, 0x41, 8, 0x0b]));
      m[i] = 0x01; // passive: flags 1, no offset expression (rest no longer parses as active)
      return m;
    })(),
  };
  for (const [name, m] of Object.entries(cases)) {
    await t.test(name, () => {
      const { out, log } = pack(m);
      assert.ok(out.equals(m), 'module changed');
      assert.match(log, /left as they are/);
    });
  }
});

test('wasmpack: the shipped kubesandbox.wasm is packed and starts with a valid memory', { skip: !existsSync(join(repo, 'bin/web/kubesandbox.wasm')) && 'make wasm first' }, async () => {
  const shipped = readFileSync(join(repo, 'bin/web/kubesandbox.wasm'));
  assert.ok(segmentCount(shipped) < 100, `${segmentCount(shipped)} data segments: make wasm did not pack it`);
  const { out, log } = pack(shipped);
  assert.ok(out.equals(shipped), 'packing a packed wasm again changed it');
  assert.match(log, /left as they are/);
  await memoryOf(shipped); // compiles and instantiates
});
