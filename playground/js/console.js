// The request console: method, path (completed from discovery), the query
// parameters the API machinery understands, Content-Type (incl. the four
// PATCH types), a YAML/JSON body editor, and the response. Copy as curl or
// kubectl. Ctrl/Cmd+Enter sends. A body of several YAML documents is sent
// object by object, each to its own resource. Custom headers (headers.js),
// a request history kept across reloads (request-history.js), "New
// object…" templates (new-object.js) and, in the editor, field completion
// and descriptions from the OpenAPI (editor-help.js).
import { h, copyText } from './dom.js';
import { send, bodyText, toCurl, toKubectl, watchRequest, objectPath, parsePath, PATCH_TYPES } from './api.js';
import { parse as parseYAML, stringify, documents } from './yaml.js';
import { completions, resources } from './discovery.js';
import { mountEditor } from './editor.js';
import { responseView } from './view.js';
import { headersField } from './headers.js';
import { requestLog, historyView } from './request-history.js';
import { newObjectPicker } from './new-object.js';
import { editorHelp } from './editor-help.js';

const CONTENT_TYPES = ['application/json', 'application/yaml', ...PATCH_TYPES.map((p) => p.type)];
const PARAMS = [
  { name: 'dryRun', kind: 'select', options: ['', 'All'] },
  { name: 'fieldManager', kind: 'text', placeholder: 'e.g. alice' },
  { name: 'force', kind: 'check' },
  { name: 'fieldValidation', kind: 'select', options: ['', 'Strict', 'Warn', 'Ignore'] },
  { name: 'labelSelector', kind: 'text', placeholder: 'app=web,tier!=db' },
  { name: 'fieldSelector', kind: 'text', placeholder: 'metadata.name=x' },
  { name: 'limit', kind: 'number' },
  { name: 'continue', kind: 'text' },
  { name: 'resourceVersion', kind: 'text' },
  { name: 'resourceVersionMatch', kind: 'select', options: ['', 'NotOlderThan', 'Exact'] },
  { name: 'watch', kind: 'check' },
  { name: 'allowWatchBookmarks', kind: 'check' },
  { name: 'sendInitialEvents', kind: 'check' },
  { name: 'timeoutSeconds', kind: 'number' },
];

/**
 * createConsole(root, {onWatch(path, query), ready}) → {load(req), send(), request(), el, editor, history, newObject(group, kind), help}
 * onWatch: a watch (the watch box ticked, or typed into the path: ?watch=1,
 * /watch/) is handed to the watch panel. ready: the sandbox's ready promise.
 */
