import t, { type Test } from 'tap';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FormatError, isCountedTest, type Container, type Formatter } from '../../lib/formatter-api.js';
import { decodeText } from '../../lib/sniff/encoding.js';
import { HEAD_BYTES, readHead } from '../../lib/sniff/head.js';
import { ctrf as formatter } from './index.js';

const KEY = 'ctrf';
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

/** Decodes and parses as Tally does: encoding from the head, text in chunks of `chunkSize` bytes. */
async function run(bytes: Buffer, fileName: string, chunkSize = 65536, maxTextChars = 100_000, f: Formatter = formatter) {
  const { head, encoding } = readHead(bytes.subarray(0, HEAD_BYTES), fileName, bytes.length <= HEAD_BYTES);
  const containers: Container[] = [];
  const producers: string[] = [];
  let id = 0;
  await f.parse(
    decodeText(chunks(bytes, chunkSize), encoding),
    { emit: (c) => containers.push(c), ready: () => null },
    { fileName, nextId: () => ++id, limits: { maxTextChars }, setProducer: (p) => producers.push(p), options: { smart: false } },
  );
  return { head, containers, producers };
}

const parseText = async (text: string, maxTextChars = 100_000) => (await run(Buffer.from(text), 'r.json', 65536, maxTextChars)).containers;

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

/** Every container's parent was emitted after it (children first), and ids are unique. */
function checkOrder(t: Test, containers: Container[], name: string): void {
  const seen = new Set<number>();
  const ids = new Set(containers.map((c) => c.id));
  t.equal(ids.size, containers.length, `${name}: ids are unique`);
  for (const c of containers) {
    if (c.parentId !== null) t.ok(ids.has(c.parentId) && !seen.has(c.parentId), `${name}: ${c.title} comes before its parent`);
    seen.add(c.id);
  }
}

const size = (p: string): number => readFileSync(path.join(FIXTURES, p)).length;

/**
 * Heads of every JSON format Tally reads, as their tools write them (real key order, cut short),
 * plus a few XML/text ones. The same table is in each JSON formatter's test: every formatter must
 * vote for its own rows and stay under the match threshold for all others.
 */
