import t from 'tap';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FormatError, isCountedTest, type Container, type Head } from '../../lib/formatter-api.js';
import { decodeText } from '../../lib/sniff/encoding.js';
import { HEAD_BYTES, readHead } from '../../lib/sniff/head.js';
import { trx } from './index.js';
import { outcomeStatus, trxHandler, typeName } from './parse.js';
import { parseTimeSpan, resultFileRef } from './values.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

interface Counts {
  tests: number;
  passed: number;
  failed: number;
  errored: number;
  skipped: number;
}
interface Entry {
  path: string;
  sha256: string;
  expected: Counts | null;
  parse_error_expected?: boolean;
}
const manifest = JSON.parse(readFileSync(path.join(FIXTURES, 'MANIFEST.json'), 'utf8')) as { files: Entry[] };

async function* chunks(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function run(bytes: Buffer, fileName: string, chunkSize = 65536, maxTextChars = 100_000) {
  const { head, encoding } = readHead(bytes.subarray(0, HEAD_BYTES), fileName, bytes.length <= HEAD_BYTES);
  const containers: Container[] = [];
  const producers: string[] = [];
  let id = 0;
  await trx.parse(
    decodeText(chunks(bytes, chunkSize), encoding),
    { emit: (c) => containers.push(c), ready: () => null },
    { fileName, nextId: () => ++id, limits: { maxTextChars }, setProducer: (p) => producers.push(p), options: { smart: false } },
  );
  return { head, containers, producers };
}

function count(containers: Container[]): Counts {
  const c: Counts = { tests: 0, passed: 0, failed: 0, errored: 0, skipped: 0 };
  for (const x of containers) {
    if (!isCountedTest(x)) continue;
    c.tests++;
    if (x.status === 'pending' || x.status === 'unknown') c.skipped++;
    else c[x.status]++;
  }
  return c;
}

async function failure(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => null,
    (err: unknown) => err,
  );
}

type Event = ['open', string, Record<string, string>?] | ['text', string] | ['close', string];

function drive(events: Event[], maxTextChars = 1000): { out: Container[]; producers: string[] } {
  const out: Container[] = [];
  const producers: string[] = [];
  let id = 0;
  const h = trxHandler({ fileName: 'run.trx', nextId: () => ++id, limits: { maxTextChars }, setProducer: (p) => producers.push(p) }, (c) => out.push(c));
  for (const e of events) {
    if (e[0] === 'open') h.open(e[1], e[2] ?? {});
    else if (e[0] === 'text') h.text(e[1]);
    else h.close(e[1]);
  }
  h.end();
  return { out, producers };
}

const head = (text: string, fileName = 'r.xml'): Head => readHead(Buffer.from(text), fileName, true).head;

t.test('fixture folder: every file listed, byte-identical to its manifest hash, and in the README', async (t) => {
  const readme = readFileSync(path.join(FIXTURES, 'README.md'), 'utf8');
  const onDisk = readdirSync(FIXTURES).filter((f) => f !== 'MANIFEST.json' && f !== 'README.md').sort();
  t.same(onDisk, manifest.files.map((f) => f.path).sort());
  for (const f of manifest.files) {
    t.equal(createHash('sha256').update(readFileSync(path.join(FIXTURES, f.path))).digest('hex'), f.sha256, f.path);
    t.ok(readme.includes(f.path), `README lists ${f.path}`);
  }
});

t.test('every fixture gives the manifest counts', async (t) => {
  for (const f of manifest.files) {
    const bytes = readFileSync(path.join(FIXTURES, f.path));
    if (f.parse_error_expected) {
      t.type(await failure(run(bytes, f.path)), FormatError, `${f.path} rejects with FormatError`);
      continue;
    }
    const { containers } = await run(bytes, f.path);
    t.same(count(containers), f.expected, f.path);
  }
});

