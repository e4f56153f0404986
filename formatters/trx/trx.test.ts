import t from 'tap';
import type { Container } from '../../lib/formatter/api.js';
import { totalsOf as count } from '../../lib/formatter/check.js';
import { readHead } from '../../lib/formatter/head.js';
import { driveHandler, feedXml, formatterChecks, formatterFixtures } from '../../test/helpers/formatter-fixtures.js';
import { headOf } from '../../test/helpers/formatter-fixtures.js';
import type { XmlEvent } from '../../test/helpers/formatter-fixtures.js';
import { trx } from './index.js';
import { outcomeStatus, trxHandler, typeName } from './parse.js';
import { parseTimeSpan, resultFileRef } from './values.js';

const fx = formatterFixtures(trx, import.meta.url);

formatterChecks(fx, {
  fixtureScore: 0.9,
  // With a small text limit, every fixture also in 7-byte chunks.
  chunks: { eachInChunksOf: 7 },
  rejects: [['BOM only', Buffer.from([0xef, 0xbb, 0xbf])]],
});
const { run } = fx;

function drive(events: XmlEvent[], maxTextChars = 1000): { out: Container[]; producers: string[] } {
  return driveHandler(trxHandler, 'run.trx', maxTextChars, (h) => feedXml(h, events));
}

t.test('sniff: TRX without its namespace, UTF-16', async (t) => {
  t.ok(
    trx.sniff(headOf('<TestRun id="1" name="n"><Times start="2020-01-01T00:00:00Z"/><Results>')) >= 0.8,
    'TRX children without the namespace',
  );
  t.ok(trx.sniff(headOf('<TestRun id="1"/>', 'run.trx')) >= 0.5, 'a bare TestRun named .trx');
  const utf16 = Buffer.concat([
    Buffer.from([0xff, 0xfe]),
    Buffer.from(
      '<?xml version="1.0" encoding="utf-8"?><TestRun xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/' +
        '2010"><Times/>',
      'utf16le',
    ),
  ]);
  t.ok(trx.sniff(readHead(utf16, 'r.trx', true).head) >= 0.9, 'UTF-16 with BOM (PowerShell 5.1 redirection)');
});

t.test('outcome table', async (t) => {
  const cases: [string | undefined, string][] = [
    ['Passed', 'passed'],
    ['PassedButRunAborted', 'passed'],
    ['Completed', 'passed'],
    ['Warning', 'passed'],
    ['Failed', 'failed'],
    ['Timeout', 'failed'],
    ['Error', 'errored'],
    ['Aborted', 'errored'],
    ['Disconnected', 'errored'],
    ['NotExecuted', 'skipped'],
    ['NotRunnable', 'skipped'],
    ['Inconclusive', 'skipped'],
    ['Pending', 'skipped'],
    ['InProgress', 'skipped'],
    ['passed', 'passed'],
    [undefined, 'unknown'],
    ['Exploded', 'unknown'],
  ];
  for (const [outcome, want] of cases) t.equal(outcomeStatus(outcome), want, String(outcome));
});

const NS = { xmlns: 'http://microsoft.com/schemas/VisualStudio/TeamTest/2010' };

