/**
 * Robot Framework `output.xml`, RF 2.x to 7 (also merged by Rebot). See README.md beside this file.
 */
import { parseXml, type ContainerSink, type Formatter, type ParseContext } from '../../lib/formatter/api.js';
import { robotHandler } from './parse.js';
import { sniff } from './sniff.js';

async function parse(input: AsyncIterable<string>, out: ContainerSink, ctx: ParseContext): Promise<void> {
  const handler = robotHandler(ctx, (container) => out.emit(container));
  await parseXml(input, out, handler);
  handler.end();
}

export const robot = {
  key: 'robot',
  title: 'Robot Framework output.xml',
  extensions: ['.xml'],
  mediaTypes: ['application/xml', 'text/xml'],
  sniff,
  parse,
} satisfies Formatter;
