/**
 * The Dart / Flutter JSON reporter event stream (`dart test --reporter json`,
 * `flutter test --machine`). See README.md beside this file.
 */
import { forEachJsonLine } from '../../lib/formatter/api.js';
import type { ContainerSink, Formatter, ParseContext } from '../../lib/formatter/api.js';
import { dartHandler } from './parse.js';
import { sniff } from './sniff.js';

async function parse(input: AsyncIterable<string>, out: ContainerSink, ctx: ParseContext): Promise<void> {
  const handler = dartHandler(ctx, (container) => out.emit(container));
  // Events are small lines: each is parsed whole with JSON.parse (~7× the streaming tokenizer here).
  await forEachJsonLine(input, out, (event, n) => handler.value?.([n - 1], event));
  handler.end();
}

export const dart = {
  key: 'dart',
  title: 'Dart / Flutter JSON reporter',
  extensions: ['.json', '.jsonl', '.ndjson'],
  mediaTypes: ['application/json', 'application/x-ndjson', 'application/jsonl'],
  sniff,
  parse,
} satisfies Formatter;
