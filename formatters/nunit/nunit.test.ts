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
  neighbourHeads,
  type XmlEvent,
} from '../../test/helpers/formatter-fixtures.js';
import { nunit } from './index.js';
import { nunit2Status, nunit3Status, nunitHandler } from './parse.js';
import { parseSeconds } from './values.js';

const fx = formatterFixtures(nunit, import.meta.url);
const { dir: FIXTURES, run } = fx;

function drive(events: XmlEvent[], maxTextChars = 1000): { out: Container[]; producers: string[] } {
  return driveHandler(nunitHandler, 'TestResult.xml', maxTextChars, (h) => feedXml(h, events));
}

const head = (text: string, fileName = 'r.xml'): Head => headOf(text, fileName);

t.test('fixture folder: every file listed, byte-identical to its manifest hash, and in the README', async (t) =>
  expectFixtureFolder(t, fx),
);

t.test('every fixture gives the manifest counts', async (t) => expectManifestTotals(t, fx));

t.test('producer', async (t) => {
  const cases: [string, string][] = [
    ['dorny__dotnet-nunit.xml', 'nunit'],
    ['xunit-plugin__nunit-testcase8-input.xml', 'nunit'],
    ['xunit-plugin__nunit3-testcase5-input.xml', 'unity'],
  ];
  for (const [file, want] of cases) {
    const { producers } = await run(readFileSync(path.join(FIXTURES, file)), file);
    t.same(producers, [want], file);
  }
  const pester = drive([
    [
      'open',
      'test-results',
      {
        'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
        'xsi:noNamespaceSchemaLocation': 'nunit_schema_2.5.xsd',
        name: 'Pester',
      },
    ],
    ['close', 'test-results'],
  ]);
  t.same(pester.producers, ['pester']);
});

t.test('sniff: every fixture votes mine', async (t) => {
  for (const f of fx.manifest) t.ok(nunit.sniff(fx.head(f.path)) >= 0.9, f.path);
});

/** The start of a real file of every other format in the shared fixture set, and near misses. */
const OTHERS: [string, string, string][] = [
  ...neighbourHeads('nunit'),
  ['empty', 'r.xml', ''],
  ['plain text naming NUnit elements', 'notes.txt', 'test-run test-results <test-suite> are NUnit words\n'],
];

t.test('sniff: other formats score below the match threshold', async (t) => {
  for (const [name, file, text] of OTHERS) t.ok(nunit.sniff(head(text, file)) < 0.5, name);
  const broken = { ...head('<test-run>'), rootAttributes: null } as unknown as Head;
  t.equal(nunit.sniff(broken), 0, 'a malformed head scores 0 instead of throwing');
});

t.test('sniff: NUnit roots', async (t) => {
  const positive: [string, string][] = [
    [
      'NUnit 3 test-run',
      '\ufeff<?xml version="1.0" encoding="utf-8" standalone="no"?>\n<test-run id="2" testcasecount="19" result="Failed(Child)" total="19">',
    ],
    [
      'NUnit 3 bare suite',
      '<test-suite type="Assembly" id="0-1005" name="x.dll" runstate="Runnable" testcasecount="1"><test-case id="0-1001"/>',
    ],
    [
      'NUnit 2 (Pester)',
      '<?xml version="1.0" encoding="utf-8" standalone="no"?>\n<test-results xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="nunit_schema_2.5.xsd" name="Pester" total="2" errors="0" failures="1" not-run="0" inconclusive="0" ignored="0" skipped="0" invalid="0" date="2024-01-01" time="10:00:00"><environment user="u"/>',
    ],
  ];
  for (const [name, text] of positive) t.ok(nunit.sniff(head(text)) >= 0.9, name);
});

// With a small text limit, every fixture also in 7-byte chunks.
t.test('chunk boundaries do not change the containers', async (t) =>
  expectChunkIndependence(t, fx, { eachInChunksOf: 7 }),
);

t.test('empty, truncated and foreign input reject with FormatError', async (t) => {
  const bytes = readFileSync(path.join(FIXTURES, 'dorny__dotnet-nunit.xml'));
  await expectFormatErrors(t, fx, 'x.xml', [
    ['empty', Buffer.alloc(0)],
    ['whitespace only', Buffer.from('  \n')],
    ['prolog only', Buffer.from('<?xml version="1.0" encoding="utf-8"?>\n')],
    ['truncated in the middle', bytes.subarray(0, Math.floor(bytes.length / 2))],
    ['truncated in a tag', Buffer.from('<test-run id="0"><test-suite type="Assembly"><test-ca')],
    [
      'Allure 1 root',
      Buffer.from('<ns2:test-suite xmlns:ns2="urn:model.allure.qatools.yandex.ru"><name>a</name></ns2:test-suite>'),
    ],
    ['JUnit root', Buffer.from('<testsuites><testsuite name="a"/></testsuites>')],
    ['JSON', Buffer.from('{"stats":{}}')],
  ]);
});

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
