/**
 * mochawesome JSON (Mocha, Cypress, WebdriverIO; mochawesome-merge output). See README.md beside
 * this file.
 */
import { parseJson, type ContainerSink, type Formatter, type ParseContext } from '../../lib/formatter/api.js';
import { mochawesomeHandler } from './parse.js';
import { sniff } from './sniff.js';

async function parse(input: AsyncIterable<string>, out: ContainerSink, ctx: ParseContext): Promise<void> {
  const handler = mochawesomeHandler(ctx, (container) => out.emit(container));
  await parseJson(input, out, handler);
  handler.end();
}

export const mochawesome = {
  key: 'mochawesome',
  title: 'mochawesome JSON',
  extensions: ['.json'],
  mediaTypes: ['application/json'],
  sniff,
  parse,
} satisfies Formatter;
