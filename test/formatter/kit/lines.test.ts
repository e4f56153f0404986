/** Line-by-line input: every line end, a last line without one, chunk borders; JSON Lines. */
import t from 'tap';
import { FormatError, forEachJsonLine, forEachLine, type ContainerSink } from '../../../lib/formatter/api.js';

const sink: ContainerSink = { emit: () => undefined, ready: () => null };

async function* chunks(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

t.test('forEachLine: CRLF, LF, a last line without end, chunk borders', async (t) => {
  for (const size of [1, 3, 100]) {
    const lines: [string, number][] = [];
    await forEachLine(chunks('ok 1\r\nnot ok 2\n\nlast', size), sink, (l, n) => void lines.push([l, n]));
    t.same(
      lines,
      [
        ['ok 1', 1],
        ['not ok 2', 2],
        ['', 3],
        ['last', 4],
      ],
      `chunks of ${size}`,
    );
  }
});

t.test('forEachJsonLine: values of JSON lines, other lines skipped, a broken JSON line refused', async (t) => {
  const values: [unknown, number][] = [];
  const count = await forEachJsonLine(
    chunks('> banner\n{"a":1}\n[2]\nplain\n', 2),
    sink,
    (v, n) => void values.push([v, n]),
  );
  t.equal(count, 2);
  t.same(values, [
    [{ a: 1 }, 2],
    [[2], 3],
  ]);
  await t.rejects(
    forEachJsonLine(chunks('{"a":1}\n{"b":', 4), sink, () => undefined),
    FormatError,
  );
});
