/** Text before a JSON report: dropped up to the caller's mark, within a bound; JSON passes as it is. */
import t from 'tap';
import { FormatError, skipPreamble } from '../../../lib/formatter/api.js';

const MARK = { start: /(?:^|\n)\{\s*"stats"\s*:/, what: 'Mocha JSON report' };

async function* chunks(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

async function read(text: string, size: number): Promise<string> {
  let out = '';
  for await (const c of skipPreamble(chunks(text, size), MARK)) out += c;
  return out;
}

t.test('skipPreamble', async (t) => {
  const cases: [name: string, text: string, want: string][] = [
    ['JSON from the start', '{"stats":{}}', '{"stats":{}}'],
    ['whitespace before JSON', '\n  {"stats":{}}', '\n  {"stats":{}}'],
    ['an npm banner', '\n> pkg@1.0.0 test\n> mocha\n\n{"stats":{}}', '{"stats":{}}'],
    ['console output with an object', 'log { a: 1 }\n{ "x": 1 }\n{"stats":{}}', '{"stats":{}}'],
    ['no report at all', 'hello\n', 'hello\n'],
  ];
  for (const [name, text, want] of cases)
    for (const size of [1, 5, 1000]) t.equal(await read(text, size), want, `${name}, chunks of ${size}`);
  await t.rejects(read(`${'log line\n'.repeat(10_000)}{"stats":{}}`, 4096), FormatError, 'a log, not a report');
});
