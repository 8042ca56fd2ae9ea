// scenarioView draws a guided scenario: its steps with their explanations,
// buttons to run them one by one or all at once, and each step's result
// (checks, the response, a watch timeline, a conflict explanation).
import { h } from './dom.js';
import { Run } from './scenario.js';
import { withQuery } from './api.js';
import { stringify, parse as parseYAML } from './yaml.js';
import { responseView, ownershipView, reason } from './view.js';
import { eventEntry, noteEntry } from './timeline.js';

/** rich renders `code` spans and **bold** in an explanation. */
export function rich(text) {
  const out = [];
  const re = /`([^`]+)`|\*\*([^*]+)\*\*/g;
  let last = 0; let m;
  while ((m = re.exec(text))) {
    out.push(text.slice(last, m.index));
    out.push(m[1] !== undefined ? h('code', m[1]) : h('b', m[2]));
    last = re.lastIndex;
  }
  out.push(text.slice(last));
  return out;
}

/** requestLine shows a step's request: "GET /api/v1/…?resourceVersion={{rv}} (watch)";
 *  a variable not known yet stays {{name}} (not %7B%7Bname%7D%7D). */
export function requestLine(req, step = {}) {
  const url = withQuery(req.path, req.query).replace(/%7B%7B(\w+)%7D%7D/gi, '{{$1}}');
  return `${req.method} ${url}${step.watch ? ' (watch)' : ''}${step.repeat ? ` × ${step.repeat}` : ''}`;
}

/** templateLine is a step's request as the user edits it, variables
 *  unfilled: "POST /api/v1/namespaces/{{ns}}/configmaps?dryRun=All". */
export function templateLine(step) {
  const q = Object.entries(step.query || {}).map(([k, v]) => `${k}=${v}`).join('&');
  return `${step.method || 'GET'} ${step.path}${q ? '?' + q : ''}`;
}

/** parseLine reads an edited request line back: "GET /api/v1/pods?limit=2"
 *  → {method, path, query}; throws what to fix. */
export function parseLine(text) {
  const m = /^\s*([A-Za-z]+)\s+(\/\S*)\s*$/.exec(text);
  if (!m) throw new Error(`write the request as METHOD /path?query, e.g. GET /api/v1/namespaces/{{ns}}/configmaps (got ${JSON.stringify(text.trim())})`);
  const [path, qs = ''] = m[2].split(/\?(.*)/s);
  const query = {};
  for (const part of qs.split('&').filter(Boolean)) {
    const [k, v = ''] = part.split(/=(.*)/s);
    query[decodeURIComponent(k)] = decodeURIComponent(v);
  }
  return { method: m[1].toUpperCase(), path, query };
}

/**
 * scenarioView(scenario, {onOpen(req), prefix, base, compact, editable, onResult}) → {el, runAll(), done}
 * base: the sandbox's API base ("" or e.g. "/sandbox/ex1", see web/sandbox.js).
 * onOpen: "open in console" for a step's request (the playground only).
 * editable: each step's request line and body can be edited; a step that
 * ran runs again alone (with the edits) from its Run button.
 * onResult({ok, message}): after every run; message says which step
 * failed and why (what to fix), e.g. "step 1 failed: status 201, got 422 — …".
 * A one-step scenario in compact mode has one Run button (each press: a
 * fresh namespace, then the step).
 */
export function scenarioView(scenario, { onOpen, prefix, base = '', compact = false, editable = false, onResult = () => {} } = {}) {
  if (editable) scenario = { ...scenario, steps: scenario.steps.map((st) => ({ ...st })) }; // edits change our copy only
  const single = compact && scenario.steps.length === 1;
  let run = new Run(scenario, { prefix, base });
  let next = 0;
  let busy = false;
  const nsNote = h('span.ns-note.muted');
  const progress = h('span.run-state', { 'aria-live': 'polite' });
  const runAllBtn = h('button.primary.run-all', { type: 'button', onclick: () => runAll() }, compact ? 'Run' : 'Run all steps');
  const nextBtn = h('button.run-next', { type: 'button', onclick: () => runTo(next) }, 'Next step');
  const resetBtn = h('button.run-reset', { type: 'button', onclick: () => startOver() }, 'Start over');
  const items = scenario.steps.map((step, i) => stepItem(step, i));
  const el = h('section.scenario', { dataset: { scenario: scenario.id || 'inline' } },
    compact ? null : h('h2', scenario.title),
    scenario.summary ? h('p.summary', rich(scenario.summary)) : null,
    h('div.toolbar', runAllBtn, scenario.steps.length > 1 ? nextBtn : null, resetBtn, progress, nsNote),
    h('ol.steps', items.map((x) => x.li)));

  function stepItem(step, i) {
    const req = run.request(step, { i: 1 });
    const result = h('div.step-result');
    const reqLine = editable
      ? h('input.req-edit', { type: 'text', spellcheck: 'false', 'aria-label': `request of step ${i + 1}`, value: templateLine(step) })
      : h('code.req-line', requestLine(req, step));
    if (editable) reqLine.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); single ? runAll() : runTo(i); } });
    const bodyEdit = editable ? h('textarea.body-edit', { spellcheck: 'false', rows: '6', 'aria-label': `body of step ${i + 1}` }) : null;
    if (bodyEdit) bodyEdit.value = step.body == null ? '' : typeof step.body === 'string' ? step.body : stringify(step.body);
    const bodyShown = editable ? (step.body != null || /^(POST|PUT|PATCH)$/i.test(step.method || '')) : req.body != null;
    const li = h('li.step', { dataset: { step: String(i) } },
      h('h3', step.title),
      step.explain ? h('p.explain', rich(step.explain)) : null,
      h('div.req', reqLine,
        single ? null : h('button.small.run-step', { type: 'button', onclick: () => runTo(i), 'aria-label': `run step ${i + 1}: ${step.title}` }, 'Run'),
        onOpen ? h('button.small.open-console', { type: 'button', onclick: () => onOpen(run.request(step, { i: 1 })) }, 'Open in console') : null),
      bodyShown ? h('details.req-body', { open: compact && scenario.steps.length === 1 },
        // an object is shown as YAML and sent as contentType; a string as written
        h('summary', typeof req.body === 'string' ? `Body (${req.contentType})` : `Body (YAML, sent as ${req.contentType})`),
        bodyEdit || h('pre.code', typeof req.body === 'string' ? req.body : stringify(req.body))) : null,
      result);
    return { li, result, reqLine, bodyEdit, step, i };
  }

  // applyEdits copies a step's edited request line and body into the
  // scenario (our copy); throws what to fix.
  function applyEdits(it) {
    if (!editable) return;
    const st = scenario.steps[it.i];
    Object.assign(st, parseLine(it.reqLine.value));
    const text = it.bodyEdit.value;
    if (!text.trim()) { delete st.body; return; }
    if (st.contentType === 'application/apply-patch+yaml' || typeof it.step.body === 'string') { st.body = text; return; }
    try { st.body = parseYAML(text); } catch (e) { throw new Error(`the body is not valid YAML: ${e.message}`); }
  }

  // failure says what went wrong in a step, for the example's status line.
  function failure(out) {
    const bad = out.checks.filter((c) => !c.ok).map((c) => c.text);
    const said = out.res && out.res.status >= 400 && out.res.body && out.res.body.message;
    return [bad.join('; '), said ? `the server said: ${said}` : ''].filter(Boolean).join(' — ');
  }

  function refreshRequests() {
    for (const it of items) {
      if (editable) continue; // the user's text stays as written
      const req = run.request(it.step, { i: 1 });
      it.reqLine.textContent = requestLine(req, it.step);
    }
  }

  function setBusy(b) {
    busy = b;
    for (const btn of el.querySelectorAll('button.run-all, button.run-next, button.run-step, button.run-reset')) btn.disabled = b;
  }

  // runAll: every step; once all ran (or always, for one step), from the
  // start again in a fresh namespace.
  function runAll() {
    if (busy) return Promise.resolve(false);
    if (compact && (single || next >= scenario.steps.length)) startOver();
    return runTo(scenario.steps.length - 1);
  }

  async function runTo(target) {
    if (busy) return false;
    setBusy(true);
    let okAll = true;
    let why = '';
    const fail = (i, text) => {
      okAll = false;
      if (!why) why = `step ${i + 1} failed: ${text}${editable ? ' — edit the step and run it again.' : ''}`;
      if (compact) items[i].result.prepend(h('p.step-error', { role: 'alert' }, text + (editable ? ' — edit the step and run it again.' : '')));
    };
    // a step that ran already runs again alone, with its edits
    const again = editable && target < next;
    try {
      if (again) {
        const it = items[target];
        it.li.classList.add('running');
        try {
          applyEdits(it);
          const out = await run.step(target);
          showResult(it, out, target);
          if (!out.ok) fail(target, failure(out));
        } catch (e) {
          it.result.replaceChildren();
          fail(target, e.message);
        } finally {
          it.li.classList.remove('running');
        }
        progress.textContent = okAll ? `step ${target + 1} ran again` : `step ${target + 1} failed`;
        return okAll;
      }
      if (next === 0) {
        progress.textContent = 'creating namespace…';
        await run.setup();
        nsNote.textContent = `namespace ${run.vars.ns}`;
      }
      while (next <= target && next < scenario.steps.length) {
        const i = next;
        progress.textContent = `step ${i + 1} of ${scenario.steps.length}…`;
        items[i].li.classList.add('running');
        let out;
        try {
          applyEdits(items[i]);
          out = await run.step(i);
        } catch (e) {
          items[i].result.replaceChildren();
          fail(i, e.message);
          throw e;
        } finally {
          items[i].li.classList.remove('running');
        }
        showResult(items[i], out, i);
        if (!out.ok) fail(i, failure(out));
        next++;
        refreshRequests();
      }
      // show the step just run (Next step used to leave it below the fold)
      if (next > 0) items[next - 1].li.scrollIntoView({ block: compact ? 'nearest' : 'start' });
      progress.textContent = next >= scenario.steps.length ? 'done' : `${next} of ${scenario.steps.length} steps run`;
      el.dataset.done = String(next >= scenario.steps.length);
    } catch (e) {
      progress.textContent = 'failed: ' + e.message;
      okAll = false;
      if (!why) why = e.message;
    } finally {
      setBusy(false);
      if (next >= scenario.steps.length) nextBtn.disabled = true;
      onResult({ ok: okAll, message: why });
    }
    return okAll;
  }

  function showResult(item, out, i) {
    const { result } = item;
    result.replaceChildren();
    item.li.dataset.ok = String(out.ok);
    if (out.checks.length) {
      result.append(h('ul.checks', out.checks.map((c) => h('li.check.' + (c.ok ? 'pass' : 'fail'), h('span', { 'aria-hidden': 'true' }, c.ok ? '✓ ' : '✗ '), h('span.sr-only', c.ok ? 'passed: ' : 'failed: '), c.text))));
    }
    if (out.events) {
      const tl = h('ol.timeline', { 'aria-label': 'watch events' });
      if (out.res.status !== 200) tl.append(noteEntry(`HTTP ${out.res.status}: ${(out.res.body && out.res.body.message) || out.res.text}`, 'error'));
      for (const ev of out.events) tl.append(eventEntry(ev, { at: ev.at }));
      tl.append(noteEntry(out.ended === 'count' ? `stopped reading after ${out.events.length} event${out.events.length === 1 ? '' : 's'}` : out.ended === 'stream-end' ? 'the server ended the stream' : `stream ${out.ended}${out.error ? ': ' + out.error : ''}`, out.error ? 'error' : 'end'));
      result.append(h('div.status-line', h('span.status.' + (out.res.status === 200 ? 'st-ok' : 'st-warn'), { 'data-status': String(out.res.status) }, `${out.res.status} ${reason(out.res.status, out.res.statusText)}`), h('span.muted', ` GET ${out.res.path}`)), tl);
      return;
    }
    const forcing = async () => {
      const again = await run.step(i, { force: true });
      result.append(h('p.muted', 'Re-sent with force=true:'), responseView(again.res));
    };
    result.append(responseView(out.res, {
      live: out.live, applied: out.req.body, manager: out.req.query.fieldManager,
      onForce: out.req.contentType === 'application/apply-patch+yaml' ? forcing : undefined,
    }));
    if (out.repeated) result.prepend(h('p.muted', `sent ${out.repeated} times; the last response:`));
    if (item.step.show === 'managedFields' && out.res.body && out.res.body.metadata) {
      result.prepend(h('div.step-fields', h('b', 'Fields by manager'), ownershipView(out.res.body)));
    }
  }

  function startOver() {
    run = new Run(scenario, { prefix, base });
    next = 0;
    nsNote.textContent = '';
    progress.textContent = '';
    nextBtn.disabled = false;
    delete el.dataset.done;
    for (const it of items) { it.result.replaceChildren(); delete it.li.dataset.ok; }
    refreshRequests();
  }

  return { el, runAll, get run() { return run; } };
}
