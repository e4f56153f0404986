/**
 * CTRF, the Common Test Report Format (JSON). See README.md beside this file.
 */
import { parseJson, type ContainerSink, type Formatter, type ParseContext } from '../../lib/formatter/api.js';
import { ctrfHandler } from './parse.js';
import { sniff } from './sniff.js';

async function parse(input: AsyncIterable<string>, out: ContainerSink, ctx: ParseContext): Promise<void> {
  const handler = ctrfHandler(ctx, (container) => out.emit(container));
  await parseJson(input, out, handler);
  handler.end();
}

export const ctrf = {
  key: 'ctrf',
  title: 'CTRF JSON',
  extensions: ['.json'],
  mediaTypes: ['application/json'],
  sniff,
  parse,
} satisfies Formatter;
