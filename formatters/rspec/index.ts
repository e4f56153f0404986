/**
 * RSpec's JSON formatter (`rspec --format json`). See README.md beside this file.
 */
import { jsonParse } from '../../lib/formatter/api.js';
import type { Formatter } from '../../lib/formatter/api.js';
import { rspecHandler } from './parse.js';
import { sniff } from './sniff.js';

export const rspec = {
  key: 'rspec',
  title: 'RSpec JSON',
  extensions: ['.json'],
  mediaTypes: ['application/json'],
  sniff,
  parse: jsonParse(rspecHandler),
} satisfies Formatter;
