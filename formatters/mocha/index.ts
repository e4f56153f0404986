/**
 * Mocha's built-in JSON reporter (`mocha --reporter json`). See README.md beside this file.
 */
import { jsonParse, JSON_FILES } from '../../lib/formatter/api.js';
import type { Formatter } from '../../lib/formatter/api.js';
import { mochaHandler } from './parse.js';
import { sniff } from './sniff.js';

export const mocha = {
  key: 'mocha',
  title: 'Mocha JSON',
  ...JSON_FILES,
  sniff,
  parse: jsonParse(mochaHandler, {
    preamble: { start: /(?:^|\n)\{\s*"stats"\s*:/, what: 'Mocha JSON report (a line with "{" and then "stats")' },
  }),
} satisfies Formatter;
