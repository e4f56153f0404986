/**
 * The bench generator of this format (bench/formatters.ts runs it): Allure 2: ONE `*-result.json`
 * whose `steps` array is made as long as the size asks. Allure writes one file per test, and
 * concatenating result files is not a valid file, so "N MB of Allure" is one test with a very long
 * step list: the file counts 1 test (every step is a non-counted container).
 */
import { BASE_MS, caseAt, javaStack, pretty, sized, tally, uuid } from '../../bench/cases.js';
import type { FormatGenerator, Writer } from '../../bench/cases.js';

const allure: Writer = async (out, n, seed) => {
  const stepOf = (i: number, depth: number): Record<string, unknown> => {
    const c = caseAt(seed + depth * 101, i);
    const status = c.status === 'failed' ? (c.error ? 'broken' : 'failed') : c.status;
    const step: Record<string, unknown> = { name: `${c.title} — Schritt ${i}.${depth}`, status, stage: 'finished' };
    if (c.status === 'failed')
      step['statusDetails'] = {
        known: false,
        muted: false,
        flaky: false,
        message: c.message,
        trace: javaStack(c, c.error ? 'java.lang.IllegalStateException' : 'org.opentest4j.AssertionFailedError'),
      };
    if (c.i % 5 === 0) step['parameters'] = [{ name: 'input', value: c.expected }];
    if (c.stdout)
      step['attachments'] = [
        {
          name: 'response <body>',
          source: `${uuid(seed, 9, i * 4 + depth)}-attachment.json`,
          type: 'application/json',
        },
      ];
    if (depth === 0 && c.i % 3 === 0) step['steps'] = [stepOf(i, 1), stepOf(i, 2)];
    step['start'] = c.startMs;
    step['stop'] = Math.round(c.startMs + c.durationMs);
    return step;
  };
  const failed = tally(seed, 0, n).failed > 0;
  const head = {
    uuid: uuid(seed, 0, 0),
    historyId: uuid(seed, 0, 1).replaceAll('-', ''),
    testCaseId: uuid(seed, 0, 2).replaceAll('-', ''),
    fullName: 'com.example.checkout.LongJourneyTest.walksTheWholeShop',
    labels: [
      { name: 'host', value: 'runner-7f9c' },
      { name: 'thread', value: '4752@runner-7f9c.main(1)' },
      { name: 'framework', value: 'junit-platform' },
      { name: 'language', value: 'java' },
      { name: 'parentSuite', value: 'Acceptance' },
      { name: 'suite', value: 'Checkout — Größe & <Umfang>' },
      { name: 'testClass', value: 'com.example.checkout.LongJourneyTest' },
      { name: 'testMethod', value: 'walksTheWholeShop' },
    ],
    links: [{ name: 'SHOP-4711', url: 'https://issues.example.com/browse/SHOP-4711?x=1&y="2"', type: 'issue' }],
    name: 'walks the whole shop: ключ, エラー & "quotes"',
    status: failed ? 'failed' : 'passed',
    statusDetails: failed
      ? {
          known: false,
          muted: false,
          flaky: false,
          message: 'one or more steps failed',
          trace:
            'org.opentest4j.AssertionFailedError: one or more steps failed\n\tat ' +
            'com.example.checkout.LongJourneyTest.walksTheWholeShop(LongJourneyTest.java:42)',
        }
      : { known: false, muted: false, flaky: false },
    stage: 'finished',
    description: 'A journey through every page of the shop.\nZeile 2: ü ö ä ß',
    start: BASE_MS,
    stop: BASE_MS + n * 120,
  };
  // allure-java pretty-prints with Jackson; two-space JSON.stringify is the same shape.
  const opening = JSON.stringify(head, null, 2);
  await out.put(`${opening.slice(0, -2)},\n  "steps": [`);
  for (let i = 0; i < n; i++) await out.put(`${i === 0 ? '' : ','} ${pretty(stepOf(i, 0), 1)}`);
  await out.put(' ],\n  "attachments": [],\n  "parameters": []\n}\n');
  return 1;
};

export const generator: FormatGenerator = sized(`${uuid(1, 99, 0)}-result.json`, allure);
