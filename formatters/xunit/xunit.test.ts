import t from 'tap';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FormatError, isCountedTest, type Container, type Head } from '../../lib/formatter-api.js';
import { decodeText } from '../../lib/sniff/encoding.js';
import { HEAD_BYTES, readHead } from '../../lib/sniff/head.js';
import { xunit } from './index.js';
import { testStatus, xunitHandler } from './parse.js';
import { parseSeconds, parseTimeSpan } from './values.js';

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
  await xunit.parse(
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
  const h = xunitHandler({ fileName: 'results.xml', nextId: () => ++id, limits: { maxTextChars }, setProducer: (p) => producers.push(p) }, (c) => out.push(c));
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
  const cases: [string, string[]][] = [
    ['xunit-plugin__xunitdotnet-testcase1-input.xml', ['xunit.net']],
    ['xunit-plugin__xunitdotnet-testcase6-input.xml', []],
    ['allure2__passed-test.xml', []],
  ];
  for (const [file, want] of cases) {
    const { producers } = await run(readFileSync(path.join(FIXTURES, file)), file);
    t.same(producers, want, file);
  }
});

t.test('sniff: every fixture votes mine', async (t) => {
  for (const f of manifest.files) {
    const bytes = readFileSync(path.join(FIXTURES, f.path));
    const { head: h } = readHead(bytes.subarray(0, HEAD_BYTES), f.path, bytes.length <= HEAD_BYTES);
    t.ok(xunit.sniff(h) >= 0.9, f.path);
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
  ['NUnit 3', 'TestResult.xml', '<?xml version="1.0" encoding="utf-8" standalone="no"?>\n<test-run id="0" runstate="Runnable" testcasecount="9" result="Failed" total="9" engine-version="3.12.0.0"><command-line><![CDATA[nunit3-console x.dll]]></command-line><test-suite type="Assembly" id="1-1011" name="x.dll"><test-case id="1-1004" name="A" result="Passed"/>'],
  ['NUnit 3 bare suite', 'TestResult.xml', '<test-suite type="Assembly" id="0-1005" name="x.dll" runstate="Runnable" testcasecount="1"><test-case id="0-1001"/>'],
  ['NUnit 2', 'TestResult.xml', '<?xml version="1.0" encoding="utf-8" standalone="no"?>\n<!--This file represents the results of running a test suite-->\n<test-results name="x.dll" total="4" errors="0" failures="1" not-run="0" date="2011-04-01" time="11:26:18"><environment nunit-version="2.5.8.0"/><culture-info current-culture="en-US"/><test-suite type="Assembly" name="x.dll">'],
  ['Maven assembly descriptor', 'assembly.xml', '<assembly xmlns="http://maven.apache.org/ASSEMBLY/2.1.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><id>bin</id><formats><format>zip</format></formats>'],
  ['bare assembly of another vocabulary', 'a.xml', '<assembly><id>bin</id><formats><format>zip</format></formats></assembly>'],
  ['Open Test Reporting', 'events.xml', '<?xml version="1.0" encoding="UTF-8"?>\n<e:events xmlns="https://schemas.opentest4j.org/reporting/core/0.1.0" xmlns:e="https://schemas.opentest4j.org/reporting/events/0.1.0"><e:started id="1" name="JUnit Jupiter" time="2023-01-01T00:00:00Z"/>'],
  ['empty', 'r.xml', ''],
  ['plain text naming xUnit elements', 'notes.txt', 'assemblies assembly <collection> are xUnit words\n'],
];

t.test('sniff: other formats score below the match threshold', async (t) => {
  for (const [name, file, text] of OTHERS) t.ok(xunit.sniff(head(text, file)) < 0.5, name);
  const broken = { ...head('<assemblies>'), rootAttributes: null } as unknown as Head;
  t.equal(xunit.sniff(broken), 0, 'a malformed head scores 0 instead of throwing');
});

t.test('sniff: xUnit roots', async (t) => {
  const positive: [string, string][] = [
    ['v2 with BOM', '\ufeff<?xml version="1.0" encoding="utf-8"?>\n<assemblies timestamp="06/07/2018 20:33:39">\n    <assembly name="E:\\x.DLL" test-framework="xUnit.net 2.2.0.3545">'],
    ['v3 schema', '<assemblies schema-version="3" id="a" computer="C" start-rtf="2024-01-01T00:00:00.0000000+00:00"><assembly name="x.dll">'],
    ['v1 bare assembly', '<assembly name="x.dll" run-date="2013-01-01" run-time="10:00:00" total="1" test-framework="xUnit.net 1.9.2"><class name="C" total="1" passed="1"><test name="A" result="Pass"/>'],
    ['v1 inside assemblies', '<assemblies><assembly name="x.dll" total="1"><class name="C" time="0.1" total="1"><test name="A" result="Pass"/>'],
  ];
  for (const [name, text] of positive) t.ok(xunit.sniff(head(text)) >= 0.9, name);
  t.ok(xunit.sniff(head('<assemblies/>')) >= 0.5, 'an empty run is still mine');
});

t.test('chunk boundaries do not change the containers', async (t) => {
  const usable = manifest.files.filter((f) => !f.parse_error_expected);
  const largest = [...usable].sort((a, b) => size(b.path) - size(a.path))[0]!;
  const bytes = readFileSync(path.join(FIXTURES, largest.path));
  // A small text limit also checks that truncation does not depend on where chunks end.
  const [one, seven, big] = await Promise.all([1, 7, 65536].map(async (n) => (await run(bytes, largest.path, n, 20)).containers));
  t.equal(count(big!).tests, largest.expected!.tests, largest.path);
  t.same(one, big, 'chunks of 1 byte');
  t.same(seven, big, 'chunks of 7 bytes');
  for (const f of usable) {
    const b = readFileSync(path.join(FIXTURES, f.path));
    t.same((await run(b, f.path, 1, 20)).containers, (await run(b, f.path, 65536, 20)).containers, `${f.path} in 1-byte chunks`);
  }
});

function size(p: string): number {
  return readFileSync(path.join(FIXTURES, p)).length;
}

t.test('empty, truncated and foreign input reject with FormatError', async (t) => {
  const bytes = readFileSync(path.join(FIXTURES, 'xunit-plugin__xunitdotnet-testcase1-input.xml'));
  const cases: [string, Buffer][] = [
    ['empty', Buffer.alloc(0)],
    ['whitespace only', Buffer.from('  \n')],
    ['prolog only', Buffer.from('<?xml version="1.0" encoding="utf-8"?>\n')],
    ['truncated in the middle', bytes.subarray(0, Math.floor(bytes.length / 2))],
    ['truncated in a tag', Buffer.from('<assemblies><assembly name="a"><collection><te')],
    ['Maven assembly descriptor', Buffer.from('<assembly xmlns="http://maven.apache.org/ASSEMBLY/2.1.0"><id>bin</id></assembly>')],
    ['NUnit root', Buffer.from('<test-run id="0"><test-suite/></test-run>')],
    ['JSON', Buffer.from('{"stats":{}}')],
  ];
  for (const [name, b] of cases) t.type(await failure(run(b, 'x.xml')), FormatError, name);
});

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
  t.same(out.map((c) => c.status), ['passed', 'skipped', 'passed', 'passed'], 'case-insensitive results; suites take their worst child');
});

