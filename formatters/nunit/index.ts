/**
 * NUnit result XML: NUnit 3/4 `TestResult.xml` (`<test-run>`, or a bare `<test-suite>`), NUnit 2.x
 * `<test-results>` (also Pester and NUnit 3's `format=nunit2`) and Unity's variant. See README.md.
 */
import { xmlParse, XML_FILES } from '../../lib/formatter/api.js';
import type { Formatter } from '../../lib/formatter/api.js';
import { nunitHandler } from './parse.js';
import { sniff } from './sniff.js';

export const nunit = {
  key: 'nunit',
  title: 'NUnit XML',
  ...XML_FILES,
  sniff,
  parse: xmlParse(nunitHandler),
} satisfies Formatter;
