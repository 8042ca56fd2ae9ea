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

/** kubectlView(lines, files, ks) → {el, runAll(): Promise<boolean>} (true: every command exited 0). */
export function kubectlView(lines, files, ks) {
  const manifests = Object.entries(files).map(([name, text]) =>
    h('figure.kx-file', h('figcaption.muted.small', name), h('pre.code', text)));
  const steps = lines.map((line) => step(line, files, ks));
  const el = h('div.kx', manifests, steps.map((s) => s.el),
    h('div.kx-actions', h('button', { type: 'button', onclick: () => runAll() }, 'Run all')));
  async function runAll() {
    let ok = true;
    for (const s of steps) ok = (await s.run()) && ok;
    return ok;
  }
  return { el, runAll };
}

function step(line, files, ks) {
  const input = h('input.kx-cmd', { type: 'text', 'aria-label': 'kubectl command', spellcheck: 'false', value: line });
  const out = h('pre.kx-out.term-out', { hidden: true });
  const button = h('button', { type: 'button' }, 'Run');
  const el = h('div.kx-step', h('div.kx-line', h('span.term-prompt', '$'), input, button), out);
  async function run() {
    out.hidden = false;
    out.textContent = '';
    el.dataset.state = 'running';
    button.disabled = true;
    const write = (text, cls) => out.append(cls ? h('span.' + cls, text) : document.createTextNode(text));
    let code = 1;
    try {
      const args = words(input.value.trim());
      if (args[0] !== 'kubectl') throw new Error('a step is one kubectl command');
      const why = refuse(args.slice(1));
      if (why) throw new Error(why.trim());
      const r = await ks.kubectl(args.slice(1), { files, onOutput: (fd, text) => write(text, fd === 2 ? 'error' : '') });
      code = r.code;
      if (code) write(`(exit ${code})\n`, 'muted');
    } catch (e) {
      write(`error: ${e.message}\n`, 'error');
    } finally {
      button.disabled = false;
      el.dataset.state = code === 0 ? 'ok' : 'failed';
    }
    return code === 0;
  }
  button.addEventListener('click', run);
  input.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); run(); } });
  return { el, run };
}