t.test('state machine: v2 test in full, and <errors> as errored tests (rule 4)', async (t) => {
  const { out } = drive([
    ['open', 'assemblies', { 'schema-version': '3', timestamp: '02/01/2019 14:47:17' }],
    ['open', 'assembly', { name: '/ci/ws-7/bin/App.Tests.dll', 'test-framework': 'xUnit.net 2.9.0', 'run-date': '2019-02-01', 'run-time': '14:47:17', time: '1.5' }],
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
    ['open', 'test', { name: 'App.Tests.DbTests.Reads(id: 1)', type: 'App.Tests.DbTests', method: 'Reads', result: 'Skip', time: '0', 'source-file': 'DbTests.cs', 'source-line': '12', 'start-rtf': '2019-02-01T14:47:17.1234567+01:00' }],
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
  t.match(cleanup, { type: 'test', title: 'App.Tests.DbTests', status: 'errored', parentId: assembly!.id, failure: { message: 'Dispose failed', type: 'System.InvalidOperationException', stack: 'at App.Tests.DbTests.Dispose()' }, meta: { synthetic: 'xunit-error', errorType: 'test-class-cleanup' } });
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
  t.match(assembly, { type: 'suite', title: 'App.Tests.dll', status: 'errored', parentId: null, startedAt: '2019-02-01T14:47:17.000Z', startedAtNaive: true, durationMs: 1500, meta: { path: '/ci/ws-7/bin/App.Tests.dll', testFramework: 'xUnit.net 2.9.0' } });
  t.same(count(out), { tests: 3, passed: 0, failed: 0, errored: 2, skipped: 1 });
});

t.test('state machine: v1 classes, reason messages and class failures', async (t) => {
  const { out } = drive([
    ['open', 'assembly', { name: 'C:\\b\\v1.dll', 'run-date': '2013-01-01', 'run-time': '10:00:00', 'test-framework': 'xUnit.net 1.9.2.1705' }],
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
  t.match(synthetic, { type: 'test', title: 'V1.Broken', status: 'errored', parentId: broken!.id, failure: { message: 'fixture ctor threw', type: 'System.Exception' }, meta: { synthetic: 'class-error' } });
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
  const { out } = drive([['open', 'assemblies'], ['open', 'assembly', { name: 'a.dll', 'time-rtf': '00:00:02.0000000' }], ['close', 'assembly'], ['close', 'assemblies']]);
  t.equal(out[0]!.durationMs, 2000, 'time-rtf when time is missing');
});

t.test('an unreadable run-date is no date, not a guess', async (t) => {
  const { containers } = await run(readFileSync(path.join(FIXTURES, 'xunit-plugin__xunitdotnet-testcase6-input.xml')), 'x.xml');
  const assembly = containers[containers.length - 1]!;
  t.match(assembly, { type: 'suite', title: 'Test.exe', startedAt: null });
  t.match(containers[0], { title: 'collection1\\test.xml', status: 'failed', failure: { message: /^OK: TestProcess.Execution.ExitCode == 0\r\nFAIL/ } });
});
