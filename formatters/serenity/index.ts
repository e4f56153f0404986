/**
 * Serenity BDD JSON test outcomes (`target/site/serenity/*.json`, one outcome per file), also
 * Thucydides' and Serenity/JS's. See README.md beside this file.
 */
import { jsonParse } from '../../lib/formatter/api.js';
import type { Formatter } from '../../lib/formatter/api.js';
import { serenityHandler } from './parse.js';
import { sniff } from './sniff.js';

export const serenity = {
  key: 'serenity',
  title: 'Serenity BDD JSON outcomes',
  extensions: ['.json'],
  mediaTypes: ['application/json'],
  sniff,
  parse: jsonParse(serenityHandler),
} satisfies Formatter;
