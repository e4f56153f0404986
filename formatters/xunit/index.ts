/**
 * xUnit.net XML: v2/v3 (`<assemblies>` → `<assembly>` → `<collection>` → `<test>`) and v1
 * (`<assembly>` → `<class>` → `<test>`, bare or inside `<assemblies>`). See README.md.
 */
import { parseXml, type ContainerSink, type Formatter, type ParseContext } from '../../lib/formatter/api.js';
import { xunitHandler } from './parse.js';
import { sniff } from './sniff.js';

async function parse(input: AsyncIterable<string>, out: ContainerSink, ctx: ParseContext): Promise<void> {
  const handler = xunitHandler(ctx, (container) => out.emit(container));
  await parseXml(input, out, handler);
  handler.end();
}

export const xunit = {
  key: 'xunit',
  title: 'xUnit.net XML',
  extensions: ['.xml'],
  mediaTypes: ['application/xml', 'text/xml'],
  sniff,
  parse,
} satisfies Formatter;
