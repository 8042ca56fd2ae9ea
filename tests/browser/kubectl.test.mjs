// The real kubectl in the browser (kubectl.wasm in a dedicated Worker,
// web/kubectl.js), compared with the same kubectl built natively: the
// steps of kubectl/testdata/commands.json run in order, in the page
// against a named sandbox (ks.kubectl) and natively (bin/kubectl against
// bin/kubesandbox -controllers=false, as the named sandbox runs:
// createSandbox({controllers: false}), so no controller races the output); each step's exit code and output must match after
// normalising ages, uids, resourceVersions and timestamps, and contain
// the step's expected texts. Run: make test-browser (builds bin/kubectl,
// bin/kubesandbox and bin/web/kubectl.wasm).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStatic, launch, openSandbox, repo } from './lib.mjs';

const bin = join(repo, process.env.BIN || 'bin');
const script = JSON.parse(readFileSync(join(repo, 'kubectl', 'testdata', 'commands.json'), 'utf8'));

let server;
let browser;
let native;

before(async () => {
  for (const f of ['kubectl', 'kubesandbox', 'web/kubectl.wasm']) {
    if (!existsSync(join(bin, f))) throw new Error(`${bin}/${f} is missing: run make kubectl-native build kubectl-wasm (or make test-browser)`);
  }
  server = await startStatic();
  browser = await launch();
  native = await startNative();
});

after(async () => {
  await browser?.close();
  server?.stop();
  native?.stop();
});

// startNative runs bin/kubesandbox without controllers on a free port and
// returns {run(step), stop()}: run executes bin/kubectl with a HOME of its
// own holding the kubeconfig and the script's files.
async function startNative() {
  const child = spawn(join(bin, 'kubesandbox'), ['-addr', '127.0.0.1:0', '-controllers=false', '-kubeconfig', ''], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /serving on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`kubesandbox exited (${code}): ${out}`)));
  });
  const home = mkdtempSync(join(tmpdir(), 'kubesandbox-kubectl-'));
  mkdirSync(join(home, '.kube'));
  writeFileSync(join(home, '.kube', 'config'), kubeconfig(url));
  for (const [name, text] of Object.entries(script.files)) writeFileSync(join(home, name), text);
  return {
    run: (step) => new Promise((resolve) => {
      const p = execFile(join(bin, 'kubectl'), step.args, {
        cwd: home, env: { ...process.env, HOME: home, KUBECONFIG: join(home, '.kube', 'config'), KUBECTL_KUBERC: 'false' },
      }, (err, stdout, stderr) => resolve({ stdout, stderr, code: err ? err.code : 0 }));
      p.stdin.end(step.stdin || '');
    }),
    stop() { child.kill('SIGTERM'); rmSync(home, { recursive: true, force: true }); },
    home,
    env: { ...process.env, HOME: home, KUBECONFIG: join(home, '.kube', 'config'), KUBECTL_KUBERC: 'false' },
  };
}

// kubeconfig is kubectl/kubeconfig.go's, which the wasm writes for itself.
function kubeconfig(server) {
  return `apiVersion: v1\nkind: Config\nclusters:\n- name: kubesandbox\n  cluster:\n    server: ${JSON.stringify(server)}\n` +
    'contexts:\n- name: kubesandbox\n  context:\n    cluster: kubesandbox\n    namespace: default\n    user: kubesandbox\n' +
    'current-context: kubesandbox\nusers:\n- name: kubesandbox\n  user: {}\n';
}

/** normalise takes out what differs between two runs of the same
 *  commands: uids, timestamps, resourceVersions, ages (and the column
 *  widths that follow from them). */
export function normalise(s) {
  return s
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uid>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
    .replace(/("?resourceVersion"?:\s*)"\d+"/g, '$1"<rv>"')
    .replace(/(^|\s)(\d+[smhd])+(?=\s|$)/gm, '$1<age>')
    .replace(/(\S) {2,}/g, '$1 ');
}