const HEADS: [format: string, name: string, file: string, text: string][] = [
  ['mocha', 'Mocha JSON', 'mocha.json', '{\n  "stats": {\n    "suites": 1,\n    "tests": 1,\n    "passes": 1,\n    "pending": 0,\n    "failures": 0,\n    "start": "2021-03-08T20:01:44.391Z",\n    "end": "2021-03-08T20:01:44.400Z",\n    "duration": 9\n  },\n  "tests": [\n    {\n      "title": "a",\n      "fullTitle": "s a",\n      "file": "/t/a.spec.js",\n      "duration": 1,\n      "currentRetry": 0,\n      "speed": "fast",\n      "err": {}\n    }\n  ],\n  "pending": [],\n  "failures": [],\n  "passes": []\n}\n'],
  ['mocha', 'Mocha JSON after an npm banner', 'mocha.txt', '\n> pkg@1.0.0 test\n> mocha --reporter json\n\n{\n  "stats": {\n    "suites": 1,\n    "tests": 1,\n    "passes": 1,\n    "pending": 0,\n    "failures": 0,\n    "start": "2021-03-08T20:01:44.391Z",\n    "end": "2021-03-08T20:01:44.400Z",\n    "duration": 9\n  },\n  "tests": ['],
  ['mochawesome', 'mochawesome 4+', 'mochawesome.json', '{"stats":{"suites":1,"tests":1,"passes":1,"pending":0,"failures":0,"start":"2023-01-01T00:00:00.000Z","end":"2023-01-01T00:00:01.000Z","duration":5,"testsRegistered":1,"passPercent":100,"pendingPercent":0,"other":0,"hasOther":false,"skipped":0,"hasSkipped":false},"results":[{"uuid":"u","title":"","fullFile":"/c/a.cy.js","file":"a.cy.js","beforeHooks":[],"afterHooks":[],"tests":[],"suites":[],"passes":[],"failures":[],"pending":[],"skipped":[],"duration":0,"root":true,"rootEmpty":true,"_timeout":2000}],"meta":{"mocha":{"version":"10.2.0"},"mochawesome":{"options":{},"version":"7.1.3"},"marge":{"options":{},"version":"6.2.0"}}}'],
  ['mochawesome', 'mochawesome < 4', 'mochawesome.json', '{"stats":{"suites":0,"tests":0,"passes":0,"pending":0,"failures":0,"start":"2017-06-26T19:30:43.924Z","end":"2017-06-26T19:30:43.926Z","duration":2,"testsRegistered":0,"passPercent":null,"pendingPercent":null,"other":0,"hasOther":false,"skipped":0,"hasSkipped":false},"suites":{"title":"","suites":[],"tests":[],"pending":[],"root":true,"_timeout":2000,"uuid":"x","beforeHooks":[],"afterHooks":[],"fullFile":"","file":"","passes":[],"failures":[],"skipped":[],"duration":0,"rootEmpty":true},"allTests":[],"allPending":[],"allPasses":[],"allFailures":[],"copyrightYear":2017}'],
  ['mochawesome', 'mochawesome, nothing ran', 'mochawesome.json', '{"stats":{"suites":0,"tests":0,"passes":0,"pending":0,"failures":0,"start":"2023-01-01T00:00:00.000Z","end":"2023-01-01T00:00:00.000Z","duration":0,"testsRegistered":0,"passPercent":0,"pendingPercent":0,"other":0,"hasOther":false,"skipped":0,"hasSkipped":false},"results":[false],"meta":{"mocha":{"version":"10.2.0"},"mochawesome":{"options":{},"version":"7.1.3"},"marge":{"options":{},"version":"6.2.0"}}}'],
  ['jest', 'Jest --json', 'jest.json', '{"numFailedTestSuites":0,"numFailedTests":0,"numPassedTestSuites":1,"numPassedTests":1,"numPendingTestSuites":0,"numPendingTests":0,"numRuntimeErrorTestSuites":0,"numTodoTests":0,"numTotalTestSuites":1,"numTotalTests":1,"openHandles":[],"snapshot":{"added":0,"didUpdate":false},"startTime":1590606132766,"success":true,"testResults":[{"assertionResults":[{"ancestorTitles":[],"failureMessages":[],"fullName":"a","location":null,"status":"passed","title":"a"}],"endTime":1590606133773,"message":"","name":"/t/a.test.ts","startTime":1590606133162,"status":"passed","summary":""}],"wasInterrupted":false}'],
  ['jest', 'Vitest --reporter=json', 'vitest.json', '{"numTotalTestSuites":1,"numPassedTestSuites":1,"numFailedTestSuites":0,"numPendingTestSuites":0,"numTotalTests":1,"numPassedTests":1,"numFailedTests":0,"numPendingTests":0,"numTodoTests":0,"snapshot":{"added":0},"startTime":1700000000000,"success":true,"testResults":[{"assertionResults":[{"ancestorTitles":["s"],"fullName":"s a","status":"passed","title":"a","duration":1,"failureMessages":[],"location":{"line":3,"column":3},"meta":{}}],"startTime":1700000000001,"endTime":1700000000005,"status":"passed","message":"","name":"/p/a.test.ts"}]}'],
  ['jest', 'Jest --json after an npm banner', 'jest.txt', '\n> app@1.0.0 test\n> jest --json\n\n{"numFailedTestSuites":0,"numFailedTests":0,"numPassedTestSuites":1,"numPassedTests":1,"numPendingTestSuites":0,"numPendingTests":0,"numRuntimeErrorTestSuites":0,"numTotalTestSuites":1,"numTotalTests":1,"startTime":1590606132766,"success":true,"testResults":[]}\n'],
  ['playwright', 'Playwright JSON', 'playwright.json', '{\n  "config": {\n    "configFile": "/p/playwright.config.ts",\n    "rootDir": "/p/tests",\n    "forbidOnly": false,\n    "fullyParallel": true,\n    "globalSetup": null,\n    "projects": [\n      {\n        "outputDir": "/p/test-results",\n        "repeatEach": 1,\n        "retries": 0,\n        "id": "chromium",\n        "name": "chromium",\n        "testDir": "/p/tests",\n        "timeout": 30000\n      }\n    ],\n    "version": "1.40.0",\n    "workers": 4\n  },\n  "suites": [\n    {\n      "title": "a.spec.ts",\n      "file": "a.spec.ts",\n      "column": 0,\n      "line": 0,\n      "specs": []\n    }\n  ],\n  "errors": [],\n  "stats": {\n    "startTime": "2023-12-01T10:00:00.000Z",\n    "duration": 1234.5,\n    "expected": 1,\n    "skipped": 0,\n    "unexpected": 0,\n    "flaky": 0\n  }\n}'],
  ['ctrf', 'CTRF (no specVersion)', 'ctrf.json', '{\n\t"results": {\n\t\t"tool": {\n\t\t\t"name": "jest"\n\t\t},\n\t\t"summary": {\n\t\t\t"tests": 1,\n\t\t\t"passed": 1,\n\t\t\t"failed": 0,\n\t\t\t"pending": 0,\n\t\t\t"skipped": 0,\n\t\t\t"other": 0,\n\t\t\t"start": 1722511783500,\n\t\t\t"stop": 1722519283500\n\t\t},\n\t\t"tests": [\n\t\t\t{\n\t\t\t\t"name": "a",\n\t\t\t\t"status": "passed",\n\t\t\t\t"duration": 1\n\t\t\t}\n\t\t]\n\t}\n}'],
  ['ctrf', 'CTRF with reportFormat', 'ctrf-report.json', '{"reportFormat":"CTRF","specVersion":"0.0.0","reportId":"33333333-3333-4333-8333-333333333333","timestamp":"2025-01-01T00:00:00Z","generatedBy":"playwright-ctrf-json-reporter","results":{"tool":{"name":"playwright","version":"1.49.0"},"summary":{"tests":0,"passed":0,"failed":0,"skipped":0,"pending":0,"other":0,"start":1,"stop":2},"tests":[]}}'],
  ['allure', 'Allure 2 result', '7f0aea93-a14c-4e5b-8936-ee5ead7be819-result.json', '{"uuid":"7f0aea93-a14c-4e5b-8936-ee5ead7be819","historyId":"9b7a2cb6","status":"passed","parameters":[],"labels":[{"name":"suite","value":"S"},{"name":"framework","value":"junit5"}],"name":"a","start":1612185393563,"stop":1612185393590,"steps":[],"attachments":[{"name":"log","source":"x-attachment.txt","type":"text/plain"}]}'],
  ['allure', 'Allure 2 container', '04642ae7-159a-4dcd-baef-8db98884d041-container.json', '{"uuid":"04642ae7-159a-4dcd-baef-8db98884d041","children":["7f0aea93-a14c-4e5b-8936-ee5ead7be819"],"name":"S","start":1,"stop":2,"befores":[{"name":"setUp","status":"passed","start":1,"stop":2}],"afters":[]}'],
  ['allure', 'Allure 2 result with results-like keys', 'x-result.json', '{"uuid":"a","status":"failed","statusDetails":{"message":"m","trace":"t"},"name":"tests","fullName":"a.b.tests","start":1,"stop":2,"labels":[],"steps":[],"parameters":[]}'],
  ['rspec', 'RSpec JSON', 'rspec.json', '{"version":"3.10.1","examples":[{"id":"./spec/a_spec.rb[1:1]","description":"a","full_description":"A a","status":"passed","file_path":"./spec/a_spec.rb","line_number":2,"run_time":0.001,"pending_message":null}],"summary":{"duration":0.01,"example_count":1,"failure_count":0,"pending_count":0,"errors_outside_of_examples_count":0},"summary_line":"1 example, 0 failures"}'],
  ['cucumber', 'Cucumber JSON', 'cucumber.json', '[{"keyword":"Feature","uri":"a.feature","id":"a","name":"A","line":1,"elements":[{"type":"scenario","keyword":"Scenario","name":"s","steps":[{"keyword":"Given ","name":"x","result":{"status":"passed","duration":1}}]}]}]'],
  ['cucumber', 'Cucumber JSON, empty run', 'cucumber.json', '[]'],
  ['cucumber-messages', 'Cucumber Messages NDJSON', 'messages.ndjson', '{"meta":{"protocolVersion":"22.0.0","implementation":{"name":"cucumber-js","version":"9.0.0"},"runtime":{"name":"node.js","version":"20.0.0"},"os":{"name":"linux"},"cpu":{"name":"x64"}}}\n{"source":{"uri":"a.feature","data":"Feature: A","mediaType":"text/x.cucumber.gherkin+plain"}}\n{"testRunStarted":{"timestamp":{"seconds":1,"nanos":0}}}\n'],
  ['golang', 'Go test2json', 'go.json', '{"Time":"2022-01-01T00:00:00Z","Action":"run","Package":"p","Test":"TestA"}\n{"Time":"2022-01-01T00:00:01Z","Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\\n"}\n{"Time":"2022-01-01T00:00:01Z","Action":"pass","Package":"p","Test":"TestA","Elapsed":1}\n'],
  ['dart', 'Dart JSON reporter', 'dart.json', '{"protocolVersion":"0.1.1","runnerVersion":"1.15.4","pid":1,"type":"start","time":0}\n{"suite":{"id":0,"platform":"vm","path":"test/a_test.dart"},"type":"suite","time":0}\n{"test":{"id":1,"name":"loading test/a_test.dart","suiteID":0,"groupIDs":[],"metadata":{"skip":false,"skipReason":null},"line":null,"column":null,"url":null},"type":"testStart","time":1}\n{"count":1,"time":2,"type":"allSuites"}\n'],
  ['newman', 'Newman JSON', 'newman.json', '{"collection":{"info":{"name":"c"},"item":[]},"environment":{},"globals":{},"run":{"stats":{"iterations":{"total":1},"tests":{"total":1,"failed":0}},"executions":[],"timings":{"started":1},"failures":[]}}'],
  ['junit', 'JUnit XML', 'r.xml', '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="jest tests" tests="1"><testsuite name="s" tests="1"><testcase name="a" classname="s a"/></testsuite></testsuites>'],
  ['tap', 'TAP', 'r.tap', 'TAP version 13\n1..2\nok 1 - passes\nnot ok 2 - fails\n  ---\n  message: x\n  ...\n'],
  ['none', 'other JSON', 'package.json', '{"name":"x","version":"1.0.0","scripts":{"test":"mocha"},"results":[],"stats":{}}'],
  ['none', 'a JSON string', 'r.json', '"stats"'],
  ['none', 'empty', 'r.json', ''],
];

