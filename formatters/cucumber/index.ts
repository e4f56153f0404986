/**
 * Cucumber JSON (cucumber-jvm `json:` plugin, cucumber-js `--format json`, cucumber-ruby, the Go
 * json-formatter, WebdriverIO, Karate, behave). See README.md beside this file.
 */
import { parseJson, type ContainerSink, type Formatter, type ParseContext } from '../../lib/formatter/api.js';
import { cucumberHandler } from './parse.js';
import { sniff } from './sniff.js';

async function parse(input: AsyncIterable<string>, out: ContainerSink, ctx: ParseContext): Promise<void> {
  const handler = cucumberHandler(ctx, (container) => out.emit(container));
  await parseJson(input, out, handler);
  handler.end();
}

export const cucumber = {
  key: 'cucumber',
  title: 'Cucumber JSON',
  extensions: ['.json'],
  mediaTypes: ['application/json'],
  sniff,
  parse,
} satisfies Formatter;
