import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Container, Head } from '../../lib/formatter/api.js';
import { totalsOf as count } from '../../lib/formatter/check.js';
import {
  driveHandler,
  expectChunkIndependence,
  expectFixtureFolder,
  expectFormatErrors,
  expectManifestTotals,
  feedXml,
  formatterFixtures,
  headOf,
  type XmlEvent,
} from '../../test/helpers/formatter-fixtures.js';
import { junit } from './index.js';
import { junitHandler } from './parse.js';
import { parseSeconds } from './values.js';
import { parseTimestamp } from '../../lib/formatter/api.js';

const fx = formatterFixtures(junit, import.meta.url);
const { dir: FIXTURES, run } = fx;

type Event = XmlEvent;

function drive(events: Event[], maxTextChars = 1000): Container[] {
  return driveHandler(junitHandler, 'x.xml', maxTextChars, (h) => feedXml(h, events)).out;
}

const head = (text: string, fileName = 'r.xml'): Head => headOf(text, fileName);

t.test('fixture folder: every file listed, byte-identical to its manifest hash, and in the README', async (t) =>
  expectFixtureFolder(t, fx),
);

t.test('every fixture gives the manifest counts', async (t) => expectManifestTotals(t, fx));

t.test('producer guesses', async (t) => {
  const cases: [string, string | undefined][] = [
    ['action-junit-report__TEST-action.surefire.report.email.EmailAddressTest.xml', 'surefire'],
    ['xunit-plugin__junit-testcase5-input.xml', 'surefire'],
    ['dorny__jest-junit.xml', 'jest-junit'],
    ['dorny__python-xunit-pytest.xml', 'pytest'],
    ['action-junit-report__python-report_flaky.xml', 'pytest'],
    ['go-junit-report__001-report.xml', 'go-junit-report'],
    ['xunit-plugin__googletest-testcase4-input.xml', 'googletest'],
    ['dorny__phpunit.xml', 'phpunit'],
    ['action-junit-report__catch2-report.xml', 'catch2'],
    ['action-junit-report__nextest-basic.xml', 'cargo-nextest'],
    ['action-junit-report__mocha-mocha.xml', 'mocha-junit-reporter'],
    ['action-junit-report__cunit-testFailure.xml', undefined],
  ];
  for (const [file, want] of cases) {
    const { producers } = await run(readFileSync(path.join(FIXTURES, file)), file);
    t.ok(producers.length <= 1, `${file}: set at most once`);
    t.equal(producers[0], want, file);
  }
});

t.test('sniff: every fixture votes above the match threshold', async (t) => {
  for (const f of fx.manifest) t.ok(junit.sniff(fx.head(f.path)) > 0.5, f.path);
});

t.test('sniff: other formats score 0', async (t) => {
  const others: [string, string, string][] = [
    [
      'NUnit 3',
      'r.xml',
      '<?xml version="1.0" encoding="utf-8" standalone="no"?>\n<test-run id="0" runstate="Runnable" testcasecount="3" result="Failed" total="3"><command-line><![CDATA[nunit3-console x.dll]]></command-line><test-suite type="Assembly" id="0-1005" name="x.dll"><test-case id="0-1001" name="A" result="Passed"/>',
    ],
    [
      'NUnit 3 bare suite',
      'r.xml',
      '<test-suite type="Assembly" id="0-1005" name="x.dll" runstate="Runnable" testcasecount="1"><test-case id="0-1001"/>',
    ],
    [
      'NUnit 2',
      'r.xml',
      '<?xml version="1.0" encoding="utf-8" standalone="no"?>\n<!--This file represents the results of running a test suite-->\n<test-results name="x.dll" total="4" errors="0" failures="1" not-run="0" inconclusive="0" ignored="0" skipped="0" invalid="0" date="2011-04-01" time="11:26:18"><environment nunit-version="2.5.8.0"/><culture-info current-culture="en-US"/><test-suite type="Assembly" name="x.dll">',
    ],
    [
      'xUnit v2',
      'r.xml',
      '<?xml version="1.0" encoding="utf-8"?>\n<assemblies timestamp="07/31/2018 19:28:00"><assembly name="x.dll" test-framework="xUnit.net 2.4.0.4049" total="2"><errors /><collection total="2" name="Test collection"><test name="A" result="Pass"/>',
    ],
    [
      'xUnit v1',
      'r.xml',
      '<assembly name="x.dll" run-date="2013-01-01" run-time="10:00:00" total="1"><class name="C" total="1" passed="1"><test name="A" result="Pass"/>',
    ],
    [
      'TRX',
      'r.trx',
      '\ufeff<?xml version="1.0" encoding="utf-8"?>\n<TestRun id="a1" name="run" runUser="u" xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010"><Times creation="2020-01-01T00:00:00.0000000+00:00"/><Results><UnitTestResult testName="A" outcome="Passed"/>',
    ],
    [
      'TestNG',
      'testng-results.xml',
      '<?xml version="1.0" encoding="UTF-8"?>\n<testng-results ignored="0" total="2" passed="1" failed="1" skipped="0"><reporter-output></reporter-output><suite name="Suite" started-at="2020-01-01T00:00:00 UTC"><test name="T"><class name="C"><test-method status="PASS" name="a"/>',
    ],
    [
      'Robot',
      'output.xml',
      '<?xml version="1.0" encoding="UTF-8"?>\n<robot generator="Robot 6.1 (Python 3.11.4 on linux)" generated="20230101 12:00:00.000" rpa="false" schemaversion="4"><suite id="s1" name="Tests" source="/t"><test id="s1-t1" name="A"><status status="PASS"/>',
    ],
    [
      'Allure 1',
      'x-testsuite.xml',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<ns2:test-suite xmlns:ns2="urn:model.allure.qatools.yandex.ru" start="1412949538848" stop="1412949560045" version="1.4.4-SNAPSHOT"><name>my.company.AppTest</name><test-cases><test-case start="1412949539730" stop="1412949539730" status="passed"><name>a</name>',
    ],
    [
      'Open Test Reporting',
      'events.xml',
      '<?xml version="1.0" encoding="UTF-8"?>\n<e:events xmlns="https://schemas.opentest4j.org/reporting/core/0.1.0" xmlns:e="https://schemas.opentest4j.org/reporting/events/0.1.0"><e:started id="1" name="JUnit Jupiter" time="2023-01-01T00:00:00Z"/>',
    ],
    [
      'mochawesome JSON',
      'r.json',
      '{"stats":{"suites":1,"tests":1,"passes":1},"results":[{"uuid":"x","suites":[]}],"meta":{"mocha":{"version":"10"}}}',
    ],
    [
      'Cucumber JSON',
      'r.json',
      '[{"keyword":"Feature","uri":"a.feature","id":"a","elements":[{"type":"scenario","steps":[]}]}]',
    ],
    [
      'Go test2json',
      'r.json',
      '{"Time":"2022-01-01T00:00:00Z","Action":"run","Package":"p","Test":"TestA"}\n{"Time":"2022-01-01T00:00:01Z","Action":"pass","Package":"p","Test":"TestA","Elapsed":1}\n',
    ],
    ['TAP', 'r.tap', 'TAP version 13\n1..2\nok 1 - passes\nnot ok 2 - fails\n  ---\n  message: x\n  ...\n'],
    ['empty', 'r.xml', ''],
    ['plain text mentioning testsuite', 'r.txt', 'testsuite testcase <testsuite> are XML words\n'],
  ];
  for (const [name, file, text] of others) t.equal(junit.sniff(head(text, file)), 0, name);
});