const report = (tests: unknown[], extra = '') => `{${extra}"results":{"tool":{"name":"playwright","version":"1.49.0"},"summary":{"tests":${tests.length},"passed":0,"failed":0,"skipped":0,"pending":0,"other":0,"start":1714557600000,"stop":1714557660000},"tests":${JSON.stringify(tests)}}}`;

t.test('state machine: statuses, suites from `suite` or `filePath`, the run date', async (t) => {
  const { containers: out, producers } = await run(
    Buffer.from(
      report([
        { name: 'a', status: 'passed', duration: 5, suite: ['login.spec.ts', 'Login', 'form'], start: 1714557601000, stop: 1714557601005 },
        { name: 'b', status: 'failed', duration: 6, suite: 'login.spec.ts > Login', message: '\u001b[31mError: expected 1\u001b[39m', trace: 'Error: expected 1\n    at login.spec.ts:9:3', line: 9 },
        { name: 'c', status: 'skipped', duration: 0, filePath: 'tests/other.spec.ts' },
        { name: 'd', status: 'pending', duration: 0, filePath: 'tests/other.spec.ts' },
        { name: 'e', status: 'other', rawStatus: 'interrupted', duration: 0 },
        { name: 'f', status: 'weird', duration: 0 },
      ]),
    ),
    'ctrf.json',
  );
  t.same(producers, ['playwright']);
  t.same(count(out), { tests: 6, passed: 1, failed: 1, errored: 0, skipped: 4 });
  const byTitle = Object.fromEntries(out.map((c) => [c.title, c]));
  t.match(byTitle, { a: { status: 'passed', startedAt: '2024-05-01T10:00:01.000Z', durationMs: 5 }, c: { status: 'skipped' }, d: { status: 'pending' }, e: { status: 'unknown', parentId: null, meta: { rawStatus: 'interrupted' } }, f: { status: 'unknown', meta: { status: 'weird' } } });
  t.match(byTitle['b'], { failure: { message: 'Error: expected 1', type: 'Error', stack: 'Error: expected 1\n    at login.spec.ts:9:3' }, meta: { line: '9', suite: 'login.spec.ts > Login' } });
  t.equal(byTitle['a']!.parentId, byTitle['form']!.id);
  t.equal(byTitle['form']!.parentId, byTitle['Login']!.id);
  t.equal(byTitle['b']!.parentId, byTitle['Login']!.id, 'the string and the array form give the same suite');
  t.equal(byTitle['c']!.parentId, byTitle['tests/other.spec.ts']!.id, 'without `suite`, the file groups');
  t.match(byTitle['login.spec.ts'], { type: 'suite', parentId: null, status: 'failed', startedAt: '2024-05-01T10:00:01.000Z' });
  t.match(byTitle['tests/other.spec.ts'], { type: 'suite', parentId: null, status: 'skipped', startedAt: '2024-05-01T10:00:00.000Z' }, 'dated by summary.start');
});

