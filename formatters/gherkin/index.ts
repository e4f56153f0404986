/**
 * Gherkin `.feature` files: what a team means to test, imported as scenarios whose status is
 * unknown (Calliope's `gherkin` format). See README.md beside this file.
 */
import { forEachLine } from '../../lib/formatter/api.js';
import type { Formatter } from '../../lib/formatter/api.js';
import { gherkinHandler } from './parse.js';
import { sniff } from './sniff.js';

export const gherkin = {
  key: 'gherkin',
  title: 'Gherkin feature file',
  extensions: ['.feature'],
  mediaTypes: ['text/x-gherkin', 'text/plain'],
  sniff,
  async parse(input, out, ctx) {
    const machine = gherkinHandler(ctx, (c) => out.emit(c));
    await forEachLine(input, out, (line, n) => machine.line(line, n));
    machine.end();
  },
} satisfies Formatter;