t.test('producer', async (t) => {
  const cases: [string, string][] = [
    ['dorny__dotnet-trx.trx', 'vstest'],
    ['allure2__testresultsWithChildren.trx', 'vstest'],
    ['allure2__sample.trx', 'mstest'],
    ['xunit-plugin__mstest-testcase1-input.xml', 'mstest'],
  ];
  for (const [file, want] of cases) {
    const { producers } = await run(readFileSync(path.join(FIXTURES, file)), file);
    t.same(producers, [want], file);
  }
});

t.test('sniff: every fixture votes mine', async (t) => {
  for (const f of manifest.files) {
    const bytes = readFileSync(path.join(FIXTURES, f.path));
    const { head: h } = readHead(bytes.subarray(0, HEAD_BYTES), f.path, bytes.length <= HEAD_BYTES);
    t.ok(trx.sniff(h) >= 0.9, f.path);
  }
});

/** The start of a real file of every other format in the shared fixture set, and near misses. */
const OTHERS: [string, string, string][] = [
  ['Allure 1 (ns2:test-suite)', 'b785c222-testsuite.xml', '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<ns2:test-suite xmlns:ns2="urn:model.allure.qatools.yandex.ru" start="1412949538852" stop="1412949560076" version="1.4.4-SNAPSHOT">\n    <name>my.company.SimpleTest</name>\n    <test-cases>\n        <test-case start="1412949558829" stop="1412949558830" status="failed">\n            <name>failedSimpleTest</name>'],
  ['Allure 1 with its namespace as default', 'x-testsuite.xml', '<test-suite xmlns="urn:model.allure.qatools.yandex.ru" start="1" stop="2"><name>S</name><test-cases><test-case status="passed"><name>a</name></test-case></test-cases></test-suite>'],
  ['Allure 1 unprefixed, no namespace', 'x-testsuite.xml', '<test-suite start="1" stop="2"><name>S</name><test-cases><test-case status="passed"><name>a</name></test-case></test-cases></test-suite>'],
  ['Allure 2 result', 'a-result.json', '{"uuid":"7f0aea93","historyId":"h","status":"passed","name":"t","start":1480450609874,"stop":1480450609900,"labels":[]}'],
  ['Allure 2 container', 'a-container.json', '{\n  "uuid" : "b1c94ca2fbc3e78fc30069c8d0f01680",\n  "children" : [ "120625640d9b3ddbd6b47646e544e313" ],\n  "name" : "All",\n  "start" : 1480450609874'],
  ['CTRF', 'ctrf-report.json', '{\n\t"results": {\n\t\t"tool": {\n\t\t\t"name": "jest"\n\t\t},\n\t\t"summary": {\n\t\t\t"tests": 10,\n\t\t\t"passed": 5'],
  ['Cucumber JSON', 'cucumber.json', '[{"keyword":"Feature","uri":"a.feature","id":"a","elements":[{"type":"scenario","steps":[]}]}]'],
  ['Cucumber JSON, empty run', 'empty.json', '[\n]'],
  ['Cucumber messages', 'messages.ndjson', '{"meta":{"protocolVersion":"22.0.0","implementation":{"name":"cucumber-js"}}}\n{"source":{"uri":"a.feature","data":"Feature: a"}}\n'],
  ['Dart JSON reporter', 'dart.json', '{"protocolVersion":"0.1.1","runnerVersion":"1.15.4","pid":7504,"type":"start","time":0}\n{"suite":{"id":0,"platform":"vm","path":"test\\\\main_test.dart"},"type":"suite","time":0}\n'],
  ['Go test2json', 'go.json', '{"Time":"2025-04-22T08:59:55.364618802-05:00","Action":"start","Package":"_/home/x/go"}\n{"Time":"2025-04-22T08:59:55.371779289-05:00","Action":"run","Package":"_/home/x/go","Test":"TestPassing"}\n'],
  ['Jest JSON', 'jest.json', '{"numFailedTestSuites":1,"numFailedTests":7,"numPassedTestSuites":5,"numPassedTests":8,"numTotalTests":15,"testResults":[]}'],
  ['JUnit testsuites', 'junit.xml', '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="jest tests" tests="6" failures="4"><testsuite name="a" tests="1"><testcase name="x" classname="y" time="0.1"/>'],
  ['JUnit Surefire testsuite', 'TEST-a.B.xml', '<?xml version="1.0" encoding="UTF-8"?>\n<testsuite xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" name="a.B" time="0.1" tests="1" errors="0" skipped="0" failures="0"><properties><property name="java.version" value="17"/></properties><testcase name="t" classname="a.B" time="0.01"/>'],
  ['Mocha JSON', 'mocha.json', '{\n  "stats": {\n    "suites": 0,\n    "tests": 0,\n    "passes": 0\n  },\n  "tests": [],\n  "pending": [],\n  "failures": [],\n  "passes": []\n}'],
  ['mochawesome', 'mochawesome.json', '{"stats":{"suites":1,"tests":1,"passes":1},"results":[{"uuid":"x","suites":[]}],"meta":{"mocha":{"version":"10"}}}'],
  ['Playwright JSON', 'pw.json', '{\n  "config": {\n    "configFile": "/project/playwright.config.ts",\n    "rootDir": "/project/tests"\n  },\n  "suites": [],\n  "errors": []\n}'],
  ['Robot output.xml', 'output.xml', '<?xml version="1.0" encoding="UTF-8"?>\n<robot generator="Robot 5.0b1 (Python 3.8.5 on darwin)" generated="20220214 11:03:22.043" rpa="false" schemaversion="3">\n<suite id="s1" name="Test" source="/t/test.robot">\n<test id="s1-t1" name="Try" line="2">'],
  ['RSpec JSON', 'rspec.json', '{\n  "version": "3.13.0",\n  "examples": [\n    {\n      "id": "./spec/a_spec.rb[1:1]",\n      "status": "passed"\n    }\n  ]\n}'],
  ['TAP', 'r.tap', 'TAP version 13\n1..2\nok 1 - passes\nnot ok 2 - fails\n'],
  ['TAP bail out', 'bailout.tap', '1..5\nok 1\nok 2\nok 3\nBail out!  GERONIMMMOOOOOO!!!\nok 4\n'],
  ['TestNG', 'testng-results.xml', '<testng-results>\n  <reporter-output>\n  </reporter-output>\n  <suite name="Ant suite" duration-ms="29" started-at="2011-03-09T21:13:15Z">\n    <test name="Ant test"><class name="C"><test-method status="FAIL" name="m"/>'],
  ['xUnit.net v2', 'xunit.xml', '<?xml version="1.0" encoding="utf-8"?>\n<assemblies>\n  <assembly name="C:\\x\\MyProject.Tests.DLL" test-framework="xUnit.net 2.0.0.2785" run-date="2014-12-18" run-time="14:34:32" total="3">\n    <errors />\n    <collection total="3" name="Test collection for X">'],
  ['xUnit.net v1', 'xunit1.xml', '<assembly name="x.dll" run-date="2013-01-01" run-time="10:00:00" total="1" test-framework="xUnit.net 1.9.2"><class name="C" total="1" passed="1"><test name="A" result="Pass"/>'],
  ['NUnit 3', 'TestResult.xml', '<?xml version="1.0" encoding="utf-8" standalone="no"?>\n<test-run id="0" runstate="Runnable" testcasecount="9" result="Failed" total="9" engine-version="3.12.0.0"><command-line><![CDATA[nunit3-console x.dll]]></command-line><test-suite type="Assembly" id="1-1011" name="x.dll"><test-case id="1-1004" name="A" result="Passed"/>'],
  ['NUnit 3 bare suite', 'TestResult.xml', '<test-suite type="Assembly" id="0-1005" name="x.dll" runstate="Runnable" testcasecount="1"><test-case id="0-1001"/>'],
  ['NUnit 2', 'TestResult.xml', '<?xml version="1.0" encoding="utf-8" standalone="no"?>\n<!--This file represents the results of running a test suite-->\n<test-results name="x.dll" total="4" errors="0" failures="1" not-run="0" date="2011-04-01" time="11:26:18"><environment nunit-version="2.5.8.0"/><culture-info current-culture="en-US"/><test-suite type="Assembly" name="x.dll">'],
  ['CppUnit (TestRun root)', 'cppunit.xml', '<?xml version="1.0" encoding="ISO-8859-1" standalone="yes"?>\n<TestRun>\n  <FailedTests></FailedTests>\n  <SuccessfulTests><Test id="1"><Name>T::a</Name></Test></SuccessfulTests>\n  <Statistics><Tests>1</Tests></Statistics>'],
  ['TestRun in another namespace', 'r.xml', '<TestRun xmlns="urn:other"><Results/></TestRun>'],
  ['Open Test Reporting', 'events.xml', '<?xml version="1.0" encoding="UTF-8"?>\n<e:events xmlns="https://schemas.opentest4j.org/reporting/core/0.1.0" xmlns:e="https://schemas.opentest4j.org/reporting/events/0.1.0"><e:started id="1" name="JUnit Jupiter" time="2023-01-01T00:00:00Z"/>'],
  ['empty', 'r.trx', ''],
  ['plain text naming TRX elements', 'notes.trx', 'TestRun Results UnitTestResult\n'],
];

