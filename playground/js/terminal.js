// The playground's Terminal tab: an @xterm/xterm terminal (bundled locally
// into playground/vendor/xterm.js by `make playground-build`, loaded when
// the tab is first shown) with a small line editor in front of the real
// kubectl (ks.kubectl, web/kubectl.js: its load starts when the terminal
// is first shown, ks.preloadKubectl), which runs against the page's sandbox.
//
// Keys: Enter runs; ←/→, Home/End (Ctrl+A/Ctrl+E), Backspace/Delete edit;
// ↑/↓ walk the history; Ctrl+C stops a running command (`get -w`: the
// signal ks.kubectl takes is aborted) or drops the line; Ctrl+L and `clear`
// clear; Ctrl+U cuts to the line's start. Ctrl+C with a selection (or
// Ctrl+Shift+C) copies it; Ctrl+V / Ctrl+Shift+V / the context menu paste.
// Tab completes with kubectl's own cobra completion (`kubectl __complete
// …`, run by the same kubectl instance: commands, flags, resource types,
// names from the API; the ready manifests where kubectl asks for a file):
// one candidate is inserted, several insert their common prefix and, at a
// second Tab, are listed. Shift+Tab leaves the terminal (no keyboard trap). kubectl's output streams in as
// it arrives, stderr in red. `help`, `ls` and `cat <file>` show the ready
// manifests (`files`, e.g. playground/js/manifests.js) that `-f <file>` reads.
//
//   const term = createTerminal(ks, { files: readyManifests });
//   panel.append(term.el);  term.focus();  await term.run('kubectl get ns');  term.text();
import { h } from './dom.js';

// NEED_RUNTIME: commands that need a container runtime behind the API.
const NEED_RUNTIME = new Set(['exec', 'attach', 'port-forward', 'cp', 'debug', 'proxy']);
const PROMPT = '\x1b[32m$\x1b[0m ';
const PROMPT_WIDTH = 2;
const START = 'kubectl ';
const red = (s) => `\x1b[31m${s}\x1b[0m`;
const dim = (s) => `\x1b[2m${s}\x1b[0m`;

/** words splits a command line as a shell would for plain words, 'single'
 *  and "double" quotes and backslash escapes: `a "b c" 'd'` → ['a', 'b c', 'd']. */
export function words(line) {
  const out = [];
  let cur = null;
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = '';
      else if (c === '\\' && quote === '"' && i + 1 < line.length) cur += line[++i];
      else cur += c;
    } else if (c === '"' || c === "'") { quote = c; cur = cur || ''; }
    else if (c === '\\' && i + 1 < line.length) cur = (cur || '') + line[++i];
    else if (/\s/.test(c)) { if (cur !== null) out.push(cur); cur = null; }
    else cur = (cur || '') + c;
  }
  if (quote) throw new Error(`unterminated ${quote} quote`);
  if (cur !== null) out.push(cur);
  return out;
}

/** refuse returns why a command cannot run in the browser, or ''. */
export function refuse(args) {
  const verb = args.find((a) => !a.startsWith('-')) || '';
  const follow = verb === 'logs' && args.some((a) => a === '-f' || a === '--follow' || a.startsWith('--follow='));
  if (!NEED_RUNTIME.has(verb) && !follow) return '';
  return `kubectl ${verb}${follow ? ' -f' : ''} needs a container runtime behind the API; this sandbox has the API only (no kubelet, no containers).\n`;
}

function helpText(names) {
  return [
    'Runs the real kubectl (v1.37.2, as WebAssembly) against this sandbox.',
    '  kubectl …        e.g. kubectl get ns, kubectl apply -f deployment.yaml, kubectl get pods -w',
    '  ls, cat <file>   the ready manifests for -f (from the scenarios)',
    '  clear, help',
    'Keys: Tab completes, ↑/↓ history, ←/→ Home/End edit, Ctrl+C stops a command or drops the line,',
    '      Ctrl+L clears, Ctrl+Shift+C / Ctrl+Shift+V copy and paste, Shift+Tab leaves the terminal.',
    'exec, attach, port-forward, cp, debug, proxy and logs -f need a container runtime: not here.',
    `Files: ${names.join('  ') || '(none)'}`,
    '',
  ].join('\n');
}

