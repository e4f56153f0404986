/** Containers from what a formatter knows: empty values for the rest, instants and buffers read. */
import t from 'tap';
import { TextBuffer, erroredTest, newContainer } from '../../../lib/formatter/api.js';

const identity = { id: 2, parentId: 1, type: 'test', title: 'a' } as const;

t.test('newContainer', async (t) => {
  t.same(newContainer({ ...identity, status: 'passed' }), {
    ...identity,
    status: 'passed',
    durationMs: null,
    startedAt: null,
    failure: null,
    output: null,
    properties: [],
    attachmentRefs: [],
  });
  const naive = newContainer({
    ...identity,
    status: 'passed',
    startedAt: { iso: '2026-01-01T00:00:00.000Z', naive: true },
  });
  t.match(naive, { startedAt: '2026-01-01T00:00:00.000Z', startedAtNaive: true });
  const zoned = newContainer({ ...identity, status: 'passed', startedAt: '2026-01-01T00:00:00.000Z' });
  t.notOk('startedAtNaive' in zoned, 'an ISO string is already UTC');
  t.notOk('meta' in newContainer({ ...identity, status: 'passed', meta: {} }), 'an empty meta is left out');
  const out = new TextBuffer(10);
  out.append('  \n');
  const err = new TextBuffer(10);
  err.append('boom');
  t.same(newContainer({ ...identity, status: 'failed', stdout: out, stderr: err }).output, {
    stdout: null,
    stderr: 'boom',
  });
  t.same(newContainer({ ...identity, status: 'failed', stdout: 'x' }).output, { stdout: 'x', stderr: null });
});

t.test('erroredTest: counting rule 4', async (t) => {
  const failure = { message: 'setup failed', type: null, stack: null };
  t.match(erroredTest({ id: 3, parentId: 1, title: 'S', failure, meta: { synthetic: 'suite-error' } }), {
    type: 'test',
    status: 'errored',
    failure,
    meta: { synthetic: 'suite-error' },
  });
  t.match(erroredTest({ id: 4, parentId: null, title: 'Run', failure, meta: { synthetic: 'x' }, type: 'scenario' }), {
    type: 'scenario',
  });
});
