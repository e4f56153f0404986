/**
 * The commit order (lib/import/assemble/commit-order.ts): files are committed in the order they
 * took their places, whatever order their preparations finish in; a failed commit hands the turn on.
 */
import t from 'tap';
import { CommitOrder } from '../../../lib/import/assemble/commit-order.js';

/** A promise settled from outside, to finish preparations in any order. */
function later<T>(): { promise: Promise<T>; resolve(v: T): void; reject(e: unknown): void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

t.test('commits in place order, whatever order the files are ready in', async (t) => {
  const order = new CommitOrder();
  const committed: string[] = [];
  const ready = ['a', 'b', 'c', 'd'].map((name) => ({ name, ...later<string>() }));
  const done = ready.map((r) =>
    order.next(async () => {
      const name = await r.promise;
      committed.push(name);
      return name.toUpperCase();
    }),
  );
  // Ready last to first: the commits still come first to last.
  for (const r of [...ready].reverse()) r.resolve(r.name);
  t.strictSame(await Promise.all(done), ['A', 'B', 'C', 'D'], 'each gets its own result');
  t.strictSame(committed, ['a', 'b', 'c', 'd']);
});

t.test('a failed commit fails alone and hands the turn on', async (t) => {
  const order = new CommitOrder();
  const committed: string[] = [];
  const first = order.next(async () => {
    committed.push('first');
    throw new Error('corrupt');
  });
  const second = order.next(async () => {
    committed.push('second');
    return 2;
  });
  await t.rejects(first, { message: 'corrupt' });
  t.equal(await second, 2);
  t.strictSame(committed, ['first', 'second']);
});

t.test('a commit does not start before the one ahead of it has settled', async (t) => {
  const order = new CommitOrder();
  const gate = later<void>();
  let secondStarted = false;
  const first = order.next(() => gate.promise);
  const second = order.next(async () => {
    secondStarted = true;
  });
  await new Promise((r) => setImmediate(r));
  t.notOk(secondStarted, 'waiting for the first');
  gate.resolve();
  await Promise.all([first, second]);
  t.ok(secondStarted);
});
