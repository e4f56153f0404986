/** parseJson: paths, values taken whole, JSON Lines, every chunk size, and what it refuses. */
import t from 'tap';
import { parseJson, FormatError, type ContainerSink, type JsonPath } from '../../../lib/formatter/api.js';

const sink: ContainerSink = { emit: () => undefined, ready: () => null };

async function* chunks(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

async function events(
  text: string,
  size: number,
  whole: (p: JsonPath) => boolean,
  multiple = false,
): Promise<string[]> {
  const seen: string[] = [];
  await parseJson(
    chunks(text, size),
    sink,
    {
      open: (p, kind) => {
        if (whole(p)) return true;
        seen.push(`open ${p.join('.')} ${kind}`);
      },
      close: (p, kind) => void seen.push(`close ${p.join('.')} ${kind}`),
      value: (p, v) => void seen.push(`value ${p.join('.')} ${JSON.stringify(v)}`),
    },
    { multiple },
  );
  return seen;
}

t.test('parseJson: paths, whole values, every chunk size', async (t) => {
  const doc =
    '{"stats":{"tests":2},"tests":[{"title":"a","err":{}},{"title":"b \\"q\\" ü","err":{"message":"x"}}],"n":null,' +
    '"ok":true}';
  const expected = [
    'open  object',
    'open stats object',
    'value stats.tests 2',
    'close stats object',
    'open tests array',
    'value tests.0 {"title":"a","err":{}}',
    'value tests.1 {"title":"b \\"q\\" ü","err":{"message":"x"}}',
    'close tests array',
    'value n null',
    'value ok true',
    'close  object',
  ];
  for (const size of [1, 2, 7, 64, 10_000])
    t.same(await events(doc, size, (p) => p.length === 2 && p[0] === 'tests'), expected, `chunks of ${size}`);
});

t.test('parseJson: JSON Lines with multiple', async (t) => {
  const seen = await events('{"Action":"run"}\n{"Action":"pass"}\n', 5, (p) => p.length === 1, true);
  t.same(seen, ['value 0 {"Action":"run"}', 'value 1 {"Action":"pass"}']);
});

t.test('parseJson: broken, truncated, empty and too deep input are FormatErrors', async (t) => {
  for (const bad of ['{"a": ]', '{"a": 1', '', '   ', '['.repeat(2000)]) {
    await t.rejects(
      events(bad, 3, () => false),
      FormatError,
      JSON.stringify(bad.slice(0, 20)),
    );
  }
});

t.test('parseJson: __proto__ stays an own property', async (t) => {
  let got: any = null;
  await parseJson(chunks('{"x":{"__proto__":{"polluted":1}}}', 4), sink, {
    open: (p) => p.length === 1,
    value: (_p, v) => void (got = v),
  });
  t.equal(({} as any).polluted, undefined);
  t.same(Object.keys(got), ['__proto__']);
});
