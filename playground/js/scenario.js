// Guided scenarios: a scenario is a JSON file (playground/scenarios/ID.json)
// with a short list of real requests, each with an explanation. A run
// creates its own namespace ({{ns}}), so runs and embedded examples never
// see each other's objects.
//
// A step:
//   {"title", "explain", "method", "path", "query", "contentType", "body",
//    "repeat": 12,                      send it 12 times, {{i}} = 1…12
//    "watch": {"until": 2},             a watch: read events until 2 arrived (or the stream ended)
//    "capture": {"rv": "metadata.resourceVersion"},   save values for later steps ({{rv}})
//    "retry": {"status": 404, "times": 20, "delayMs": 150},   send again while it answers 404
//    "retry": {"until": "expect", "times": 240, "delayMs": 250}, send again until every expectation
//                                       holds (the controllers are still at work: Pods coming up)
//    "show": "managedFields",          draw the answer's managedFields picture
//    "expect": {"status": 201, "fields": {"metadata.name": "x"}, "length": {"items": 5},
//               "absent": ["metadata.continue"], "warnings": ["unknown field"], "events": [["ADDED", "x"]],
//               "every": {"items": {"status.phase": "Running"}}}}   each element of items has that field
// A dotted path may name a key with dots in brackets:
// "metadata.annotations[deployment.kubernetes.io/revision]".
import { send, remember, PATCH_TYPES } from './api.js';
import { DIST, sandboxModule } from './boot.js';

// the npm package (make dist) has scenarios/ beside its one bundle
const SCENARIOS = new URL(DIST ? './scenarios/' : '../scenarios/', import.meta.url);

export async function loadScenario(id, base = SCENARIOS) {
  const r = await fetch(new URL(`${id}.json`, base));
  if (!r.ok) throw new Error(`scenario ${id}: HTTP ${r.status}`);
  return r.json();
}

export async function scenarioIndex(base = SCENARIOS) {
  const r = await fetch(new URL('index.json', base));
  return r.json();
}

/** get reads a dotted path ("items.0.metadata.name", "items.length") from a value. */
export function get(value, path) {
  let v = value;
  for (const [, bracket, plain] of String(path).matchAll(/\[([^\]]*)\]|([^.[\]]+)/g)) {
    const part = bracket !== undefined ? bracket : plain;
    if (v == null) return undefined;
    v = v[part];
  }
  return v;
}

