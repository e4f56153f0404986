import t from 'tap';
import type { Container } from '../../lib/formatter/api.js';
import { totalsOf as count } from '../../lib/formatter/check.js';
import { driveHandler, feedXml, formatterChecks, formatterFixtures } from '../../test/helpers/formatter-fixtures.js';
import type { XmlEvent } from '../../test/helpers/formatter-fixtures.js';
import { nunit } from './index.js';
import { nunit2Status, nunit3Status, nunitHandler } from './parse.js';
import { parseSeconds } from './values.js';

const fx = formatterFixtures(nunit, import.meta.url);

formatterChecks(fx, {
  fixtureScore: 0.9,
  // With a small text limit, every fixture also in 7-byte chunks.
  chunks: { eachInChunksOf: 7 },
});

t.test('producer: Pester names the NUnit 2.5 schema on its root', async (t) => {
  const xsi = 'http://www.w3.org/2001/XMLSchema-instance';
  const attrs = { 'xmlns:xsi': xsi, 'xsi:noNamespaceSchemaLocation': 'nunit_schema_2.5.xsd', name: 'Pester' };
  t.same(
    drive([
      ['open', 'test-results', attrs],
      ['close', 'test-results'],
    ]).producers,
    ['pester'],
  );
});

function drive(events: XmlEvent[], maxTextChars = 1000): { out: Container[]; producers: string[] } {
  return driveHandler(nunitHandler, 'TestResult.xml', maxTextChars, (h) => feedXml(h, events));
}

t.test('status tables', async (t) => {
  const v3: [string | undefined, string | undefined, string][] = [
    ['Passed', undefined, 'passed'],
    ['Warning', undefined, 'passed'],
    ['Failed', undefined, 'failed'],
    ['Failed', 'Error', 'errored'],
    ['Failed', 'Invalid', 'errored'],
    ['Failed', 'Cancelled', 'errored'],
    ['Failed', 'Test exceeded Timeout value 1ms.', 'failed'],
    ['Skipped', 'Ignored', 'skipped'],
    ['Skipped', 'Invalid', 'skipped'],
    ['Inconclusive', undefined, 'skipped'],
    ['Failed(Child)', undefined, 'failed'],
    ['Failed:Error', undefined, 'errored'],
    ['Skipped:Ignored', undefined, 'skipped'],
    [undefined, undefined, 'unknown'],
  ];
  for (const [result, label, want] of v3) t.equal(nunit3Status({ result, label }), want, `NUnit 3 ${result}/${label}`);
  const v2: [Record<string, string>, string][] = [
    [{ executed: 'True', result: 'Success' }, 'passed'],
    [{ executed: 'True', result: 'Failure' }, 'failed'],
    [{ executed: 'True', result: 'Error' }, 'errored'],
    [{ executed: 'True', result: 'Cancelled' }, 'errored'],
    [{ executed: 'False', result: 'NotRunnable' }, 'errored'],
    [{ executed: 'False', result: 'Ignored' }, 'skipped'],
    [{ executed: 'True', result: 'Inconclusive' }, 'skipped'],
    [{ executed: 'True', result: 'Explicit' }, 'skipped'],
    [{ executed: 'True', success: 'True' }, 'passed'],
    [{ executed: 'True', success: 'False' }, 'failed'],
    [{ executed: 'False', success: 'True' }, 'skipped'],
    [{}, 'unknown'],
  ];
  for (const [o, want] of v2) t.equal(nunit2Status(o), want, `NUnit 2 ${JSON.stringify(o)}`);
});