// KEYS: the line editor's escape sequences (xterm sends both CSI and SS3 forms).
const KEYS = {
  '\x1b[A': 'up', '\x1bOA': 'up', '\x1b[B': 'down', '\x1bOB': 'down',
  '\x1b[C': 'right', '\x1bOC': 'right', '\x1b[D': 'left', '\x1bOD': 'left',
  '\x1b[H': 'home', '\x1bOH': 'home', '\x1b[1~': 'home', '\x01': 'home',
  '\x1b[F': 'end', '\x1bOF': 'end', '\x1b[4~': 'end', '\x05': 'end',
  '\x1b[3~': 'delete', '\x7f': 'backspace', '\b': 'backspace',
  '\r': 'enter', '\x03': 'interrupt', '\x0c': 'clear', '\x15': 'cut',
};

// cobra's ShellCompDirective bits (github.com/spf13/cobra completions.go)
const COMP_ERROR = 1;
const COMP_NO_SPACE = 2;
const COMP_NO_FILE = 4;

/** parseCompletion reads `kubectl __complete` output — one candidate a
 *  line ("name\tdescription"), then ":directive" — into {items, directive}:
 *  "pods\tdesc\nservices\n:4\n" → {items: ['pods', 'services'], directive: 4}. */
export function parseCompletion(out) {
  const lines = out.split('\n').filter((l) => l !== '');
  let directive = 0;
  if (lines.length && /^:\d+$/.test(lines[lines.length - 1])) directive = Number(lines.pop().slice(1));
  return { items: lines.map((l) => l.split('\t')[0]).filter((x) => x), directive };
}

/** commonPrefix(['deployments', 'deployment.apps']) → 'deployment'. */
export function commonPrefix(xs) {
  if (!xs.length) return '';
  let p = xs[0];
  for (const x of xs) while (!x.startsWith(p)) p = p.slice(0, -1);
  return p;
}

