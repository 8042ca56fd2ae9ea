// A small YAML reader/writer for the playground: enough for Kubernetes
// objects (block maps and lists, flow {…}/[…] collections, quoted and plain
// scalars, | and > block scalars, comments, one document). No anchors,
// tags or multi-document streams: the API server parses what we send as
// application/yaml or application/apply-patch+yaml itself; this module is
// for showing objects and for turning the editor's YAML into JSON for the
// JSON-only PATCH types.
//
//   stringify({metadata: {name: 'x'}, data: {a: '1'}})
//   → "metadata:\n  name: x\ndata:\n  a: \"1\"\n"
//   parse('a: 1\nb: [x, "y"]\n') → {a: 1, b: ['x', 'y']}

/** YAMLError is thrown by parse with a 1-based line number. */
export class YAMLError extends Error {
  constructor(message, line) {
    super(line ? `line ${line}: ${message}` : message);
    this.name = 'YAMLError';
    this.line = line;
  }
}

const isMap = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

// ---------------------------------------------------------------- writer

const RESERVED = /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const NUMBERISH = /^[-+]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$|^0x[0-9a-fA-F]+$|^0o?[0-7]+$/;

/** needsQuotes reports whether a string must be quoted to read back as that string. */
function needsQuotes(s) {
  if (s === '') return true;
  if (RESERVED.test(s) || NUMBERISH.test(s)) return true;
  if (/^[\s]|[\s]$/.test(s)) return true;
  if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(s) && !/^-[^\s-]/.test(s)) return true;
  if (/^- |^-$|^---/.test(s)) return true;
  if (/: |:$| #|[\n\r\t\u0000-\u001f\u007f]/.test(s)) return true;
  return false;
}

export function scalar(v) {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean' || typeof v === 'number' || typeof v === 'bigint') return String(v);
  const s = String(v);
  return needsQuotes(s) ? JSON.stringify(s) : s;
}

function keyText(k) {
  return needsQuotes(k) ? JSON.stringify(k) : k;
}

/**
 * lines renders a value as YAML lines, each with the path of the value it
 * introduces (object keys as strings, list indexes as numbers), so views
 * can colour or link a line: {text: '  name: x', path: ['metadata','name'], depth}.
 */
export function lines(value, path = [], indent = 0) {
  const out = [];
  const pad = ' '.repeat(indent);
  const emit = (text, p) => out.push({ text, path: p });
  if (isMap(value)) {
    const keys = Object.keys(value);
    if (!keys.length) { emit(pad + '{}', path); return out; }
    for (const k of keys) pushEntry(out, pad + keyText(k) + ':', value[k], [...path, k], indent, false);
  } else if (Array.isArray(value)) {
    if (!value.length) { emit(pad + '[]', path); return out; }
    value.forEach((item, i) => pushItem(out, pad, item, [...path, i], indent));
  } else {
    for (const t of scalarLines(value, pad)) emit(t, path);
  }
  return out;
}

// pushEntry writes "key: value" or "key:" plus a nested block.
function pushEntry(out, head, v, path, indent) {
  if (isMap(v) && Object.keys(v).length) {
    out.push({ text: head, path });
    out.push(...lines(v, path, indent + 2));
  } else if (Array.isArray(v) && v.length) {
    out.push({ text: head, path });
    out.push(...lines(v, path, indent)); // kubectl style: "- " under the key
  } else if (typeof v === 'string' && v.includes('\n') && !/[\r\u0000-\u0008\u000b-\u001f]/.test(v) && !/^\s/.test(v) && !/\n\n$/.test(v) && !/[ \t]\n|[ \t]$/.test(v)) {
    // a block scalar: | keeps one final newline, |- none (others are quoted)
    const body = v.endsWith('\n') ? v.slice(0, -1) : v;
    const chomp = v.endsWith('\n') ? '' : '-';
    out.push({ text: head + ' |' + chomp, path });
    const pad = ' '.repeat(indent + 2);
    for (const l of body.split('\n')) out.push({ text: l ? pad + l : '', path });
  } else {
    out.push({ text: head + ' ' + inline(v), path });
  }
}