export async function createConsole(root, { onWatch, ready = Promise.resolve() } = {}) {
  const method = h('select#c-method', { 'aria-label': 'method' }, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => h('option', m)));
  const path = h('input#c-path', { type: 'text', value: '/api/v1/namespaces/default/configmaps', list: 'c-paths', 'aria-label': 'path', spellcheck: false, autocomplete: 'off' });
  const paths = h('datalist#c-paths');
  const sendBtn = h('button.primary#c-send', { type: 'submit', title: 'Send (Ctrl+Enter)' }, 'Send');
  const ctype = h('select#c-ctype', { 'aria-label': 'Content-Type' }, CONTENT_TYPES.map((t) => h('option', { value: t }, t)));
  const fmtYaml = h('button.seg', { type: 'button', 'aria-pressed': 'true', onclick: () => setFormat('yaml') }, 'YAML');
  const fmtJson = h('button.seg', { type: 'button', 'aria-pressed': 'false', onclick: () => setFormat('json') }, 'JSON');
  const inputs = {};
  const paramEls = PARAMS.map((p) => {
    const id = 'c-q-' + p.name;
    let el;
    if (p.kind === 'select') el = h('select', { id }, p.options.map((o) => h('option', { value: o }, o || '—')));
    else if (p.kind === 'check') el = h('input', { id, type: 'checkbox' });
    else el = h('input', { id, type: p.kind === 'number' ? 'number' : 'text', placeholder: p.placeholder || '', min: p.kind === 'number' ? '0' : null, spellcheck: false });
    inputs[p.name] = el;
    return h('label.param' + (p.kind === 'check' ? '.check' : ''), { for: id }, h('span', p.name), el);
  });
  const cmdOut = h('pre.cmd', { 'aria-live': 'polite', hidden: true });
  const responsePane = h('div.response-pane', { 'aria-label': 'response' }, h('p.muted', 'Send a request to see the response here.'));
  const editorHost = h('div.editor-host');
  const hdrs = headersField({ onChange: () => refreshCmd() });
  const log = requestLog();
  const picker = newObjectPicker({ ready, namespace: () => (parsePath(path.value) || {}).namespace, onPick: (req) => { api.load(req); editor.focus(); } });
  const schemaNote = h('span.muted.small#c-schema', { 'aria-live': 'polite' });
  const help = editorHelp({ fallbackKind: pathKind });
  const form = h('form.request', { onsubmit: (e) => { e.preventDefault(); api.send(); } },
    h('div.req-row', method, path, sendBtn, paths),
    h('details.params', { open: matchMedia('(min-width: 700px)').matches }, h('summary', 'Query parameters'), h('div.param-grid', paramEls)),
    hdrs.el,
    h('div.body-head', h('label', { for: 'c-ctype' }, 'Content-Type'), ctype, picker.el, h('span.seg-group', { role: 'group', 'aria-label': 'editor format' }, fmtYaml, fmtJson)),
    editorHost,
    h('div.toolbar',
      h('button#c-curl', { type: 'button', onclick: (e) => copyCmd('curl', e.currentTarget) }, 'Copy as curl'),
      h('button#c-kubectl', { type: 'button', onclick: (e) => copyCmd('kubectl', e.currentTarget) }, 'Copy as kubectl'),
      h('span.muted.hint', 'Ctrl+Enter sends · Ctrl+Space completes'), schemaNote),
    cmdOut);
  form.addEventListener('keydown', (e) => {
    if (!e.defaultPrevented && e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); api.send(); }
  });
  const hist = historyView(log, { onLoad: (req) => api.load(req), onRun: (req) => { api.load(req); return api.send(); } });
  const el = h('div.console-grid', h('div.console-left', form, hist.el), responsePane);
  root.append(el);

  // pathKind: the kind the typed path names (a PATCH body has no kind of its own)
  async function pathKind() {
    const p = parsePath(path.value);
    if (!p || !p.resource || p.subresource) return null;
    const r = (await resources()).find((x) => x.group === p.group && x.resource === p.resource);
    return r ? { apiVersion: r.group ? `${r.group}/${r.version}` : r.version, kind: r.kind } : null;
  }
  let noteTimer;
  const noteKind = () => {
    clearTimeout(noteTimer);
    noteTimer = setTimeout(async () => {
      const body = method.value !== 'GET' && method.value !== 'DELETE';
      const k = body ? await help.kindOf(editor.value, 0).catch(() => null) : null;
      schemaNote.textContent = k ? `fields of ${k.kind} (${k.apiVersion})` : '';
      schemaNote.dataset.kind = k ? k.kind : '';
    }, 200);
  };

  let format = 'yaml';
  const editor = await mountEditor(editorHost, {
    doc: '', lang: 'yaml', onSubmit: () => api.send(), onChange: () => { refreshCmd(); noteKind(); }, label: 'request body',
    complete: (text, pos, lang, explicit) => help.complete(text, pos, lang, explicit),
    hover: async (text, pos, lang) => {
      const r = await help.hover(text, pos, lang);
      return r && { from: r.from, to: r.to, dom: fieldTip(r) };
    },
  });
  ready.then(noteKind, () => {});
  path.addEventListener('change', noteKind);
  method.addEventListener('change', noteKind);
  // the copied command follows every edit after it was copied
  form.addEventListener('input', () => refreshCmd());
  form.addEventListener('change', () => refreshCmd());

  function setFormat(f) {
    if (f === format) return;
    const text = editor.value;
    if (text.trim()) {
      try {
        const v = parseYAML(text);
        editor.value = f === 'json' ? JSON.stringify(v, null, 2) + '\n' : stringify(v);
      } catch (e) { responsePane.replaceChildren(h('p.error', 'The body does not parse: ' + e.message)); return; }
    }
    format = f;
    editor.setLanguage(f);
    fmtYaml.setAttribute('aria-pressed', String(f === 'yaml'));
    fmtJson.setAttribute('aria-pressed', String(f === 'json'));
  }

  method.addEventListener('change', () => {
    if (method.value === 'PATCH' && !PATCH_TYPES.some((p) => p.type === ctype.value)) ctype.value = PATCH_TYPES[0].type;
    if ((method.value === 'POST' || method.value === 'PUT') && PATCH_TYPES.some((p) => p.type === ctype.value)) ctype.value = 'application/json';
  });

  let timer;
  const complete = async () => {
    try {
      const list = await completions(path.value);
      paths.replaceChildren(...list.slice(0, 200).map((p) => h('option', { value: p })));
    } catch (e) { /* discovery failed: no suggestions */ }
  };
  path.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(complete, 150); });
  path.addEventListener('focus', complete, { once: true });

  function query() {
    const q = {};
    for (const p of PARAMS) {
      const el = inputs[p.name];
      if (p.kind === 'check') { if (el.checked) q[p.name] = 'true'; } else if (el.value !== '') q[p.name] = el.value;
    }
    return q;
  }

  function request() {
    const m = method.value;
    const text = editor.value;
    let headers = [];
    try { headers = hdrs.headers(); } catch (e) { /* shown when sent */ }
    return { method: m, path: path.value.trim(), query: query(), contentType: ctype.value, headers, body: m === 'GET' || (m === 'DELETE' && !text.trim()) ? null : text };
  }

  function command(kind) {
    try {
      if (kind === 'curl') return toCurl(request());
      const req = request();
      const note = req.headers.length ? `# kubectl sends its own headers, not: ${req.headers.map(([k, v]) => `${k}: ${v}`).join(', ')}\n` : '';
      return note + toKubectl(req);
    } catch (e) { return '# ' + e.message; }
  }

  function copyCmd(kind, button) {
    const text = command(kind);
    cmdOut.hidden = false;
    cmdOut.textContent = text;
    cmdOut.dataset.kind = kind;
    copyText(text, button);
  }

  // refreshCmd redraws the command shown below the form from the current request.
  function refreshCmd() {
    if (!cmdOut.hidden && cmdOut.dataset.kind) cmdOut.textContent = command(cmdOut.dataset.kind);
  }

  // sendEach sends a multi-document body ('---' between objects) object by
  // object, each to its own resource (objectPath, as kubectl apply -f does),
  // in order, and shows every answer.
  async function sendEach(req, docs) {
    sendBtn.disabled = true;
    responsePane.setAttribute('aria-busy', 'true');
    try {
      const rs = await resources().catch(() => []);
      const out = [];
      for (const [i, doc] of docs.entries()) {
        const obj = parseYAML(doc);
        const where = objectPath(obj, req, rs);
        const head = h('h4.doc-head', `document ${i + 1} of ${docs.length}${obj && obj.kind ? `: ${obj.kind} ${(obj.metadata && obj.metadata.name) || ''}` : ''}`);
        if (where.error) { out.push(h('section.doc-result', head, h('p.error', where.error))); continue; }
        const res = await send({ ...req, path: where.path, body: bodyText(doc, req.contentType) });
        out.push(h('section.doc-result', head, responseView(res)));
      }
      responsePane.replaceChildren(h('p.muted', `${docs.length} documents, sent one by one:`), ...out);
      return null;
    } finally {
      sendBtn.disabled = false;
      responsePane.removeAttribute('aria-busy');
    }
  }

  const api = {
    el,
    request,
    editor,
    history: log,
    newObject: picker.pick,
    help,
    /** load fills the form from a request ({method, path, query, contentType, headers ('Name: value' lines or [[name, value]]), body}). */
    load(req) {
      method.value = req.method || 'GET';
      hdrs.text = typeof req.headers === 'string' ? req.headers : (req.headers || []).map(([k, v]) => `${k}: ${v}`).join('\n');
      path.value = req.path || '';
      for (const p of PARAMS) {
        const v = req.query ? req.query[p.name] : undefined;
        if (p.kind === 'check') inputs[p.name].checked = v === true || v === 'true';
        else inputs[p.name].value = v == null ? '' : String(v);
      }
      ctype.value = req.contentType && CONTENT_TYPES.includes(req.contentType) ? req.contentType : (req.method === 'PATCH' ? PATCH_TYPES[0].type : 'application/json');
      let b = req.body;
      if (b != null && typeof b !== 'string') b = format === 'json' ? JSON.stringify(b, null, 2) + '\n' : stringify(b);
      editor.value = b || '';
      refreshCmd();
      noteKind();
      path.focus();
    },
    /** send sends the form's request; {force: true} sends this one with force=true (the box stays as it is). */
    async send({ force = false } = {}) {
      const req = request();
      if (force) req.query.force = 'true';
      if (!req.path.startsWith('/')) { responsePane.replaceChildren(h('p.error', 'The path must start with /')); return null; }
      try { hdrs.headers(); } catch (e) { responsePane.replaceChildren(h('p.error', 'Headers: ' + e.message)); return null; }
      const record = (status) => log.add({ ...req, headers: hdrs.text.trim() }, status);
      // a watch (the checkbox, or typed: ?watch=1, /watch/) streams in the Watch tab
      const w = onWatch && watchRequest(req);
      if (w) { record(0); onWatch(w.path, w.query); return null; }
      let body;
      let docs = [];
      try {
        docs = req.body == null ? [] : documents(req.body);
        if (docs.length > 1) { record(0); return await sendEach(req, docs); }
        body = req.body == null ? null : bodyText(req.body, req.contentType);
      } catch (e) {
        responsePane.replaceChildren(h('p.error', 'The body does not parse: ' + e.message));
        return null;
      }
      sendBtn.disabled = true;
      responsePane.setAttribute('aria-busy', 'true');
      try {
        const res = await send({ ...req, body });
        record(res.status);
        let live = null;
        if (res.status === 409 && req.contentType === 'application/apply-patch+yaml') {
          const g = await send({ method: 'GET', path: req.path });
          live = g.status === 200 ? g.body : null;
        }
        const forceIt = () => api.send({ force: true }); // this request only: the next apply is not forced behind the user's back
        responsePane.replaceChildren(responseView(res, { live, applied: req.body, manager: req.query.fieldManager, onForce: req.contentType === 'application/apply-patch+yaml' ? forceIt : undefined }));
        return res;
      } finally {
        sendBtn.disabled = false;
        responsePane.removeAttribute('aria-busy');
      }
    },
  };
  return api;
}

// fieldTip is the hover card of a field: its path, type, required, and the
// schema's description when it has one.
function fieldTip(f) {
  return h('div.field-tip',
    h('div', h('b', f.path), ' ', h('code', `<${f.type}>`), f.required ? h('span.req', ' required') : h('span.muted', ' optional')),
    f.enum ? h('div.muted', 'one of: ' + f.enum.join(', ')) : null,
    f.description ? h('p', f.description) : h('p.muted', `no description in the OpenAPI of ${f.kind}`));
}
