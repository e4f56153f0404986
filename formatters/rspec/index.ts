/**
 * RSpec's JSON formatter (`rspec --format json`). See README.md beside this file.
 */
import { jsonParse, JSON_FILES } from '../../lib/formatter/api.js';
import type { Formatter } from '../../lib/formatter/api.js';
import { rspecHandler } from './parse.js';
import { sniff } from './sniff.js';

export const rspec = {
  key: 'rspec',
  title: 'RSpec JSON',
  ...JSON_FILES,
  sniff,
  parse: jsonParse(rspecHandler),
} satisfies Formatter;
