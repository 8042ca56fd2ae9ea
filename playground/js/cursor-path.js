// Where the cursor is in a YAML or JSON body, as a path of keys ('[]' for
// an array's items), read from the text alone (it is usually half typed,
// so no parser would take it). The editor's completion and hover use it
// with schema.js.
//
//   const y = 'spec:\n  template:\n    spec:\n      containers:\n      - ima';
//   yamlAt(y, y.length) → {path: ['spec','template','spec','containers','[]'], prefix: 'ima', from: 54, key: true}
//   jsonAt('{"spec": {"repl', 15) → {path: ['spec'], prefix: 'repl', from: 11, key: true, quoted: true}
//   (from: where the key's name starts, after its opening quote when typed)
//   yamlKeyAt / jsonKeyAt(text, pos): the key under pos → {path (with the key), from, to} or null
//   docKind(text, pos) → {apiVersion, kind} of the document (YAML: the one around pos) or null

// ---- YAML: an indentation stack over the lines of the document

// parseLine splits a line into its items ('- ' at a column) and its key:
// {cols: [{col, seg}], value, blockScalar}; seg '[]' for an item.
function parseLine(line) {
  const parts = [];
  let i = /^ */.exec(line)[0].length;
  while (line[i] === '-' && (line[i + 1] === ' ' || i + 1 === line.length)) {
    parts.push({ col: i, seg: '[]' });
    i += 1;
    while (line[i] === ' ') i++;
  }
  const m = /^("(?:[^"\\]|\\.)*"|'[^']*'|[^\s#'"{[][^:#]*?)\s*:(?:\s+(.*))?$/.exec(line.slice(i));
  let value = '';
  if (m) {
    parts.push({ col: i, seg: m[1].replace(/^["']|["']$/g, '') });
    value = (m[2] || '').replace(/\s+#.*$/, '').trim();
  }
  return { parts, value, keyed: !!m, blockScalar: /^[|>][-+0-9]*$/.test(value) };
}

// push places a line's parts on the stack: entries deeper than (or, for a
// key, at) the first part's column end; an item under a key of the same
// column (kubectl's compact lists) stays under it.
function push(stack, parts) {
  if (!parts.length) return;
  const c = parts[0].col;
  const isItem = parts[0].seg === '[]';
  while (stack.length) {
    const top = stack[stack.length - 1];
    if (top.col > c || (top.col === c && !(isItem && top.seg !== '[]'))) stack.pop();
    else break;
  }
  stack.push(...parts);
}

// docStart is the index of the first line of the YAML document holding line i.
function docStart(lines, i) {
  for (let j = i; j >= 0; j--) if (/^---(\s|$)/.test(lines[j])) return j + 1;
  return 0;
}

// stackBefore scans the lines of the document up to (not incl.) line i.
function stackBefore(lines, i) {
  const stack = [];
  let scalarCol = -1; // inside a block scalar (|, >) whose key is at this column
  for (let j = docStart(lines, i); j < i; j++) {
    const l = lines[j];
    if (!l.trim() || /^\s*#/.test(l)) continue;
    const indent = /^ */.exec(l)[0].length;
    if (scalarCol >= 0 && indent > scalarCol) continue;
    scalarCol = -1;
    const p = parseLine(l);
    push(stack, p.parts);
    if (p.blockScalar) scalarCol = p.parts[p.parts.length - 1].col;
  }
  return stack;
}

const offsetLine = (text, pos) => {
  const before = text.slice(0, pos);
  const lines = text.split('\n');
  const i = before.split('\n').length - 1;
  return { lines, i, col: pos - (before.lastIndexOf('\n') + 1) };
};

/** yamlAt: at a key position (only items and a partial key before the cursor on its line), the path of the mapping being filled. */
export function yamlAt(text, pos) {
  const { lines, i, col } = offsetLine(text, pos);
  const head = lines[i].slice(0, col);
  const m = /^( *)((?:- +)*)([\w.\-/]*)$/.exec(head);
  if (!m) return null;
  const stack = stackBefore(lines, i);
  const parts = [];
  let c = m[1].length;
  for (const d of m[2].match(/- +/g) || []) { parts.push({ col: c, seg: '[]' }); c += d.length; }
  parts.push({ col: c, seg: '' });
  push(stack, parts);
  stack.pop(); // the key being typed
  return { path: stack.map((e) => e.seg), prefix: m[3], from: pos - m[3].length, key: true };
}

/** yamlKeyAt: the key under pos (hover), with its full path. */
export function yamlKeyAt(text, pos) {
  const { lines, i, col } = offsetLine(text, pos);
  const p = parseLine(lines[i]);
  if (!p.keyed) return null;
  const key = p.parts[p.parts.length - 1];
  const start = key.col;
  const colon = lines[i].indexOf(':', start + key.seg.length);
  if (col < start || col > colon) return null;
  const stack = stackBefore(lines, i);
  push(stack, p.parts);
  const lineStart = pos - col;
  return { path: stack.map((e) => e.seg), from: lineStart + start, to: lineStart + colon };
}

// ---- JSON: a bracket stack over the tokens before the cursor

// jsonScan reads text up to end: {frames: [{type:'obj'|'arr', key, expect}], str (an open string's start) }.
function jsonScan(text, end) {
  const frames = [];
  let str = -1;
  let last = null; // the last string's content
  for (let i = 0; i < end; i++) {
    const c = text[i];
    if (str >= 0) {
      if (c === '\\') i++;
      else if (c === '"') { last = JSON.parse(text.slice(str, i + 1)); str = -1; }
      continue;
    }
    const top = frames[frames.length - 1];
    if (c === '"') { str = i; last = null; }
    else if (c === '{') frames.push({ type: 'obj', key: null, expect: 'key' });
    else if (c === '[') frames.push({ type: 'arr' });
    else if (c === '}' || c === ']') frames.pop();
    else if (c === ':' && top && top.type === 'obj') { top.key = last; top.expect = 'value'; }
    else if (c === ',' && top && top.type === 'obj') top.expect = 'key';
  }
  return { frames, str };
}

const framePath = (frames) => frames.slice(0, -1).map((f) => (f.type === 'arr' ? '[]' : f.key));

/** jsonAt: at a key position in an object (after { or , — maybe inside the key's open quote), the path of that object. */
export function jsonAt(text, pos) {
  let s;
  try { s = jsonScan(text, pos); } catch (e) { return null; }
  const top = s.frames[s.frames.length - 1];
  if (!top || top.type !== 'obj' || top.expect !== 'key') return null;
  if (s.str >= 0) {
    const prefix = text.slice(s.str + 1, pos);
    if (/["\\]/.test(prefix)) return null;
    return { path: framePath(s.frames), prefix, from: s.str + 1, key: true, quoted: true };
  }
  const m = /[\w$-]*$/.exec(text.slice(0, pos));
  return { path: framePath(s.frames), prefix: m[0], from: pos - m[0].length, key: true, quoted: false };
}

/** jsonKeyAt: the "key" under pos (a string followed by ':'), with its full path. */
export function jsonKeyAt(text, pos) {
  let start = -1;
  let end = -1;
  try {
    for (let i = 0; i < text.length && i <= pos + 1; i++) { // find the string around pos
      if (text[i] !== '"') continue;
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (i <= pos && pos <= j) { start = i; end = j; break; }
      i = j;
    }
    if (start < 0 || !/^\s*:/.test(text.slice(end + 1))) return null;
    const s = jsonScan(text, start);
    const top = s.frames[s.frames.length - 1];
    if (!top || top.type !== 'obj') return null;
    return { path: [...framePath(s.frames), JSON.parse(text.slice(start, end + 1))], from: start, to: end + 1 };
  } catch (e) { return null; }
}

/** docKind reads apiVersion and kind of the document around pos (top-level keys), or null. */
export function docKind(text, pos = 0) {
  const t = String(text);
  if (/^\s*[{[]/.test(t)) {
    const k = /"kind"\s*:\s*"([^"]+)"/.exec(t);
    const v = /"apiVersion"\s*:\s*"([^"]+)"/.exec(t);
    return k && v ? { apiVersion: v[1], kind: k[1] } : null;
  }
  const lines = t.split('\n');
  const i = t.slice(0, pos).split('\n').length - 1;
  const out = {};
  for (let j = docStart(lines, i); j < lines.length && !/^---(\s|$)/.test(lines[j]); j++) {
    const m = /^(apiVersion|kind):\s*["']?([^\s"'#]+)/.exec(lines[j]);
    if (m && !out[m[1]]) out[m[1]] = m[2];
  }
  return out.apiVersion && out.kind ? out : null;
}
