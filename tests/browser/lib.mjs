// Shared helpers for the browser tests and the benchmark: start the static
// server on a free loopback port, launch Debian's headless Chromium with a
// fresh profile (service workers need a normal, persistent context).
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync, existsSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, extname, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { before, after } from 'node:test';

export const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = join(repo, process.env.BIN || 'bin');

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** startStatic runs bin/static on 127.0.0.1:0 and resolves {url, requests(), stop()};
 *  web is the directory served at /web/ (bin/web: the core; bin/web-baseline: the bench's baseline). */
export async function startStatic({ web = join(bin, 'web') } = {}) {
  const exe = join(bin, 'static');
  if (!existsSync(join(web, 'kubesandbox.wasm'))) {
    throw new Error(`${web} is missing: run make web-dist static-server (or make test-browser)`);
  }
  const child = spawn(exe, [
    '-addr', '127.0.0.1:0', '-debug', '-root', join(repo, 'playground'),
    '-mount', `/web/=${web}`,
    '-mount', `/fixtures/=${join(repo, 'tests', 'browser', 'fixtures')}`,
  ], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('static server did not start: ' + out)), 10000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /serving on (http:\/\/\S+)/.exec(out);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    child.on('exit', (code) => reject(new Error(`static server exited (${code}): ${out}`)));
  });
  return {
    url,
    /** requests lists the request URIs the static server has seen. */
    async requests() { return (await fetch(url + '/__static/requests')).json(); },
    stop() { child.kill('SIGTERM'); },
  };
}

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.wasm': 'application/wasm', '.png': 'image/png' };

/** startPlainStatic serves like a plain static host (no special headers:
 *  no Service-Worker-Allowed) the playground at / and bin/web at /web/;
 *  resolves {url, stop()}. */
export async function startPlainStatic({ web = join(bin, 'web') } = {}) {
  const roots = [['/web/', web], ['/', join(repo, 'playground')]];
  const srv = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const [prefix, dir] = roots.find(([p]) => path.startsWith(p));
    let file = normalize(join(dir, path.slice(prefix.length)));
    try {
      if (!file.startsWith(dir) || !existsSync(file)) throw new Error('not found');
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      res.writeHead(200, { 'Content-Type': TYPES[extname(file)] || 'application/octet-stream' });
      res.end(readFileSync(file));
    } catch (e) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('404 not found');
    }
  });
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${srv.address().port}`, stop: () => srv.close() };
}

/** launch starts Chromium with a fresh user-data dir; close() removes it. */
export async function launch() {
  const dir = mkdtempSync(join(tmpdir(), 'kubesandbox-chromium-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** useBrowser registers the hooks most test files share: before them a
 *  static server (startStatic) and a fresh browser profile (launch), after
 *  them both closed. Its fields are set once its before hook has run;
 *  then(env), if given, runs in that hook after them (a file's own
 *  `before` may run first: Node orders hooks registered from another
 *  module before the file's own):
 *
 *    const env = useBrowser();
 *    test('…', async () => { const page = await openSandbox(env.browser.context, env.server.url); … });
 */
export function useBrowser(then) {
  const env = { server: null, browser: null };
  before(async () => {
    env.server = await startStatic();
    env.browser = await launch();
    if (then) await then(env);
  });
  after(async () => {
    await env.browser?.close();
    env.server?.stop();
  });
  return env;
}

/** openSandbox opens path (default: the playground) and waits until its
 *  window.sandbox is ready. */
export async function openSandbox(context, url, path = '/') {
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('[page error]', e.message));
  await page.goto(url + path);
  await page.waitForFunction(() => window.sandbox);
  await page.evaluate(() => window.sandbox.ready);
  return page;
}

/** waitUntil polls fn (an async function run in the page with arg) until
 *  it returns true, every `polling` ms for `timeout` ms, then throws with
 *  what it last returned. page.waitForFunction cannot do this: it takes an
 *  async predicate's Promise for a truthy answer and resolves at once.
 *
 *    await waitUntil(page, async () => (await caches.keys()).length > 1);
 */
export async function waitUntil(page, fn, arg, { timeout = 60000, polling = 250 } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const got = await page.evaluate(fn, arg);
    if (got === true) return;
    if (Date.now() > deadline) throw new Error(`waitUntil: still ${JSON.stringify(got)} after ${timeout} ms`);
    await new Promise((r) => setTimeout(r, polling));
  }
}

/** api runs fetch in the page: {status, body (parsed JSON or text)}. */
export function api(page, method, path, obj, contentType = 'application/json') {
  return page.evaluate(async ({ method, path, obj, contentType }) => {
    const init = { method };
    if (obj !== undefined) {
      init.body = typeof obj === 'string' ? obj : JSON.stringify(obj);
      init.headers = { 'Content-Type': contentType };
    }
    const res = await fetch(path, init);
    const text = await res.text();
    let body = text;
    try { body = JSON.parse(text); } catch (e) { /* text */ }
    return { status: res.status, body };
  }, { method, path, obj, contentType });
}

/** sharedWorkers lists the browser's SharedWorker targets (CDP). */
export async function sharedWorkers(browser) {
  const cdp = await browser.context.browser().newBrowserCDPSession();
  try {
    const { targetInfos } = await cdp.send('Target.getTargets');
    return targetInfos.filter((t) => t.type === 'shared_worker');
  } finally {
    await cdp.detach();
  }
}

/** killSharedWorkers ends every SharedWorker the way a browser crash of it
 *  would (CDP Target.closeTarget); returns how many there were. */
export async function killSharedWorkers(browser) {
  const workers = await sharedWorkers(browser);
  const cdp = await browser.context.browser().newBrowserCDPSession();
  try {
    for (const w of workers) {
      // it may have ended on its own meanwhile (its last page closed)
      await cdp.send('Target.closeTarget', { targetId: w.targetId }).catch((e) => {
        if (!/No target/.test(e.message)) throw e;
      });
    }
  } finally {
    await cdp.detach();
  }
  return workers.length;
}

/** closeAll closes pages and waits until no SharedWorker is left. */
export async function closeAll(browser, pages) {
  for (const p of pages) await p.close();
  for (let i = 0; i < 100 && (await sharedWorkers(browser)).length; i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
}