t.test('sniff: JUnit roots, namespaces, and never throws', async (t) => {
  const positive: [string, string][] = [
    ['bare testsuites', '<testsuites/>'],
    [
      'surefire root with xsi',
      '<?xml version="1.0"?>\n<testsuite xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="https://maven.apache.org/surefire/maven-surefire-plugin/xsd/surefire-test-report-3.0.xsd" version="3.0" name="a.B" time="0.1" tests="1">',
    ],
    ['default namespace', '<testsuite xmlns="urn:some:junit" name="x"><testcase name="a"/></testsuite>'],
    ['BOM and comment before root', '\ufeff<!-- generated --><testsuites name="jest tests" tests="1">'],
  ];
  for (const [name, text] of positive) t.ok(junit.sniff(head(text)) >= 0.8, name);
  t.ok(
    junit.sniff(head('<x:testsuite xmlns:x="urn:other"><x:testcase/>')) < 0.5,
    'prefixed root is somebody else’s vocabulary',
  );
  const broken = { ...head('<testsuite>'), rootAttributes: null } as unknown as Head;
  t.equal(junit.sniff(broken), 0, 'a malformed head scores 0 instead of throwing');
});

// With a small text limit, every fixture also in 7-byte chunks.
t.test('chunk boundaries do not change the containers', async (t) =>
  expectChunkIndependence(t, fx, { eachInChunksOf: 7 }),
);

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
  const { containers } = await run(
    readFileSync(path.join(FIXTURES, 'dorny__python-xunit-unittest.xml')),
    'dorny__python-xunit-unittest.xml',
  );
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

t.test('empty, truncated and foreign input reject with FormatError', async (t) => {
  const bytes = readFileSync(path.join(FIXTURES, 'dorny__jest-junit.xml'));
  await expectFormatErrors(t, fx, 'x.xml', [
    ['empty', Buffer.alloc(0)],
    ['whitespace only', Buffer.from('  \n')],
    ['prolog only', Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n')],
    ['truncated in the middle', bytes.subarray(0, Math.floor(bytes.length / 2))],
    ['truncated in a tag', Buffer.from('<testsuites><testsuite name="a"><testca')],
    ['NUnit 3 root', Buffer.from('<test-run id="0"><test-suite/></test-run>')],
    ['JSON', Buffer.from('{"stats":{}}')],
  ]);
});

t.test('character references to control characters are kept readable, not fatal', async (t) => {
  // Surefire escapes ESC from ANSI colours as &#27;; parseXml rewrites such references to U+FFFD.
  const surefire = Buffer.from(
    '<testsuite name="s"><testcase name="a"><system-out>&#27;[31mred&#x1B;[0m &#65;</system-out></testcase></testsuite>',
  );
  const escaped = await run(surefire, 'TEST-s.xml');
  t.equal(escaped.containers[0]!.output!.stdout, '\uFFFD[31mred\uFFFD[0m A');
  const raw = Buffer.from(
    '<testsuite name="s"><testcase name="a"><system-out>\u001b[31mred</system-out></testcase></testsuite>',
  );
  const { containers } = await run(raw, 'TEST-s.xml');
  t.equal(containers[0]!.output!.stdout, '\u001b[31mred');
});