test('kubectl in the browser answers as the same kubectl natively', async (t) => {
  const page = await openSandbox(browser.context, server.url, '/fixtures/kubectl.html');
  await page.evaluate(() => window.named.ready);
  const times = []; // [what, browser ms, native ms]: reported, not asserted
  let memoryBytes = 0;
  for (const step of script.steps) {
    const what = 'kubectl ' + step.args.join(' ');
    const got = await page.evaluate(({ args, stdin, files }) => window.named.kubectl(args, { stdin, files }),
      { args: step.args, stdin: step.stdin || '', files: script.files });
    const t0 = performance.now();
    const want = await native.run(step);
    times.push([what, got.millis, performance.now() - t0]);
    memoryBytes = got.memoryBytes;
    assert.equal(got.code, step.code, `${what}: exit code\nstdout: ${got.stdout}\nstderr: ${got.stderr}`);
    for (const s of step.stdout || []) assert.ok(got.stdout.includes(s), `${what}: stdout lacks ${JSON.stringify(s)}:\n${got.stdout}\nstderr: ${got.stderr}`);
    for (const s of step.stderr || []) assert.ok(got.stderr.includes(s), `${what}: stderr lacks ${JSON.stringify(s)}:\n${got.stderr}`);
    assert.equal(got.code, want.code, `${what}: exit code differs from native`);
    assert.equal(normalise(got.stdout), normalise(want.stdout), `${what}: stdout differs from native`);
    assert.equal(normalise(got.stderr), normalise(want.stderr), `${what}: stderr differs from native`);
  }
  const ms = (x) => x.toFixed(0).padStart(6);
  t.diagnostic(`kubectl.wasm instance memory: ${(memoryBytes / 1e6).toFixed(1)} MB`);
  for (const [what, b, n] of times) t.diagnostic(`${ms(b)} ms browser ${ms(n)} ms native  ${what.slice(0, 70)}`);
});

test('kubectl\'s requests go through the service worker, never to the network', async () => {
  const seen = await server.requests();
  assert.ok(seen.some((u) => u.startsWith('/web/kubectl.wasm')), 'kubectl.wasm was fetched');
  const leaked = seen.filter((u) => /^\/(sandbox\/[^/]+\/)?(api|apis|version|openapi)(\/|\?|$)/.test(u));
  assert.deepEqual(leaked, []);
});

test('a running kubectl get -w streams, and stopping it (Ctrl+C) ends it with 130; the next command runs in a new instance of the Module compiled before', async () => {
  const page = await openSandbox(browser.context, server.url, '/fixtures/kubectl.html');
  const r = await page.evaluate(async () => {
    const ks = window.sandbox;
    await ks.kubectl(['create', 'configmap', 'watched', '--from-literal=a=b']);
    const ctl = new AbortController();
    let streamed = '';
    const seen = new Promise((resolve) => {
      ks.kubectl(['get', 'configmaps', '-w'], {
        signal: ctl.signal,
        onOutput: (fd, text) => { streamed += text; if (streamed.includes('watched')) resolve(); },
      }).then((res) => { window.watchResult = res; });
    });
    await seen;
    ctl.abort();
    for (let i = 0; i < 100 && !window.watchResult; i++) await new Promise((res) => setTimeout(res, 50));
    const after = await ks.kubectl(['get', 'configmap', 'watched', '-o', 'name']);
    return { watch: window.watchResult, streamed, after };
  });
  assert.match(r.streamed, /watched/);
  assert.equal(r.watch.code, 130);
  assert.match(r.watch.stdout, /watched/);
  assert.equal(r.after.code, 0, r.after.stderr);
  assert.equal(r.after.stdout, 'configmap/watched\n');
  // the new worker was handed the page's Module: it fetched no kubectl.wasm
  // (phases.response 0) and asked the API only
  assert.equal(r.after.phases.response, 0, JSON.stringify(r.after.phases));
  assert.deepEqual(r.after.requests.filter((u) => u.endsWith('.wasm')), []);
});

test('kubectl get pods -w in the browser prints what the same watch prints natively (stopped once the Pod is seen)', async () => {
  const page = await openSandbox(browser.context, server.url, '/fixtures/kubectl.html');
  await page.evaluate(() => window.named.ready);
  const create = ['run', 'watched-pod', '--image=nginx'];
  const got = await page.evaluate(async (create) => {
    const ks = window.named;
    const made = await ks.kubectl(create);
    if (made.code !== 0) return { made };
    const ctl = new AbortController();
    let streamed = '';
    const done = ks.kubectl(['get', 'pods', '-w'], {
      signal: ctl.signal,
      onOutput: (fd, text) => { if (fd === 1) streamed += text; if (/watched-pod.*\n/.test(streamed)) ctl.abort(); },
    });
    const res = await done;
    return { made, res, streamed };
  }, create);
  assert.equal(got.made.code, 0, got.made.stderr);
  assert.equal(got.res.code, 130, got.res.stderr);
  assert.equal((await native.run({ args: create })).code, 0);
  // natively: the same watch, stopped (SIGINT, as Ctrl+C) once the Pod's row is out
  const want = await new Promise((resolve) => {
    const p = spawn(join(bin, 'kubectl'), ['get', 'pods', '-w'], { cwd: native.home, env: native.env });
    let out = '';
    p.stdout.on('data', (d) => { out += d; if (/watched-pod.*\n/.test(out)) p.kill('SIGINT'); });
    p.on('exit', () => resolve(out));
  });
  assert.match(got.streamed, /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\nwatched-pod\s+0\/1\s+Pending\s+0\s+\S+\n$/);
  assert.equal(normalise(got.streamed), normalise(want));
});

