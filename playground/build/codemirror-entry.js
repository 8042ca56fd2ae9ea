// esbuild entry for playground/vendor/codemirror.js (built by `make
// playground-build`, never committed): CodeMirror 6 with YAML and JSON, as
// one local ES module so that no asset comes from a CDN. Completion and
// hover (@codemirror/autocomplete, hoverTooltip) ask the page's callbacks.
import { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection, placeholder, hoverTooltip } from '@codemirror/view';
import { autocompletion, completionKeymap, startCompletion } from '@codemirror/autocomplete';
import { EditorState, Compartment } from '@codemirror/state';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { syntaxHighlighting, defaultHighlightStyle, indentOnInput, bracketMatching, indentUnit } from '@codemirror/language';
import { json } from '@codemirror/lang-json';
import { yaml } from '@codemirror/lang-yaml';

/**
 * createEditor mounts an editor in parent.
 *   const ed = createEditor(div, {doc: 'a: 1', lang: 'yaml', onChange, onSubmit});
 *   ed.value; ed.value = 'b: 2'; ed.setLanguage('json'); ed.focus();
 * Tab indents; Escape then Tab leaves the editor (CodeMirror's focus escape),
 * Ctrl/Cmd+Enter calls onSubmit.
 * complete(text, pos, lang, explicit) → {from, options: [{label, detail, info, apply}]} | null
 * (Ctrl+Space asks explicitly); hover(text, pos, lang) → {from, to, dom} | null.
 */
export function createEditor(parent, { doc = '', lang = 'yaml', onChange, onSubmit, label = 'request body', complete, hover } = {}) {
  const language = new Compartment();
  let current = lang;
  const help = [];
  if (complete) {
    help.push(autocompletion({
      override: [async (ctx) => {
        const r = await complete(ctx.state.doc.toString(), ctx.pos, current, ctx.explicit);
        return r && r.options.length ? { from: r.from, options: r.options, validFor: /^"?[\w.\-/$]*$/ } : null;
      }],
      icons: false,
    }));
  }
  if (hover) {
    help.push(hoverTooltip(async (view, pos) => {
      const r = await hover(view.state.doc.toString(), pos, current);
      return r ? { pos: r.from, end: r.to, above: true, create: () => ({ dom: r.dom }) } : null;
    }, { hoverTime: 250 }));
  }
  const langExt = (l) => (l === 'json' ? json() : yaml());
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(), history(), drawSelection(), highlightActiveLine(), indentOnInput(), bracketMatching(),
        indentUnit.of('  '),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        placeholder('(no body)'),
        keymap.of([
          { key: 'Mod-Enter', run: () => { onSubmit && onSubmit(); return true; } },
          ...completionKeymap, ...defaultKeymap, ...historyKeymap, indentWithTab,
        ]),
        help,
        language.of(langExt(lang)),
        EditorView.contentAttributes.of({ 'aria-label': label }),
        EditorView.updateListener.of((u) => { if (u.docChanged && onChange) onChange(); }),
      ],
    }),
  });
  return {
    view,
    get value() { return view.state.doc.toString(); },
    set value(text) { view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: String(text) } }); },
    setLanguage(l) { current = l; view.dispatch({ effects: language.reconfigure(langExt(l)) }); },
    /** complete opens the completion list at the cursor, as Ctrl+Space does. */
    complete() { return startCompletion(view); },
    focus() { view.focus(); },
  };
}
