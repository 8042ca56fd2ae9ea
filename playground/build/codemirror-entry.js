// esbuild entry for playground/vendor/codemirror.js (built by `make
// playground-build`, never committed): CodeMirror 6 with YAML and JSON, as
// one local ES module so that no asset comes from a CDN.
import { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection, placeholder } from '@codemirror/view';
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
 */
export function createEditor(parent, { doc = '', lang = 'yaml', onChange, onSubmit, label = 'request body' } = {}) {
  const language = new Compartment();
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
          ...defaultKeymap, ...historyKeymap, indentWithTab,
        ]),
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
    setLanguage(l) { view.dispatch({ effects: language.reconfigure(langExt(l)) }); },
    focus() { view.focus(); },
  };
}
