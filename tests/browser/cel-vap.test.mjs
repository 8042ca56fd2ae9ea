// ValidatingAdmissionPolicy in the browser (issue 19's "Done when"): the
// transcripts recorded from kube-apiserver v1.37.2 (tests/conformance/
// transcripts/cel-vap-*.json, which the native server with the engine
// replays at 100% in the cel module: cel/policy TestPolicyTranscripts) are
// sent again from a page, to the sandbox in the browser, whose policies
// the worker's cel-policy.wasm judges. So each answer is compared with the real
// server's, and through the replay with the native server's:
//
//   - every request answers the recorded status code;
//   - every refusal (4xx: a policy's denial, 422/403 with kube's texts, a
//     policy that does not compile) the recorded Status, word for word;
//   - every Warning header (a Warn action) the recorded one, and none
//     where the real server sent none;
//   - status.typeChecking (cel-vap-status, recorded with
//     kube-controller-manager) as the real controller wrote it.
//
// Waits are followed (polled, generous deadline); watch steps (the
// recordings' settle pauses for kube's informers) are skipped.
// Run: make web-dist static-server && node --test tests/browser/cel-vap.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useBrowser, openSandbox, closeAll, repo } from './lib.mjs';

const env = useBrowser();

const open = (db) => openSandbox(env.browser.context, env.server.url, '/fixtures/durable.html?worker=' + encodeURIComponent('db=' + db));
const transcript = (name) => JSON.parse(readFileSync(join(repo, 'tests/conformance/transcripts', name + '.json'), 'utf8'));

// send makes one recorded request from the page: {status, warning, body}.
const send = (page, req) => page.evaluate(async (req) => {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(req.query || {})) for (const x of [].concat(v)) qs.append(k, x);
  const headers = { ...(req.headers || {}) };
  delete headers['User-Agent'];
  const init = { method: req.method, headers };
  if (req.body !== undefined) init.body = JSON.stringify(req.body);
  else if (req.bodyText != null) init.body = req.bodyText;
  const res = await fetch(req.path + (qs.size ? '?' + qs : ''), init);
  const text = await res.text();
  let body = text;
  try { body = JSON.parse(text); } catch (e) { /* text */ }
  return { status: res.status, warning: res.headers.get('warning'), body };
}, req);

// sortCauses is the transcripts' normalisation of a Status (core/replay
// body.go sortCauses, rule 3): details.causes sorted by (field, reason,
// message) and the message's trailing "[a, b]" list in that order.
function sortCauses(st) {
  const causes = st?.kind === 'Status' && st.details?.causes;
  if (!causes?.length) return st;
  const key = (c) => [c.field || '', c.reason || '', c.message || ''];
  causes.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
  });
  const items = [...new Set(causes.map((c) => (c.field || '') + ': ' + (c.message || '')))];
  const joined = items.join(', ');
  const start = st.message.length - joined.length - 2;
  if (items.length > 1 && st.message.endsWith(']') && st.message[start] === '[') {
    st.message = st.message.slice(0, start + 1) + joined + ']';
  }
  return st;
}

// at reads a dotted path (numbers index lists).
const at = (o, path) => path.split('.').reduce((v, k) => (v == null ? undefined : v[k]), o);

// waitFor polls a recorded wait: a status, a condition, or a field's value.
async function waitFor(page, w) {
  const end = Date.now() + 60000;
  let last;
  while (Date.now() < end) {
    last = await send(page, { method: 'GET', path: w.path, query: w.query });
    const ok = w.field !== undefined
      ? last.status === 200 && String(at(last.body, w.field) ?? '') === w.value
      : w.condition !== undefined
        ? last.status === 200 && (at(last.body, 'status.conditions') || []).some((c) => c.type === w.condition && c.status === 'True')
        : last.status === (w.status || 200);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`timed out waiting for ${JSON.stringify(w)}: last ${last.status} ${JSON.stringify(last.body).slice(0, 300)}`);
}

// replay sends every request of a transcript and compares; extra(step, got)
// compares more for chosen steps. Returns the number of compared answers.
async function replay(page, name, extra = () => {}) {
  let compared = 0;
  for (const step of transcript(name).steps) {
    if (step.watch || step.read || step.close) continue;
    if (step.request) {
      const got = await send(page, step.request);
      const want = step.response;
      const what = `${name}: "${step.name}"`;
      assert.equal(got.status, want.status, `${what}: ${JSON.stringify(got.body).slice(0, 500)}`);
      if (want.status >= 400 && !(step.ignore || []).includes('$')) {
        assert.deepEqual(sortCauses(got.body), want.body, what);
      }
      const wantWarning = want.headers?.Warning ? [].concat(want.headers.Warning).join(', ') : null;
      assert.equal(got.warning, wantWarning, `${what}: Warning header`);
      extra(step, got);
      compared++;
    }
    if (step.wait && !step.wait.optional) await waitFor(page, step.wait);
  }
  return compared;
}

test('a policy bound to namespaces labelled environment=prod denies more than 5 replicas there with kube\'s 422 and allows them elsewhere', async () => {
  const page = await open('cel-vap-replicas');
  const n = await replay(page, 'cel-vap-replicas');
  assert.ok(n >= 25, `${n} answers compared`);
  assert.equal((await page.evaluate(() => window.sandbox.stats())).cel.state, 'ready');
  await closeAll(env.browser, [page]);
});

test('Warn arrives as a Warning header, Deny with its reason (403/422), Audit leaves no trace, failurePolicy and DELETE as kube', async () => {
  const page = await open('cel-vap-actions');
  let warned = 0;
  await replay(page, 'cel-vap-actions', (step, got) => { if (got.warning) warned++; });
  assert.equal(warned, 2, 'the two Warn answers');
  await closeAll(env.browser, [page]);
});

test('policies that do not compile are refused with kube\'s causes; params by name and by selector', async () => {
  const page = await open('cel-vap-params');
  await replay(page, 'cel-vap-params');
  await closeAll(env.browser, [page]);
});

test('failurePolicy on a param not found and a paramKind nothing serves; Audit leaves no trace, Audit+Warn warns', async () => {
  const page = await open('cel-vap-failure');
  await replay(page, 'cel-vap-failure');
  await closeAll(env.browser, [page]);
});

test('status.typeChecking as kube-controller-manager writes it, type-checked by cel-policy.wasm', async () => {
  const page = await open('cel-vap-status');
  let statuses = 0;
  await replay(page, 'cel-vap-status', (step, got) => {
    if (!step.name.startsWith('its status')) return;
    assert.deepEqual(got.body.status, step.response.body.status, `cel-vap-status: "${step.name}"`);
    statuses++;
  });
  assert.equal(statuses, 7);
  await closeAll(env.browser, [page]);
});
