import t from 'tap';
import type { Container } from '../../lib/formatter/api.js';
import { totalsOf as count } from '../../lib/formatter/check.js';
import { driveHandler, feedXml, formatterChecks, formatterFixtures } from '../../test/helpers/formatter-fixtures.js';
import type { XmlEvent } from '../../test/helpers/formatter-fixtures.js';
import { junit } from './index.js';
import { junitHandler } from './parse.js';
import { parseSeconds } from './values.js';
import { parseTimestamp } from '../../lib/formatter/api.js';

const fx = formatterFixtures(junit, import.meta.url);

formatterChecks(fx, {
  // With a small text limit, every fixture also in 7-byte chunks.
  chunks: { eachInChunksOf: 7 },
});
const { run } = fx;

type Event = XmlEvent;

function drive(events: Event[], maxTextChars = 1000): Container[] {
  return driveHandler(junitHandler, 'x.xml', maxTextChars, (h) => feedXml(h, events)).out;
}

t.test('state machine: Surefire flaky and rerun testcases', async (t) => {
  const out = drive([
    ['open', 'testsuite', { name: 'surefire3.FlakyTest' }],
    ['open', 'testcase', { name: 'test1', classname: 'surefire3.FlakyTest', time: '1,234.5' }],
    ['open', 'flakyFailure', { message: 'first', type: 'java.lang.AssertionError', time: '0.5' }],
    ['text', '\n  '],
    ['open', 'stackTrace'],
    ['text', 'java.lang.AssertionError\n\tat surefire3.FlakyTest.test1'],
    ['close', 'stackTrace'],
    ['open', 'system-out'],
    ['text', 'output of the failed attempt'],
    ['close', 'system-out'],
    ['close', 'flakyFailure'],
    ['open', 'flakyError', { message: 'second' }],
    ['text', 'trace-2'],
    ['close', 'flakyError'],
    ['close', 'testcase'],
    ['open', 'testcase', { name: 'test3', classname: 'surefire3.FlakyTest', time: '0' }],
    ['open', 'failure', { type: 'java.lang.AssertionError' }],
    ['text', 'trace-root'],
    ['close', 'failure'],
    ['open', 'rerunFailure', { message: 'again', type: 'java.lang.AssertionError' }],
    ['text', 'trace-rerun'],
    ['close', 'rerunFailure'],
    ['close', 'testcase'],
    ['close', 'testsuite'],
  ]);
  const [flaky, rerun, suite] = out;
  t.match(flaky, {
    type: 'test',
    title: 'test1',
    status: 'passed',
    flaky: true,
    durationMs: 1234500,
    output: null,
    failure: null,
    meta: { classname: 'surefire3.FlakyTest' },
  });
  t.same(flaky!.attempts, [
    {
      status: 'failed',
      durationMs: 500,
      failure: {
        message: 'first',
        type: 'java.lang.AssertionError',
        stack: 'java.lang.AssertionError\n\tat surefire3.FlakyTest.test1',
      },
    },
    { status: 'errored', durationMs: null, failure: { message: 'second', type: null, stack: 'trace-2' } },
    { status: 'passed', durationMs: null, failure: null },
  ]);
  t.match(rerun, {
    status: 'failed',
    flaky: false,
    failure: { message: null, type: 'java.lang.AssertionError', stack: 'trace-root' },
  });
  t.same(
    rerun!.attempts!.map((a) => a.status),
    ['failed', 'failed'],
  );
  t.match(suite, { type: 'suite', status: 'failed', parentId: null });
  t.equal(flaky!.parentId, suite!.id);
});

t.test('state machine: suite-level errors', async (t) => {
  const alone = drive([
    ['open', 'testsuites'],
    ['open', 'testsuite', { name: 'com.example.BrokenTest', time: '0.2' }],
    ['open', 'error', { message: 'Could not initialize class', type: 'java.lang.NoClassDefFoundError' }],
    ['text', 'java.lang.NoClassDefFoundError: '],
    ['text', 'com.example.Broken'],
    ['close', 'error'],
    ['close', 'testsuite'],
    ['close', 'testsuites'],
  ]);
  t.equal(alone.length, 2);
  const [synthetic, suite] = alone;
  t.match(synthetic, {
    type: 'test',
    title: 'com.example.BrokenTest',
    status: 'errored',
    parentId: suite!.id,
    failure: {
      message: 'Could not initialize class',
      type: 'java.lang.NoClassDefFoundError',
      stack: 'java.lang.NoClassDefFoundError: com.example.Broken',
    },
  });
  t.match(suite, { type: 'suite', status: 'errored', failure: null });
  t.same(count(alone), { tests: 1, passed: 0, failed: 0, errored: 1, skipped: 0 });

  // With testcases present rule 4 does not add a test: the error stays on the suite.
  const mixed = drive([
    ['open', 'testsuite', { name: 'S' }],
    ['open', 'testcase', { name: 'a' }],
    ['close', 'testcase'],
    ['open', 'failure', { message: 'afterAll failed' }],
    ['close', 'failure'],
    ['close', 'testsuite'],
  ]);
  t.same(count(mixed), { tests: 1, passed: 1, failed: 0, errored: 0, skipped: 0 });
  t.match(mixed[1], { type: 'suite', status: 'errored', failure: { message: 'afterAll failed' } });
});

