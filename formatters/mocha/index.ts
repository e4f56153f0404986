/**
 * Mocha's built-in JSON reporter (`mocha --reporter json`). See README.md beside this file.
 */
import {
  parseJson,
  type ContainerSink,
  type Formatter,
  type ParseContext,
  skipPreamble,
} from '../../lib/formatter/api.js';
import { mochaHandler } from './parse.js';
import { sniff } from './sniff.js';

async function parse(input: AsyncIterable<string>, out: ContainerSink, ctx: ParseContext): Promise<void> {
  const handler = mochaHandler(ctx, (container) => out.emit(container));
  await parseJson(
    skipPreamble(input, {
      start: /(?:^|\n)\{\s*"stats"\s*:/,
      what: 'Mocha JSON report (a line with "{" and then "stats")',
    }),
    out,
    handler,
  );
  handler.end();
}

export const mocha = {
  key: 'mocha',
  title: 'Mocha JSON',
  extensions: ['.json'],
  mediaTypes: ['application/json'],
  sniff,
  parse,
} satisfies Formatter;
