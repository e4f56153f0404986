/**
 * TestNG `testng-results.xml` (TestNG's XMLReporter, also written by Surefire's TestNG provider).
 * See README.md beside this file.
 */
import { xmlParse, XML_FILES } from '../../lib/formatter/api.js';
import type { Formatter } from '../../lib/formatter/api.js';
import { testngHandler } from './parse.js';
import { sniff } from './sniff.js';

export const testng = {
  key: 'testng',
  title: 'TestNG XML',
  ...XML_FILES,
  sniff,
  parse: xmlParse(testngHandler),
} satisfies Formatter;