function pushItem(out, pad, item, path, indent) {
  if (isMap(item) && Object.keys(item).length) {
    const sub = lines(item, path, indent + 2);
    sub[0] = { ...sub[0], text: pad + '- ' + sub[0].text.slice(indent + 2) };
    out.push(...sub);
  } else if (Array.isArray(item) && item.length) {
    const sub = lines(item, path, indent + 2);
    sub[0] = { ...sub[0], text: pad + '- ' + sub[0].text.slice(indent + 2) };
    out.push(...sub);
  } else {
    pushEntry(out, pad + '-', item, path, indent);
  }
}

function inline(v) {
  if (isMap(v)) return '{}';
  if (Array.isArray(v)) return '[]';
  return scalar(v);
}

function scalarLines(v, pad) {
  return [pad + inline(v)];
}

/** stringify renders a value as a YAML document (kubectl's layout). */
export function stringify(value) {
  return lines(value).map((l) => l.text).join('\n') + '\n';
}

// ---------------------------------------------------------------- reader

/** parse reads one YAML document into plain JSON values. JSON input works too. */
export function parse(text) {
  const src = String(text);
  const trimmed = src.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try { return JSON.parse(trimmed); } catch (e) { /* flow YAML: go on */ }
  }
  const raw = src.replace(/\r\n?/g, '\n').split('\n');
  const rows = [];
  for (let i = 0; i < raw.length; i++) {
    const line = raw[i];
    if (/^(---|\.\.\.)\s*(#.*)?$/.test(line)) {
      if (rows.some((r) => r.text.trim() && !r.text.trim().startsWith('#'))) {
        if (line.startsWith('---') && raw.slice(i + 1).some((l) => l.trim() && !l.trim().startsWith('#'))) {
          throw new YAMLError('more than one document', i + 1);
        }
        break;
      }
      continue;
    }
    rows.push({ n: i + 1, text: line });
  }
  const p = new BlockParser(rows);
  p.skipBlank();
  if (p.i >= rows.length) return null;
  const v = p.node(indentOf(rows[p.i].text), null);
  p.skipBlank();
  if (p.i < rows.length) throw new YAMLError('unexpected content (check the indentation)', rows[p.i].n);
  return v;
}

function indentOf(s) {
  const m = /^ */.exec(s);
  if (s[m[0].length] === '\t') throw new YAMLError('tabs are not allowed for indentation');
  return m[0].length;
}

