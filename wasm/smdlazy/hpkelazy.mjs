// hpkelazy.mjs GOROOT OUT: the browser build's crypto/hpke (issue #16; run
// by prepare.sh). Upstream builds seven KEMs into package variables at init
// (kem.go: dhKEMP256 … dhKEMX25519 = &dhKEM{…, ecdh.P256(), …}; pq.go:
// mlkem768X25519 … = &hybridKEM{curve: ecdh.X25519(), …}). Those calls keep
// every ecdh curve's code (nistec's P-256/384/521 field arithmetic) in any
// program that links net/http, and run at its start, though nothing in the
// core does HPKE (net/http → crypto/tls → crypto/hpke, for TLS ECH). Here
// each variable becomes a function building its KEM once on first call, so
// the linker keeps the curves only if a reachable function asks for one.
// Written: OUT/crypto/hpke/{kem.go,pq.go} and OUT/overlay.json for
// `go build -overlay`; OUT/overlay-test.json adds upstream's hpke_test.go
// with the same calls, with which smdlazy_test.go runs the standard
// library's tests of crypto/hpke on the result.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const [goroot, out] = process.argv.slice(2);
const src = join(goroot, 'src', 'crypto', 'hpke');
const dst = join(out, 'crypto', 'hpke');
mkdirSync(dst, { recursive: true });
const names = [];

// lazy turns `var NAME = &T{…}` (one line, or up to a line "}") into a
// function NAME() *T that builds it once.
function lazy(text) {
  const re = new RegExp(`^var (${want.join('|')}) = &(\\w+)\\{([^\\n]*\\}|[\\s\\S]*?\\n\\})$`, 'gm');
  return text.replace(re, (_, name, type, body) => {
    names.push(name);
    return `// kubesandbox (wasm/smdlazy/hpkelazy.mjs): built on first use, not at init.\n` +
      `var ${name}Once sync.Once\nvar ${name}V *${type}\n\n` +
      `func ${name}() *${type} {\n\t${name}Once.Do(func() { ${name}V = &${type}{${body} })\n\treturn ${name}V\n}`;
  });
}

const want = ['dhKEMP256', 'dhKEMP384', 'dhKEMP521', 'dhKEMX25519', 'mlkem768X25519', 'mlkem768P256', 'mlkem1024P384'];
const files = {};
for (const f of ['kem.go', 'pq.go']) files[f] = lazy(readFileSync(join(src, f), 'utf8'));
if (names.join() !== want.join()) throw new Error(`hpkelazy: found ${names.join()}, want ${want.join()}`);
const replace = {};
for (const [f, text] of Object.entries(files)) {
  // every other use of a variable calls its function; "sync" imported
  let t = text.replace(new RegExp(`\\b(${want.join('|')})\\b(?!(Once|V)\\b|\\(\\) \\*)`, 'g'), (m, name, _, off) =>
    text.slice(off - 5, off) === 'func ' ? m : `${name}()`);
  t = t.replace(/^import \(\n/m, 'import (\n\t"sync"\n');
  writeFileSync(join(dst, f), t);
  replace[join(src, f)] = join(dst, f);
}
writeFileSync(join(out, 'overlay.json'), JSON.stringify({ Replace: replace }, null, 1) + '\n');
// for smdlazy_test.go: upstream's hpke_test.go, its uses of the variables
// made calls, in overlay-test.json (the build never sees it)
const test = readFileSync(join(src, 'hpke_test.go'), 'utf8').replace(new RegExp(`\\b(${want.join('|')})\\b`, 'g'), '$1()');
writeFileSync(join(dst, 'hpke_test.go'), test);
replace[join(src, 'hpke_test.go')] = join(dst, 'hpke_test.go');
writeFileSync(join(out, 'overlay-test.json'), JSON.stringify({ Replace: replace }, null, 1) + '\n');
