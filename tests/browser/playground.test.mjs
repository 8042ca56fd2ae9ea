// The playground (playground/) and the docs embed (<kube-example>) in
// Debian's headless Chromium: every guided scenario runs to the end, the
// console, watch panel and managedFields views show what they should, the
// docs page's examples run, and a 390 px wide viewport renders.
// Run: make test-browser. With UPDATE_SCREENSHOTS=1 (make
// playground-screenshots) the screenshots are written to docs/screenshots/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { startStatic, launch, repo, waitUntil } from './lib.mjs';

const shots = process.env.UPDATE_SCREENSHOTS ? join(repo, 'docs', 'screenshots') : mkdtempSync(join(tmpdir(), 'playground-shots-'));
const scenarios = JSON.parse(readFileSync(join(repo, 'playground', 'scenarios', 'index.json'), 'utf8'));
const PALETTE = ['#2f6fdf', '#d9480f', '#2b8a3e'];
// Generous: CI machines have 2 cores, often shared with Go builds and fuzzing.
const WAIT = 60000;

let server;
let browser;

before(async () => {
  server = await startStatic();
  browser = await launch();
  // The SharedWorker (the Go core) lives while a page holds it: keep one
  // open, so each test's page joins the running core instead of restarting it.
  const anchor = await browser.context.newPage();
  await anchor.goto(server.url + '/');
  await anchor.waitForFunction(() => document.body.classList.contains('ready'), null, { timeout: 2 * WAIT });
});

after(async () => {
  await browser?.close();
  server?.stop();
});

async function open(hash = '', viewport = { width: 1280, height: 800 }) {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.setDefaultTimeout(WAIT);
  await page.setViewportSize(viewport);
  await page.goto(server.url + '/' + hash);
  try {
    await page.waitForFunction(() => document.body.classList.contains('ready'), null, { timeout: 2 * WAIT });
  } catch (e) {
    const state = await page.evaluate(() => ({ status: document.querySelector('#load-status').textContent, controlled: !!navigator.serviceWorker.controller })).catch((x) => x.message);
    throw new Error(`the playground did not get ready: ${JSON.stringify(state)}; page errors: ${JSON.stringify(errors)}`);
  }
  page.errors = errors;
  return page;
}

const rgb = (hex) => { const n = parseInt(hex.slice(1), 16); return `rgb(${n >> 16}, ${(n >> 8) & 255}, ${n & 255})`; };
const texts = (page, sel) => page.$$eval(sel, (els) => els.map((e) => e.textContent.trim()));

async function runScenario(page, id) {
  await page.evaluate((s) => window.playground.openScenario(s), id);
  const root = `.scenario[data-scenario="${id}"]`;
  await page.click(`${root} button.run-all`).catch(async (e) => {
    const html = await page.evaluate(() => document.querySelector('#scenario-host').innerHTML.slice(0, 300));
    throw new Error(`${e.message}\npage errors: ${JSON.stringify(page.errors)}\nscenario host: ${html}`);
  });
  await page.waitForSelector(`${root}[data-done=true]`, { timeout: 2 * WAIT });
  return root;
}