test('after its first use kubectl runs offline: the service worker keeps kubectl.wasm', async () => {
  const { context } = browser;
  const online = await openSandbox(context, server.url, '/fixtures/kubectl.html');
  const cached = await online.evaluate(async () => {
    const c = await caches.open('kubesandbox-v1-kubectl');
    return (await c.keys()).map((r) => new URL(r.url).pathname).sort();
  });
  await online.close();
  assert.deepEqual(cached, ['/web/kubectl.wasm', '/web/kubectl.wasm.sha256']);
  await context.setOffline(true);
  try {
    const page = await openSandbox(context, server.url, '/fixtures/kubectl.html');
    const r = await page.evaluate(() => window.sandbox.kubectl(['get', 'configmap', 'watched', '-o', 'name']));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'configmap/watched\n');
    await page.close();
  } finally {
    await context.setOffline(false);
  }
});

test('the playground\'s Terminal tab (xterm), typed at the keyboard: get ns, ↑ recalls, ls and apply -f a ready manifest, get -w streams until Ctrl+C, exec refused in red, Tab completes from kubectl', async () => {
  const page = await openSandbox(browser.context, server.url, '/#terminal');
  await page.waitForFunction(() => document.querySelector('#panel-terminal:not([hidden]) .kube-term')?.dataset.state === 'idle', null, { timeout: 60000 });
  const text = () => page.evaluate(() => window.playground.terminal.text());
  const lastLine = async () => (await text()).replace(/\n$/, '').split('\n').pop();
  // atPrompt: the command finished, its output ends with re, and a fresh "$ kubectl " prompt follows
  const atPrompt = (re) => page.waitForFunction((src) => document.querySelector('.kube-term').dataset.state === 'idle' &&
    new RegExp(src + '\\n\\$ kubectl\\n$').test(window.playground.terminal.text()), re.source, { timeout: 120000 });
  await page.locator('.kube-term').click();
  await page.keyboard.type('get ns');
  await page.keyboard.press('Enter');
  await atPrompt(/kube-system.*/);
  let out = await text();
  assert.match(out, /\$ kubectl get ns\n/);
  assert.match(out, /NAME\s+STATUS\s+AGE\n/);
  assert.match(out, /default\s+Active/);

  // ↑ recalls the line; editing in the middle (Home, →) works; Ctrl+C drops the line
  await page.keyboard.press('ArrowUp');
  assert.equal(await lastLine(), '$ kubectl get ns');
  await page.keyboard.press('Home');
  for (let i = 0; i < 'kubectl '.length; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.type('x');
  assert.equal(await lastLine(), '$ kubectl xget ns');
  await page.keyboard.press('Control+C');
  await page.waitForFunction(() => /xget ns\^C\n\$ kubectl\n$/.test(window.playground.terminal.text()));

  // the ready manifests (the scenarios' objects) are files for -f
  await page.keyboard.press('Control+U'); // cuts "kubectl " before the cursor
  await page.keyboard.type('ls');
  await page.keyboard.press('Enter');
  await atPrompt(/\$ ls\n(.+\n)*.+/);
  assert.match(await text(), /\$ ls\n(.+\n)*configmap\.yaml\n(.+\n)*deployment\.yaml\n/);
  await page.keyboard.type('apply -f deployment.yaml');
  await page.keyboard.press('Enter');
  await atPrompt(/deployment\.apps\/web created/);
  await page.keyboard.type('apply -f configmap.yaml -o name');
  await page.keyboard.press('Enter');
  await atPrompt(/\nconfigmap\/\S+/);
  const cm = /apply -f configmap\.yaml -o name\nconfigmap\/(\S+)\n/.exec(await text())[1];
  const r = await page.evaluate((name) => window.sandbox.kubectl(['get', 'deployment/web', 'configmap/' + name, '-o', 'name']), cm);
  assert.equal(r.stdout, `deployment.apps/web\nconfigmap/${cm}\n`, r.stderr);

  // get -w streams what it sees and runs until Ctrl+C, which returns the prompt
  await page.keyboard.type('get configmaps -w');
  await page.keyboard.press('Enter');
  await page.waitForFunction((name) => document.querySelector('.kube-term').dataset.state === 'running' &&
    new RegExp('get configmaps -w\\n(.*\\n)*' + name + '\\s').test(window.playground.terminal.text()), cm, { timeout: 120000 });
  await page.keyboard.press('Control+C');
  await atPrompt(/get configmaps -w\n(.*\n)*\^C/);

  // exec: refused, in red (xterm's DOM renderer: palette colour 1)
  await page.keyboard.type('exec -it web -- sh');
  await page.keyboard.press('Enter');
  await atPrompt(/\(no kubelet, no containers\)\./);
  out = await text();
  assert.match(out, /\$ kubectl exec -it web -- sh\nkubectl exec needs a container runtime/);
  const red = await page.locator('.xterm-rows .xterm-fg-1').allTextContents();
  assert.match(red.join(''), /kubectl exec needs a container runtime/);

  // run(line), the programmatic entry, shares the prompt and history
  const res = await page.evaluate(() => window.playground.terminal.run('kubectl get deployment web -o name'));
  assert.equal(res.code, 0);
  assert.match(await text(), /\$ kubectl get deployment web -o name\ndeployment\.apps\/web\n\$ kubectl\n$/);
  await page.keyboard.press('ArrowUp');
  assert.equal(await lastLine(), '$ kubectl get deployment web -o name');
  await page.keyboard.press('Control+U');
  await page.keyboard.type('kubectl ');

  // Tab completes with kubectl's own completion (kubectl __complete in the
  // same instance): a resource type, a name from the API, then a flag
  const lineIs = (want) => page.waitForFunction((w) => window.playground.terminal.text().replace(/\n$/, '').split('\n').pop() === w, want, { timeout: 120000 });
  await page.keyboard.type('get deploym');
  await page.keyboard.press('Tab');
  await lineIs('$ kubectl get deployments.apps');
  await page.keyboard.press('Tab');
  await lineIs('$ kubectl get deployments.apps web');
  await page.keyboard.type('--show-lab');
  await page.keyboard.press('Tab');
  await lineIs('$ kubectl get deployments.apps web --show-labels');
  await page.keyboard.press('Enter');
  await atPrompt(/web\s.*app=web/);
  // two candidates: the first Tab adds nothing, the second lists them under the line
  await page.keyboard.type('get deployments.apps web --show-');
  await page.keyboard.press('Tab');
  await page.waitForFunction(() => document.querySelector('.kube-term').dataset.state === 'idle');
  await page.keyboard.press('Tab');
  await page.waitForFunction(() => /--show-\n.*--show-kind.*--show-labels.*\n\$ kubectl get deployments\.apps web --show-$/.test(window.playground.terminal.text().replace(/\n$/, '')), null, { timeout: 120000 });
  // Shift+Tab leaves the terminal: no keyboard trap
  assert.equal(await page.evaluate(() => document.activeElement.closest('.kube-term') !== null), true);
  await page.keyboard.press('Shift+Tab');
  assert.equal(await page.evaluate(() => document.activeElement.closest('.kube-term') === null), true);
  await page.close();
});

test('<kube-example> with kubectl steps: each runs the real kubectl, shows its output, and can be edited and run again', async () => {
  const page = await browser.context.newPage();
  await page.goto(server.url + '/fixtures/kubectl-example.html');
  await page.waitForFunction(() => document.querySelector('kube-example').dataset.state === 'ready', null, { timeout: 120000 });
  assert.equal(await page.evaluate(() => document.querySelector('kube-example').run()), true);
  assert.equal(await page.evaluate(() => document.querySelector('kube-example').dataset.result), 'ok');
  const outs = () => page.evaluate(() => [...document.querySelector('kube-example').shadowRoot.querySelectorAll('.kx-out')].map((p) => p.textContent));
  assert.deepEqual(await outs(), ['configmap/settings created\n', 'blue']);
  // edit the second step and run it again
  const ok = await page.evaluate(async () => {
    const root = document.querySelector('kube-example').shadowRoot;
    const input = root.querySelectorAll('.kx-cmd')[1];
    input.value = 'kubectl get configmap nope';
    root.querySelectorAll('.kx-step button')[1].click();
    const step = root.querySelectorAll('.kx-step')[1];
    for (let i = 0; i < 600 && step.dataset.state === 'running'; i++) await new Promise((r) => setTimeout(r, 100));
    return step.dataset.state;
  });
  assert.equal(ok, 'failed');
  const second = (await outs())[1];
  assert.match(second, /Error from server \(NotFound\): configmaps "nope" not found\n\(exit 1\)\n/);
  // the example's status line: which step failed, why, and what to do
  const ex = await page.evaluate(() => { const e = document.querySelector('kube-example'); return { result: e.dataset.result, status: e.shadowRoot.querySelector('.ex-status').textContent }; });
  assert.deepEqual(ex, { result: 'failed', status: 'step 2 failed: kubectl get configmap nope exited 1: Error from server (NotFound): configmaps "nope" not found — edit the command and run it again.' });
  await page.close();
});
