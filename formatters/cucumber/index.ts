/**
 * Cucumber JSON (cucumber-jvm `json:` plugin, cucumber-js `--format json`, cucumber-ruby, the Go
 * json-formatter, WebdriverIO, Karate, behave). See README.md beside this file.
 */
import { jsonParse, JSON_FILES } from '../../lib/formatter/api.js';
import type { Formatter } from '../../lib/formatter/api.js';
import { cucumberHandler } from './parse.js';
import { sniff } from './sniff.js';

export const cucumber = {
  key: 'cucumber',
  title: 'Cucumber JSON',
  ...JSON_FILES,
  sniff,
  parse: jsonParse(cucumberHandler),
} satisfies Formatter;
