// The playground's Terminal tab: type kubectl commands, the real kubectl
// (ks.kubectl, web/kubectl.js: loaded on the first command) runs them
// against the page's sandbox. A plain terminal (an output log and a
// prompt; @xterm/xterm is not bundled yet): Enter runs, ArrowUp/ArrowDown
// walk the history, Ctrl+C stops a running command (`get -w`; kubectl's
// worker is ended, the next command starts it again), `clear` clears.
// stderr is shown in the error colour.
//
//   const term = createTerminal(ks);  panel.append(term.el);  await term.run('kubectl get ns');
import { h } from './dom.js';

// NEED_RUNTIME: commands that need a container runtime behind the API.
const NEED_RUNTIME = new Set(['exec', 'attach', 'port-forward', 'cp', 'debug', 'proxy']);

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

export function createTerminal(ks) {
  const out = h('pre.term-out', { 'aria-live': 'polite', tabindex: '0' });
  const input = h('input.term-input', { type: 'text', 'aria-label': 'kubectl command', autocomplete: 'off', spellcheck: 'false', value: 'kubectl ' });
  const el = h('div.terminal', out, h('form.term-line', h('span.term-prompt', '$'), input));
  const history = [];
  let at = 0;
  let running = null; // AbortController of the running command

  const write = (text, cls) => {
    out.append(cls ? h('span.' + cls, text) : document.createTextNode(text));
    out.scrollTop = out.scrollHeight;
  };

  async function run(line) {
    write(`$ ${line}\n`, 'term-cmd');
    let args;
    try { args = words(line.trim()); } catch (e) { write(`error: ${e.message}\n`, 'error'); return { code: 2 }; }
    if (!args.length) return { code: 0 };
    if (args[0] === 'clear') { out.textContent = ''; return { code: 0 }; }
    if (args[0] !== 'kubectl') { write(`${args[0]}: only kubectl runs here\n`, 'error'); return { code: 127 }; }
    args = args.slice(1);
    const why = refuse(args);
    if (why) { write(why, 'error'); return { code: 1 }; }
    running = new AbortController();
    el.dataset.state = 'running';
    try {
      const r = await ks.kubectl(args, {
        signal: running.signal,
        onOutput: (fd, text) => write(text, fd === 2 ? 'error' : ''),
      });
      if (r.code === 130) write('^C\n', 'muted');
      else if (r.code) write(`(exit ${r.code})\n`, 'muted');
      return r;
    } finally {
      running = null;
      el.dataset.state = 'idle';
    }
  }

  el.querySelector('form').addEventListener('submit', async (e) => {
    e.preventDefault();
    if (running) return;
    const line = input.value;
    if (line.trim()) { history.push(line); at = history.length; }
    input.value = 'kubectl ';
    await run(line);
    input.focus();
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'c' && e.ctrlKey && input.selectionStart === input.selectionEnd) {
      if (running) { e.preventDefault(); running.abort(); }
    } else if (e.key === 'ArrowUp' && at > 0) {
      e.preventDefault(); input.value = history[--at];
    } else if (e.key === 'ArrowDown' && at < history.length) {
      e.preventDefault(); at++; input.value = at < history.length ? history[at] : 'kubectl ';
    }
  });
  el.dataset.state = 'idle';
  return { el, run, input };
}
