/** The open elements of a state machine. */
import t from 'tap';
import { Stack } from '../../../lib/formatter/api.js';

t.test('push, pop, top, depth, find', async (t) => {
  type Frame = { kind: 'suite'; name: string } | { kind: 'text' };
  const s = new Stack<Frame>();
  t.equal(s.top, undefined);
  t.equal(s.depth, 0);
  s.push({ kind: 'suite', name: 'outer' });
  s.push({ kind: 'suite', name: 'inner' });
  s.push({ kind: 'text' });
  t.same(s.top, { kind: 'text' });
  t.equal(s.depth, 3);
  const suite = s.find((f): f is Extract<Frame, { kind: 'suite' }> => f.kind === 'suite');
  t.equal(suite?.name, 'inner', 'the innermost match');
  t.same(s.pop(), { kind: 'text' });
  t.equal(s.depth, 2);
  s.pop();
  s.pop();
  t.equal(s.pop(), undefined);
  t.equal(
    s.find(() => true),
    undefined,
  );
});
