/**
 * mochawesome JSON (Mocha, Cypress, WebdriverIO; mochawesome-merge output). See README.md beside
 * this file.
 */
import { jsonParse, JSON_FILES } from '../../lib/formatter/api.js';
import type { Formatter } from '../../lib/formatter/api.js';
import { mochawesomeHandler } from './parse.js';
import { sniff } from './sniff.js';

export const mochawesome = {
  key: 'mochawesome',
  title: 'mochawesome JSON',
  ...JSON_FILES,
  sniff,
  parse: jsonParse(mochawesomeHandler),
} satisfies Formatter;