t.test('state machine: NUnit 3 test in full, attachments, properties, output', async (t) => {
  const { out } = drive([
    ['open', 'test-run', { id: '0', testcasecount: '1', 'start-time': '2024-03-01 10:00:00Z' }],
    [
      'open',
      'test-suite',
      { type: 'Assembly', name: 'App.Tests.dll', fullname: 'C:\\ci\\App.Tests.dll', result: 'Failed', site: 'Child' },
    ],
    ['open', 'failure'],
    ['open', 'message'],
    ['text', 'One or more child tests had errors'],
    ['close', 'message'],
    ['close', 'failure'],
    [
      'open',
      'test-case',
      {
        name: 'Shows(1)',
        fullname: 'App.Tests.Page.Shows(1)',
        classname: 'App.Tests.Page',
        methodname: 'Shows',
        result: 'Failed',
        'start-time': '2024-03-01T10:00:01.5000000Z',
        duration: '0,25',
      },
    ],
    ['open', 'properties'],
    ['open', 'property', { name: 'Category', value: 'UI' }],
    ['close', 'property'],
    ['open', 'property', { name: '_JOINTYPE', value: 'Combinatorial' }],
    ['close', 'property'],
    ['close', 'properties'],
    ['open', 'failure'],
    ['open', 'message'],
    ['text', '\n  Expected: 3\n'],
    ['text', '  But was:  2\n'],
    ['close', 'message'],
    ['open', 'stack-trace'],
    ['text', '   at App.Tests.Page.Shows(Int32 n)\n\n'],
    ['close', 'stack-trace'],
    ['close', 'failure'],
    ['open', 'output'],
    ['text', 'log line\n'],
    ['close', 'output'],
    ['open', 'attachments'],
    ['open', 'attachment'],
    ['open', 'filePath'],
    ['text', 'C:\\ci\\shots\\'],
    ['text', 'page.png'],
    ['close', 'filePath'],
    ['open', 'description'],
    ['text', 'the page'],
    ['close', 'description'],
    ['close', 'attachment'],
    ['close', 'attachments'],
    ['open', 'assertions'],
    ['open', 'assertion', { result: 'Failed' }],
    ['open', 'message'],
    ['text', 'repeated in <failure>'],
    ['close', 'message'],
    ['close', 'assertion'],
    ['close', 'assertions'],
    ['close', 'test-case'],
    ['close', 'test-suite'],
    ['close', 'test-run'],
  ]);
  const [test, suite] = out;
  t.match(test, {
    type: 'test',
    title: 'Shows(1)',
    status: 'failed',
    parentId: suite!.id,
    durationMs: 250,
    startedAt: '2024-03-01T10:00:01.500Z',
    failure: { message: 'Expected: 3\n  But was:  2', type: null, stack: 'at App.Tests.Page.Shows(Int32 n)' },
    output: { stdout: 'log line\n', stderr: null },
    meta: { fullname: 'App.Tests.Page.Shows(1)', classname: 'App.Tests.Page', methodname: 'Shows' },
  });
  t.same(test!.properties, [{ name: 'Category', value: 'UI' }], '_-prefixed properties are NUnit bookkeeping');
  t.same(test!.attachmentRefs, ['C:\\ci\\shots\\page.png']);
  t.notOk(test!.startedAtNaive);
  t.match(suite, {
    type: 'suite',
    title: 'App.Tests.dll',
    status: 'failed',
    failure: null,
    startedAt: '2024-03-01T10:00:00.000Z',
    meta: { type: 'Assembly', fullname: 'C:\\ci\\App.Tests.dll' },
  });
});

t.test('state machine: rule 4 for suites that failed on their own', async (t) => {
  const alone = drive([
    ['open', 'test-run'],
    ['open', 'test-suite', { type: 'Assembly', name: 'App.dll', result: 'Failed', site: 'Child' }],
    [
      'open',
      'test-suite',
      { type: 'TestFixture', name: 'Broken', result: 'Failed', label: 'Error', site: 'SetUp', testcasecount: '0' },
    ],
    ['open', 'failure'],
    ['open', 'message'],
    ['text', 'OneTimeSetUp: System.Exception : boom'],
    ['close', 'message'],
    ['close', 'failure'],
    ['close', 'test-suite'],
    ['close', 'test-suite'],
    ['close', 'test-run'],
  ]).out;
  t.equal(alone.length, 3);
  const [synthetic, fixture, assembly] = alone;
  t.match(synthetic, {
    type: 'test',
    title: 'Broken',
    status: 'errored',
    parentId: fixture!.id,
    failure: { message: 'OneTimeSetUp: System.Exception : boom', type: 'Error' },
    meta: { synthetic: 'suite-error' },
  });
  t.match(fixture, { type: 'suite', status: 'errored', failure: null });
  t.match(assembly, { type: 'suite', status: 'errored' });
  t.same(count(alone), { tests: 1, passed: 0, failed: 0, errored: 1, skipped: 0 });

  // A failure that only repeats the children, or a suite that was skipped, adds no test.
  const propagated = drive([
    ['open', 'test-run'],
    ['open', 'test-suite', { name: 'F', result: 'Failed', site: 'Child' }],
    ['open', 'test-case', { name: 'a', result: 'Failed' }],
    ['close', 'test-case'],
    ['close', 'test-suite'],
    ['open', 'test-suite', { name: 'Bad', result: 'Skipped', label: 'Invalid' }],
    ['open', 'reason'],
    ['open', 'message'],
    ['text', 'No suitable constructor was found'],
    ['close', 'message'],
    ['close', 'reason'],
    ['close', 'test-suite'],
    ['close', 'test-run'],
  ]).out;
  t.same(count(propagated), { tests: 1, passed: 0, failed: 1, errored: 0, skipped: 0 });
  t.match(propagated[2], {
    title: 'Bad',
    status: 'skipped',
    failure: { message: 'No suitable constructor was found', type: 'Invalid' },
  });

  // A teardown failure with tests present stays on the suite.
  const teardown = drive([
    [
      'open',
      'test-suite',
      { type: 'TestFixture', name: 'T', result: 'Failed', label: 'Error', site: 'TearDown', testcasecount: '1' },
    ],
    ['open', 'test-case', { name: 'a', result: 'Passed' }],
    ['close', 'test-case'],
    ['open', 'failure'],
    ['open', 'message'],
    ['text', 'OneTimeTearDown: boom'],
    ['close', 'message'],
    ['close', 'failure'],
    ['close', 'test-suite'],
  ]).out;
  t.same(count(teardown), { tests: 1, passed: 1, failed: 0, errored: 0, skipped: 0 });
  t.match(teardown[1], { type: 'suite', status: 'errored', failure: { message: 'OneTimeTearDown: boom' } });
});

