/**
 * TRX, the Visual Studio test results file: `dotnet test --logger trx`, vstest.console, legacy
 * mstest.exe (2006 and 2010 namespaces), Microsoft.Testing.Platform. See README.md.
 */
import { xmlParse } from '../../lib/formatter/api.js';
import type { Formatter } from '../../lib/formatter/api.js';
import { trxHandler } from './parse.js';
import { sniff } from './sniff.js';

export const trx = {
  key: 'trx',
  title: 'TRX (Visual Studio test results)',
  extensions: ['.trx', '.xml'],
  mediaTypes: ['application/xml', 'text/xml'],
  sniff,
  parse: xmlParse(trxHandler),
} satisfies Formatter;
