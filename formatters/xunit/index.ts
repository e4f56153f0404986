/**
 * xUnit.net XML: v2/v3 (`<assemblies>` → `<assembly>` → `<collection>` → `<test>`) and v1
 * (`<assembly>` → `<class>` → `<test>`, bare or inside `<assemblies>`). See README.md.
 */
import { xmlParse, XML_FILES } from '../../lib/formatter/api.js';
import type { Formatter } from '../../lib/formatter/api.js';
import { xunitHandler } from './parse.js';
import { sniff } from './sniff.js';

export const xunit = {
  key: 'xunit',
  title: 'xUnit.net XML',
  ...XML_FILES,
  sniff,
  parse: xmlParse(xunitHandler),
} satisfies Formatter;