t.test('state machine: NUnit 2 run date, results wrapper, categories', async (t) => {
  const { out } = drive([
    ['open', 'test-results', { name: '/ci/ws-123/Tests.dll', total: '2', date: '2007-07-27', time: '11:18:43' }],
    ['open', 'environment', { 'nunit-version': '2.5.8.0' }],
    ['close', 'environment'],
    [
      'open',
      'test-suite',
      {
        type: 'Assembly',
        name: '/ci/ws-123/Tests.dll',
        executed: 'True',
        result: 'Failure',
        success: 'False',
        time: '0.404',
      },
    ],
    ['open', 'results'],
    [
      'open',
      'test-suite',
      { type: 'TestFixture', name: 'MainClassTest', executed: 'True', result: 'Failure', success: 'False' },
    ],
    ['open', 'categories'],
    ['open', 'category', { name: 'Slow' }],
    ['close', 'category'],
    ['close', 'categories'],
    ['open', 'results'],
    ['open', 'test-case', { name: 'UnitTests.MainClassTest.A', executed: 'False', result: 'Ignored' }],
    ['open', 'reason'],
    ['open', 'message'],
    ['text', 'later'],
    ['close', 'message'],
    ['close', 'reason'],
    ['close', 'test-case'],
    [
      'open',
      'test-case',
      { name: 'UnitTests.MainClassTest.B', executed: 'True', result: 'Failure', success: 'False', time: '0.001' },
    ],
    ['close', 'test-case'],
    ['close', 'results'],
    ['close', 'test-suite'],
    ['close', 'results'],
    ['close', 'test-suite'],
    ['close', 'test-results'],
  ]);
  const [ignored, failed, fixture, assembly] = out;
  t.match(ignored, { status: 'skipped', failure: { message: 'later' }, parentId: fixture!.id, startedAt: null });
  t.match(failed, { status: 'failed', durationMs: 1 });
  t.same(fixture!.properties, [{ name: 'Category', value: 'Slow' }]);
  t.match(fixture, { status: 'failed', parentId: assembly!.id, startedAt: null });
  t.match(assembly, {
    title: 'Tests.dll',
    meta: { fullname: '/ci/ws-123/Tests.dll' },
    startedAt: '2007-07-27T11:18:43.000Z',
    startedAtNaive: true,
    durationMs: 404,
    parentId: null,
  });
});

t.test('durations', async (t) => {
  const cases: [string | undefined, number | null][] = [
    ['0.230308', 230.308],
    ['0,1390493', 139.049],
    ['116.7749347', 116774.935],
    ['', null],
    [undefined, null],
    ['n/a', null],
  ];
  for (const [raw, want] of cases) t.equal(parseSeconds(raw), want, `duration=${JSON.stringify(raw)}`);
});

t.test('long text is cut with a marker; an oversized attachment path is dropped', async (t) => {
  const { out } = drive(
    [
      ['open', 'test-suite', { type: 'TestFixture', name: 'F', testcasecount: '1' }],
      ['open', 'test-case', { name: 'big', result: 'Passed' }],
      ['open', 'output'],
      ['text', 'x'.repeat(50)],
      ['close', 'output'],
      ['open', 'attachments'],
      ['open', 'attachment'],
      ['open', 'filePath'],
      ['text', 'p'.repeat(5000)],
      ['close', 'filePath'],
      ['close', 'attachment'],
      ['close', 'attachments'],
      ['close', 'test-case'],
      ['close', 'test-suite'],
    ],
    10,
  );
  t.match(out[0]!.output!.stdout, /^x{10}\n\[… truncated by Tally at 10 characters\]$/);
  t.same(out[0]!.attachmentRefs, []);
});