t.test('state machine: retry attempts, flaky, attachments, output, steps', async (t) => {
  const out = await parseText(
    report(
      [
        {
          name: 'retried',
          status: 'passed',
          duration: 50,
          retries: 2,
          flaky: true,
          retryAttempts: [
            { attempt: 1, status: 'failed', duration: 100, message: 'timeout', trace: 'TimeoutError: timeout\n    at x', attachments: [{ name: 'screenshot', contentType: 'image/png', path: 'test-results/retried-1.png' }] },
            { attempt: 2, status: 'failed', start: 1000, stop: 1040, message: 'again' },
          ],
          attachments: [
            { name: 'video', contentType: 'video/webm', path: 'test-results/retried.webm' },
            { name: 'inline', contentType: 'image/png', path: 'data:image/png;base64,AAAA' },
          ],
          stdout: ['line 1', 'line 2'],
          stderr: ['oops'],
          tags: ['@slow'],
          labels: { owner: 'qa' },
          parameters: { user: 'alice', n: 2 },
          steps: [
            { name: 'open page', status: 'passed' },
            { name: 'click', status: 'failed' },
          ],
        },
        { name: 'reported flaky without attempts', status: 'passed', duration: 1, flaky: true, retries: 1 },
        { name: 'failed every time', status: 'failed', duration: 1, message: 'no', retryAttempts: [{ status: 'failed', duration: 1 }] },
      ],
      '"reportFormat":"CTRF","specVersion":"0.0.0","timestamp":"2024-05-01T09:00:00Z",',
    ),
  );
  t.same(count(out), { tests: 3, passed: 2, failed: 1, errored: 0, skipped: 0 });
  const [step1, step2, retried, reported, failedAll] = out;
  t.match(step1, { type: 'step', title: 'open page', status: 'passed', parentId: retried!.id });
  t.match(step2, { type: 'step', title: 'click', status: 'failed', parentId: retried!.id });
  t.match(retried, { status: 'passed', flaky: true, meta: { retries: '2' }, output: { stdout: 'line 1\nline 2', stderr: 'oops' } });
  t.same(retried!.attempts, [
    { status: 'failed', durationMs: 100, failure: { message: 'timeout', type: 'TimeoutError', stack: 'TimeoutError: timeout\n    at x' } },
    { status: 'failed', durationMs: 40, failure: { message: 'again', type: null, stack: null } },
    { status: 'passed', durationMs: 50, failure: null },
  ]);
  t.same(retried!.attachmentRefs, ['test-results/retried.webm', 'test-results/retried-1.png']);
  t.same(retried!.properties, [
    { name: 'tag', value: '@slow' },
    { name: 'owner', value: 'qa' },
    { name: 'user', value: 'alice' },
    { name: 'n', value: '2' },
  ]);
  t.match(reported, { flaky: true, attempts: undefined }, 'the reporter’s own flaky flag is kept');
  t.match(failedAll, { status: 'failed', flaky: false });
  t.same(failedAll!.attempts!.map((a) => a.status), ['failed', 'failed']);
});