t.test('sniff: other formats score below the match threshold', async (t) => {
  for (const [name, file, text] of OTHERS) t.ok(trx.sniff(head(text, file)) < 0.5, name);
  const broken = { ...head('<TestRun>'), rootAttributes: null } as unknown as Head;
  t.equal(trx.sniff(broken), 0, 'a malformed head scores 0 instead of throwing');
});

t.test('sniff: TRX without its namespace, UTF-16', async (t) => {
  t.ok(trx.sniff(head('<TestRun id="1" name="n"><Times start="2020-01-01T00:00:00Z"/><Results>')) >= 0.8, 'TRX children without the namespace');
  t.ok(trx.sniff(head('<TestRun id="1"/>', 'run.trx')) >= 0.5, 'a bare TestRun named .trx');
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<?xml version="1.0" encoding="utf-8"?><TestRun xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010"><Times/>', 'utf16le')]);
  t.ok(trx.sniff(readHead(utf16, 'r.trx', true).head) >= 0.9, 'UTF-16 with BOM (PowerShell 5.1 redirection)');
});

t.test('chunk boundaries do not change the containers', async (t) => {
  const usable = manifest.files.filter((f) => !f.parse_error_expected);
  const largest = [...usable].sort((a, b) => size(b.path) - size(a.path))[0]!;
  const bytes = readFileSync(path.join(FIXTURES, largest.path));
  // A small text limit also checks that truncation does not depend on where chunks end.
  const [one, seven, big] = await Promise.all([1, 7, 65536].map(async (n) => (await run(bytes, largest.path, n, 300)).containers));
  t.equal(count(big!).tests, largest.expected!.tests, largest.path);
  t.same(one, big, 'chunks of 1 byte');
  t.same(seven, big, 'chunks of 7 bytes');
  for (const f of usable) {
    const b = readFileSync(path.join(FIXTURES, f.path));
    t.same((await run(b, f.path, 7, 300)).containers, (await run(b, f.path, 65536, 300)).containers, `${f.path} in 7-byte chunks`);
  }
});