t.test('state machine: VSTest order (results before definitions): tests at the top level', async (t) => {
  const { out, producers } = drive([
    ['open', 'TestRun', NS],
    ['open', 'TestSettings', { name: 'default' }],
    ['open', 'Deployment', { runDeploymentRoot: '_host_2024-03-01_10_00_00' }],
    ['close', 'Deployment'],
    ['close', 'TestSettings'],
    ['open', 'Results'],
    [
      'open',
      'UnitTestResult',
      {
        executionId: 'e1',
        testId: 't1',
        testName: 'Shows_page',
        duration: '00:00:01.2500000',
        startTime: '2024-03-01T10:00:00.5000000+01:00',
        outcome: 'Failed',
        relativeResultsDirectory: 'e1',
      },
    ],
    ['open', 'Output'],
    ['open', 'StdOut'],
    ['text', 'navigating\n'],
    ['close', 'StdOut'],
    ['open', 'StdErr'],
    ['text', 'warning: slow\n'],
    ['close', 'StdErr'],
    ['open', 'DebugTrace'],
    ['text', 'not kept'],
    ['close', 'DebugTrace'],
    ['open', 'ErrorInfo'],
    ['open', 'Message'],
    ['text', 'Assert.AreEqual failed.\r\n'],
    ['close', 'Message'],
    ['open', 'StackTrace'],
    ['text', '   at Page.Shows_page()\r\n'],
    ['close', 'StackTrace'],
    ['close', 'ErrorInfo'],
    ['close', 'Output'],
    ['open', 'ResultFiles'],
    ['open', 'ResultFile', { path: 'HOST\\screenshot.png' }],
    ['close', 'ResultFile'],
    ['open', 'ResultFile', { path: 'C:\\agent\\_work\\trace.zip' }],
    ['close', 'ResultFile'],
    ['close', 'ResultFiles'],
    ['open', 'CollectorDataEntries'],
    ['open', 'Collector', { agentName: 'HOST', uri: 'datacollector://microsoft/CodeCoverage/2.0' }],
    ['open', 'UriAttachments'],
    ['open', 'UriAttachment'],
    ['open', 'A', { href: 'HOST\\coverage.cobertura.xml' }],
    ['close', 'A'],
    ['close', 'UriAttachment'],
    ['close', 'UriAttachments'],
    ['close', 'Collector'],
    ['close', 'CollectorDataEntries'],
    ['close', 'UnitTestResult'],
    [
      'open',
      'UnitTestResult',
      { executionId: 'e2', testId: 't2', testName: 'Naive', startTime: '2024-03-01T10:00:02', outcome: 'NotExecuted' },
    ],
    ['open', 'Output'],
    ['open', 'ErrorInfo'],
    ['open', 'Message'],
    ['text', 'Ignored: later'],
    ['close', 'Message'],
    ['close', 'ErrorInfo'],
    ['close', 'Output'],
    ['close', 'UnitTestResult'],
    ['close', 'Results'],
    ['open', 'TestDefinitions'],
    ['open', 'UnitTest', { name: 'Shows_page', storage: 'app.tests.dll', id: 't1' }],
    [
      'open',
      'TestMethod',
      { className: 'App.Tests.Page', name: 'Shows_page', adapterTypeName: 'executor://mstestadapter/v2' },
    ],
    ['close', 'TestMethod'],
    ['close', 'UnitTest'],
    ['close', 'TestDefinitions'],
    ['open', 'ResultSummary', { outcome: 'Failed' }],
    ['open', 'Output'],
    ['open', 'StdOut'],
    ['text', 'run-level output is not a test'],
    ['close', 'StdOut'],
    ['close', 'Output'],
    ['close', 'ResultSummary'],
    ['close', 'TestRun'],
  ]);
  t.equal(out.length, 2, 'no suites: the class is not known when a result is emitted');
  const [failed, naive] = out;
  t.match(failed, {
    type: 'test',
    title: 'Shows_page',
    parentId: null,
    status: 'failed',
    durationMs: 1250,
    startedAt: '2024-03-01T09:00:00.500Z',
    failure: { message: 'Assert.AreEqual failed.', type: null, stack: 'at Page.Shows_page()' },
    output: { stdout: 'navigating\n', stderr: 'warning: slow\n' },
    meta: { testId: 't1' },
  });
  t.notOk(failed!.meta!['className']);
  t.same(failed!.attachmentRefs, [
    'e1/HOST/screenshot.png',
    'C:/agent/_work/trace.zip',
    'e1/HOST/coverage.cobertura.xml',
  ]);
  t.match(naive, {
    status: 'skipped',
    startedAt: '2024-03-01T10:00:02.000Z',
    startedAtNaive: true,
    durationMs: null,
    failure: { message: 'Ignored: later' },
    attachmentRefs: [],
  });
  t.same(producers, ['vstest']);
});

