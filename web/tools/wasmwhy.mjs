// Why is a symbol in the wasm? Reads the linker's reachability dump and
// prints the chain of references from a root to the first symbol matching
// a pattern (issue #16: finding avoidable weight).
//
//   GOOS=js GOARCH=wasm go build -ldflags=-dumpdep -o /dev/null ./wasm 2>/tmp/dep.txt
//   node web/tools/wasmwhy.mjs /tmp/dep.txt 'crypto/tls\.'
//
// prints, e.g.
//   _ -> go:main.inittasks -> net/http..inittask -> … -> crypto/tls.(*Conn).Handshake
// The linker marks symbols breadth-first from its roots, so the first edge
// that reaches a symbol is the one that kept it.
import { readFileSync } from 'node:fs';

const [file, pattern] = process.argv.slice(2);
if (!file || !pattern) {
  console.error('usage: wasmwhy.mjs DUMPDEP.txt REGEXP');
  process.exit(2);
}
const re = new RegExp(pattern);
const parent = new Map();
let target = null;
for (const line of readFileSync(file, 'utf8').split('\n')) {
  const i = line.indexOf(' -> ');
  if (i < 0) continue;
  const from = line.slice(0, i), to = line.slice(i + 4);
  if (!parent.has(to)) parent.set(to, from);
  if (!target && re.test(to)) target = to;
}
if (!target) {
  console.log(`no reachable symbol matches ${pattern}`);
  process.exit(1);
}
const chain = [target];
for (let s = target; parent.has(s) && s !== '_' && chain.length < 200; ) {
  s = parent.get(s);
  chain.unshift(s);
}
console.log(chain.join('\n  -> '));
