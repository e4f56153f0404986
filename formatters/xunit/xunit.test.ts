import t from 'tap';
import type { Container } from '../../lib/formatter/api.js';
import { totalsOf as count } from '../../lib/formatter/check.js';
import { driveHandler, feedXml, formatterChecks, formatterFixtures } from '../../test/helpers/formatter-fixtures.js';
import type { XmlEvent } from '../../test/helpers/formatter-fixtures.js';
import { xunit } from './index.js';
import { testStatus, xunitHandler } from './parse.js';
import { parseSeconds, parseTimeSpan } from './values.js';

const fx = formatterFixtures(xunit, import.meta.url);

formatterChecks(fx, {
  fixtureScore: 0.9,
  chunks: { maxTextChars: 20, eachInChunksOf: 1 },
});
const { run } = fx;

function drive(events: XmlEvent[], maxTextChars = 1000): { out: Container[]; producers: string[] } {
  return driveHandler(xunitHandler, 'results.xml', maxTextChars, (h) => feedXml(h, events));
}

t.test('status table', async (t) => {
  const cases: [string, string][] = [
    ['pass', 'passed'],
    ['fail', 'failed'],
    ['skip', 'skipped'],
    ['notrun', 'skipped'],
    ['', 'unknown'],
    ['weird', 'unknown'],
  ];
  for (const [result, want] of cases) t.equal(testStatus(result), want, result || '(none)');
  const { out } = drive([
    ['open', 'assembly', { name: 'a.dll' }],
    ['open', 'collection', { name: 'c' }],
    ['open', 'test', { name: 'x', result: 'Pass' }],
    ['close', 'test'],
    ['open', 'test', { name: 'y', result: 'NotRun' }],
    ['close', 'test'],
    ['close', 'collection'],
    ['close', 'assembly'],
  ]);
  t.same(
    out.map((c) => c.status),
    ['passed', 'skipped', 'passed', 'passed'],
    'case-insensitive results; suites take their worst child',
  );
});

t.test('state machine: v2 test in full, and <errors> as errored tests (rule 4)', async (t) => {
  const { out } = drive([
    ['open', 'assemblies', { 'schema-version': '3', timestamp: '02/01/2019 14:47:17' }],
    [
      'open',
      'assembly',
      {
        name: '/ci/ws-7/bin/App.Tests.dll',
        'test-framework': 'xUnit.net 2.9.0',
        'run-date': '2019-02-01',
        'run-time': '14:47:17',
        time: '1.5',
      },
    ],
    ['open', 'errors'],
    ['open', 'error', { type: 'test-class-cleanup', name: 'App.Tests.DbTests' }],
    ['open', 'failure', { 'exception-type': 'System.InvalidOperationException' }],
    ['open', 'message'],
    ['text', 'Dispose failed'],
    ['close', 'message'],
    ['open', 'stack-trace'],
    ['text', '   at App.Tests.DbTests.Dispose()'],
    ['close', 'stack-trace'],
    ['close', 'failure'],
    ['close', 'error'],
    ['open', 'error', { type: 'fatal' }],
    ['close', 'error'],
    ['close', 'errors'],
    ['open', 'collection', { name: 'Test collection for App.Tests.DbTests', time: '0,5' }],
    [
      'open',
      'test',
      {
        name: 'App.Tests.DbTests.Reads(id: 1)',
        type: 'App.Tests.DbTests',
        method: 'Reads',
        result: 'Skip',
        time: '0',
        'source-file': 'DbTests.cs',
        'source-line': '12',
        'start-rtf': '2019-02-01T14:47:17.1234567+01:00',
      },
    ],
    ['open', 'reason'],
    ['text', 'flaky on CI'],
    ['close', 'reason'],
    ['open', 'output'],
    ['text', 'connected\n'],
    ['close', 'output'],
    ['open', 'traits'],
    ['open', 'trait', { name: 'Category', value: 'Db' }],
    ['close', 'trait'],
    ['close', 'traits'],
    ['open', 'warnings'],
    ['open', 'warning'],
    ['text', 'ignored'],
    ['close', 'warning'],
    ['close', 'warnings'],
    ['close', 'test'],
    ['close', 'collection'],
    ['close', 'assembly'],
    ['close', 'assemblies'],
  ]);
  const [cleanup, fatal, test, collection, assembly] = out;
  t.match(cleanup, {
    type: 'test',
    title: 'App.Tests.DbTests',
    status: 'errored',
    parentId: assembly!.id,
    failure: {
      message: 'Dispose failed',
      type: 'System.InvalidOperationException',
      stack: 'at App.Tests.DbTests.Dispose()',
    },
    meta: { synthetic: 'xunit-error', errorType: 'test-class-cleanup' },
  });
  t.match(fatal, { type: 'test', title: 'fatal', status: 'errored', failure: null });
  t.match(test, {
    type: 'test',
    status: 'skipped',
    parentId: collection!.id,
    durationMs: 0,
    startedAt: '2019-02-01T13:47:17.123Z',
    failure: { message: 'flaky on CI', type: null, stack: null },
    output: { stdout: 'connected\n', stderr: null },
    properties: [{ name: 'Category', value: 'Db' }],
    meta: { classname: 'App.Tests.DbTests', method: 'Reads', file: 'DbTests.cs', line: '12' },
  });
  t.match(collection, { type: 'suite', status: 'skipped', durationMs: 500, parentId: assembly!.id });
  t.match(assembly, {
    type: 'suite',
    title: 'App.Tests.dll',
    status: 'errored',
    parentId: null,
    startedAt: '2019-02-01T14:47:17.000Z',
    startedAtNaive: true,
    durationMs: 1500,
    meta: { path: '/ci/ws-7/bin/App.Tests.dll', testFramework: 'xUnit.net 2.9.0' },
  });
  t.same(count(out), { tests: 3, passed: 0, failed: 0, errored: 2, skipped: 1 });
});

