// The Hugo and MkDocs recipes of docs/embedding.md, built with the real
// tools from tests/browser/fixtures/recipes/ and the packed npm package
// (dist-lib.mjs), served by a plain static server: the examples on a
// generated page run. It costs about a minute more than dist.test.mjs
// (the package, two sites, two starts), so it runs only when asked:
// make test-recipes (RECIPES=1), and each site only where its tool is
// installed (Debian: apt-get install hugo mkdocs; checked with hugo
// 0.111.3, mkdocs 1.4.2).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, cpSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repo, launch } from './lib.mjs';
import { packAndInstall, serve } from './dist-lib.mjs';

const WAIT = 120000;
const has = (cmd) => { try { execFileSync(cmd, ['version'], { stdio: 'ignore' }); return true; } catch (e) { try { execFileSync(cmd, ['--version'], { stdio: 'ignore' }); return true; } catch (e2) { return false; } } };
const asked = process.env.RECIPES === '1';
const tools = { hugo: asked && has('hugo'), mkdocs: asked && has('mkdocs') };
const why = (tool) => (asked ? `${tool} is not installed` : 'set RECIPES=1 (make test-recipes)');
let tmp;
let project;

before(() => {
  if (!tools.hugo && !tools.mkdocs) return;
  tmp = mkdtempSync(join(tmpdir(), 'kubesandbox-recipes-'));
  ({ project } = packAndInstall(tmp));
});
after(() => { if (tmp) rmSync(tmp, { recursive: true, force: true }); });

// site copies a recipe's fixture, copies the package in with kubesandbox-copy, builds it.
function site(name, staticDir, build) {
  const dir = join(tmp, name);
  cpSync(join(repo, 'tests', 'browser', 'fixtures', 'recipes', name), dir, { recursive: true });
  execFileSync(join(project, 'node_modules', '.bin', 'kubesandbox-copy'), [staticDir], { cwd: dir, stdio: 'ignore' });
  execFileSync(build[0], build.slice(1), { cwd: dir, stdio: 'ignore' });
  return dir;
}

async function runExamples(root, path) {
  const server = await serve(root);
  const b = await launch();
  try {
    const page = await b.context.newPage();
    page.setDefaultTimeout(WAIT);
    await page.goto(server.url + path);
    await page.waitForFunction(() => document.querySelectorAll('kube-example').length > 0 && [...document.querySelectorAll('kube-example')].every((e) => e.dataset.state === 'ready'));
    const results = await page.evaluate(() => Promise.all([...document.querySelectorAll('kube-example')].map((e) => e.run())));
    const names = await page.evaluate(async () => (await (await fetch('/sandbox/docs/api/v1/namespaces')).json()).items.map((n) => n.metadata.name));
    return { results, names, seen: server.seen };
  } finally {
    await b.close();
    server.stop();
  }
}

test('Hugo: static/ from kubesandbox-copy, the script in baseof.html, examples from a shortcode', { skip: !tools.hugo && why('hugo') }, async () => {
  const dir = site('hugo', 'static', ['hugo', '--quiet', '-d', 'public']);
  const html = readFileSync(join(dir, 'public', 'examples', 'index.html'), 'utf8');
  assert.match(html, /<kube-example expect-status="201" id="hugo-create" method="POST" path="\/api\/v1\/namespaces\/\{\{ns\}\}\/configmaps" title="Create a ConfigMap" >/);
  const { results, names, seen } = await runExamples(join(dir, 'public'), '/examples/');
  assert.deepEqual(results, [true, true]);
  assert.ok(names.some((n) => n.startsWith('ex-hugo-create-')), names.join(' '));
  assert.deepEqual(seen.filter((p) => p.startsWith('/sandbox/')), []);
});

test('MkDocs: docs/ from kubesandbox-copy, the script in a theme override, examples in a <div> on a nested page', { skip: !tools.mkdocs && why('mkdocs') }, async () => {
  const dir = site('mkdocs', 'docs', ['mkdocs', 'build', '-q', '-d', 'site']);
  const { results, names } = await runExamples(join(dir, 'site'), '/guide/page/');
  assert.deepEqual(results, [true, true]);
  assert.ok(names.some((n) => n.startsWith('ex-mk-create-')), names.join(' '));
});