t.test('state machine: mstest.exe order (definitions first): a suite per class', async (t) => {
  const { out, producers } = drive([
    ['open', 'TestRun', NS],
    ['open', 'TestDefinitions'],
    ['open', 'UnitTest', { name: 'A', id: 't1' }],
    ['open', 'Execution', { id: 'e1' }],
    ['close', 'Execution'],
    [
      'open',
      'TestMethod',
      {
        className: 'Calc.Tests.Add, Calc.Tests, Version=1.0.0.0',
        name: 'A',
        adapterTypeName:
          'Microsoft.VisualStudio.TestTools.TestTypes.Unit.UnitTestAdapter, ' +
          'Microsoft.VisualStudio.QualityTools.Tips.UnitTest.Adapter',
      },
    ],
    ['close', 'TestMethod'],
    ['close', 'UnitTest'],
    ['open', 'UnitTest', { name: 'B', id: 't2' }],
    ['open', 'TestMethod', { className: 'Calc.Tests.Add, Calc.Tests', name: 'B' }],
    ['close', 'TestMethod'],
    ['close', 'UnitTest'],
    ['open', 'UnitTest', { name: 'C', id: 't3' }],
    ['open', 'TestMethod', { className: 'Calc.Tests.Div', name: 'C' }],
    ['close', 'TestMethod'],
    ['close', 'UnitTest'],
    ['close', 'TestDefinitions'],
    ['open', 'Results'],
    [
      'open',
      'UnitTestResult',
      { testId: 't1', testName: 'A', outcome: 'Passed', startTime: '2009-01-11T16:22:46.5625000-02:00' },
    ],
    ['close', 'UnitTestResult'],
    ['open', 'UnitTestResult', { testId: 't3', testName: 'C', outcome: 'Error' }],
    ['close', 'UnitTestResult'],
    [
      'open',
      'UnitTestResult',
      { testId: 't2', testName: 'B', outcome: 'Failed', startTime: '2009-01-11T16:22:46.2968750-02:00' },
    ],
    ['close', 'UnitTestResult'],
    ['open', 'UnitTestResult', { testId: 'unknown', testName: 'D', outcome: 'Passed' }],
    ['close', 'UnitTestResult'],
    ['close', 'Results'],
    ['close', 'TestRun'],
  ]);
  const byTitle = new Map(out.map((c) => [c.title, c]));
  const add = byTitle.get('Calc.Tests.Add')!;
  const div = byTitle.get('Calc.Tests.Div')!;
  t.match(add, { type: 'suite', parentId: null, status: 'failed', startedAt: '2009-01-11T18:22:46.296Z' });
  t.match(div, { type: 'suite', parentId: null, status: 'errored' });
  t.match(byTitle.get('A'), { parentId: add.id, meta: { className: 'Calc.Tests.Add', testId: 't1' } });
  t.match(byTitle.get('B'), { parentId: add.id });
  t.match(byTitle.get('C'), { parentId: div.id });
  t.match(byTitle.get('D'), { parentId: null }, 'a result without a definition stays at the top level');
  t.ok(out.indexOf(add) > out.indexOf(byTitle.get('B')!), 'suites are emitted after their tests');
  t.same(count(out), { tests: 4, passed: 2, failed: 1, errored: 1, skipped: 0 });
  t.same(producers, ['mstest']);
});

