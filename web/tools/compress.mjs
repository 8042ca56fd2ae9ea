// Build helper: writes FILE.br and FILE.gz next to FILE with Node's zlib
// (brotli quality 11, gzip level 9) and prints the three sizes.
//   node web/tools/compress.mjs bin/web/kubesandbox.wasm
//   node web/tools/compress.mjs bin/web/kubectl.wasm --brotli-quality=9
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

// --brotli-quality=N (default 11): for kubectl.wasm (129 MB) 11 took more than
// 2 CPU-minutes (stopped unfinished), 9 about 50 s.
const file = process.argv[2];
const quality = Number((process.argv.find((a) => a.startsWith('--brotli-quality=')) || '=11').split('=')[1]);
if (!file || !(quality >= 0 && quality <= 11)) { console.error('usage: compress.mjs FILE [--brotli-quality=0..11]'); process.exit(2); }
const raw = readFileSync(file);
const mb = (n) => (n / 1e6).toFixed(2) + ' MB';
// Brotli 11 takes seconds: skip when FILE has not changed since last time.
const sum = createHash('sha256').update(raw).digest('hex');
if (existsSync(file + '.sha256') && existsSync(file + '.br') && existsSync(file + '.gz') &&
    readFileSync(file + '.sha256', 'utf8') === sum) {
  const size = (f) => readFileSync(f).length;
  console.log(`${file}: unchanged; raw ${mb(raw.length)}, gzip ${mb(size(file + '.gz'))}, brotli ${mb(size(file + '.br'))}`);
  process.exit(0);
}
const br = brotliCompressSync(raw, { params: {
  [constants.BROTLI_PARAM_QUALITY]: quality,
  [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
  [constants.BROTLI_PARAM_LGWIN]: 24,
} });
const gz = gzipSync(raw, { level: 9 });
writeFileSync(file + '.br', br);
writeFileSync(file + '.gz', gz);
writeFileSync(file + '.sha256', sum);
console.log(`${file}: raw ${mb(raw.length)}, gzip ${mb(gz.length)}, brotli ${mb(br.length)}`);
