// YAML for the playground, read and written by the maintained `yaml`
// package (eemeli/yaml; bundled into playground/vendor/yaml.js by `make
// playground-build`, like CodeMirror). YAML 1.1, as Kubernetes reads it
// (sigs.k8s.io/yaml): "yes", "on", "n" are booleans, so they are written
// quoted. Anchors, aliases, tags and multi-document streams are read.
//
//   stringify({metadata: {name: 'x'}, data: {a: '1'}})
//   → "metadata:\n  name: x\ndata:\n  a: \"1\"\n"   (kubectl's layout)
//   parse('a: 1\nb: [x, "y"]\n') → {a: 1, b: ['x', 'y']}
//   parseAll('a: 1\n---\nb: 2\n') → [{a: 1}, {b: 2}]
import { Document, visit, parseDocument, parseAllDocuments, isMap, isSeq, isPair, isScalar } from '../vendor/yaml.js';

const READ = { version: '1.1', uniqueKeys: true };
const WRITE = { version: '1.1', lineWidth: 0, indentSeq: false, aliasDuplicateObjects: false };

/** YAMLError is thrown by parse with a 1-based line number. */
export class YAMLError extends Error {
  constructor(message, line) {
    super(line ? `line ${line}: ${message}` : message);
    this.name = 'YAMLError';
    this.line = line;
  }
}

// check throws the first error of a parsed document as a YAMLError.
function check(doc) {
  const err = doc.errors[0];
  if (!err) return doc;
  const line = err.linePos && err.linePos[0] ? err.linePos[0].line : undefined;
  throw new YAMLError(err.message.split(/ at line \d+, column \d+/)[0], line);
}

/** parse reads one YAML (or JSON) document into plain JSON values; '' is null. */
export function parse(text) {
  return check(parseDocument(String(text), READ)).toJS({ maxAliasCount: 1000 });
}

/** parseAll reads every document of a stream ('---' between them); empty documents are left out. */
export function parseAll(text) {
  return parseAllDocuments(String(text), READ).map((d) => check(d).toJS({ maxAliasCount: 1000 })).filter((v) => v !== null);
}

/** documents splits a stream into the text of each non-empty document, as written. */
export function documents(text) {
  return parseAllDocuments(String(text), READ).filter((d) => check(d).toJS() !== null)
    .map((d) => String(text).slice(d.contents.range[0], d.range[1]).replace(/\s*$/, '\n'));
}

/** stringify renders a value as a YAML document (kubectl's layout: "- " under its key). */
export function stringify(value) {
  const doc = new Document(value === undefined ? null : value, WRITE);
  // A string with a blank line of spaces ("a\n \n") does not survive a
  // block scalar (yaml 2.9 writes "|+" and reads back "\n"): quote it.
  visit(doc, {
    Scalar(_, node) { if (typeof node.value === 'string' && /(^|\n)[ \t]+(\n|$)/.test(node.value)) node.type = 'QUOTE_DOUBLE'; },
  });
  return doc.toString(WRITE);
}

/**
 * lines renders a value as YAML lines, each with the path of the value it
 * introduces (object keys as strings, list indexes as numbers), so views
 * can colour or link a line: {text: '  name: x', path: ['metadata','name']}.
 * A line continuing a value (a block scalar) has that value's path.
 */
export function lines(value) {
  const text = stringify(value).replace(/\n$/, '');
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  const lineOf = (offset) => { let lo = 0; let hi = starts.length - 1; while (lo < hi) { const m = (lo + hi + 1) >> 1; if (starts[m] <= offset) lo = m; else hi = m - 1; } return lo; };
  const paths = new Array(starts.length).fill(null);
  const mark = (node, path, from) => {
    const first = lineOf(from);
    if (isScalar(node) || !node) {
      const last = node && node.range ? lineOf(Math.max(node.range[0], node.range[1] - 1)) : first;
      for (let l = first; l <= last; l++) paths[l] = path;
      return;
    }
    paths[first] = paths[first] || path;
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const p = [...path, isScalar(pair.key) ? String(pair.key.value) : String(pair.key)];
        paths[lineOf(pair.key.range[0])] = p;
        mark(pair.value, p, pair.value && pair.value.range ? pair.value.range[0] : pair.key.range[0]);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => mark(item, [...path, i], item.range[0]));
    }
  };
  const doc = parseDocument(text, READ);
  if (doc.contents) mark(doc.contents, [], doc.contents.range[0]);
  let last = [];
  return text.split('\n').map((t, i) => {
    last = paths[i] || last;
    return { text: t, path: last };
  });
}