// stripComment removes a trailing " # comment" outside quotes.
function stripComment(s) {
  let q = null;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (q) {
      if (c === '\\' && q === '"') i++;
      else if (c === q) q = null;
    } else if (c === '"' || c === "'") {
      if (i === 0 || /[\s:[{,-]/.test(s[i - 1])) q = c;
    } else if (c === '#' && (i === 0 || /\s/.test(s[i - 1]))) {
      return s.slice(0, i).replace(/\s+$/, '');
    }
  }
  return s.replace(/\s+$/, '');
}

// splitKey finds "key: rest" at the top level of a line (outside quotes and brackets).
function splitKey(s) {
  let i = 0;
  let key;
  if (s[0] === '"' || s[0] === "'") {
    const end = closingQuote(s, 0);
    if (end < 0) return null;
    key = unquote(s.slice(0, end + 1));
    i = end + 1;
    while (s[i] === ' ') i++;
    if (s[i] !== ':' || (i + 1 < s.length && s[i + 1] !== ' ')) return null;
    return { key, rest: s.slice(i + 1).trim() };
  }
  if (/^[[{]/.test(s)) return null;
  for (; i < s.length; i++) {
    if (s[i] === ':' && (i + 1 === s.length || s[i + 1] === ' ')) {
      key = s.slice(0, i).trim();
      return { key, rest: s.slice(i + 1).trim() };
    }
  }
  return null;
}

function closingQuote(s, start) {
  const q = s[start];
  for (let i = start + 1; i < s.length; i++) {
    if (q === '"' && s[i] === '\\') { i++; continue; }
    if (s[i] === q) {
      if (q === "'" && s[i + 1] === "'") { i++; continue; }
      return i;
    }
  }
  return -1;
}

function unquote(s) {
  if (s[0] === "'") return s.slice(1, -1).replace(/''/g, "'");
  try { return JSON.parse(s); } catch (e) {
    throw new YAMLError('bad double-quoted string ' + s);
  }
}

/** plain resolves an unquoted scalar the way YAML 1.1 / sigs.k8s.io/yaml do for common cases. */
export function plain(s) {
  if (s === '' || s === '~' || /^(null|Null|NULL)$/.test(s)) return null;
  // YAML 1.1 booleans, as sigs.k8s.io/yaml (go-yaml v2) reads them for kubectl
  if (/^(true|True|TRUE|y|Y|yes|Yes|YES|on|On|ON)$/.test(s)) return true;
  if (/^(false|False|FALSE|n|N|no|No|NO|off|Off|OFF)$/.test(s)) return false;
  if (/^[-+]?(0|[1-9]\d*)$/.test(s)) {
    const n = Number(s);
    return Number.isSafeInteger(n) ? n : s;
  }
  if (/^[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$/.test(s)) return Number(s);
  return s;
}

function scalarValue(s, n) {
  if (s[0] === '"' || s[0] === "'") {
    const end = closingQuote(s, 0);
    if (end !== s.length - 1) throw new YAMLError('unexpected text after a quoted string', n);
    return unquote(s);
  }
  if (s[0] === '{' || s[0] === '[') return flow(s, n);
  if (/^[&*!]/.test(s)) throw new YAMLError('anchors, aliases and tags are not supported here', n);
  return plain(s);
}

// flow parses a flow collection ({a: 1, b: [x]}) on one logical line.
function flow(s, n) {
  let i = 0;
  const ws = () => { while (i < s.length && /\s/.test(s[i])) i++; };
  const value = () => {
    ws();
    if (s[i] === '{') {
      i++;
      const out = {};
      for (;;) {
        ws();
        if (s[i] === '}') { i++; return out; }
        const k = atom(':');
        ws();
        if (s[i] !== ':') throw new YAMLError('expected ":" in a flow mapping', n);
        i++;
        out[String(k)] = value();
        ws();
        if (s[i] === ',') { i++; continue; }
        if (s[i] === '}') { i++; return out; }
        throw new YAMLError('expected "," or "}" in a flow mapping', n);
      }
    }
    if (s[i] === '[') {
      i++;
      const out = [];
      for (;;) {
        ws();
        if (s[i] === ']') { i++; return out; }
        out.push(value());
        ws();
        if (s[i] === ',') { i++; continue; }
        if (s[i] === ']') { i++; return out; }
        throw new YAMLError('expected "," or "]" in a flow sequence', n);
      }
    }
    return atom('');
  };
  const atom = (stopColon) => {
    ws();
    if (s[i] === '"' || s[i] === "'") {
      const end = closingQuote(s, i);
      if (end < 0) throw new YAMLError('unterminated string', n);
      const v = unquote(s.slice(i, end + 1));
      i = end + 1;
      return v;
    }
    const start = i;
    while (i < s.length && !/[,\]}]/.test(s[i]) && !(stopColon && s[i] === ':' && /[\s,\]}]|^$/.test(s[i + 1] || ''))) i++;
    return plain(s.slice(start, i).trim());
  };
  const v = value();
  ws();
  if (i !== s.length) throw new YAMLError('unexpected text after a flow collection', n);
  return v;
}

class BlockParser {
  constructor(rows) { this.rows = rows; this.i = 0; }

  skipBlank() {
    while (this.i < this.rows.length) {
      const t = this.rows[this.i].text;
      if (t.trim() === '' || t.trim().startsWith('#')) this.i++;
      else break;
    }
  }

  // node parses the block starting at the current row with the given indent.
  node(indent) {
    this.skipBlank();
    const row = this.rows[this.i];
    const body = stripComment(row.text.slice(indent));
    if (body === '-' || body.startsWith('- ')) return this.seq(indent);
    if (splitKey(body)) return this.map(indent);
    // a lone scalar (possibly a multi-line flow collection)
    this.i++;
    return scalarValue(this.joinFlow(body, row.n), row.n);
  }

