/**
 * CTRF, the Common Test Report Format (JSON). See README.md beside this file.
 */
import { jsonParse } from '../../lib/formatter/api.js';
import type { Formatter } from '../../lib/formatter/api.js';
import { ctrfHandler } from './parse.js';
import { sniff } from './sniff.js';

export const ctrf = {
  key: 'ctrf',
  title: 'CTRF JSON',
  extensions: ['.json'],
  mediaTypes: ['application/json'],
  sniff,
  parse: jsonParse(ctrfHandler),
} satisfies Formatter;