/** fill replaces {{var}} in strings, deeply; "{{n}}" alone keeps n's type. */
export function fill(value, vars) {
  if (typeof value === 'string') {
    const whole = /^\{\{(\w+)\}\}$/.exec(value);
    if (whole && whole[1] in vars && typeof vars[whole[1]] !== 'string') return vars[whole[1]];
    return value.replace(/\{\{(\w+)\}\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, vars));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [fill(k, vars), fill(v, vars)]));
  return value;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export class Run {
  /** prefix: the start of the namespace name (a DNS label); the run adds a random suffix.
   *  base: put before every request path, e.g. '/sandbox/ex1' (a sandbox of its own). */
  constructor(scenario, { prefix, base = '' } = {}) {
    this.scenario = scenario;
    this.base = base;
    const stem = String(prefix || scenario.id || 'demo').toLowerCase().replace(/[^a-z0-9-]/g, '-').slice(0, 40).replace(/-+$/, '');
    this.vars = { ns: `${stem}-${Math.random().toString(36).slice(2, 7)}` };
    this.ready = null;
  }

  /** setup creates the run's namespace (once). */
  setup() {
    if (!this.ready) {
      this.ready = send({ method: 'POST', path: this.base + '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: this.vars.ns, labels: { 'playground.kubesandbox.dev/scenario': String(this.scenario.id || 'inline').slice(0, 63) } } } })
        .then((res) => {
          if (res.status !== 201 && res.status !== 409) throw new Error(`creating namespace ${this.vars.ns}: HTTP ${res.status} ${res.text}`);
          return res;
        });
      this.ready.catch(() => { this.ready = null; });
    }
    return this.ready;
  }

  /** request gives a step's request with the variables filled in. */
  request(step, extra = {}) {
    const vars = { ...this.vars, ...extra };
    return {
      method: step.method || 'GET',
      path: fill(step.path, vars),
      query: fill(step.query || {}, vars),
      contentType: step.contentType || (step.method === 'PATCH' ? PATCH_TYPES[0].type : 'application/json'),
      body: step.body === undefined ? null : fill(step.body, vars),
    };
  }

  /**
   * step runs step i → {req, res, events?, ended?, error?, live?, checks: [{ok, text}], ok}
   */
  async step(i, { force = false } = {}) {
    await this.setup();
    const step = this.scenario.steps[i];
    const times = step.repeat || 1;
    let out;
    const untilExpected = step.retry && step.retry.until === 'expect';
    for (let n = 1; n <= times; n++) {
      const req = this.request(step, { i: n });
      if (force) req.query = { ...req.query, force: 'true' };
      if (untilExpected) out = await this.sendUntil(req, step.retry, fill(step.expect || {}, this.vars));
      else out = step.watch ? await this.watch(req, step.watch) : await this.send(req, step.retry);
      out.req = req;
      if (times > 1) out.repeated = times;
      if (out.res.status >= 400 && n < times && !(step.expect && step.expect.status === out.res.status)) break;
    }
    // Explain an apply conflict with the stored values.
    if (out.res.status === 409 && out.req.contentType === 'application/apply-patch+yaml') {
      const live = await send({ method: 'GET', path: this.base + out.req.path });
      out.live = live.status === 200 ? live.body : null;
    }
    for (const [k, p] of Object.entries(step.capture || {})) this.vars[k] = get(out.res.body, p);
    out.checks = force ? [] : check(fill(step.expect || {}, this.vars), out);
    out.ok = out.checks.every((c) => c.ok);
    return out;
  }

  async send(req, retry) {
    let res;
    for (let t = 0; ; t++) {
      const body = req.body == null ? null : req.contentType === 'application/apply-patch+yaml' && typeof req.body !== 'string' ? JSON.stringify(req.body) : req.body;
      res = await send({ ...req, path: this.base + req.path, body });
      if (!retry || res.status !== retry.status || t >= (retry.times || 10)) break;
      await sleep(retry.delayMs || 150);
    }
    return { res };
  }

  /** sendUntil sends req again (retry.times, retry.delayMs apart) until
   *  every expectation holds; the last answer is the step's. */
  async sendUntil(req, retry, expect) {
    let out;
    for (let t = 0; ; t++) {
      out = await this.send(req);
      if (check(expect, out).every((c) => c.ok) || t >= (retry.times || 120)) return out;
      await sleep(retry.delayMs || 250);
    }
  }

  /** watch reads a watch stream until `until` events came, the stream ended, or timeoutMs passed. */
  async watch(req, { until = 1, timeoutMs = 15000 } = {}) {
    const ctl = new AbortController();
    const q = { ...req.query, watch: 'true' };
    if (!q.timeoutSeconds) q.timeoutSeconds = String(Math.ceil(timeoutMs / 1000));
    const timer = setTimeout(() => ctl.abort(), timeoutMs);
    const events = [];
    let ended = 'stream-end';
    let error = ''; // why the stream ended early (a line that is not an event, a broken stream)
    const t0 = performance.now();
    let res;
    try {
      const url = this.base + req.path + '?' + new URLSearchParams(Object.entries(q).filter(([, v]) => v !== '' && v != null)).toString();
      const r = await fetch(url, { signal: ctl.signal });
      res = { method: 'GET', path: url, status: r.status, statusText: r.statusText, headers: [...r.headers], warnings: [], body: null, text: '', ms: 0, contentType: r.headers.get('content-type') || '' };
      if (!r.ok) {
        res.text = await r.text();
        try { res.body = JSON.parse(res.text); } catch (e) { /* text */ }
        ended = 'error';
      } else {
        const { readWatch } = await sandboxModule();
        try {
          for await (const ev of readWatch(r)) {
            remember(ev.object);
            events.push({ ...ev, at: new Date() });
            if (events.length >= until) break;
          }
          if (events.length >= until) ended = 'count';
        } catch (e) {
          ended = ctl.signal.aborted ? 'timeout' : 'error';
          if (!ctl.signal.aborted) error = e.message;
        }
      }
    } catch (e) {
      ended = ctl.signal.aborted ? 'timeout' : 'error';
      res = res || { method: 'GET', path: req.path, status: 0, statusText: String(e.message || e), headers: [], warnings: [], body: null, text: String(e), ms: 0, contentType: '' };
    } finally {
      clearTimeout(timer);
    }
    res.ms = performance.now() - t0;
    return { res, events, ended, error };
  }
}

/** check compares a step's result with its expectations → [{ok, text}]. */
export function check(expect, out) {
  const checks = [];
  const body = out.res.body;
  if (expect.status !== undefined) checks.push({ ok: out.res.status === expect.status, text: `status ${expect.status}${out.res.status === expect.status ? '' : `, got ${out.res.status}`}` });
  for (const [p, want] of Object.entries(expect.fields || {})) {
    const got = get(body, p);
    const ok = JSON.stringify(got) === JSON.stringify(want);
    checks.push({ ok, text: `${p} = ${JSON.stringify(want)}${ok ? '' : `, got ${JSON.stringify(got)}`}` });
  }
  for (const [p, n] of Object.entries(expect.length || {})) {
    const got = get(body, p);
    const len = Array.isArray(got) ? got.length : undefined;
    checks.push({ ok: len === n, text: `${p} has ${n} item${n === 1 ? '' : 's'}${len === n ? '' : `, got ${len}`}` });
  }
  for (const [p, fields] of Object.entries(expect.every || {})) {
    const list = get(body, p);
    for (const [f, want] of Object.entries(fields)) {
      const bad = Array.isArray(list) ? list.filter((x) => JSON.stringify(get(x, f)) !== JSON.stringify(want)) : null;
      const ok = Array.isArray(list) && list.length > 0 && bad.length === 0;
      checks.push({ ok, text: `every ${p} has ${f} = ${JSON.stringify(want)}${ok ? '' : bad ? `, ${bad.length} of ${list.length} not` : ', not a list'}` });
    }
  }
  for (const p of expect.absent || []) {
    const got = get(body, p);
    checks.push({ ok: got === undefined || got === '' || got === null, text: `${p} is not set${got ? `, got ${JSON.stringify(got)}` : ''}` });
  }
  for (const p of expect.present || []) {
    const got = get(body, p);
    checks.push({ ok: got !== undefined && got !== null && got !== '', text: `${p} is set` });
  }
  for (const w of expect.warnings || []) {
    const ok = out.res.warnings.some((x) => x.includes(w));
    checks.push({ ok, text: `a Warning header mentions ${JSON.stringify(w)}` });
  }
  if (expect.noWarnings) checks.push({ ok: out.res.warnings.length === 0, text: 'no Warning header' });
  if (expect.message !== undefined) {
    const got = body && body.message;
    const ok = typeof got === 'string' && got.includes(expect.message);
    checks.push({ ok, text: `message mentions ${JSON.stringify(expect.message)}` });
  }
  if (expect.events) {
    const got = (out.events || []).map((e) => [e.type, e.type === 'BOOKMARK' ? '' : (e.object && e.object.metadata && e.object.metadata.name) || '']);
    const want = expect.events.map(([t, n]) => [t, t === 'BOOKMARK' ? '' : n]);
    const ok = JSON.stringify(got) === JSON.stringify(want);
    checks.push({ ok, text: `events ${want.map((e) => e.filter(Boolean).join(' ')).join(', ')}${ok ? '' : `, got ${got.map((e) => e.filter(Boolean).join(' ')).join(', ') || 'none'}`}` });
  }
  return checks;
}
