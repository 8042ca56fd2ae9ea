// scenarioView draws a guided scenario: its steps with their explanations,
// buttons to run them one by one or all at once, and each step's result
// (checks, the response, a watch timeline, a conflict explanation).
import { h } from './dom.js';
import { Run } from './scenario.js';
import { withQuery } from './api.js';
import { stringify } from './yaml.js';
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

/**
 * scenarioView(scenario, {onOpen(req), prefix, base, compact}) → {el, runAll(), done}
 * base: the sandbox's API base ("" or e.g. "/sandbox/ex1", see web/sandbox.js).
 * onOpen: "open in console" for a step's request (the playground only).
 */
export function scenarioView(scenario, { onOpen, prefix, base = '', compact = false } = {}) {
  let run = new Run(scenario, { prefix, base });
  let next = 0;
  let busy = false;
  const nsNote = h('span.ns-note.muted');
  const progress = h('span.run-state', { 'aria-live': 'polite' });
  const runAllBtn = h('button.primary.run-all', { type: 'button', onclick: () => runTo(scenario.steps.length - 1) }, compact ? 'Run' : 'Run all steps');
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
    const reqLine = h('code.req-line', requestLine(req, step));
    const li = h('li.step', { dataset: { step: String(i) } },
      h('h3', step.title),
      step.explain ? h('p.explain', rich(step.explain)) : null,
      h('div.req', reqLine,
        h('button.small.run-step', { type: 'button', onclick: () => runTo(i), 'aria-label': `run step ${i + 1}: ${step.title}` }, 'Run'),
        onOpen ? h('button.small.open-console', { type: 'button', onclick: () => onOpen(run.request(step, { i: 1 })) }, 'Open in console') : null),
      req.body != null ? h('details.req-body', { open: compact && scenario.steps.length === 1 },
        // an object is shown as YAML and sent as contentType; a string as written
        h('summary', typeof req.body === 'string' ? `Body (${req.contentType})` : `Body (YAML, sent as ${req.contentType})`),
        h('pre.code', typeof req.body === 'string' ? req.body : stringify(req.body))) : null,
      result);
    return { li, result, reqLine, step };
  }

  function refreshRequests() {
    for (const it of items) {
      const req = run.request(it.step, { i: 1 });
      it.reqLine.textContent = requestLine(req, it.step);
    }
  }

  function setBusy(b) {
    busy = b;
    for (const btn of el.querySelectorAll('button.run-all, button.run-next, button.run-step, button.run-reset')) btn.disabled = b;
  }

  async function runTo(target) {
    if (busy) return;
    setBusy(true);
    let okAll = true;
    try {
      if (next === 0) {
        progress.textContent = 'creating namespace…';
        await run.setup();
        nsNote.textContent = `namespace ${run.vars.ns}`;
      }
      while (next <= target && next < scenario.steps.length) {
        const i = next;
        progress.textContent = `step ${i + 1} of ${scenario.steps.length}…`;
        items[i].li.classList.add('running');
        const out = await run.step(i);
        items[i].li.classList.remove('running');
        showResult(items[i], out, i);
        okAll = okAll && out.ok;
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
    } finally {
      setBusy(false);
      if (next >= scenario.steps.length) nextBtn.disabled = true;
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

  return { el, runAll: () => runTo(scenario.steps.length - 1), get run() { return run; } };
}