t.test('state machine: InnerResults are steps, not tests', async (t) => {
  const { out } = drive([
    ['open', 'TestRun', NS],
    ['open', 'Results'],
    [
      'open',
      'TestResultAggregation',
      { testId: 'o1', testName: 'Ordered', outcome: 'Failed', relativeResultsDirectory: 'o1' },
    ],
    ['open', 'InnerResults'],
    ['open', 'UnitTestResult', { testId: 'u1', testName: 'Row 1', outcome: 'Passed', dataRowInfo: '1' }],
    ['close', 'UnitTestResult'],
    [
      'open',
      'UnitTestResult',
      { testId: 'u2', testName: 'Row 2', outcome: 'Failed', dataRowInfo: '2', relativeResultsDirectory: 'r2' },
    ],
    ['open', 'InnerResults'],
    ['open', 'UnitTestResult', { testName: 'Row 2 (a)', outcome: 'Failed' }],
    ['close', 'UnitTestResult'],
    ['close', 'InnerResults'],
    ['open', 'ResultFiles'],
    ['open', 'ResultFile', { path: 'row2.log' }],
    ['close', 'ResultFile'],
    ['close', 'ResultFiles'],
    ['close', 'UnitTestResult'],
    ['close', 'InnerResults'],
    ['close', 'TestResultAggregation'],
    ['close', 'Results'],
    ['close', 'TestRun'],
  ]);
  const [row1, row2a, row2, ordered] = out;
  t.match(ordered, { type: 'test', title: 'Ordered', status: 'failed', parentId: null });
  t.match(row1, { type: 'step', title: 'Row 1', status: 'passed', parentId: ordered!.id, meta: { dataRow: '1' } });
  t.match(row2, { type: 'step', status: 'failed', parentId: ordered!.id, attachmentRefs: ['r2/row2.log'] });
  t.match(row2a, { type: 'step', parentId: row2!.id });
  t.same(count(out), { tests: 1, passed: 0, failed: 1, errored: 0, skipped: 0 });
});

t.test('values: durations, class names, result file references', async (t) => {
  const spans: [string | undefined, number | null][] = [
    ['00:00:00.0010000', 1],
    ['00:00:51.9722792', 51972.279],
    ['1.00:00:01', 86401000],
    ['00:01:00', 60000],
    ['', null],
    ['1.5', null],
    [undefined, null],
  ];
  for (const [raw, want] of spans) t.equal(parseTimeSpan(raw), want, `duration=${JSON.stringify(raw)}`);
  t.equal(typeName('FunctionsTest.FibonacciTest, FunctionsTest'), 'FunctionsTest.FibonacciTest');
  t.equal(
    typeName('A.Gen`1[[System.Int32, mscorlib, Version=4.0.0.0]], A, Version=1.0.0.0'),
    'A.Gen`1[[System.Int32, mscorlib, Version=4.0.0.0]]',
  );
  t.equal(typeName('Plain.Class'), 'Plain.Class');
  const refs: [string, string | undefined, string | null][] = [
    ['HOST\\shot.png', 'e1', 'e1/HOST/shot.png'],
    ['shot.png', undefined, 'shot.png'],
    ['/tmp/shot.png', 'e1', '/tmp/shot.png'],
    ['D:\\out\\shot.png', 'e1', 'D:/out/shot.png'],
    ['https://ci/x.png', 'e1', 'https://ci/x.png'],
    ['  ', 'e1', null],
  ];
  for (const [p, dir, want] of refs) t.equal(resultFileRef(p, dir), want, `${p} in ${dir}`);
});

t.test('a fixture container in full: BOM, offset time, xUnit adapter names', async (t) => {
  const { containers } = await run(fx.read('dorny__dotnet-trx.trx'), 'dorny__dotnet-trx.trx');
  t.ok(containers.every((c) => c.type === 'test' && c.parentId === null));
  const failed = containers.find((c) => c.title === 'Should be even number(i: 3)')!;
  t.match(failed, {
    status: 'failed',
    startedAt: '2021-04-20T06:31:32.975Z',
    durationMs: 0.654,
    failure: { message: 'Assert.True() Failure\r\nExpected: True\r\nActual:   False' },
  });
  t.notOk(failed.startedAtNaive);
});