test('the page loads with a progress report, then is ready and usable', async () => {
  const page = await open();
  assert.equal(await page.textContent('#load-status'), 'ready');
  assert.equal(await page.$eval('#main', (m) => m.inert), false);
  assert.equal(await page.evaluate(() => navigator.serviceWorker.controller !== null), true);
  // without reset/export/import in web/sandbox.js the buttons say so
  const avail = await page.evaluate(() => ['reset', 'export', 'import'].map((n) => typeof window.sandbox[n] === 'function'));
  const dis = await page.$$eval('.state-actions button', (bs) => bs.map((b) => b.disabled));
  assert.deepEqual(dis, avail.map((a) => !a));
  if (!avail.some(Boolean)) assert.match(await page.textContent('#state-note'), /not available/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

for (const { id, title } of scenarios) {
  test(`scenario "${title}" runs to the end`, async () => {
    const page = await open('#scenarios');
    const root = await runScenario(page, id);
    const failed = await texts(page, `${root} li.check.fail`);
    assert.deepEqual(failed, [], 'every expectation holds');
    const oks = await page.$$eval(`${root} li.step`, (ls) => ls.map((l) => l.dataset.ok));
    assert.ok(oks.length >= 4 && oks.every((o) => o === 'true'), `steps ok: ${oks}`);
    assert.match(await page.textContent(`${root} .ns-note`), new RegExp(`namespace ${id}-[a-z0-9]+`));
    const statuses = await page.$$eval(`${root} li.step > .step-result > .response .status, ${root} li.step > .step-result > .status-line .status`, (els) => els.map((e) => e.dataset.status));
    const step = (n) => `${root} li.step[data-step="${n}"]`;
    switch (id) {
      case 'list-then-watch': {
        assert.deepEqual(statuses, ['201', '200', '201', '200', '200']);
        assert.deepEqual(await page.$$eval(`${step(3)} li.ev`, (ls) => ls.map((l) => `${l.dataset.type} ${l.dataset.name || ''}`)), ['ADDED after', 'NOTE-end ']);
        const initial = await page.$$eval(`${step(4)} li.ev`, (ls) => ls.map((l) => `${l.dataset.type} ${l.dataset.name || ''}`));
        assert.deepEqual(initial.slice(0, 4), ['ADDED after', 'ADDED before', 'ADDED kube-root-ca.crt', 'BOOKMARK ']);
        assert.match(await page.textContent(`${step(4)} li.ev-BOOKMARK`), /initial events end/);
        assert.match(await page.textContent(`${step(3)} li.ev-ADDED .ev-rv`), /^rv \d+$/);
        // the event types are colour-coded
        const added = await page.$eval(`${step(3)} li.ev-ADDED .ev-type`, (e) => getComputedStyle(e).backgroundColor);
        const bookmark = await page.$eval(`${step(4)} li.ev-BOOKMARK .ev-type`, (e) => getComputedStyle(e).backgroundColor);
        assert.notEqual(added, bookmark);
        break;
      }
      case 'paging':
        assert.deepEqual(statuses, ['201', '200', '201', '200', '200', '200']);
        assert.match(await page.textContent(step(0)), /sent 12 times/);
        assert.match(await page.textContent(step(1)), /metadata\.remainingItemCount = 8/);
        assert.match(await page.textContent(step(4)), /items has 3 items/);
        break;
      case 'patch-types': {
        assert.deepEqual(statuses, ['201', '200', '200', '200', '422', '200']);
        const legend = await texts(page, `${step(5)} .legend-item b`);
        assert.ok(legend.includes('platform-team'), `legend: ${legend}`);
        const owned = await page.$$eval(`${step(5)} pre.owned .line[data-managers]`, (ls) => ls.map((l) => [l.textContent.trim(), l.dataset.managers]));
        assert.ok(owned.some(([t, m]) => t === 'team: platform' && m === 'platform-team'), 'the label is owned by platform-team');
        break;
      }
      case 'apply-conflict': {
        assert.deepEqual(statuses, ['201', '409', '200', '200', '409']);
        const fields = await texts(page, `${step(1)} .conflict-field`);
        assert.deepEqual(fields, ['.data.color — owned by "alice". Now "blue"; you apply "red".']);
        assert.match(await page.textContent(`${step(1)} .conflict-summary`), /"bob" tried to change 1 field that "alice" already manages\. Choose one: force the apply \(force=true\)/);
        assert.equal(await page.isVisible(`${step(1)} button.force`), true, 'force is one click away');
        // the managedFields picture: legend colours and the owned lines
        const legend = await page.$$eval(`${step(3)} .legend-item`, (ls) => ls.map((l) => [l.dataset.manager, getComputedStyle(l.querySelector('.swatch')).backgroundColor]));
        assert.deepEqual(legend, [['alice', rgb(PALETTE[0])], ['bob', rgb(PALETTE[1])]]);
        const lines = Object.fromEntries(await page.$$eval(`${step(3)} pre.owned .line`, (ls) => ls.map((l) => [l.textContent.trim(), [l.dataset.managers || '', getComputedStyle(l).borderLeftColor]])));
        assert.deepEqual(lines['color: red'], ['bob', rgb(PALETTE[1])]);
        assert.deepEqual(lines['mode: fast'], ['bob', rgb(PALETTE[1])]);
        assert.deepEqual(lines['size: M'], ['alice', rgb(PALETTE[0])]);
        assert.deepEqual(lines['kind: ConfigMap'], ['', 'rgba(0, 0, 0, 0)']);
        // the one-click force on the last conflict: alice takes color back
        await page.click(`${step(4)} button.force`);
        await page.waitForSelector(`${step(4)} .response .status[data-status="200"]`);
        assert.match(await page.textContent(`${step(4)} .step-result`), /color: blue/);
        break;
      }
      case 'finalizer':
        assert.deepEqual(statuses, ['201', '200', '200', '200', '404', '200']);
        assert.deepEqual(await page.$$eval(`${step(5)} li.ev`, (ls) => ls.map((l) => `${l.dataset.type} ${l.dataset.name || ''}`)), ['MODIFIED held', 'DELETED held', 'NOTE-end ']);
        assert.match(await page.textContent(`${step(5)} li.ev-MODIFIED`), /deleting/);
        break;
      case 'crd':
        assert.deepEqual(statuses, ['201', '200', '201', '422', '200']);
        assert.match(await page.textContent(`${step(3)} .status-msg`), /Invalid: Widget\.[a-z0-9-]+\.example\.com "w2" is invalid/);
        break;
      case 'dry-run':
        assert.deepEqual(statuses, ['201', '404', '201', '200', '200', '200']);
        break;
      case 'field-validation': {
        assert.deepEqual(statuses, ['400', '201', '201', '400', '201']);
        assert.deepEqual(await texts(page, `${step(1)} .warnings li.warning`), ['unknown field "dta"']);
        assert.equal(await page.$(`${step(2)} .warnings`), null);
        // the Warning header row is highlighted in the headers table
        assert.equal(await page.$eval(`${step(1)} tr.hl-warning th`, (e) => e.textContent.toLowerCase()), 'warning');
        assert.match(await page.textContent(`${step(0)} .status-msg`), /strict decoding error: unknown field "dta"/);
        break;
      }
      case 'deploy-rollout':
        assert.deepEqual(statuses, ['201', '200', '200', '200', '200', '200', '200', '200', '200', '404', '200']);
        assert.match(await page.textContent(step(1)), /every items has status\.phase = "Running"/);
        assert.match(await page.textContent(step(6)), /metadata\.annotations\[deployment\.kubernetes\.io\/revision\] = "2"/);
        assert.match(await page.textContent(root), /no container runs/);
        break;
      default:
        assert.fail(`no page assertions for scenario ${id}`);
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test('console: a POST with Warning headers, copy as curl and kubectl, an apply conflict and its force', async () => {
  const page = await open('#console');
  const name = 'c-' + Date.now();
  const kons = await page.evaluateHandle(() => window.playground.console);
  await page.evaluate(([k, n]) => k.load({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', query: { fieldValidation: 'Warn', fieldManager: 'console' },
    contentType: 'application/json', body: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${n}\ndata:\n  a: "1"\nbogus: 1\n` }), [kons, name]);
  await page.keyboard.press('Control+Enter');
  await page.waitForSelector('.response-pane .status[data-status="201"]');
  assert.deepEqual(await texts(page, '.response-pane li.warning'), ['unknown field "bogus"']);
  await page.click('#c-curl');
  assert.equal(await page.textContent('pre.cmd'),
    `curl -sS -X POST -H 'Content-Type: application/json' 'http://127.0.0.1:6443/api/v1/namespaces/default/configmaps?fieldManager=console&fieldValidation=Warn' --data-binary '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}"},"data":{"a":"1"},"bogus":1}'`);
  await page.click('#c-kubectl');
  assert.equal(await page.textContent('pre.cmd'),
    `kubectl create -n default --validate=warn --field-manager=console -f - <<'EOF'\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: "1"\nbogus: 1\nEOF`);
  await page.waitForFunction(() => document.querySelector('#c-kubectl').textContent === 'Copy as kubectl');
  await page.screenshot({ path: join(shots, 'console.png') });

  // apply as another manager: conflict on data.a, explained; force fixes it
  await page.evaluate(([k, n]) => k.load({ method: 'PATCH', path: `/api/v1/namespaces/default/configmaps/${n}`, query: { fieldManager: 'ops' },
    contentType: 'application/apply-patch+yaml', body: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${n}\ndata:\n  a: "2"\n` }), [kons, name]);
  await page.click('#c-send');
  await page.waitForSelector('.response-pane .status[data-status="409"]');
  assert.deepEqual(await texts(page, '.response-pane .conflict-field'), ['.data.a — owned by "console". Now "1"; you apply "2".']);
  await page.click('#c-kubectl');
  assert.match(await page.textContent('pre.cmd'), /^kubectl apply --server-side -n default --field-manager=ops -f - <<'EOF'\n/);
  await page.click('.response-pane button.force');
  await page.waitForSelector('.response-pane .status[data-status="200"]');
  assert.match(await page.textContent('.response-pane .status-line'), /force=true/, 'that request was forced');
  assert.equal(await page.isChecked('#c-q-force'), false, 'the next one is not');
  await page.check('#c-q-force');
  await page.click('#c-kubectl');
  assert.match(await page.textContent('pre.cmd'), /--force-conflicts/);
  // path completion from discovery
  await page.fill('#c-path', '/apis/apps/v1/namespaces/default/');
  await page.dispatchEvent('#c-path', 'input');
  await page.waitForFunction(() => [...document.querySelectorAll('#c-paths option')].some((o) => o.value === '/apis/apps/v1/namespaces/default/deployments'));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('watch panel: two watches side by side, resume after the stream ends, 410 shown', async () => {
  const page = await open('#watch');
  const ns = 'w-' + Date.now().toString(36);
  await page.evaluate(async (n) => {
    await fetch('/api/v1/namespaces', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ metadata: { name: n } }) });
  }, ns);
  // the controllers publish kube-root-ca.crt in the new namespace: the
  // watch below (no resourceVersion) then starts with it as an ADDED
  await waitUntil(page, async (n) => (await fetch(`/api/v1/namespaces/${n}/configmaps/kube-root-ca.crt`)).status === 200, ns, { timeout: WAIT, polling: 100 });
  await page.fill('#w-path', `/api/v1/namespaces/${ns}/configmaps`);
  await page.fill('#w-timeout', '1');
  await page.click('#w-add');
  await page.fill('#w-path', `/api/v1/namespaces/${ns}/secrets`);
  await page.fill('#w-timeout', '');
  await page.click('#w-add');
  await page.waitForFunction(() => document.querySelectorAll('.watch-card[data-state=streaming]').length === 2);
  const cm = (name, data) => page.evaluate(async ([n, name, data]) => (await fetch(`/api/v1/namespaces/${n}/configmaps/${name}?fieldManager=pg`, {
    method: 'PATCH', headers: { 'Content-Type': 'application/apply-patch+yaml' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data }),
  })).status, [ns, name, data]);
  assert.equal(await cm('one', { a: '1' }), 201);
  // the configmaps watch times out after 1 s and resumes from the last rv
  await page.waitForSelector('.watch-card li.ev-note-resume');
  assert.equal(await cm('one', { a: '2' }), 200);
  await page.evaluate(async (n) => fetch(`/api/v1/namespaces/${n}/configmaps/one`, { method: 'DELETE' }), ns);
  await page.evaluate(async (n) => fetch(`/api/v1/namespaces/${n}/secrets`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ metadata: { name: 's1' }, stringData: { k: 'v' } }) }), ns);
  const cards = await page.$$('.watch-card');
  const cmCard = cards[1]; // newest first
  await page.waitForFunction((c) => c.querySelectorAll('li.ev-DELETED').length === 1, cmCard);
  const evs = await cmCard.$$eval('li.ev', (ls) => ls.filter((l) => !l.dataset.type.startsWith('NOTE')).map((l) => `${l.dataset.type} ${l.dataset.name || ''}`).filter((t) => !t.startsWith('BOOKMARK')));
  assert.deepEqual(evs, ['ADDED kube-root-ca.crt', 'ADDED one', 'MODIFIED one', 'DELETED one'], 'nothing lost or repeated across resumes');
  const rvs = await cmCard.$$eval('li.ev[data-rv]', (ls) => ls.map((l) => Number(l.dataset.rv)).filter(Boolean));
  assert.ok(rvs.every((v, i) => i === 0 || v >= rvs[i - 1]), `resourceVersions ascend: ${rvs}`);
  await page.waitForFunction((c) => c.querySelectorAll('li.ev-ADDED').length === 1, cards[0]);
  assert.equal(await cards[0].$eval('li.ev-ADDED', (l) => l.dataset.name), 's1');
  await page.screenshot({ path: join(shots, 'watch.png') });

  // 410: the server's real ERROR event for a resourceVersion that left the
  // history window. Making 10,000 writes to push one out takes too long
  // here, so this one response is the recorded shape, injected in fetch.
  await page.evaluate(() => {
    const orig = window.fetch;
    window.fetch = (u, init) => (String(u).includes('resourceVersion=2&') || String(u).endsWith('resourceVersion=2')
      ? Promise.resolve(new Response(JSON.stringify({ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old resource version: 2 (9000)', reason: 'Expired', code: 410 } }) + '\n', { headers: { 'Content-Type': 'application/json' } }))
      : orig(u, init));
  });
  await page.fill('#w-path', `/api/v1/namespaces/${ns}/configmaps`);
  await page.fill('#w-rv', '2');
  await page.click('#w-add');
  await page.waitForSelector('.watch-card[data-state=gone]');
  assert.match(await page.textContent('.watch-card[data-state=gone] li.ev-note-gone'), /410 Expired: too old resource version: 2 \(9000\)/);
  await page.click('.watch-card[data-state=gone] button.relist');
  await page.waitForFunction(() => document.querySelectorAll('.watch-card')[0].dataset.state === 'streaming');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('browser: namespaces → kinds → objects, YAML, managedFields and a diff between versions', async () => {
  const page = await open('#browse');
  const name = 'b-' + Date.now();
  for (const v of ['1', '2']) {
    await page.evaluate(async ([n, v]) => fetch(`/api/v1/namespaces/default/configmaps/${n}?fieldManager=tester`, {
      method: 'PATCH', headers: { 'Content-Type': 'application/apply-patch+yaml' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: n }, data: { v } }),
    }), [name, v]);
  }
  await page.click('#b-refresh');
  await page.click('nav.col >> text=default');
  await page.click('nav.col >> text=ConfigMap');
  // both versions are seen through the list and GETs of this page only after it reads them: read both
  await page.evaluate(async (n) => {
    const { send } = await import('/js/api.js');
    const cur = await send({ method: 'GET', path: `/api/v1/namespaces/default/configmaps/${n}` });
    const prev = Number(cur.body.metadata.resourceVersion) - 1;
    await send({ method: 'GET', path: `/api/v1/namespaces/default/configmaps`, query: { resourceVersion: String(prev), resourceVersionMatch: 'Exact' } });
  }, name);
  await page.click(`nav.col >> text=${name}`);
  await page.waitForSelector('.detail pre.code');
  assert.match(await page.textContent('.detail pre.code'), /v: "2"/);
  await page.click('.detail button:has-text("managedFields")');
  assert.deepEqual(await texts(page, '.detail .legend-item b'), ['tester']);
  await page.click('.detail button:has-text("Diff")');
  assert.match(await page.textContent('.detail pre.diff'), /-\s+v: "1"\n\+\s+v: "2"/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('browser: owners and dependents as a live tree; Delete with Foreground shows the dependents go first', async () => {
  const page = await open('#browse');
  const ns = 'tree-' + Date.now().toString(36);
  await page.evaluate(async (ns) => {
    const post = (path, obj) => fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(obj) });
    await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    await post(`/apis/apps/v1/namespaces/${ns}/deployments`, {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } } },
    });
  }, ns);
  await page.click('#b-refresh');
  await page.click(`nav.col >> text=${ns}`);
  await page.click('nav.col >> text=Deployment');
  await page.click('ul[aria-label=objects] .nav-item >> text="web"');
  await page.click('.detail button:has-text("Owners & dependents")');
  // the tree fills in as the controllers work: Deployment → ReplicaSet → 2 Pods Running
  await page.waitForFunction(() => document.querySelectorAll('.tree-node[data-kind=Deployment] .tree-node[data-kind=ReplicaSet] .tree-node[data-kind=Pod] .tree-state[data-phase=Running]').length === 2, null, { timeout: 2 * WAIT });
  assert.match(await page.textContent('.tree-view .simulated'), /no container ever runs/);
  assert.equal(await page.getAttribute('.tree-node[data-kind=Deployment]', 'aria-current'), 'true', 'the object shown is marked');
  // the Deployment's ready count follows its Pods' by a ReplicaSet and a Deployment status write
  await page.waitForFunction(() => /^2\/2 ready · revision 1$/.test(document.querySelector('.tree-node[data-kind=Deployment]').dataset.state), null, { timeout: 2 * WAIT });
  // record every state of the tree, then delete in the foreground
  await page.evaluate(() => {
    window.treeStates = [];
    const take = () => window.treeStates.push([...document.querySelectorAll('.tree-node')].map((n) => `${n.dataset.kind}${n.dataset.deleting ? ' deleting' : ''}${n.textContent.includes('foregroundDeletion') ? ' foregroundDeletion' : ''}`));
    new MutationObserver(take).observe(document.querySelector('.detail'), { subtree: true, childList: true, attributes: true });
  });
  assert.deepEqual(await page.$$eval('#b-policy option', (os) => os.map((o) => o.value)), ['Background', 'Foreground', 'Orphan']);
  await page.selectOption('#b-policy', 'Foreground');
  await page.click('#b-delete');
  await page.waitForFunction(() => /No workloads in/.test(document.querySelector('.tree-view').textContent), null, { timeout: 2 * WAIT });
  assert.match(await page.textContent('#b-delete-note'), /DELETE Foreground: 200 — the dependents are deleted first/);
  const states = await page.evaluate(() => window.treeStates);
  assert.ok(states.some((s) => s.includes('Deployment deleting foregroundDeletion')), `the Deployment waited with foregroundDeletion: ${JSON.stringify(states.slice(0, 5))}`);
  assert.match(await page.textContent('.detail'), /This object was deleted/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('managedFields view: an object with three managers, coloured, with its legend', async () => {
  const page = await open('#scenarios');
  const root = await runScenario(page, 'apply-conflict');
  const ns = (await page.textContent(`${root} .ns-note`)).replace('namespace ', '');
  await page.evaluate(async (n) => fetch(`/api/v1/namespaces/${n}/configmaps/settings?fieldManager=carol`, {
    method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: JSON.stringify({ metadata: { labels: { team: 'web' } } }),
  }), ns);
  await page.click('#tab-fields');
  await page.fill('#f-path', `/api/v1/namespaces/${ns}/configmaps/settings`);
  await page.click('#f-show');
  await page.waitForSelector('#panel-fields .legend-item');
  assert.deepEqual(await texts(page, '#panel-fields .legend-item b'), ['alice', 'bob', 'carol']);
  const team = await page.$eval('#panel-fields pre.owned', (pre) => [...pre.querySelectorAll('.line')].find((l) => l.textContent.trim() === 'team: web').dataset.managers);
  assert.equal(team, 'carol');
  await page.screenshot({ path: join(shots, 'managedfields.png') });
  await page.close();
});

test('keyboard: tabs move with the arrow keys, Ctrl+Enter sends from the editor', async () => {
  const page = await open('#console');
  await page.focus('#tab-console');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-watch');
  assert.equal(await page.isVisible('#panel-watch'), true);
  await page.keyboard.press('End');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-scenarios');
  await page.keyboard.press('Home');
  await page.keyboard.press('Enter');
  await page.fill('#c-path', '/version');
  await page.focus('.editor-host .cm-content, .editor-host textarea');
  await page.keyboard.press('Control+Enter');
  await page.waitForSelector('.response-pane .status[data-status="200"]');
  assert.match(await page.textContent('.response-pane pre.code'), /gitVersion/);
  await page.close();
});

test('a 390 px wide viewport renders without sideways scrolling', async () => {
  const page = await open('#scenarios', { width: 390, height: 844 });
  await runScenario(page, 'dry-run');
  for (const tab of ['console', 'watch', 'browse', 'fields', 'scenarios']) {
    await page.click(`#tab-${tab}`);
    const [sw, cw] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    assert.ok(sw <= cw + 1, `${tab}: page is ${sw}px wide in a ${cw}px viewport`);
  }
  await page.screenshot({ path: join(shots, 'narrow-scenario.png') });
  await page.click('#tab-console');
  await page.screenshot({ path: join(shots, 'narrow-console.png') });
  await page.close();
});

test('docs page: three <kube-example>s run, each in its own namespace', async () => {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.setDefaultTimeout(WAIT);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(server.url + '/docs-example.html');
  await page.waitForFunction(() => [...document.querySelectorAll('kube-example')].every((e) => e.dataset.state === 'ready'), null, { timeout: 2 * WAIT });
  const results = await page.evaluate(() => Promise.all([...document.querySelectorAll('kube-example')].map((e) => e.run())));
  assert.deepEqual(results, [true, true, true]);
  const info = await page.evaluate(() => [...document.querySelectorAll('kube-example')].map((e) => {
    const r = e.shadowRoot;
    return {
      ns: r.querySelector('.ns-note').textContent,
      statuses: [...r.querySelectorAll('.step-result .status')].map((s) => s.dataset.status),
      fails: r.querySelectorAll('li.check.fail').length,
    };
  }));
  assert.deepEqual(info.map((i) => i.fails), [0, 0, 0]);
  assert.deepEqual(info[0].statuses, ['201']);
  assert.deepEqual(info[1].statuses, ['201', '409', '200', '200', '409']);
  assert.deepEqual(info[2].statuses, ['201', '200', '201', '200', '200']);
  const nss = info.map((i) => i.ns.replace('namespace ', ''));
  assert.match(nss[0], /^ex-dry-run-create-[a-z0-9]+$/);
  assert.match(nss[1], /^ex-apply-conflict-[a-z0-9]+$/);
  assert.match(nss[2], /^ex-list-then-watch-[a-z0-9]+$/);
  // the dry run stored nothing in its namespace: the only ConfigMap there is
  // the one the controllers publish in every namespace
  const cms = await page.evaluate(async (n) => (await (await fetch(`/api/v1/namespaces/${n}/configmaps`)).json()).items.map((i) => i.metadata.name), nss[0]);
  assert.deepEqual(cms.filter((n) => n !== 'kube-root-ca.crt'), []);
  assert.equal(await page.evaluate(async (n) => (await fetch(`/api/v1/namespaces/${n}/configmaps/settings`)).status, nss[0]), 404);
  await page.screenshot({ path: join(shots, 'docs-example.png'), fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});

// Last: it empties the sandbox that the tests above share.
test('reset, export as YAML and import, when web/sandbox.js offers them', async (t) => {
  const page = await open('#browse');
  if (!(await page.evaluate(() => ['reset', 'export', 'import'].every((n) => typeof window.sandbox[n] === 'function')))) {
    t.skip('this build of web/sandbox.js has no reset/export/import: the buttons say "not available"');
    await page.close();
    return;
  }
  const name = 'keep-' + Date.now();
  const get = () => page.evaluate(async (n) => (await fetch(`/api/v1/namespaces/default/configmaps/${n}`)).status, name);
  await page.evaluate(async (n) => fetch('/api/v1/namespaces/default/configmaps', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ metadata: { name: n }, data: { k: 'v' } }) }), name);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#btn-export')]);
  assert.equal(download.suggestedFilename(), 'kubesandbox-export.yaml');
  const yaml = readFileSync(await download.path(), 'utf8');
  assert.match(yaml, new RegExp(`name: ${name}`));
  page.once('dialog', (d) => d.accept());
  await page.click('#btn-reset');
  await page.waitForFunction(() => /reset/.test(document.querySelector('#state-note').textContent));
  assert.equal(await get(), 404);
  await page.setInputFiles('#import-file', { name: 'state.yaml', mimeType: 'application/yaml', buffer: Buffer.from(yaml) });
  await page.waitForFunction(() => /imported state\.yaml/.test(document.querySelector('#state-note').textContent));
  assert.equal(await get(), 200);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// Offline after the first visit (web/sw-cache.js stores pages): a page's
// first load happens before the service worker controls it, so the worker stores the page and what it references
// (static imports, import('literal'), href/src) when the page hands it a port.
test('offline after the first visit: the playground and the docs page still load and run', async () => {
  const own = await startStatic();
  const b = await launch();
  try {
    const page = await b.context.newPage();
    page.setDefaultTimeout(WAIT);
    await page.goto(own.url + '/#scenarios');
    await page.waitForFunction(() => document.body.classList.contains('ready'), null, { timeout: 2 * WAIT });
    const docs = await b.context.newPage();
    docs.setDefaultTimeout(WAIT);
    await docs.goto(own.url + '/docs-example.html');
    await docs.waitForFunction(() => [...document.querySelectorAll('kube-example')].every((e) => e.dataset.state === 'ready'), null, { timeout: 2 * WAIT });
    const need = ['/', '/js/app.js', '/js/scenario-view.js', '/vendor/codemirror.js', '/vendor/yaml.js', '/css/playground.css', '/scenarios/index.json', '/scenarios/dry-run.json',
      '/docs-example.html', '/js/kube-example.js', '/scenarios/apply-conflict.json', '/scenarios/list-then-watch.json',
      // the runtime, which the service worker stores after it activates
      '/web/worker.js', '/web/wasm_exec.js', '/web/kubesandbox.wasm', '/web/sandbox.js', '/web/kubesandbox-docs.json'];
    // the service worker stores what a page references one file after
    // another (sw-cache.js warm): wait for the files named above and for
    // every file either page has loaded (an API path is the core's, never
    // stored), so the reload below needs nothing the cache lacks
    const loaded = (p) => p.evaluate(() => [location.href, ...performance.getEntriesByType('resource').map((e) => e.name)]
      .map((u) => new URL(u)).filter((u) => u.origin === location.origin && !/^\/(api|apis|sandbox|version|openapi|healthz|livez|readyz)(\/|$)/.test(u.pathname))
      .map((u) => u.pathname));
    need.push(...await loaded(page), ...await loaded(docs));
    // … and for every file the service worker's crawl reaches (sw-cache.js
    // warm: the pages and, transitively, the same-origin files they name):
    // a tab's modules are imported only later, through the files above
    need.push(...await reachable(own.url, ['/', '/docs-example.html']));
    // (an async predicate: page.waitForFunction would take its Promise for
    // true and go offline at once, before the late modules are stored)
    await waitUntil(page, async (need) => {
      const urls = [];
      for (const k of await caches.keys()) for (const r of await (await caches.open(k)).keys()) urls.push(new URL(r.url).pathname);
      const missing = need.filter((p) => !urls.includes(p));
      return missing.length ? missing : true;
    }, need, { timeout: 2 * WAIT, polling: 500 });
    await docs.close();
    own.stop();
    await page.reload();
    await page.waitForFunction(() => document.body.classList.contains('ready'), null, { timeout: 2 * WAIT });
    assert.equal(await page.evaluate(async () => (await window.playground.console).editor.kind), 'codemirror');
    const root = await (async () => {
      await page.evaluate(() => window.playground.openScenario('dry-run'));
      await page.click('.scenario[data-scenario="dry-run"] button.run-all');
      await page.waitForSelector('.scenario[data-scenario="dry-run"][data-done=true]', { timeout: 2 * WAIT });
      return '.scenario[data-scenario="dry-run"]';
    })();
    assert.deepEqual(await texts(page, `${root} li.check.fail`), []);
    const docs2 = await b.context.newPage();
    docs2.setDefaultTimeout(WAIT);
    await docs2.goto(own.url + '/docs-example.html');
    await docs2.waitForFunction(() => [...document.querySelectorAll('kube-example')].every((e) => e.dataset.state === 'ready'), null, { timeout: 2 * WAIT });
    assert.deepEqual(await docs2.evaluate(() => Promise.all([...document.querySelectorAll('kube-example')].map((e) => e.run()))), [true, true, true]);
  } finally {
    await b.close();
    own.stop();
  }
});

// reachable lists the same-origin paths sw-cache.js's warm stores from
// pages: what they name in src=/href=, url(…) and import statements,
// transitively (API paths and the runtime's folder excepted).
async function reachable(origin, pages) {
  const refs = /(?:src|href)\s*=\s*["']([^"'#\s<>{}()$`,]+)["'#]|url\(\s*["']?([^"')#\s<>{}($`,]+)|(?:\bfrom|\bimport\s*\(?)\s*["']([^"'\s<>{}()$`,]+)["']/g;
  const seen = new Set();
  const found = [];
  const queue = pages.map((p) => new URL(p, origin).href);
  while (queue.length && seen.size < 200) {
    const href = queue.shift();
    const path = new URL(href).pathname;
    if (seen.has(path)) continue;
    seen.add(path);
    const res = await fetch(href).catch(() => null);
    if (!res || !res.ok || res.redirected) continue;
    found.push(path);
    const text = /html|javascript|css/.test(res.headers.get('Content-Type') || '') ? await res.text() : '';
    for (const m of text.matchAll(refs)) {
      let u;
      try { u = new URL(m[1] || m[2] || m[3], href); } catch { continue; }
      if (u.origin === new URL(origin).origin && !/^\/(web|api|apis|sandbox|version|openapi)(\/|$)/.test(u.pathname)) queue.push(u.href);
    }
  }
  return found;
}