t.test('newer reports: reportFormat, top-level timestamp; suites get the run date', async (t) => {
  const text = '{"reportFormat":"CTRF","specVersion":"0.0.0","timestamp":"2024-05-01T09:00:00Z","results":{"tool":{"name":"jest"},"summary":{"tests":1,"passed":1,"failed":0,"skipped":0,"pending":0,"other":0},"tests":[{"name":"a","status":"passed","duration":1,"suite":["s"]}]}}';
  const out = await parseText(text);
  t.match(out[1], { type: 'suite', title: 's', startedAt: '2024-05-01T09:00:00.000Z' });
  t.type(await failure(parseText('{"reportFormat":"CTRF","results":[]}')), FormatError, '`results` must be an object');
  t.type(await failure(parseText('{"results":{"tool":{"name":"x"}}}')), FormatError, 'no tests array');
});

t.test('fixture folder: every file listed, byte-identical to its manifest hash, and in the README', async (t) => {
  const readme = readFileSync(path.join(FIXTURES, 'README.md'), 'utf8');
  const onDisk = readdirSync(FIXTURES).filter((f) => f !== 'MANIFEST.json' && f !== 'README.md').sort();
  t.same(onDisk, manifest.files.map((f) => f.path).sort());
  for (const f of manifest.files) {
    t.equal(createHash('sha256').update(readFileSync(path.join(FIXTURES, f.path))).digest('hex'), f.sha256, f.path);
    t.ok(readme.includes(f.path), `README lists ${f.path}`);
  }
});