  // joinFlow appends following rows while a flow collection is open.
  joinFlow(s, n) {
    if (!/^[[{]/.test(s)) return s;
    let depth = 0;
    const count = (t) => {
      let q = null;
      for (let k = 0; k < t.length; k++) {
        const c = t[k];
        if (q) { if (c === '\\' && q === '"') k++; else if (c === q) q = null; } else if (c === '"' || c === "'") q = c;
        else if (c === '[' || c === '{') depth++;
        else if (c === ']' || c === '}') depth--;
      }
    };
    count(s);
    while (depth > 0 && this.i < this.rows.length) {
      const t = stripComment(this.rows[this.i].text).trim();
      this.i++;
      s += ' ' + t;
      count(t);
    }
    if (depth > 0) throw new YAMLError('unterminated flow collection', n);
    return s;
  }

  map(indent) {
    const out = {};
    for (;;) {
      this.skipBlank();
      if (this.i >= this.rows.length) return out;
      const row = this.rows[this.i];
      const ind = indentOf(row.text);
      if (ind < indent) return out;
      if (ind > indent) throw new YAMLError('bad indentation of a mapping entry', row.n);
      const body = stripComment(row.text.slice(indent));
      if (body === '-' || body.startsWith('- ')) return out; // a sequence at the same level ends the map
      const kv = splitKey(body);
      if (!kv) throw new YAMLError(`expected "key: value", got ${JSON.stringify(body)}`, row.n);
      if (Object.prototype.hasOwnProperty.call(out, kv.key)) throw new YAMLError(`duplicate key ${JSON.stringify(kv.key)}`, row.n);
      this.i++;
      out[kv.key] = this.value(kv.rest, indent, row.n, true);
    }
  }

  // value reads what follows "key:" or "- ": inline, a block scalar, or a nested block.
  value(rest, indent, n, inMap) {
    if (/^[|>]/.test(rest)) return this.blockScalar(rest, indent, n);
    if (rest !== '') return scalarValue(this.joinFlow(rest, n), n);
    this.skipBlank();
    if (this.i >= this.rows.length) return null;
    const next = this.rows[this.i];
    const ind = indentOf(next.text);
    const body = stripComment(next.text.slice(ind));
    const isSeq = body === '-' || body.startsWith('- ');
    if (ind > indent || (inMap && ind === indent && isSeq)) return this.node(ind);
    return null;
  }

  seq(indent) {
    const out = [];
    for (;;) {
      this.skipBlank();
      if (this.i >= this.rows.length) return out;
      const row = this.rows[this.i];
      const ind = indentOf(row.text);
      if (ind < indent) return out;
      if (ind > indent) throw new YAMLError('bad indentation of a sequence entry', row.n);
      const body = stripComment(row.text.slice(indent));
      if (!(body === '-' || body.startsWith('- '))) return out;
      const rest = body.slice(1).replace(/^ +/, '');
      if (rest === '') {
        this.i++;
        out.push(this.value('', indent, row.n, false));
        continue;
      }
      const inner = indent + (body.length - rest.length);
      if (rest === '-' || rest.startsWith('- ') || (splitKey(rest) && !/^[[{"']/.test(rest)) || (splitKey(rest) && /^["']/.test(rest))) {
        // "- key: v" or "- - x": the item is a block that starts on this row
        this.rows[this.i] = { n: row.n, text: ' '.repeat(inner) + row.text.slice(inner) };
        out.push(this.node(inner));
      } else {
        this.i++;
        out.push(/^[|>]/.test(rest) ? this.blockScalar(rest, indent, row.n) : scalarValue(this.joinFlow(rest, row.n), row.n));
      }
    }
  }

  blockScalar(head, indent, n) {
    const m = /^([|>])([+-]?)(\d?)([+-]?)\s*$/.exec(head);
    if (!m) throw new YAMLError('bad block scalar header ' + head, n);
    const folded = m[1] === '>';
    const chomp = m[2] || m[4];
    const got = [];
    let blockIndent = m[3] ? indent + Number(m[3]) : -1;
    while (this.i < this.rows.length) {
      const t = this.rows[this.i].text;
      if (t.trim() === '') { got.push(''); this.i++; continue; }
      const ind = indentOf(t);
      if (blockIndent < 0) blockIndent = ind;
      if (ind < blockIndent || ind <= indent) break;
      got.push(t.slice(blockIndent));
      this.i++;
    }
    let trailing = 0;
    while (got.length && got[got.length - 1] === '') { got.pop(); trailing++; }
    let text;
    if (folded) {
      text = '';
      got.forEach((l, k) => {
        if (k === 0) text = l;
        else if (l === '' || got[k - 1] === '' || /^\s/.test(l)) text += '\n' + l;
        else text += ' ' + l;
      });
    } else {
      text = got.join('\n');
    }
    if (!got.length) return '';
    if (chomp === '-') return text;
    if (chomp === '+') return text + '\n'.repeat(trailing + 1);
    return text + '\n';
  }
}
