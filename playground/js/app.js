// The playground page: tabs for the request console, live watches, the
// resource browser, the managedFields picture and the guided scenarios;
// a progress bar while the WebAssembly API server loads; reset / export /
// import when the sandbox offers them.
import { h, $ } from './dom.js';
import { boot, onProgress, progressText } from './boot.js';
import { createConsole } from './console.js';
import { createWatchPanel } from './watch.js';
import { createBrowser } from './browser.js';
import { createFieldsTab } from './fields-tab.js';
import { scenarioIndex, loadScenario } from './scenario.js';
import { scenarioView } from './scenario-view.js';
import { stringify } from './yaml.js';
import { history as apiHistory } from './api.js';
import { createTerminal } from './terminal.js';
import { readyManifests } from './manifests.js';
import { welcome } from './welcome.js';

const ks = boot();
const TABS = ['console', 'watch', 'browse', 'fields', 'terminal', 'scenarios'];

// ---- loading

const bar = $('#load-progress');
const status = $('#load-status');
onProgress((p) => {
  status.textContent = progressText(p);
  if (p.phase === 'download' && p.total) { bar.max = p.total; bar.value = Math.min(p.loaded, p.total); }
  else if (p.phase === 'download') bar.removeAttribute('value');
  else if (p.phase === 'start') { bar.max = 1; bar.value = 1; }
});

// ---- tabs (arrow keys move between them, as in the ARIA tabs pattern)

const tablist = $('[role=tablist]');
function selectTab(name, focus = false) {
  if (!TABS.includes(name)) name = 'console';
  for (const t of TABS) {
    const tab = $(`#tab-${t}`);
    const panel = $(`#panel-${t}`);
    const on = t === name;
    tab.setAttribute('aria-selected', String(on));
    tab.tabIndex = on ? 0 : -1;
    panel.hidden = !on;
    if (on && focus) tab.focus();
  }
  if (location.hash.split('/')[0] !== '#' + name) history.replaceState(null, '', '#' + name);
  document.body.dataset.tab = name;
  if (name === 'browse' && ready) browser.load();
  if (name === 'terminal') terminal.focus();
}
tablist.addEventListener('click', (e) => {
  const tab = e.target.closest('[role=tab]');
  if (tab) selectTab(tab.id.slice(4));
});
tablist.addEventListener('keydown', (e) => {
  const i = TABS.indexOf(document.activeElement.id.slice(4));
  if (i < 0) return;
  let j = null;
  if (e.key === 'ArrowRight') j = (i + 1) % TABS.length;
  else if (e.key === 'ArrowLeft') j = (i + TABS.length - 1) % TABS.length;
  else if (e.key === 'Home') j = 0;
  else if (e.key === 'End') j = TABS.length - 1;
  if (j !== null) { e.preventDefault(); selectTab(TABS[j], true); }
});

// ---- panels

let ready = false;
const watchPanel = createWatchPanel($('#panel-watch'));
const openWatch = (path, query) => { selectTab('watch'); return watchPanel.add(path, query); };
// the Terminal tab's xterm and its kubectl start loading when the tab is first
// shown (terminal.js: ks.preloadKubectl), not with the page
const terminal = createTerminal(ks, { files: readyManifests });
$('#panel-terminal').append(terminal.el);
const consolePromise = createConsole($('#panel-console'), { onWatch: openWatch, ready: ks.ready });
const openInConsole = async (req) => { (await consolePromise).load(req); selectTab('console'); };
const fields = createFieldsTab($('#panel-fields'));
const openFields = (path) => { selectTab('fields'); return fields.show(path); };
const browser = createBrowser($('#panel-browse'), { onOpen: openInConsole, onWatch: openWatch, onFields: openFields });

const scenarioNav = $('#scenario-list');
const scenarioHost = $('#scenario-host');
const views = new Map();
let wanted = null; // the scenario asked for last: a slower, earlier load must not replace it
async function openScenario(id) {
  wanted = id;
  if (!views.has(id)) {
    // #scenarios/inline:<base64url JSON>: a docs example's own steps (<kube-example playground="…">)
    const s = id.startsWith('inline:') ? inlineScenario(id.slice(7)) : await loadScenario(id);
    if (!views.has(id)) views.set(id, scenarioView(s, { onOpen: openInConsole }));
  }
  if (wanted !== id) return views.get(id);
  scenarioHost.replaceChildren(views.get(id).el);
  for (const b of scenarioNav.querySelectorAll('button')) b.setAttribute('aria-current', String(b.dataset.id === id));
  history.replaceState(null, '', `#scenarios/${id}`);
  return views.get(id);
}
function inlineScenario(b64) {
  const bin = atob(b64.replace(/-/g, '+').replace(/_/g, '/'));
  const s = JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
  if (!s || !Array.isArray(s.steps)) throw new Error('not a scenario');
  return s;
}
scenarioIndex().then((list) => {
  scenarioNav.replaceChildren(...list.map((s, i) => h('li', h('button.nav-item', { type: 'button', dataset: { id: s.id }, onclick: () => openScenario(s.id) }, h('span.num', `${i + 1}. `), s.title))));
  const [tab, id] = location.hash.slice(1).split('/');
  if (tab === 'scenarios') { if (!wanted) openScenario(id || list[0].id); } // unless one was opened meanwhile
  else if (!wanted) scenarioHost.replaceChildren(h('p.muted', 'Pick a scenario. Each one runs real requests in a namespace of its own, and explains every step.'));
});

