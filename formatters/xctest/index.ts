/**
 * Xcode and Swift test results as users upload them: the console output of `xcodebuild test` and
 * `swift test` (XCTest, OCUnit, parallel testing, Swift Testing), and the JSON of `xcrun
 * xcresulttool` (Xcode 16+ `get test-results tests`, the legacy typed objects). See README.md.
 */
import { forEachLine, FormatError, jsonParse, peekFirst } from '../../lib/formatter/api.js';
import type { ContainerSink, Formatter, ParseContext } from '../../lib/formatter/api.js';
import { consoleHandler } from './console.js';
import { sniff } from './sniff.js';
import { xcresultHandler } from './xcresult.js';

const parseXcresult = jsonParse(xcresultHandler, { multiple: true });

async function parse(input: AsyncIterable<string>, out: ContainerSink, ctx: ParseContext): Promise<void> {
  const { first, rest } = await peekFirst(input);
  if (first === null)
    throw new FormatError(
      'The file is empty; send the console output of `xcodebuild test` or `swift test`, or xcresulttool JSON',
    );
  // xcresulttool writes objects; a log may start with `[` (a bracketed time or tag), never with `{`.
  if (first === '{') return parseXcresult(rest, out, ctx);
  const handler = consoleHandler(ctx, (c) => out.emit(c));
  await forEachLine(rest, out, (line) => handler.line(line));
  handler.end();
}

export const xctest = {
  key: 'xctest',
  title: 'Xcode / Swift tests (xcodebuild and swift test output, xcresulttool JSON)',
  extensions: ['.log', '.txt', '.json', '.out'],
  mediaTypes: ['text/plain', 'application/json'],
  sniff,
  parse,
} satisfies Formatter;
