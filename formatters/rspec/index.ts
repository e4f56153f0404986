/**
 * RSpec's JSON formatter (`rspec --format json`). See README.md beside this file.
 */
import { parseJson, type ContainerSink, type Formatter, type ParseContext } from '../../lib/formatter/api.js';
import { rspecHandler } from './parse.js';
import { sniff } from './sniff.js';

async function parse(input: AsyncIterable<string>, out: ContainerSink, ctx: ParseContext): Promise<void> {
  const handler = rspecHandler(ctx, (container) => out.emit(container));
  await parseJson(input, out, handler);
  handler.end();
}

export const rspec = {
  key: 'rspec',
  title: 'RSpec JSON',
  extensions: ['.json'],
  mediaTypes: ['application/json'],
  sniff,
  parse,
} satisfies Formatter;
