/**
 * Playwright's JSON reporter (`--reporter=json`). See README.md beside this file.
 */
import { jsonParse, JSON_FILES } from '../../lib/formatter/api.js';
import type { Formatter } from '../../lib/formatter/api.js';
import { playwrightHandler } from './parse.js';
import { sniff } from './sniff.js';

export const playwright = {
  key: 'playwright',
  title: 'Playwright JSON',
  ...JSON_FILES,
  sniff,
  parse: jsonParse(playwrightHandler),
} satisfies Formatter;