// ---- first run: the welcome, again from Help

const hello = welcome({
  onScenario: (id) => { selectTab('scenarios'); return openScenario(id); },
  onKubectl: async (cmd) => { selectTab('terminal'); await ks.ready; return terminal.run(cmd); },
  onRequest: async (req) => { const c = await consolePromise; c.load(req); selectTab('console'); await ks.ready; return c.send(); },
});
tablist.after(hello.el);
$('#btn-help').addEventListener('click', () => hello.toggle());
hello.maybeShow(location.hash);

// ---- reset / export / import (web/sandbox.js may offer them)

const has = (name) => typeof ks[name] === 'function';
const note = $('#state-note');
function say(text, cls = '') { note.textContent = text; note.className = 'muted small ' + cls; }
function wireState() {
  for (const [id, name] of [['#btn-reset', 'reset'], ['#btn-export', 'export'], ['#btn-import', 'import']]) {
    const b = $(id);
    if (!has(name)) { b.disabled = true; b.title = `${name}: not available (this build of the sandbox has no ${name}())`; b.dataset.available = 'false'; }
    else b.dataset.available = 'true';
  }
  if (!has('reset') && !has('export') && !has('import')) say('reset / export / import: not available in this build');
}
$('#btn-reset').addEventListener('click', async () => {
  if (!confirm('Delete everything in the sandbox and start empty?')) return;
  try {
    await ks.reset();
    await ks.ready;
    say('the sandbox was reset: only the default namespaces are left');
    apiHistory.clear();
    views.clear(); // their namespaces are gone: scenarios start over
    const [tab, id] = location.hash.slice(1).split('/');
    if (tab === 'scenarios' && id) openScenario(id);
    if (!$('#panel-browse').hidden) browser.load();
  } catch (e) { say('reset failed: ' + e.message, 'error'); }
});
$('#btn-export').addEventListener('click', async () => {
  try {
    let data = await ks.export();
    if (data instanceof Blob) data = await data.text();
    else if (typeof data !== 'string') data = stringify(data);
    const a = h('a', { href: URL.createObjectURL(new Blob([data], { type: 'application/yaml' })), download: 'kubesandbox-export.yaml' });
    document.body.append(a); a.click(); a.remove();
    say(`exported ${data.length} bytes as kubesandbox-export.yaml (kubectl apply -f accepts it)`);
  } catch (e) { say('export failed: ' + e.message, 'error'); }
});
const importFile = $('#import-file');
$('#btn-import').addEventListener('click', () => importFile.click());
importFile.addEventListener('change', async () => {
  const f = importFile.files[0];
  if (!f) return;
  try {
    const r = await ks.import(await f.text());
    say(`imported ${f.name}${typeof r === 'string' ? ': ' + r : r && typeof r === 'object' && 'count' in r ? `: ${r.count} objects` : ''}`);
    if (!$('#panel-browse').hidden) browser.load();
  } catch (e) { say('import failed: ' + e.message, 'error'); }
  importFile.value = '';
});

// ---- start

addEventListener('hashchange', () => {
  const [tab, id] = location.hash.slice(1).split('/');
  selectTab(tab);
  if (tab === 'scenarios' && id) openScenario(id);
});

selectTab(location.hash.slice(1).split('/')[0] || 'console');
ks.ready.then(() => {
  ready = true;
  document.body.classList.add('ready');
  $('#main').inert = false;
  status.textContent = 'ready';
  bar.hidden = true;
  $('#loading').hidden = true;
  wireState();
  if (!$('#panel-browse').hidden) browser.load();
}, (err) => {
  status.textContent = 'failed: ' + err.message;
  bar.hidden = true;
  $('#loading').classList.add('failed');
  $('#loading-text').textContent = 'The sandbox could not start: ' + err.message;
});

window.playground = { console: consolePromise, watch: watchPanel, browser, fields, openScenario, selectTab, terminal, welcome: hello };
