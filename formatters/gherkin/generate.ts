/**
 * The bench generator of this format (bench/formatters.ts runs it): one long feature file as teams
 * write them: a Background, a Rule per 40 tests, tagged scenarios with descriptions, doc strings and
 * data tables, and every eighth test starting a Scenario Outline whose Examples rows are the next
 * tests (each row is one test, as Cucumber runs it).
 */
import { caseAt, moduleName, sized, TESTS_PER_SUITE, VALUES } from '../../bench/cases.js';
import type { FormatGenerator, Writer } from '../../bench/cases.js';

/** Rows of an outline: each is one counted test. */
const ROWS = 4;

const gherkin: Writer = async (out, n, seed) => {
  await out.put(
    '# language: en\n@checkout\nFeature: Checkout of the größe shop\n  Customers pay for what is in their basket.\n\n' +
      '  Background:\n    Given the shop "größe & co" is open\n    And the customer is signed in\n',
  );
  let written = 0;
  for (let i = 0; i < n;) {
    const c = caseAt(seed, i);
    if (i % TESTS_PER_SUITE === 0)
      await out.put(
        `\n  @${moduleName(c.module)}\n  Rule: ${moduleName(c.module)} rules, part ${i / TESTS_PER_SUITE}\n`,
      );
    const rows = Math.min(ROWS, n - i, TESTS_PER_SUITE - (i % TESTS_PER_SUITE));
    if (i % 8 === 0 && rows > 1) {
      let s =
        `\n    @outline\n    Scenario Outline: ${c.title} with <amount>\n      Given a basket with <amount> items\n` +
        '      When the customer pays <price>\n      Then the receipt says "<price>"\n\n      Examples:\n' +
        '        | amount | price |\n';
      for (let k = 0; k < rows; k++) s += `        | ${i + k} | ${(i + k) * 3}.50 € |\n`;
      await out.put(s);
      i += rows;
      written += rows;
      continue;
    }
    let s = `\n    @${c.status === 'skipped' ? 'wip' : 'regression'}\n    Scenario: ${c.title}\n`;
    if (c.stdout) s += `      ${c.stdout.split('\n')[0]}\n\n`;
    s += `      Given the basket holds "${VALUES[c.i % VALUES.length]}"\n      When the customer ${c.method}\n`;
    if (c.i % 3 === 0)
      s +=
        `      Then the answer is:\n        """json\n        {"id": ${c.i}, "value": ${JSON.stringify(c.expected)}}` +
        `\n        """\n`;
    else s += `      Then the lines are:\n        | item | price |\n        | ${c.module} | ${c.line} |\n`;
    await out.put(s);
    i++;
    written++;
  }
  return written;
};

export const generator: FormatGenerator = sized('checkout.feature', gherkin);
