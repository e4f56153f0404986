/** The packed history column: parts, titles read back one at a time, keys by path. */
import t from 'tap';
import {
  HistoryColumnBuilder,
  TESTS_PER_PART,
  decodeColumn,
  historyKey,
  isFlakyFlag,
  statusOf,
  type HistoryPart,
} from '../../lib/history/column.js';

t.test('a column of several parts reads back whole, titles included', async (t) => {
  const parents = new Map([
    [1, { parentSeq: null, title: 'Suite ü 日本語' }],
    [2, { parentSeq: 1, title: 'nested \u0000 odd' }],
  ]);
  const builder = new HistoryColumnBuilder(parents);
  const parts: HistoryPart[] = [];
  const n = TESTS_PER_PART * 2 + 17;
  for (let i = 0; i < n; i++) {
    const part = builder.add({
      seq: i + 3,
      parentSeq: i % 2 ? 2 : 1,
      title: `test ${i} 🚀`,
      status: i % 7 ? 'passed' : 'failed',
      durationMs: i % 5 ? i / 4 : null,
      flaky: i === 9,
    });
    if (part) parts.push(part);
  }
  parts.push(builder.finish()!);
  t.strictSame(
    parts.map((p) => p.index),
    [0, 1, 2],
    'full parts come out as they fill',
  );
  const c = decodeColumn(
    'r',
    parts.map((p) => p.data),
  );
  t.equal(c.keys.length, n);
  for (const i of [0, 1, 9, TESTS_PER_PART - 1, TESTS_PER_PART, TESTS_PER_PART * 2 + 16]) {
    const path = i % 2 ? ['Suite ü 日本語', 'nested \u0000 odd', `test ${i} 🚀`] : ['Suite ü 日本語', `test ${i} 🚀`];
    t.strictSame(c.pathOf(i), path, `title path of entry ${i}`);
    t.equal(c.keys[i], historyKey(path), 'its key');
    t.equal(c.seqs[i], i + 3);
    t.equal(statusOf(c.flags[i]!), i % 7 ? 'passed' : 'failed');
    t.equal(isFlakyFlag(c.flags[i]!), i === 9);
    t.equal(Number.isNaN(c.durations[i]!) ? null : c.durations[i], i % 5 ? Math.fround(i / 4) : null);
  }
  t.throws(() => decodeColumn('r', [parts[0]!.data.subarray(0, 100)]), /not in format/, 'a damaged part is refused');
});

t.test('keys', async (t) => {
  t.equal(historyKey(['a', 'b']), historyKey(['a', 'b']));
  t.not(historyKey(['a', 'b']), historyKey(['ab']));
  t.not(historyKey(['a', 'b']), historyKey(['b', 'a']));
  t.ok(Number.isSafeInteger(historyKey(['x'.repeat(10_000)])), 'a safe integer');
});