t.test('state machine: v1 classes, reason messages and class failures', async (t) => {
  const { out } = drive([
    [
      'open',
      'assembly',
      {
        name: 'C:\\b\\v1.dll',
        'run-date': '2013-01-01',
        'run-time': '10:00:00',
        'test-framework': 'xUnit.net 1.9.2.1705',
      },
    ],
    ['open', 'class', { name: 'V1.Skips', time: '0.1' }],
    ['open', 'test', { name: 'V1.Skips.A', type: 'V1.Skips', method: 'A', result: 'Skip' }],
    ['open', 'reason'],
    ['open', 'message'],
    ['text', 'not today'],
    ['close', 'message'],
    ['close', 'reason'],
    ['close', 'test'],
    ['close', 'class'],
    ['open', 'class', { name: 'V1.Broken' }],
    ['open', 'failure', { 'exception-type': 'System.Exception' }],
    ['open', 'message'],
    ['text', 'fixture ctor threw'],
    ['close', 'message'],
    ['close', 'failure'],
    ['close', 'class'],
    ['close', 'assembly'],
  ]);
  const [skipped, skips, synthetic, broken, assembly] = out;
  t.match(skipped, { status: 'skipped', failure: { message: 'not today' }, parentId: skips!.id, durationMs: null });
  t.match(skips, { type: 'suite', title: 'V1.Skips', status: 'skipped', durationMs: 100 });
  t.match(synthetic, {
    type: 'test',
    title: 'V1.Broken',
    status: 'errored',
    parentId: broken!.id,
    failure: { message: 'fixture ctor threw', type: 'System.Exception' },
    meta: { synthetic: 'class-error' },
  });
  t.match(broken, { type: 'suite', status: 'errored', failure: null });
  t.match(assembly, { title: 'v1.dll', status: 'errored', startedAtNaive: true });
  t.same(count(out), { tests: 2, passed: 0, failed: 0, errored: 1, skipped: 1 });
});

t.test('durations', async (t) => {
  const seconds: [string | undefined, number | null][] = [
    ['0.1542482', 154.248],
    ['0,288', 288],
    ['36.7820544', 36782.054],
    ['', null],
    [undefined, null],
  ];
  for (const [raw, want] of seconds) t.equal(parseSeconds(raw), want, `time=${JSON.stringify(raw)}`);
  const spans: [string | undefined, number | null][] = [
    ['00:00:00.1542482', 154.248],
    ['1.02:03:04.5', 93784500],
    ['nonsense', null],
    [undefined, null],
  ];
  for (const [raw, want] of spans) t.equal(parseTimeSpan(raw), want, `time-rtf=${JSON.stringify(raw)}`);
  const { out } = drive([
    ['open', 'assemblies'],
    ['open', 'assembly', { name: 'a.dll', 'time-rtf': '00:00:02.0000000' }],
    ['close', 'assembly'],
    ['close', 'assemblies'],
  ]);
  t.equal(out[0]!.durationMs, 2000, 'time-rtf when time is missing');
});

t.test('an unreadable run-date is no date, not a guess', async (t) => {
  const { containers } = await run(fx.read('xunit-plugin__xunitdotnet-testcase6-input.xml'), 'x.xml');
  const assembly = containers[containers.length - 1]!;
  t.match(assembly, { type: 'suite', title: 'Test.exe', startedAt: null });
  t.match(containers[0], {
    title: 'collection1\\test.xml',
    status: 'failed',
    failure: { message: /^OK: TestProcess.Execution.ExitCode == 0\r\nFAIL/ },
  });
});
