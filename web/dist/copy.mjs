#!/usr/bin/env node
// kubesandbox-copy: put the runtime where a static site serves it.
//
//   npx kubesandbox-copy static              Docusaurus, Hugo: static/ is served at /
//   npx kubesandbox-copy docs                MkDocs: docs/ is served at /
//   npx kubesandbox-copy public --folder ks  another folder name (default kubesandbox)
//
// copies this package's files to STATIC/kubesandbox/ (and, when installed,
// the optional kubesandbox-kubectl package's too) and a copy of sw.js to
// STATIC/kubesandbox-sw.js: a service worker may only control pages at or
// below its own folder unless the host sends Service-Worker-Allowed, so
// the copy at the root lets it control every page on any static host.
// Then prints the one script tag a page needs (?sw= is relative to the
// script: it names the root copy, wherever the site is served). --no-root-sw: no root copy
// (the host sends "Service-Worker-Allowed: /" for kubesandbox/sw.js).
import { cpSync, mkdirSync, readdirSync, existsSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const args = process.argv.slice(2);
const flag = (name) => { const i = args.indexOf(name); return i >= 0 ? args.splice(i, 2)[1] : null; };
const folder = flag('--folder') || 'kubesandbox';
const noRoot = args.includes('--no-root-sw') ? (args.splice(args.indexOf('--no-root-sw'), 1), true) : false;
const [dest] = args;
if (!dest || !/^[\w.-]+$/.test(folder)) {
  console.error('usage: kubesandbox-copy STATIC_DIR [--folder kubesandbox] [--no-root-sw]');
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(dest, folder);
const skip = new Set(['package.json', 'copy.mjs', 'README.md', 'LICENSE']);
mkdirSync(out, { recursive: true });

function copyPackage(dir) {
  let n = 0;
  for (const f of readdirSync(dir)) {
    if (skip.has(f) || f.endsWith('.d.ts') || f === 'node_modules') continue;
    cpSync(join(dir, f), join(out, f), { recursive: true });
    n++;
  }
  return n;
}
let n = copyPackage(here);
// the optional kubectl files, when installed beside this package
const req = createRequire(join(process.cwd(), 'noop.js'));
let kubectl = null;
try { kubectl = dirname(req.resolve('kubesandbox-kubectl/package.json')); } catch (e) { /* not installed */ }
if (kubectl && existsSync(kubectl)) n += copyPackage(kubectl);
if (!noRoot) cpSync(join(here, 'sw.js'), resolve(dest, 'kubesandbox-sw.js'));
console.log(`kubesandbox: copied ${n} files to ${out}${kubectl ? ' (with kubectl)' : ''}${noRoot ? '' : `, and sw.js to ${resolve(dest, 'kubesandbox-sw.js')}`}`);
console.log('add to a page (a site served at /; under /project/, start the src with /project/):');
console.log(`  <script type="module" src="/${folder}/kube-example.js${noRoot ? '' : '?sw=../kubesandbox-sw.js'}"></script>`);