t.test('every fixture gives the manifest counts, children before parents', async (t) => {
  for (const f of manifest.files) {
    const bytes = readFileSync(path.join(FIXTURES, f.path));
    if (f.parse_error_expected) {
      t.type(await failure(run(bytes, f.path)), FormatError, `${f.path} rejects with FormatError`);
      continue;
    }
    const { containers, producers } = await run(bytes, f.path);
    t.same(count(containers), f.expected, f.path);
    t.equal(producers.length, 1, `${f.path}: the producer is set once`);
    checkOrder(t, containers, f.path);
  }
});

t.test('sniff: every fixture votes for this format', async (t) => {
  for (const f of manifest.files) {
    const bytes = readFileSync(path.join(FIXTURES, f.path));
    const { head } = readHead(bytes.subarray(0, HEAD_BYTES), f.path, bytes.length <= HEAD_BYTES);
    t.ok(formatter.sniff(head) >= 0.8, `${f.path}: ${formatter.sniff(head)}`);
  }
});

t.test('sniff: its own heads vote yes, every other format stays under the threshold', async (t) => {
  for (const [format, name, file, text] of HEADS) {
    const head = readHead(Buffer.from(text), file, true).head;
    const score = formatter.sniff(head);
    if (format === KEY) t.ok(score >= 0.5, `${name}: ${score}`);
    else t.ok(score < 0.5, `${name}: ${score}`);
  }
  // A head cut inside a string, and a malformed head, still get an answer.
  const cut = readHead(Buffer.from(HEADS.find(([f]) => f === KEY)![3].slice(0, 40)), 'r.json', false).head;
  t.doesNotThrow(() => formatter.sniff(cut));
  const broken = { ...cut, topLevelKeys: null, text: null } as unknown as Parameters<Formatter['sniff']>[0];
  t.equal(formatter.sniff(broken), 0, 'a malformed head scores 0 instead of throwing');
});

t.test('chunk boundaries do not change the containers', async (t) => {
  const largest = [...manifest.files].filter((f) => !f.parse_error_expected).sort((a, b) => size(b.path) - size(a.path))[0]!;
  const bytes = readFileSync(path.join(FIXTURES, largest.path));
  // A small text limit also checks that truncation does not depend on where chunks end.
  const [one, seven, big] = await Promise.all([1, 7, 65536].map(async (n) => (await run(bytes, largest.path, n, 300)).containers));
  t.same(count(big!), largest.expected, largest.path);
  // Compared as JSON text: tap's deep comparison of a thousand containers is slow, and the JSON
  // form (key order included) is what must not change.
  t.equal(JSON.stringify(one), JSON.stringify(big), 'chunks of 1 byte');
  t.equal(JSON.stringify(seven), JSON.stringify(big), 'chunks of 7 bytes');
  for (const f of manifest.files.filter((x) => !x.parse_error_expected)) {
    const b = readFileSync(path.join(FIXTURES, f.path));
    const [small, whole] = [(await run(b, f.path, 7, 300)).containers, (await run(b, f.path, 65536, 300)).containers];
    t.equal(JSON.stringify(small), JSON.stringify(whole), `${f.path} in 7-byte chunks`);
  }
});

t.test('empty, truncated and foreign input reject with FormatError', async (t) => {
  const smallest = [...manifest.files].filter((f) => !f.parse_error_expected && size(f.path) > 200).sort((a, b) => size(a.path) - size(b.path))[0]!;
  const bytes = readFileSync(path.join(FIXTURES, smallest.path));
  const cases: [string, Buffer][] = [
    ['empty', Buffer.alloc(0)],
    ['whitespace only', Buffer.from(' \n\t')],
    ['truncated in the middle', bytes.subarray(0, Math.floor(bytes.length / 2))],
    ['truncated one byte short', Buffer.from(bytes.toString('utf8').trimEnd().slice(0, -1))],
    ['a JSON array', Buffer.from('[{"stats":{}}]')],
    ['a JSON string', Buffer.from('"tests"')],
    ['not JSON', Buffer.from('<testsuites/>')],
    ['another JSON object', Buffer.from('{"name":"x","version":"1.0.0"}')],
  ];
  for (const [name, b] of cases) t.type(await failure(run(b, 'x.json')), FormatError, name);
});
