/**
 * TRX, the Visual Studio test results file: `dotnet test --logger trx`, vstest.console, legacy
 * mstest.exe (2006 and 2010 namespaces), Microsoft.Testing.Platform. See README.md.
 */
import { parseXml, type ContainerSink, type Formatter, type ParseContext } from '../../lib/formatter/api.js';
import { trxHandler } from './parse.js';
import { sniff } from './sniff.js';

async function parse(input: AsyncIterable<string>, out: ContainerSink, ctx: ParseContext): Promise<void> {
  const handler = trxHandler(ctx, (container) => out.emit(container));
  await parseXml(input, out, handler);
  handler.end();
}

export const trx = {
  key: 'trx',
  title: 'TRX (Visual Studio test results)',
  extensions: ['.trx', '.xml'],
  mediaTypes: ['application/xml', 'text/xml'],
  sniff,
  parse,
} satisfies Formatter;
