/**
 * TestNG `testng-results.xml` (TestNG's XMLReporter, also written by Surefire's TestNG provider).
 * See README.md beside this file.
 */
import { xmlParse } from '../../lib/formatter/api.js';
import type { Formatter } from '../../lib/formatter/api.js';
import { testngHandler } from './parse.js';
import { sniff } from './sniff.js';

export const testng = {
  key: 'testng',
  title: 'TestNG XML',
  extensions: ['.xml'],
  mediaTypes: ['application/xml', 'text/xml'],
  sniff,
  parse: xmlParse(testngHandler),
} satisfies Formatter;