function size(p: string): number {
  return readFileSync(path.join(FIXTURES, p)).length;
}

t.test('empty, truncated and foreign input reject with FormatError', async (t) => {
  const bytes = readFileSync(path.join(FIXTURES, 'dorny__dotnet-trx.trx'));
  const cases: [string, Buffer][] = [
    ['empty', Buffer.alloc(0)],
    ['BOM only', Buffer.from([0xef, 0xbb, 0xbf])],
    ['prolog only', Buffer.from('<?xml version="1.0" encoding="utf-8"?>\n')],
    ['truncated in the middle', bytes.subarray(0, Math.floor(bytes.length / 2))],
    ['truncated in a tag', Buffer.from('<TestRun><Results><UnitTestResult testName="a" outco')],
    ['CppUnit-like root in another namespace', Buffer.from('<TestRun xmlns="urn:other"><Results/></TestRun>')],
    ['JUnit root', Buffer.from('<testsuites><testsuite name="a"/></testsuites>')],
    ['JSON', Buffer.from('{"stats":{}}')],
  ];
  for (const [name, b] of cases) t.type(await failure(run(b, 'x.trx')), FormatError, name);
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
    ['open', 'UnitTestResult', { executionId: 'e1', testId: 't1', testName: 'Shows_page', duration: '00:00:01.2500000', startTime: '2024-03-01T10:00:00.5000000+01:00', outcome: 'Failed', relativeResultsDirectory: 'e1' }],
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
    ['open', 'UnitTestResult', { executionId: 'e2', testId: 't2', testName: 'Naive', startTime: '2024-03-01T10:00:02', outcome: 'NotExecuted' }],
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
    ['open', 'TestMethod', { className: 'App.Tests.Page', name: 'Shows_page', adapterTypeName: 'executor://mstestadapter/v2' }],
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
  t.same(failed!.attachmentRefs, ['e1/HOST/screenshot.png', 'C:/agent/_work/trace.zip', 'e1/HOST/coverage.cobertura.xml']);
  t.match(naive, { status: 'skipped', startedAt: '2024-03-01T10:00:02.000Z', startedAtNaive: true, durationMs: null, failure: { message: 'Ignored: later' }, attachmentRefs: [] });
  t.same(producers, ['vstest']);
});

