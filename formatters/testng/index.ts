/**
 * TestNG `testng-results.xml` (TestNG's XMLReporter, also written by Surefire's TestNG provider).
 * See README.md beside this file.
 */
import { parseXml, type ContainerSink, type Formatter, type ParseContext } from '../../lib/formatter/api.js';
import { testngHandler } from './parse.js';
import { sniff } from './sniff.js';

async function parse(input: AsyncIterable<string>, out: ContainerSink, ctx: ParseContext): Promise<void> {
  const handler = testngHandler(ctx, (container) => out.emit(container));
  await parseXml(input, out, handler);
  handler.end();
}

export const testng = {
  key: 'testng',
  title: 'TestNG XML',
  extensions: ['.xml'],
  mediaTypes: ['application/xml', 'text/xml'],
  sniff,
  parse,
} satisfies Formatter;
