/**
 * Jest `--json` and Vitest `--reporter=json`. See README.md beside this file.
 */
import { jsonParse, JSON_FILES } from '../../lib/formatter/api.js';
import type { Formatter } from '../../lib/formatter/api.js';
import { jestHandler } from './parse.js';
import { sniff } from './sniff.js';

export const jest = {
  key: 'jest',
  title: 'Jest / Vitest JSON',
  ...JSON_FILES,
  sniff,
  // A line with `{` and then `numTotalTests` or another counter, as Jest and Vitest write it.
  parse: jsonParse(jestHandler, {
    preamble: {
      start: /(?:^|\n)\{\s*"num[A-Z]\w*"\s*:/,
      what: 'Jest JSON report (a line with "{" and then "numTotalTests" or another counter)',
    },
  }),
} satisfies Formatter;
