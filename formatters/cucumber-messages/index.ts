/**
 * Cucumber Messages NDJSON (`cucumber-js --format message`, cucumber-jvm `message:` plugin,
 * cucumber-ruby `--format message`). See README.md beside this file.
 */
import { jsonParse } from '../../lib/formatter/api.js';
import type { Formatter } from '../../lib/formatter/api.js';
import { messagesHandler } from './parse.js';
import { sniff } from './sniff.js';

export const cucumberMessages = {
  key: 'cucumber-messages',
  title: 'Cucumber Messages (NDJSON)',
  extensions: ['.ndjson', '.jsonl', '.json'],
  mediaTypes: ['application/x-ndjson', 'application/jsonl', 'application/json'],
  sniff,
  parse: jsonParse(messagesHandler, { multiple: true }),
} satisfies Formatter;
