/**
 * CTRF, the Common Test Report Format (JSON). See README.md beside this file.
 */
import { jsonParse, JSON_FILES } from '../../lib/formatter/api.js';
import type { Formatter } from '../../lib/formatter/api.js';
import { ctrfHandler } from './parse.js';
import { sniff } from './sniff.js';

export const ctrf = {
  key: 'ctrf',
  title: 'CTRF JSON',
  ...JSON_FILES,
  sniff,
  parse: jsonParse(ctrfHandler),
} satisfies Formatter;
