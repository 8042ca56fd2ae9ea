// kubectl steps for <kube-example> (kube-example.js): a docs example made
// of kubectl command lines, run by the real kubectl (ks.kubectl, loaded on
// the first Run) against the example's sandbox, output shown as a
// terminal would. Each line can be edited and run again.
//
//   <kube-example title="Apply a manifest" sandbox="ex-apply">
//     <script type="application/yaml" data-file="web.yaml">
//     apiVersion: v1
//     kind: ConfigMap
//     metadata: {name: web}
//     </script>
//     <script type="text/x-kubectl">
//     kubectl apply -f web.yaml
//     kubectl get configmap web -o yaml
//     </script>
//   </kube-example>
//
// Manifests (data-file) are the files `-f name` reads. The commands run in
// the sandbox's default namespace: give a kubectl example a sandbox of its
// own (sandbox="…") to keep it apart from the page's other examples.
import { h } from './dom.js';
import { words, refuse } from './terminal.js';

/** kubectlView(lines, files, ks, {onResult}) → {el, runAll(): Promise<boolean>} (true: every command exited 0).
 *  onResult({ok, message}) after each run: message names the first failed command and its error.
 *  One command: its own Run button is the only one. */
export function kubectlView(lines, files, ks, { onResult = () => {} } = {}) {
  const manifests = Object.entries(files).map(([name, text]) =>
    h('figure.kx-file', h('figcaption.muted.small', name), h('pre.code', text)));
  const report = (i, r) => onResult(r.ok ? r : { ok: false, message: `step ${i + 1} failed: ${r.message} — edit the command and run it again.` });
  const steps = lines.map((line, i) => step(line, files, ks, (r) => report(i, r)));
  const el = h('div.kx', manifests, steps.map((s) => s.el),
    steps.length > 1 ? h('div.kx-actions', h('button', { type: 'button', onclick: () => runAll() }, 'Run all')) : null);
  async function runAll() {
    let first = null;
    for (const [i, s] of steps.entries()) {
      const r = await s.run({ quiet: true });
      if (!r.ok && !first) first = { i, r };
    }
    if (first) report(first.i, first.r);
    else onResult({ ok: true });
    return !first;
  }
  return { el, runAll };
}

function step(line, files, ks, onResult) {
  const input = h('input.kx-cmd', { type: 'text', 'aria-label': 'kubectl command', spellcheck: 'false', value: line });
  const out = h('pre.kx-out.term-out', { hidden: true });
  const button = h('button', { type: 'button' }, 'Run');
  const el = h('div.kx-step', h('div.kx-line', h('span.term-prompt', '$'), input, button), out);
  // run → {ok, message}: message is the command's last error line
  async function run({ quiet = false } = {}) {
    out.hidden = false;
    out.textContent = '';
    el.dataset.state = 'running';
    button.disabled = true;
    const write = (text, cls) => out.append(cls ? h('span.' + cls, text) : document.createTextNode(text));
    let code = 1;
    let message = '';
    try {
      const args = words(input.value.trim());
      if (args[0] !== 'kubectl') throw new Error('a step is one kubectl command');
      const why = refuse(args.slice(1));
      if (why) throw new Error(why.trim());
      const r = await ks.kubectl(args.slice(1), { files, onOutput: (fd, text) => write(text, fd === 2 ? 'error' : '') });
      code = r.code;
      if (code) {
        write(`(exit ${code})\n`, 'muted');
        const last = String(r.stderr || '').trim().split('\n').pop();
        message = `${input.value.trim()} exited ${code}${last ? ': ' + last : ''}`;
      }
    } catch (e) {
      write(`error: ${e.message}\n`, 'error');
      message = `${input.value.trim()}: ${e.message}`;
    } finally {
      button.disabled = false;
      el.dataset.state = code === 0 ? 'ok' : 'failed';
    }
    const result = { ok: code === 0, message };
    if (!quiet) onResult(result);
    return result;
  }
  const click = () => run();
  button.addEventListener('click', click);
  input.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); click(); } });
  return { el, run };
}