export function createTerminal(ks, { files = async () => ({}) } = {}) {
  const el = h('div.kube-term', { 'aria-label': 'kubectl terminal' });
  el.dataset.state = 'loading';
  const history = [];
  let at = 0;          // history index ↑/↓ are at (history.length: the new line)
  let draft = START;   // the new line, kept while walking the history
  let line = START;
  let pos = line.length;
  let cursor = 0;      // cursor cell offset from the prompt's start
  let running = null; // AbortController of the running command
  let endsLine = true; // the last output ended with a newline
  let term = null;
  let fit = null;
  let loading = null;
  let lastTab = '';     // the line a Tab left unchanged: a second Tab lists

  const write = (s) => { if (s) { term.write(s); endsLine = /\n$/.test(s.replace(/\x1b\[[0-9;]*m/g, '')); } };

  /** draw rewrites the prompt and line from the prompt's first row, then puts
   *  the cursor at pos (the line may wrap over several rows). */
  function draw(full = true) {
    const cols = term.cols;
    let s = '';
    if (full) {
      const up = Math.floor(cursor / cols);
      s += (up ? `\x1b[${up}A` : '') + '\r\x1b[J';
    }
    const end = PROMPT_WIDTH + line.length;
    s += PROMPT + line;
    if (end % cols === 0) s += '\r\n'; // leave xterm's pending-wrap column
    const target = PROMPT_WIDTH + pos;
    const up = Math.floor(end / cols) - Math.floor(target / cols);
    s += (up > 0 ? `\x1b[${up}A` : '') + `\x1b[${(target % cols) + 1}G`;
    cursor = target;
    term.write(s);
  }

  function prompt() {
    if (!endsLine) term.write('\r\n');
    endsLine = true;
    line = START; pos = line.length; draft = START; at = history.length;
    draw(false);
  }

  function setLine(text) { line = text; pos = text.length; draw(); }

  /** exec runs one command line and writes its output; resolves to {code}. */
  async function exec(text) {
    let args;
    try { args = words(text.trim()); } catch (e) { write(red(`error: ${e.message}\n`)); return { code: 2 }; }
    if (!args.length) return { code: 0 };
    const ready = await files();
    switch (args[0]) {
      case 'clear': term.clear(); return { code: 0 };
      case 'help': write(helpText(Object.keys(ready))); return { code: 0 };
      case 'ls': write(Object.keys(ready).join('\n') + '\n'); return { code: 0 };
      case 'cat': {
        const missing = args.slice(1).filter((n) => !(n in ready));
        for (const n of args.slice(1)) if (n in ready) write(ready[n]);
        if (missing.length) write(red(missing.map((n) => `cat: ${n}: No such file\n`).join('')));
        return { code: missing.length ? 1 : 0 };
      }
      case 'kubectl': break;
      default: write(red(`${args[0]}: only kubectl, ls, cat, clear and help run here (try help)\n`)); return { code: 127 };
    }
    args = args.slice(1);
    const why = refuse(args);
    if (why) { write(red(why)); return { code: 1 }; }
    running = new AbortController();
    el.dataset.state = 'running';
    try {
      const r = await ks.kubectl(args, {
        files: ready,
        signal: running.signal,
        onOutput: (fd, out) => write(fd === 2 ? red(out) : out),
      });
      if (r.code === 130) write((endsLine ? '' : '\r\n') + dim('^C') + '\n');
      else if (r.code) write((endsLine ? '' : '\r\n') + dim(`(exit ${r.code})`) + '\n');
      return r;
    } catch (e) {
      write(red(`${e.message || e}\n`));
      return { code: 1 };
    } finally {
      running = null;
    }
  }

  /** submit runs the line being edited: it goes to the history, its output
   *  follows it, then a new prompt. */
  async function submit() {
    const text = line;
    if (text.trim() && text !== history[history.length - 1]) history.push(text);
    pos = line.length; draw();
    term.write('\r\n');
    endsLine = true;
    el.dataset.state = 'running';
    try {
      return await exec(text);
    } finally {
      el.dataset.state = 'idle';
      prompt();
    }
  }

  /** complete runs kubectl's completion for the line up to the cursor and
   *  inserts what is certain; a second Tab with nothing to add lists the
   *  candidates under the line. */
  async function complete() {
    const before = line.slice(0, pos);
    let args;
    try { args = words(before); } catch { return; }
    if (args[0] !== 'kubectl') return;
    args = args.slice(1);
    const current = /\s$/.test(before) || !args.length ? '' : args.pop();
    running = new AbortController();
    el.dataset.state = 'completing';
    try {
      await completeWith(args, current, before);
    } catch { /* no completion */ } finally {
      running = null;
      el.dataset.state = 'idle';
    }
  }

  async function completeWith(args, current, before) {
    const r = await ks.kubectl(['__complete', ...args, current], { files: await files(), signal: running.signal });
    let { items, directive } = parseCompletion(r.stdout || '');
    if (directive & COMP_ERROR) return;
    if (!items.length && !(directive & COMP_NO_FILE)) items = Object.keys(await files());
    items = items.filter((x) => x.startsWith(current));
    if (!items.length) return;
    let add = commonPrefix(items).slice(current.length);
    if (items.length === 1 && !(directive & COMP_NO_SPACE)) add += ' ';
    if (add) {
      line = line.slice(0, pos) + add + line.slice(pos);
      pos += add.length;
      lastTab = '';
      draw();
      return;
    }
    if (lastTab !== line) { lastTab = line; return; }
    pos = line.length; draw();
    write('\n' + items.join('  ') + '\n');
    pos = before.length; draw(false);
  }

  function edit(data) {
    const key = KEYS[data];
    if (running) { if (key === 'interrupt') running.abort(); return; }
    switch (key) {
      case 'enter': submit(); return;
      case 'interrupt': pos = line.length; draw(); term.write(dim('^C') + '\r\n'); endsLine = true; prompt(); return;
      case 'clear': term.clear(); return;
      case 'left': if (pos > 0) { pos--; draw(); } return;
      case 'right': if (pos < line.length) { pos++; draw(); } return;
      case 'home': pos = 0; draw(); return;
      case 'end': pos = line.length; draw(); return;
      case 'backspace': if (pos > 0) { line = line.slice(0, pos - 1) + line.slice(pos); pos--; draw(); } return;
      case 'delete': if (pos < line.length) { line = line.slice(0, pos) + line.slice(pos + 1); draw(); } return;
      case 'cut': line = line.slice(pos); pos = 0; draw(); return;
      case 'up':
        if (at > 0) { if (at === history.length) draft = line; setLine(history[--at]); }
        return;
      case 'down':
        if (at < history.length) { at++; setLine(at < history.length ? history[at] : draft); }
        return;
      default:
    }
    if (data.startsWith('\x1b')) return; // other keys (F1, PageUp, …)
    // typed or pasted text: a pasted newline becomes a space, other controls go
    const text = data.replace(/\r\n|\r|\n|\t/g, ' ').replace(/[\x00-\x1f\x7f]/g, '');
    if (!text) return;
    line = line.slice(0, pos) + text + line.slice(pos);
    pos += text.length;
    draw();
  }

  /** keys decides which key events xterm handles: false leaves one to the
   *  browser (Tab moves focus, Ctrl+V pastes) or to us (copy). */
  function keys(e) {
    const mod = e.ctrlKey || e.metaKey;
    const k = e.key.toLowerCase();
    if (e.key === 'Tab') {
      if (e.shiftKey || mod || e.altKey) return false; // leaves the terminal
      e.preventDefault();
      if (e.type === 'keydown' && !running) complete();
      return false;
    }
    if (mod && k === 'v') return false;
    if (mod && k === 'c' && (e.shiftKey || term.hasSelection())) {
      if (e.type === 'keydown') {
        const sel = term.getSelection();
        if (sel && navigator.clipboard) navigator.clipboard.writeText(sel).catch(() => {});
        if (!e.shiftKey) term.clearSelection();
        e.preventDefault();
      }
      return false;
    }
    return true;
  }

  function load() {
    // shown (or about to run a command): start kubectl's load beside xterm's
    if (!loading && ks.preloadKubectl) ks.preloadKubectl();
    loading = loading || (async () => {
      const css = h('link', { rel: 'stylesheet', href: new URL('../vendor/xterm.css', import.meta.url).href });
      const cssLoaded = new Promise((resolve) => { css.onload = resolve; css.onerror = resolve; });
      document.head.append(css);
      let mod;
      try { mod = await import('../vendor/xterm.js'); } catch (e) {
        el.dataset.state = 'failed';
        el.textContent = 'The terminal (playground/vendor/xterm.js) is not built: run make playground-build.';
        throw e;
      }
      await cssLoaded;
      term = new mod.Terminal({
        convertEol: true, cursorBlink: true, scrollback: 5000, fontSize: 13,
        fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
        theme: { background: '#111417', foreground: '#e6e6e6', selectionBackground: '#3a4a5c', red: '#ff8a80', green: '#8fd19e' },
      });
      fit = new mod.FitAddon();
      term.loadAddon(fit);
      term.attachCustomKeyEventHandler(keys);
      term.onData(edit);
      term.open(el);
      const refit = () => { if (el.offsetParent && fit.proposeDimensions()) fit.fit(); };
      new ResizeObserver(refit).observe(el);
      refit();
      term.write(dim('kubectl in the browser — type help for the commands, keys and ready manifests.') + '\r\n');
      el.dataset.state = 'idle';
      prompt();
    })();
    return loading;
  }

  /** run types line at the prompt and runs it (as Enter would): {code, …}. */
  async function run(text) {
    await load();
    if (running) throw new Error('a command is running');
    line = text; pos = text.length; draw();
    const r = await submit();
    await new Promise((resolve) => term.write('', resolve)); // xterm parses writes later: let text() see them
    return r;
  }

  /** text is what the terminal shows (its buffer, wrapped rows joined,
   *  trailing blanks dropped): "…\n$ kubectl get ns\nNAME …\n$ kubectl\n". */
  function text() {
    if (!term) return '';
    const buf = term.buffer.active;
    let out = '';
    for (let i = 0; i < buf.length; i++) {
      const row = buf.getLine(i);
      if (i > 0 && !row.isWrapped) out += '\n';
      out += row.translateToString(true);
    }
    return out.replace(/ +$/gm, '').replace(/\n*$/, '\n');
  }

  return {
    el, run, text, load,
    focus: () => load().then(() => { if (term) { if (fit) fit.fit(); term.focus(); } }),
    get input() { return el.querySelector('.xterm-helper-textarea'); },
  };
}