t.test('state machine: mstest.exe order (definitions first): a suite per class', async (t) => {
  const { out, producers } = drive([
    ['open', 'TestRun', NS],
    ['open', 'TestDefinitions'],
    ['open', 'UnitTest', { name: 'A', id: 't1' }],
    ['open', 'Execution', { id: 'e1' }],
    ['close', 'Execution'],
    ['open', 'TestMethod', { className: 'Calc.Tests.Add, Calc.Tests, Version=1.0.0.0', name: 'A', adapterTypeName: 'Microsoft.VisualStudio.TestTools.TestTypes.Unit.UnitTestAdapter, Microsoft.VisualStudio.QualityTools.Tips.UnitTest.Adapter' }],
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
    ['open', 'UnitTestResult', { testId: 't1', testName: 'A', outcome: 'Passed', startTime: '2009-01-11T16:22:46.5625000-02:00' }],
    ['close', 'UnitTestResult'],
    ['open', 'UnitTestResult', { testId: 't3', testName: 'C', outcome: 'Error' }],
    ['close', 'UnitTestResult'],
    ['open', 'UnitTestResult', { testId: 't2', testName: 'B', outcome: 'Failed', startTime: '2009-01-11T16:22:46.2968750-02:00' }],
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
    ['open', 'TestResultAggregation', { testId: 'o1', testName: 'Ordered', outcome: 'Failed', relativeResultsDirectory: 'o1' }],
    ['open', 'InnerResults'],
    ['open', 'UnitTestResult', { testId: 'u1', testName: 'Row 1', outcome: 'Passed', dataRowInfo: '1' }],
    ['close', 'UnitTestResult'],
    ['open', 'UnitTestResult', { testId: 'u2', testName: 'Row 2', outcome: 'Failed', dataRowInfo: '2', relativeResultsDirectory: 'r2' }],
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
  t.equal(typeName('A.Gen`1[[System.Int32, mscorlib, Version=4.0.0.0]], A, Version=1.0.0.0'), 'A.Gen`1[[System.Int32, mscorlib, Version=4.0.0.0]]');
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
  const { containers } = await run(readFileSync(path.join(FIXTURES, 'dorny__dotnet-trx.trx')), 'dorny__dotnet-trx.trx');
  t.ok(containers.every((c) => c.type === 'test' && c.parentId === null));
  const failed = containers.find((c) => c.title === 'Should be even number(i: 3)')!;
  t.match(failed, { status: 'failed', startedAt: '2021-04-20T06:31:32.975Z', durationMs: 0.654, failure: { message: 'Assert.True() Failure\r\nExpected: True\r\nActual:   False' } });
  t.notOk(failed.startedAtNaive);
});
