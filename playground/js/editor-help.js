// The body editor's schema help: field-name completion and a field's
// description on hover, keyed by the kind being edited (the document's
// apiVersion/kind, else the kind of the console's path) and the cursor's
// path (cursor-path.js), answered from the OpenAPI (schema.js). Without a
// description in the schema, hover shows the type and whether the field is
// required.
//
//   const help = editorHelp({ fallbackKind: async () => ({apiVersion:'apps/v1', kind:'Deployment'}) });
//   await help.complete('spec:\n  repl', 12, 'yaml')
//     → {from: 8, options: [{label:'replicas', detail:'integer', info:'…', apply:'replicas: '}], kind}
//   await help.hover('spec:\n  replicas: 2', 10, 'yaml')
//     → {from: 8, to: 16, name:'replicas', type:'integer', required:false, description:'', kind}
import { yamlAt, yamlKeyAt, jsonAt, jsonKeyAt, docKind } from './cursor-path.js';
import { kindSchema, fieldsAt, fieldInfo } from './schema.js';

const isJSON = (lang, text) => lang === 'json' || /^\s*[{[]/.test(text);

/** editorHelp → {complete(text, pos, lang, explicit), hover(text, pos, lang), kindOf(text, pos)}. */
export function editorHelp({ fallbackKind = async () => null } = {}) {
  async function kindOf(text, pos) {
    const k = docKind(text, pos) || await fallbackKind().catch(() => null);
    if (!k) return null;
    const s = await kindSchema(k.apiVersion, k.kind).catch(() => null);
    return s ? { ...k, schema: s } : null;
  }
  return {
    kindOf,
    /** complete: the field names at pos, when pos is where a key is typed (Ctrl+Space: explicit, even before a letter). */
    async complete(text, pos, lang, explicit = false) {
      const json = isJSON(lang, text);
      const at = json ? jsonAt(text, pos) : yamlAt(text, pos);
      if (!at || (!at.prefix && !explicit)) return null;
      const k = await kindOf(text, pos);
      if (!k) return null;
      const fields = fieldsAt(k.schema, at.path);
      if (!fields.length) return null;
      return {
        from: at.from,
        kind: `${k.apiVersion} ${k.kind}`,
        options: fields.map((f) => ({
          label: f.name,
          detail: f.type + (f.required ? ' · required' : ''),
          info: f.description || `${f.name} <${f.type}>${f.required ? ', required' : ''}`,
          apply: !json ? `${f.name}: ` : at.quoted ? `${f.name}": ` : `"${f.name}": `,
          boost: f.required ? 1 : 0,
        })),
      };
    },
    async hover(text, pos, lang) {
      const at = isJSON(lang, text) ? jsonKeyAt(text, pos) : yamlKeyAt(text, pos);
      if (!at) return null;
      const k = await kindOf(text, pos);
      const info = k && fieldInfo(k.schema, at.path);
      if (!info) return null;
      return { from: at.from, to: at.to, ...info, path: at.path.filter((p) => p !== '[]').join('.'), kind: `${k.apiVersion} ${k.kind}` };
    },
  };
}
