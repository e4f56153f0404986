/**
 * Jest `--json` and Vitest `--reporter=json`. See README.md beside this file.
 */
import {
  parseJson,
  type ContainerSink,
  type Formatter,
  type ParseContext,
  skipPreamble,
} from '../../lib/formatter/api.js';
import { jestHandler } from './parse.js';
import { sniff } from './sniff.js';

async function parse(input: AsyncIterable<string>, out: ContainerSink, ctx: ParseContext): Promise<void> {
  const handler = jestHandler(ctx, (container) => out.emit(container));
  // A line with `{` and then `numTotalTests` or another counter, as Jest and Vitest write it.
  await parseJson(
    skipPreamble(input, {
      start: /(?:^|\n)\{\s*"num[A-Z]\w*"\s*:/,
      what: 'Jest JSON report (a line with "{" and then "numTotalTests" or another counter)',
    }),
    out,
    handler,
  );
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