t.test('state machine: attachment markers and attachment properties', async (t) => {
  const out = drive([
    ['open', 'testsuite', { name: 'S' }],
    ['open', 'testcase', { name: 'shows a page' }],
    ['open', 'properties'],
    ['open', 'property', { name: 'attachment1', value: ' shots/home.png ' }],
    ['close', 'property'],
    ['open', 'property', { name: 'attachment2', value: 'data:image/png;base64,AAAA' }],
    ['close', 'property'],
    ['open', 'property', { name: 'note' }],
    ['text', 'multi\nline'],
    ['close', 'property'],
    ['close', 'properties'],
    ['open', 'system-out'],
    ['text', 'log line\r\n[[ATTACH'],
    ['text', 'MENT|test-results/page/trace.zip]]\r\n'],
    ['text', '[[ATTACHMENT| video.webm |reserved]] then [[ATTACHMENT|broken\n]]\n'],
    ['text', '[[ATTACHMENT|shots/home.png]]'],
    ['close', 'system-out'],
    ['close', 'testcase'],
    ['open', 'system-err'],
    ['text', '[[ATTACHMENT|/abs/suite.log]]'],
    ['close', 'system-err'],
    ['close', 'testsuite'],
  ]);
  const [test, suite] = out;
  t.same(test!.attachmentRefs, ['shots/home.png', 'test-results/page/trace.zip', 'video.webm']);
  t.same(test!.properties, [
    { name: 'attachment1', value: ' shots/home.png ' },
    { name: 'attachment2', value: 'data:image/png;base64,AAAA' },
    { name: 'note', value: 'multi\nline' },
  ]);
  t.match(test!.output, { stdout: /^log line\r\n\[\[ATTACHMENT\|test-results/, stderr: null });
  t.same(suite!.attachmentRefs, ['/abs/suite.log']);
  t.same(suite!.output, { stdout: null, stderr: '[[ATTACHMENT|/abs/suite.log]]' });
});

t.test('state machine: status table', async (t) => {
  const cases: [string, Record<string, string>, Event[], string][] = [
    ['no children', {}, [], 'passed'],
    [
      'error beats failure',
      {},
      [
        ['open', 'failure'],
        ['close', 'failure'],
        ['open', 'error'],
        ['close', 'error'],
      ],
      'errored',
    ],
    [
      'failure beats skipped',
      {},
      [
        ['open', 'skipped'],
        ['close', 'skipped'],
        ['open', 'failure'],
        ['close', 'failure'],
      ],
      'failed',
    ],
    [
      'skipped',
      {},
      [
        ['open', 'skipped', { message: 'pytest.skip' }],
        ['close', 'skipped'],
      ],
      'skipped',
    ],
    ['gtest notrun', { status: 'notrun' }, [], 'skipped'],
    ['gtest suppressed', { status: 'run', result: 'suppressed' }, [], 'skipped'],
    ['gtest skipped result', { status: 'run', result: 'skipped' }, [], 'skipped'],
    ['CTest disabled', { status: 'disabled' }, [], 'skipped'],
    ['status ignored, case-insensitive', { status: 'Ignored' }, [], 'skipped'],
    ['status failed without a child', { status: 'failed' }, [], 'passed'],
    [
      'status disabled but a failure child',
      { status: 'disabled' },
      [
        ['open', 'failure'],
        ['close', 'failure'],
      ],
      'failed',
    ],
    [
      'unknown child (PHPUnit warning)',
      {},
      [
        ['open', 'warning'],
        ['text', 'deprecated'],
        ['close', 'warning'],
      ],
      'passed',
    ],
    [
      'flaky only, status=skip attribute',
      { status: 'skip' },
      [
        ['open', 'flakyFailure'],
        ['close', 'flakyFailure'],
      ],
      'passed',
    ],
  ];
  for (const [name, attrs, inner, want] of cases) {
    const out = drive([
      ['open', 'testsuite', { name: 's' }],
      ['open', 'testcase', { name: 'x', ...attrs }],
      ...inner,
      ['close', 'testcase'],
      ['close', 'testsuite'],
    ]);
    t.equal(out[0]!.status, want, name);
  }
  const joined = drive([
    ['open', 'testsuite'],
    ['open', 'testcase', { name: 'jest' }],
    ['open', 'failure', { message: 'one', type: 'A' }],
    ['text', 'stack one'],
    ['close', 'failure'],
    ['open', 'failure', { message: 'two', type: 'B' }],
    ['text', 'stack two'],
    ['close', 'failure'],
    ['close', 'testcase'],
    ['close', 'testsuite'],
  ]);
  t.same(
    joined[0]!.failure,
    { message: 'one\ntwo', type: 'A', stack: 'stack one\n\nstack two' },
    'several failures are joined',
  );
  const capped = drive(
    [
      ['open', 'testsuites'],
      ['open', 'testcase', { name: 'big' }],
      ['open', 'system-out'],
      ['text', 'x'.repeat(50)],
      ['close', 'system-out'],
      ['close', 'testcase'],
      ['close', 'testsuites'],
    ],
    10,
  );
  t.match(
    capped[0]!.output!.stdout,
    /^x{10}\n\[… truncated by Tally at 10 characters\]$/,
    'long output is cut with a marker',
  );
});

t.test('time and timestamp values', async (t) => {
  const seconds: [string | undefined, number | null][] = [
    ['0.001', 1],
    ['1,234.567', 1234567],
    ['0,123', 123],
    ['1,234,567', 1234567000],
    ['1.7e-05', 0.017],
    ['4.50611114501953e-05', 0.045],
    [' 2 ', 2000],
    ['', null],
    [undefined, null],
    ['abc', null],
    ['-1', null],
  ];
  for (const [raw, want] of seconds) t.equal(parseSeconds(raw), want, `time=${JSON.stringify(raw)}`);

  const stamps: [string, string | null, boolean?][] = [
    ['2024-01-21T08:17:32', '2024-01-21T08:17:32.000Z', true],
    ['2020-10-12T18:46:11.226119', '2020-10-12T18:46:11.226Z', true],
    ['2018-05-06T07:41:51Z', '2018-05-06T07:41:51.000Z', false],
    ['2025-11-15T11:51:49.548396-05:00', '2025-11-15T16:51:49.548Z', false],
    ['2024-12-02T20:06:10.512+00:00', '2024-12-02T20:06:10.512Z', false],
    ['2021-03-07T10:36:56 UTC', '2021-03-07T10:36:56.000Z', false],
    ['26 Jun 2018 15:41:26 GMT', '2018-06-26T15:41:26.000Z', false],
    ['1970-01-01T00:00:00', null],
    ['2023-02-31T00:00:00', null],
    ['yesterday', null],
    ['', null],
  ];
  for (const [raw, iso, naive] of stamps) {
    const got = parseTimestamp(raw);
    t.equal(got?.iso ?? null, iso, `timestamp=${raw}`);
    if (iso !== null) t.equal(got?.naive, naive, `naive for ${raw}`);
  }
});

t.test('a fixture container in full: timestamp read as UTC, naive flag, meta', async (t) => {
  const { containers } = await run(fx.read('dorny__python-xunit-unittest.xml'), 'dorny__python-xunit-unittest.xml');
  t.match(containers[0], {
    type: 'test',
    title: 'test_always_pass',
    status: 'passed',
    startedAt: '2025-11-14T21:49:22.000Z',
    startedAtNaive: true,
    meta: { classname: 'TestAcme', file: 'tests/test_lib.py', line: '8' },
  });
  const suite = containers[containers.length - 1]!;
  t.match(suite, {
    type: 'suite',
    title: 'TestAcme-20251114214921',
    parentId: null,
    startedAt: '2025-11-14T21:49:22.000Z',
    status: 'errored',
  });
});

t.test('character references to control characters are kept readable, not fatal', async (t) => {
  // Surefire escapes ESC from ANSI colours as &#27;; parseXml rewrites such references to U+FFFD.
  const surefire = Buffer.from(
    '<testsuite name="s"><testcase name="a"><system-out>&#27;[31mred&#x1B;[0m &#65;</system-out></testcase></' +
      'testsuite>',
  );
  const escaped = await run(surefire, 'TEST-s.xml');
  t.equal(escaped.containers[0]!.output!.stdout, '\uFFFD[31mred\uFFFD[0m A');
  const raw = Buffer.from(
    '<testsuite name="s"><testcase name="a"><system-out>\u001b[31mred</system-out></testcase></testsuite>',
  );
  const { containers } = await run(raw, 'TEST-s.xml');
  t.equal(containers[0]!.output!.stdout, '\u001b[31mred');
});
