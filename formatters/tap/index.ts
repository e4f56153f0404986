/**
 * TAP 12/13/14 (Test Anything Protocol): node-tap, node:test, tape, Perl Test::More/Test2, pytest-tap,
 * bats, libtap, pgTAP … See README.md beside this file.
 */
import { forEachLine } from '../../lib/formatter/api.js';
import type { ContainerSink, Formatter, ParseContext } from '../../lib/formatter/api.js';
import { tapHandler } from './parse.js';
import { sniff } from './sniff.js';

async function parse(input: AsyncIterable<string>, out: ContainerSink, ctx: ParseContext): Promise<void> {
  const handler = tapHandler(ctx, (container) => out.emit(container));
  await forEachLine(input, out, (line, n) => handler.line(line, n));
  handler.end();
}

export const tap = {
  key: 'tap',
  title: 'TAP (Test Anything Protocol)',
  extensions: ['.tap', '.txt'],
  mediaTypes: ['text/x-tap', 'application/x-tap', 'text/plain'],
  sniff,
  parse,
} satisfies Formatter;
