/** A formatter's parse from its handler factory: events in, end() after the last, the sink's opened passed on. */
import t from 'tap';
import {
  jsonParse,
  xmlParse,
  type Container,
  type ContainerSink,
  type ParseContext,
} from '../../../lib/formatter/api.js';

async function* chunks(...pieces: string[]): AsyncGenerator<string> {
  yield* pieces;
}

const ctx: ParseContext = {
  fileName: 'r',
  nextId: () => 1,
  limits: { maxTextChars: 100 },
  setProducer: () => undefined,
  options: { smart: false },
};

t.test('xmlParse', async (t) => {
  const seen: string[] = [];
  const opened: string[] = [];
  const sink: ContainerSink = {
    emit: (c) => void seen.push(`emit ${c.title}`),
    opened: (c) => void opened.push(c.title),
    ready: () => null,
  };
  const parse = xmlParse((_ctx, emit, open) => ({
    open: (name) => {
      seen.push(`open ${name}`);
      open?.({ id: 1, parentId: null, type: 'suite', title: name });
    },
    text: () => undefined,
    close: (name) => void seen.push(`close ${name}`),
    end: () => emit({ title: 'done' } as Container),
  }));
  await parse(chunks('<a><b/>', '</a>'), sink, ctx);
  t.same(seen, ['open a', 'open b', 'close b', 'close a', 'emit done']);
  t.same(opened, ['a', 'b']);
});

t.test('jsonParse: JSON Lines and a preamble', async (t) => {
  const values: unknown[] = [];
  const sink: ContainerSink = { emit: () => undefined, ready: () => null };
  const lines = jsonParse(
    () => ({ open: (path) => path.length === 1, value: (_p, v) => void values.push(v), end: () => values.push('end') }),
    { multiple: true },
  );
  await lines(chunks('{"a":1}\n{"b"', ':2}\n'), sink, ctx);
  t.same(values, [{ a: 1 }, { b: 2 }, 'end']);
  values.length = 0;
  const report = jsonParse(
    () => ({ open: (path) => path.length === 1, value: (_p, v) => void values.push(v), end: () => undefined }),
    { preamble: { start: /(?:^|\n)\{\s*"stats"\s*:/, what: 'a report' } },
  );
  await report(chunks('> npm banner\n', '{"stats":{"tests":1}}'), sink, ctx);
  t.same(values, [{ tests: 1 }]);
});
