// editor mounts the body editor: CodeMirror 6 from the local bundle
// (playground/vendor/codemirror.js, built by `make playground-build`), or a
// plain <textarea> when the bundle is missing. Both expose
// {value, setLanguage(lang), focus(), kind}.
let bundle;

export async function mountEditor(parent, opts = {}) {
  if (bundle === undefined) {
    // A literal specifier, so that web/sw.js finds it when it stores the page for offline use.
    bundle = import('../vendor/codemirror.js').catch(() => null);
  }
  const cm = await bundle;
  if (cm && cm.createEditor) return Object.assign(cm.createEditor(parent, opts), { kind: 'codemirror' });
  return textarea(parent, opts);
}

function textarea(parent, { doc = '', onChange, onSubmit, label = 'request body' }) {
  const ta = document.createElement('textarea');
  ta.className = 'plain-editor';
  ta.spellcheck = false;
  ta.value = doc;
  ta.setAttribute('aria-label', label);
  ta.addEventListener('input', () => onChange && onChange());
  ta.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); onSubmit && onSubmit(); }
  });
  parent.append(ta);
  return {
    kind: 'textarea',
    get value() { return ta.value; },
    set value(t) { ta.value = String(t); },
    setLanguage() {},
    focus() { ta.focus(); },
  };
}
