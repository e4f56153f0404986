/**
 * Jest `--json` and Vitest `--reporter=json`. See README.md beside this file.
 */
import { parseJson, type ContainerSink, type Formatter, type ParseContext } from '../../lib/formatter-api.js';
import { jestHandler } from './parse.js';
import { skipPreamble } from './preamble.js';
import { sniff } from './sniff.js';

async function parse(input: AsyncIterable<string>, out: ContainerSink, ctx: ParseContext): Promise<void> {
  const handler = jestHandler(ctx, (container) => out.emit(container));
  await parseJson(skipPreamble(input), out, handler);
  handler.end();
}

export const jest = {
  key: 'jest',
  title: 'Jest / Vitest JSON',
  extensions: ['.json'],
  mediaTypes: ['application/json'],
  sniff,
  parse,
} satisfies Formatter;
