// The one reader of watch streams (web/sandbox.js readWatch), in Node (no
// browser): what it yields for a stream of NDJSON chunks and how it ends on
// a line that is not an event — as client-go's watch decoder does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readWatch, WatchError } from '../../web/sandbox.js';

const cm = (name, rv) => ({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name, resourceVersion: rv } });
const line = (type, object) => JSON.stringify({ type, object }) + '\n';

// body streams chunks (strings), then ends unless open; it records whether it was cancelled.
function body(chunks, { open = false } = {}) {
  const enc = new TextEncoder();
  const b = new ReadableStream({
    start(c) {
      for (const x of chunks) c.enqueue(enc.encode(x));
      if (!open) c.close();
    },
    cancel() { b.cancelled = true; },
  });
  return b;
}

// read returns what readWatch yields for chunks: [events as "TYPE name"], and the error it threw.
async function read(chunks) {
  const got = [];
  try {
    for await (const ev of readWatch(new Response(body(chunks)))) got.push(`${ev.type} ${ev.object.metadata?.name || ev.object.reason || ''}`.trim());
  } catch (e) {
    return { got, err: e };
  }
  return { got, err: null };
}

test('readWatch: the events of a stream, however it is cut into chunks', async (t) => {
  const two = line('ADDED', cm('a', '5')) + line('MODIFIED', cm('a', '6'));
  const cases = {
    'one chunk': [two],
    'a chunk per byte': [...two],
    'lines split mid-way': [two.slice(0, 10), two.slice(10, 50), two.slice(50)],
    'blank lines and CRLF between events': ['\n' + line('ADDED', cm('a', '5')).replace('\n', '\r\n') + '\n\n', line('MODIFIED', cm('a', '6'))],
  };
  for (const [name, chunks] of Object.entries(cases)) {
    await t.test(name, async () => {
      const { got, err } = await read(chunks);
      assert.equal(err, null);
      assert.deepEqual(got, ['ADDED a', 'MODIFIED a']);
    });
  }
});

test('readWatch: BOOKMARK, DELETED and ERROR events are yielded; the caller decides what an ERROR means', async () => {
  const expired = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old resource version: 1 (5)', reason: 'Expired', code: 410 };
  const { got, err } = await read([line('BOOKMARK', { kind: 'ConfigMap', metadata: { resourceVersion: '7' } }), line('DELETED', cm('a', '8')), line('ERROR', expired)]);
  assert.equal(err, null);
  assert.deepEqual(got, ['BOOKMARK', 'DELETED a', 'ERROR Expired']);
});

test('readWatch: a line that is not an event ends the watch with client-go\'s decoding error', async (t) => {
  const cases = [
    { name: 'not JSON', bad: '{"type":"ADDED","object":{', want: /^unable to decode an event from the watch stream: / },
    { name: 'an unknown event type', bad: line('CHANGED', cm('x', '9')), want: /^unable to decode an event from the watch stream: got invalid watch event type: CHANGED$/ },
    { name: 'no object', bad: '{"type":"ADDED"}', want: /^unable to decode an event from the watch stream: unable to decode watch event: no object$/ },
    { name: 'a JSON array', bad: '[1,2]', want: /^unable to decode an event from the watch stream: not a watch event: \[1,2\]$/ },
    { name: 'a JSON string', bad: '"ADDED"', want: /^unable to decode an event from the watch stream: not a watch event/ },
  ];
  for (const c of cases) {
    await t.test(c.name, async () => {
      const { got, err } = await read([line('ADDED', cm('a', '5')), c.bad + '\n', line('ADDED', cm('after', '7'))]);
      assert.deepEqual(got, ['ADDED a'], 'the events before the bad line, none after it');
      assert.ok(err instanceof WatchError, `a WatchError, got ${err}`);
      assert.match(err.message, c.want);
      assert.equal(err.status, 500);
      assert.equal(err.body.kind, 'Status');
      assert.equal(err.body.reason, 'InternalError');
      assert.deepEqual(err.body.details.causes, [{ reason: 'ClientWatchDecoding', message: err.message }]);
    });
  }
});

test('readWatch: a stream that ends in the middle of a line ends quietly (client-go: unexpected EOF)', async () => {
  const { got, err } = await read([line('ADDED', cm('a', '5')), '{"type":"ADDED","obj']);
  assert.equal(err, null);
  assert.deepEqual(got, ['ADDED a']);
});

test('readWatch: leaving the loop early cancels the body (the server ends the watch)', async () => {
  const b = body([line('ADDED', cm('a', '5')), line('ADDED', cm('b', '6'))], { open: true });
  for await (const ev of readWatch(b)) { assert.equal(ev.object.metadata.name, 'a'); break; }
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(b.cancelled, true);
});
