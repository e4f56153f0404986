/**
 * Cucumber Messages NDJSON (`cucumber-js --format message`, cucumber-jvm `message:` plugin,
 * cucumber-ruby `--format message`). See README.md beside this file.
 */
import { parseJson, type ContainerSink, type Formatter, type ParseContext } from '../../lib/formatter/api.js';
import { messagesHandler } from './parse.js';
import { sniff } from './sniff.js';

async function parse(input: AsyncIterable<string>, out: ContainerSink, ctx: ParseContext): Promise<void> {
  const handler = messagesHandler(ctx, (container) => out.emit(container));
  await parseJson(input, out, handler, { multiple: true });
  handler.end();
}

export const cucumberMessages = {
  key: 'cucumber-messages',
  title: 'Cucumber Messages (NDJSON)',
  extensions: ['.ndjson', '.jsonl', '.json'],
  mediaTypes: ['application/x-ndjson', 'application/jsonl', 'application/json'],
  sniff,
  parse,
} satisfies Formatter;
