import t from 'tap';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FormatError, isCountedTest, type Container, type Head } from '../../lib/formatter-api.js';
import { decodeText } from '../../lib/sniff/encoding.js';
import { HEAD_BYTES, readHead } from '../../lib/sniff/head.js';
import { nunit } from './index.js';
import { nunit2Status, nunit3Status, nunitHandler } from './parse.js';
import { parseSeconds } from './values.js';

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
  await nunit.parse(
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
  const h = nunitHandler({ fileName: 'TestResult.xml', nextId: () => ++id, limits: { maxTextChars }, setProducer: (p) => producers.push(p) }, (c) => out.push(c));
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
    ['dorny__dotnet-nunit.xml', 'nunit'],
    ['xunit-plugin__nunit-testcase8-input.xml', 'nunit'],
    ['xunit-plugin__nunit3-testcase5-input.xml', 'unity'],
  ];
  for (const [file, want] of cases) {
    const { producers } = await run(readFileSync(path.join(FIXTURES, file)), file);
    t.same(producers, [want], file);
  }
  const pester = drive([['open', 'test-results', { 'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance', 'xsi:noNamespaceSchemaLocation': 'nunit_schema_2.5.xsd', name: 'Pester' }], ['close', 'test-results']]);
  t.same(pester.producers, ['pester']);
});

t.test('sniff: every fixture votes mine', async (t) => {
  for (const f of manifest.files) {
    const bytes = readFileSync(path.join(FIXTURES, f.path));
    const { head: h } = readHead(bytes.subarray(0, HEAD_BYTES), f.path, bytes.length <= HEAD_BYTES);
    t.ok(nunit.sniff(h) >= 0.9, f.path);
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
  ['TRX', 'r.trx', '<?xml version="1.0" encoding="UTF-8"?>\n<TestRun id="37bd1bbc" name="@ip 2017-09-11 07:32:55" xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010">\n    <Times creation="2017-09-11T07:32:55.5710479+00:00" />\n    <Results>\n        <UnitTestResult testName="A" outcome="Failed"/>'],
  ['xUnit.net v2', 'xunit.xml', '<?xml version="1.0" encoding="utf-8"?>\n<assemblies>\n  <assembly name="C:\\x\\MyProject.Tests.DLL" test-framework="xUnit.net 2.0.0.2785" run-date="2014-12-18" run-time="14:34:32" total="3">\n    <errors />\n    <collection total="3" name="Test collection for X">'],
  ['xUnit.net v1', 'xunit1.xml', '<assembly name="x.dll" run-date="2013-01-01" run-time="10:00:00" total="1" test-framework="xUnit.net 1.9.2"><class name="C" total="1" passed="1"><test name="A" result="Pass"/>'],
  ['Open Test Reporting', 'events.xml', '<?xml version="1.0" encoding="UTF-8"?>\n<e:events xmlns="https://schemas.opentest4j.org/reporting/core/0.1.0" xmlns:e="https://schemas.opentest4j.org/reporting/events/0.1.0"><e:started id="1" name="JUnit Jupiter" time="2023-01-01T00:00:00Z"/>'],
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
    ['NUnit 3 test-run', '\ufeff<?xml version="1.0" encoding="utf-8" standalone="no"?>\n<test-run id="2" testcasecount="19" result="Failed(Child)" total="19">'],
    ['NUnit 3 bare suite', '<test-suite type="Assembly" id="0-1005" name="x.dll" runstate="Runnable" testcasecount="1"><test-case id="0-1001"/>'],
    ['NUnit 2 (Pester)', '<?xml version="1.0" encoding="utf-8" standalone="no"?>\n<test-results xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="nunit_schema_2.5.xsd" name="Pester" total="2" errors="0" failures="1" not-run="0" inconclusive="0" ignored="0" skipped="0" invalid="0" date="2024-01-01" time="10:00:00"><environment user="u"/>'],
  ];
  for (const [name, text] of positive) t.ok(nunit.sniff(head(text)) >= 0.9, name);
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
  const bytes = readFileSync(path.join(FIXTURES, 'dorny__dotnet-nunit.xml'));
  const cases: [string, Buffer][] = [
    ['empty', Buffer.alloc(0)],
    ['whitespace only', Buffer.from('  \n')],
    ['prolog only', Buffer.from('<?xml version="1.0" encoding="utf-8"?>\n')],
    ['truncated in the middle', bytes.subarray(0, Math.floor(bytes.length / 2))],
    ['truncated in a tag', Buffer.from('<test-run id="0"><test-suite type="Assembly"><test-ca')],
    ['Allure 1 root', Buffer.from('<ns2:test-suite xmlns:ns2="urn:model.allure.qatools.yandex.ru"><name>a</name></ns2:test-suite>')],
    ['JUnit root', Buffer.from('<testsuites><testsuite name="a"/></testsuites>')],
    ['JSON', Buffer.from('{"stats":{}}')],
  ];
  for (const [name, b] of cases) t.type(await failure(run(b, 'x.xml')), FormatError, name);
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
    ['open', 'test-suite', { type: 'Assembly', name: 'App.Tests.dll', fullname: 'C:\\ci\\App.Tests.dll', result: 'Failed', site: 'Child' }],
    ['open', 'failure'],
    ['open', 'message'],
    ['text', 'One or more child tests had errors'],
    ['close', 'message'],
    ['close', 'failure'],
    ['open', 'test-case', { name: 'Shows(1)', fullname: 'App.Tests.Page.Shows(1)', classname: 'App.Tests.Page', methodname: 'Shows', result: 'Failed', 'start-time': '2024-03-01T10:00:01.5000000Z', duration: '0,25' }],
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
  t.match(suite, { type: 'suite', title: 'App.Tests.dll', status: 'failed', failure: null, startedAt: '2024-03-01T10:00:00.000Z', meta: { type: 'Assembly', fullname: 'C:\\ci\\App.Tests.dll' } });
});

