// make dist: the browser runtime and <kube-example> as one folder and npm
// package (dist/kubesandbox/), and kubectl's lazily loaded files as an
// optional second one (dist/kubesandbox-kubectl/, when bin/web has them).
//
//   node web/tools/dist.mjs [BIN_WEB=bin/web] [OUT=dist] [--no-kubectl]
//
// dist/kubesandbox/: sandbox.js (createSandbox), sw.js + sw-cache.js,
// worker.js (+ worker-db.js, worker-cel.js), wasm_exec.js, kubesandbox.wasm (+ .br, .gz, .sha256),
// kubesandbox-docs.json (the OpenAPI descriptions, fetched by the worker
// on the first OpenAPI request),
// cel-crd.wasm and cel-policy.wasm (+ .br, .gz, .sha256: the CEL engine's
// two parts, each loaded on first use),
// kube-example.js (the element, bundled by esbuild with KUBESANDBOX_DIST
// defined: it finds sandbox.js, kube-example.css and scenarios/ beside
// itself), kube-example.css, scenarios/*.json, the types (*.d.ts), a
// README, copy.mjs (the kubesandbox-copy command) and package.json. Every
// file the runtime loads sits in one folder: a site serves it as it is.
import { build } from 'esbuild';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const argv = process.argv.slice(2).filter((a) => a !== '--no-kubectl');
const withKubectl = !process.argv.includes('--no-kubectl');
const web = argv[0] || join(repo, 'bin', 'web');
const outRoot = argv[1] || join(repo, 'dist');
const VERSION = JSON.parse(readFileSync(join(repo, 'web', 'dist', 'version.json'), 'utf8')).version;
const out = join(outRoot, 'kubesandbox');
const outKubectl = join(outRoot, 'kubesandbox-kubectl');

rmSync(out, { recursive: true, force: true });
rmSync(outKubectl, { recursive: true, force: true });
mkdirSync(join(out, 'scenarios'), { recursive: true });

const RUNTIME = ['sandbox.js', 'sw.js', 'sw-cache.js', 'worker.js', 'worker-db.js', 'worker-cel.js', 'wasm_exec.js',
  'kubesandbox.wasm', 'kubesandbox.wasm.br', 'kubesandbox.wasm.gz', 'kubesandbox.wasm.sha256', 'kubesandbox-docs.json',
  // the CEL engine: loaded by worker.js the first time a CRD validation
  // rule or a ValidatingAdmissionPolicy exists (never on install)
  'cel-crd.wasm', 'cel-crd.wasm.br', 'cel-crd.wasm.gz', 'cel-crd.wasm.sha256',
  'cel-policy.wasm', 'cel-policy.wasm.br', 'cel-policy.wasm.gz', 'cel-policy.wasm.sha256'];
for (const f of RUNTIME) {
  if (!existsSync(join(web, f))) throw new Error(`${join(web, f)} is missing: run make web-dist first`);
  cpSync(join(web, f), join(out, f));
}

// The element: one ES module. The playground's editor and terminal
// bundles are never loaded by it (only their import() calls remain).
await build({
  entryPoints: [join(repo, 'playground', 'js', 'kube-example.js')],
  bundle: true, format: 'esm', minify: true, legalComments: 'none', logLevel: 'warning',
  define: { KUBESANDBOX_DIST: 'true' },
  outfile: join(out, 'kube-example.js'),
  plugins: [{
    name: 'not-in-the-element',
    setup(b) { b.onResolve({ filter: /vendor\/(xterm|codemirror)\.js$/ }, (a) => ({ path: a.path, external: true })); },
  }],
});
cpSync(join(repo, 'playground', 'css', 'playground.css'), join(out, 'kube-example.css'));
for (const f of readdirSync(join(repo, 'playground', 'scenarios'))) {
  if (f.endsWith('.json')) cpSync(join(repo, 'playground', 'scenarios', f), join(out, 'scenarios', f));
}
for (const f of ['sandbox.d.ts', 'kube-example.d.ts', 'README.md', 'copy.mjs']) cpSync(join(repo, 'web', 'dist', f), join(out, f));

const files = readdirSync(out).sort();
writeFileSync(join(out, 'package.json'), JSON.stringify({
  name: 'kubesandbox',
  version: VERSION,
  description: 'A Kubernetes API server in the browser (WebAssembly), and <kube-example> for runnable docs examples',
  type: 'module',
  main: './sandbox.js',
  types: './sandbox.d.ts',
  exports: {
    '.': { types: './sandbox.d.ts', default: './sandbox.js' },
    './sandbox.js': { types: './sandbox.d.ts', default: './sandbox.js' },
    './kube-example.js': { types: './kube-example.d.ts', default: './kube-example.js' },
    './kube-example.css': './kube-example.css',
    './package.json': './package.json',
    './*': './*',
  },
  bin: { 'kubesandbox-copy': './copy.mjs' },
  files,
  sideEffects: ['./kube-example.js'],
  keywords: ['kubernetes', 'webassembly', 'service-worker', 'docs', 'web-component'],
}, null, 2) + '\n');

// kubectl (optional, large): loaded on the first ks.kubectl() from the
// same folder as sandbox.js: kubesandbox-copy puts both packages together.
const KUBECTL = ['kubectl.js', 'kubectl-worker.js', 'kubectl-fs.js',
  'kubectl.wasm', 'kubectl.wasm.br', 'kubectl.wasm.gz', 'kubectl.wasm.sha256'];
if (withKubectl && KUBECTL.every((f) => existsSync(join(web, f)))) {
  mkdirSync(outKubectl, { recursive: true });
  for (const f of KUBECTL) cpSync(join(web, f), join(outKubectl, f));
  writeFileSync(join(outKubectl, 'package.json'), JSON.stringify({
    name: 'kubesandbox-kubectl',
    version: VERSION,
    description: 'The real kubectl (v1.37.2) as WebAssembly, for kubesandbox (ks.kubectl, <kube-example> kubectl steps)',
    files: KUBECTL,
    peerDependencies: { kubesandbox: VERSION },
  }, null, 2) + '\n');
} else if (withKubectl) {
  console.log('dist: no kubectl files in ' + web + ' (make kubectl-wasm): dist/kubesandbox-kubectl left out');
}

const size = (dir) => readdirSync(dir).reduce((n, f) => {
  const p = join(dir, f);
  return n + (statSync(p).isDirectory() ? size(p) : statSync(p).size);
}, 0);
console.log(`dist: ${out} ${(size(out) / 1e6).toFixed(2)} MB` +
  (existsSync(outKubectl) ? `, ${outKubectl} ${(size(outKubectl) / 1e6).toFixed(2)} MB` : ''));
