/**
 * JUnit XML and its dialects (Surefire, Gradle, pytest, jest-junit, go-junit-report, PHPUnit,
 * googletest, Catch2, Playwright, cargo-nextest, …). See README.md beside this file.
 */
import { parseXml, type ContainerSink, type Formatter, type ParseContext } from '../../lib/formatter/api.js';
import { junitHandler } from './parse.js';
import { sniff } from './sniff.js';

async function parse(input: AsyncIterable<string>, out: ContainerSink, ctx: ParseContext): Promise<void> {
  const handler = junitHandler(ctx, (container) => out.emit(container), out.opened ? (c) => out.opened!(c) : undefined);
  await parseXml(input, out, handler);
  handler.end();
}

export const junit = {
  key: 'junit',
  title: 'JUnit XML',
  extensions: ['.xml'],
  mediaTypes: ['application/xml', 'text/xml', 'application/junit+xml'],
  sniff,
  parse,
} satisfies Formatter;
