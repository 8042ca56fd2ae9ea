// diffLines compares two texts line by line (longest common subsequence):
//   diffLines('a\nb\n', 'a\nc\n') → [{op:' ', text:'a'}, {op:'-', text:'b'}, {op:'+', text:'c'}]
// Objects are a few hundred lines at most, so the O(n·m) table is fine;
// above 4,000 × 4,000 lines it falls back to "all removed, all added".
export function diffLines(a, b) {
  const x = String(a).replace(/\n$/, '').split('\n');
  const y = String(b).replace(/\n$/, '').split('\n');
  if (x.length * y.length > 16e6) return [...x.map((t) => ({ op: '-', text: t })), ...y.map((t) => ({ op: '+', text: t }))];
  const n = x.length; const m = y.length;
  const w = m + 1;
  const t = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      t[i * w + j] = x[i] === y[j] ? t[(i + 1) * w + j + 1] + 1 : Math.max(t[(i + 1) * w + j], t[i * w + j + 1]);
    }
  }
  const out = [];
  let i = 0; let j = 0;
  while (i < n && j < m) {
    if (x[i] === y[j]) { out.push({ op: ' ', text: x[i] }); i++; j++; }
    else if (t[(i + 1) * w + j] >= t[i * w + j + 1]) out.push({ op: '-', text: x[i++] });
    else out.push({ op: '+', text: y[j++] });
  }
  while (i < n) out.push({ op: '-', text: x[i++] });
  while (j < m) out.push({ op: '+', text: y[j++] });
  return out;
}