t.test('state machine: rule 4 for suites that failed on their own', async (t) => {
  const alone = drive([
    ['open', 'test-run'],
    ['open', 'test-suite', { type: 'Assembly', name: 'App.dll', result: 'Failed', site: 'Child' }],
    ['open', 'test-suite', { type: 'TestFixture', name: 'Broken', result: 'Failed', label: 'Error', site: 'SetUp', testcasecount: '0' }],
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
  t.match(synthetic, { type: 'test', title: 'Broken', status: 'errored', parentId: fixture!.id, failure: { message: 'OneTimeSetUp: System.Exception : boom', type: 'Error' }, meta: { synthetic: 'suite-error' } });
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
  t.match(propagated[2], { title: 'Bad', status: 'skipped', failure: { message: 'No suitable constructor was found', type: 'Invalid' } });

  // A teardown failure with tests present stays on the suite.
  const teardown = drive([
    ['open', 'test-suite', { type: 'TestFixture', name: 'T', result: 'Failed', label: 'Error', site: 'TearDown', testcasecount: '1' }],
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
    ['open', 'test-suite', { type: 'Assembly', name: '/ci/ws-123/Tests.dll', executed: 'True', result: 'Failure', success: 'False', time: '0.404' }],
    ['open', 'results'],
    ['open', 'test-suite', { type: 'TestFixture', name: 'MainClassTest', executed: 'True', result: 'Failure', success: 'False' }],
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
    ['open', 'test-case', { name: 'UnitTests.MainClassTest.B', executed: 'True', result: 'Failure', success: 'False', time: '0.001' }],
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
  t.match(assembly, { title: 'Tests.dll', meta: { fullname: '/ci/ws-123/Tests.dll' }, startedAt: '2007-07-27T11:18:43.000Z', startedAtNaive: true, durationMs: 404, parentId: null });
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
