import t from 'tap';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FormatError, isCountedTest, type Container, type Head } from '../../lib/formatter-api.js';
import { decodeText } from '../../lib/sniff/encoding.js';
import { HEAD_BYTES, readHead } from '../../lib/sniff/head.js';
import { dart } from './index.js';
import { dartHandler } from './parse.js';

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
  await dart.parse(
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

const head = (text: string, fileName = 'r.json'): Head => readHead(Buffer.from(text), fileName, true).head;

/** Heads of the other formats' real files (first bytes of a shared fixture each), which must not be claimed. */
export const FOREIGN_HEADS: [format: string, file: string, text: string][] = [
  ["allure", "allure2__invalid-status.json", "{\n  \"uuid\": \"93542b02b4f3b5c69033c3643e0428ed\",\n  \"status\": \"some-invalid-string\",\n  \"name\": \"shouldCreate\",\n  \"start\": 1479552611395,\n  \"stop\": 1479552611399\n}"],
  ["allure", "allure2__04642ae7-159a-4dcd-baef-8db98884d041-container.json", "{\n  \"uuid\" : \"b1c94ca2fbc3e78fc30069c8d0f01680\",\n  \"children\" : [ \"120625640d9b3ddbd6b47646e544e313\", \"93542b02b4f3b5c69033c3643e0428ed\" ],\n  \"name\" : \"All\",\n  \"start\" : 1480450609874,\n  \"stop\" : 1480450655458,\n  \"befores\" : [ {\n    \"name\" : \"mockAuthorization\",\n    \"start\" : 1480450609874,\n    \"stop\" : 1480450609892,\n    \"steps\" : [ {\n      \"status\" : \"passed\",\n      \"name\" : \"generateRandomUsername\",\n      \"start\" : 1480450609890,\n      \"stop\" : 1480450609891\n    }, {\n      \"status\" : \"passed\",\n      \"parameters\" : [ {\n        \"name\" : \"username\",\n        \"value\" : \"some-user-123\"\n      } ],\n      \"name\" : \"createMockUser\",\n      \"start\" : 1480450609892,\n      \"stop\" : 1480450609892\n    },"],
  ["allure1-xml", "allure2__c32503a8-2981-43da-afa5-e0d82dacfefd-testsuite.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<ns2:test-suite xmlns:ns2=\"urn:model.allure.qatools.yandex.ru\" start=\"1412949538851\" stop=\"1412949560112\" version=\"1.4.4-SNAPSHOT\">\n    <name>my.company.ManyInfoTest</name>\n    <description type=\"text\">Testsuite has testcases with many steps\n    and\nmany lines in description</description>\n    <test-cases>\n        <test-case start=\"1412949539800\" stop=\"1412949540461\" status=\"failed\">\n            <name>longAssertionTest</name>\n            <title>Test with long assertion text</title>\n            <failure>\n                <message>AssertionError:\nExpected: \"{\\n\\\"name\\\": \\\"test\\\",\\n\\\"value\\\": \\\"ok value\\\"\\n}\"\n     but: was \"{\\n\\\"name\\\": \\\"te"],
  ["ctrf", "ctrf-github-test-reporter__test.json", "{\n\t\"results\": {\n\t\t\"tool\": {\n\t\t\t\"name\": \"jest\"\n\t\t},\n\t\t\"summary\": {\n\t\t\t\"tests\": 65,\n\t\t\t\"passed\": 65,\n\t\t\t\"failed\": 0,\n\t\t\t\"pending\": 0,\n\t\t\t\"skipped\": 0,\n\t\t\t\"other\": 0,\n\t\t\t\"start\": 1753814301032,\n\t\t\t\"stop\": 1753814313709,\n\t\t\t\"extra\": {\n\t\t\t\t\"flakyRate\": 0,\n\t\t\t\t\"flakyRateChange\": 0,\n\t\t\t\t\"failRate\": 0,\n\t\t\t\t\"failRateChange\": 0,\n\t\t\t\t\"finalResults\": 0,\n\t\t\t\t\"finalFailures\": 0,\n\t\t\t\t\"result\": \"passed\"\n\t\t\t}\n\t\t},\n\t\t\"tests\": [\n\t\t\t{\n\t\t\t\t\"name\": \"String Helpers splitLines should split lines correctly for multiline strings\",\n\t\t\t\t\"duration\": 21,\n\t\t\t\t\"status\": \"passed\",\n\t\t\t\t\"rawStatus\": \"passed\",\n\t\t\t\t\"type\": \"unit\",\n\t\t\t\t\"filePath\": \"/home/runner/work/github-test-reporter/github-test-reporter/__tests__/handlebars/"],
  ["cucumber-json", "cucumber-reporting__part2-rerun-failed.json", "[\n  {\n    \"line\": 1,\n    \"elements\": [\n      {\n        \"start_timestamp\": \"2019-11-25T13:36:53.146Z\",\n        \"line\": 4,\n        \"name\": \"Open Home page\",\n        \"id\": \"home-page;open-home-page\",\n        \"after\": [\n          {\n            \"result\": {\n              \"duration\": 853411900,\n              \"status\": \"passed\"\n            },\n            \"match\": {\n              \"location\": \"ContextShutdownHook.teardown()\"\n            }\n          }\n        ],\n        \"type\": \"scenario\",\n        \"keyword\": \"Scenario\",\n        \"steps\": [\n          {\n            \"result\": {\n              \"duration\": 12449931600,\n              \"status\": \"failed\"\n            },\n            \"line\": 5,\n            \"name\": "],
  ["go-test-json", "go-junit-report__105-panic.gojson.txt", "{\"Time\":\"2019-10-09T00:00:00.596409464+00:00\",\"Action\":\"output\",\"Package\":\"package/name/panic\",\"Output\":\"panic: init\\n\"}\n{\"Time\":\"2019-10-09T00:00:00.596508615+00:00\",\"Action\":\"output\",\"Package\":\"package/name/panic\",\"Output\":\"\\n\"}\n{\"Time\":\"2019-10-09T00:00:00.596515201+00:00\",\"Action\":\"output\",\"Package\":\"package/name/panic\",\"Output\":\"goroutine 1 [running]:\\n\"}\n{\"Time\":\"2019-10-09T00:00:00.596518457+00:00\",\"Action\":\"output\",\"Package\":\"package/name/panic\",\"Output\":\"package/name/panic.init.0()\\n\"}\n{\"Time\":\"2019-10-09T00:00:00.596521268+00:00\",\"Action\":\"output\",\"Package\":\"package/name/panic\",\"Output\":\"\\t/src/package/name/panic/main_test.go:6 +0x27\\n\"}\n{\"Time\":\"2019-10-09T00:00:00.596604261+00:00"],
  ["go-test-json", "go-junit-report__108-paniclate.gojson.txt", "{\"Time\":\"2019-10-09T00:00:00.660908821+00:00\",\"Action\":\"run\",\"Package\":\"package/name/paniclate\",\"Test\":\"TestOne\"}\n{\"Time\":\"2019-10-09T00:00:00.660994505+00:00\",\"Action\":\"output\",\"Package\":\"package/name/paniclate\",\"Test\":\"TestOne\",\"Output\":\"=== RUN   TestOne\\n\"}\n{\"Time\":\"2019-10-09T00:00:00.661001176+00:00\",\"Action\":\"output\",\"Package\":\"package/name/paniclate\",\"Test\":\"TestOne\",\"Output\":\"    main_test.go:13: ok\\n\"}\n{\"Time\":\"2019-10-09T00:00:00.661007326+00:00\",\"Action\":\"output\",\"Package\":\"package/name/paniclate\",\"Test\":\"TestOne\",\"Output\":\"--- PASS: TestOne (0.00s)\\n\"}\n{\"Time\":\"2019-10-09T00:00:00.661010216+00:00\",\"Action\":\"pass\",\"Package\":\"package/name/paniclate\",\"Test\":\"TestOne\",\"Elapsed\":0}\n{"],
  ["jest-json", "jest-editor-support__failing_expects.json", "{\"numFailedTestSuites\":1,\"numFailedTests\":7,\"numPassedTestSuites\":5,\"numPassedTests\":8,\"numPendingTestSuites\":0,\"numPendingTests\":0,\"numRuntimeErrorTestSuites\":0,\"numTotalTestSuites\":6,\"numTotalTests\":15,\"snapshot\":{\"added\":0,\"didUpdate\":false,\"failure\":true,\"filesAdded\":0,\"filesRemoved\":0,\"filesUnmatched\":1,\"filesUpdated\":0,\"matched\":5,\"total\":6,\"unchecked\":0,\"unmatched\":1,\"updated\":0},\"startTime\":1495204247174,\"success\":false,\"testResults\":[{\"assertionResults\":[{\"failureMessages\":[\"Error: expect(received).toEqual(expected)\\n\\nExpected value to equal:\\n  2\\nReceived:\\n  1\\n    at Object.<anonymous>.it (/Users/orta/dev/projects/artsy/js/libs/jest-snapshots-svg/src/_tests/example.test.ts:3:13"],
  ["junit", "dorny__jest-junit.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"jest tests\" tests=\"6\" failures=\"4\" errors=\"0\" time=\"1.36\">\n  <testsuite name=\"__tests__\\main.test.js\" errors=\"0\" failures=\"3\" skipped=\"0\" timestamp=\"2020-10-27T21:39:41\" time=\"0.486\" tests=\"4\">\n    <testcase classname=\"Test 1\" name=\"Passing test\" time=\"0.001\">\n    </testcase>\n    <testcase classname=\"Test 1 › Test 1.1\" name=\"Failing test\" time=\"0.002\">\n      <failure>Error: expect(received).toBeTruthy()\n\nReceived: false\n    at Object.&lt;anonymous&gt; (C:\\Users\\Michal\\Workspace\\dorny\\test-check\\reports\\jest\\__tests__\\main.test.js:10:21)\n    at Object.asyncJestTest (C:\\Users\\Michal\\Workspace\\dorny\\test-check\\reports\\jest\\node_modules\\"],
  ["mocha-json", "dorny__mocha-json.json", "{\n  \"stats\": {\n    \"suites\": 3,\n    \"tests\": 6,\n    \"passes\": 1,\n    \"pending\": 1,\n    \"failures\": 4,\n    \"start\": \"2021-02-24T20:26:09.297Z\",\n    \"end\": \"2021-02-24T20:26:09.309Z\",\n    \"duration\": 12\n  },\n  \"tests\": [\n    {\n      \"title\": \"Timeout test\",\n      \"fullTitle\": \"Timeout test\",\n      \"file\": \"C:\\\\Users\\\\Michal\\\\Workspace\\\\dorny\\\\test-reporter\\\\reports\\\\mocha\\\\test\\\\second.test.js\",\n      \"duration\": 8,\n      \"currentRetry\": 0,\n      \"err\": {\n        \"stack\": \"Error: Timeout of 1ms exceeded. For async tests and hooks, ensure \\\"done()\\\" is called; if returning a Promise, ensure it resolves. (C:\\\\Users\\\\Michal\\\\Workspace\\\\dorny\\\\test-reporter\\\\reports\\\\mocha\\\\test\\\\second.test.js)\\n"],
  ["mochawesome", "mochawesome-report-generator__sample-data-test.json", "{\n  \"stats\": {\n    \"suites\": 1,\n    \"tests\": 1,\n    \"passes\": 0,\n    \"pending\": 0,\n    \"failures\": 1,\n    \"start\": \"2017-06-05T12:31:54.955Z\",\n    \"end\": \"2017-06-05T12:31:54.968Z\",\n    \"duration\": 13,\n    \"testsRegistered\": 1,\n    \"passPercent\": 0,\n    \"pendingPercent\": 0,\n    \"other\": 0,\n    \"hasOther\": false,\n    \"skipped\": 0,\n    \"hasSkipped\": false\n  },\n  \"results\": [\n    {\n      \"title\": \"\",\n      \"suites\": [\n        {\n          \"title\": \"Main Suite\",\n          \"suites\": [],\n          \"tests\": [\n            {\n              \"title\": \"should be true\",\n              \"fullTitle\": \"Main Suite should be true\",\n              \"timedOut\": false,\n              \"duration\": 3,\n              \"state"],
  ["nunit2", "xunit-plugin__nunit-testcase8-input.xml", "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"no\"?>\n<!--This file represents the results of running a test suite-->\n<test-results name=\"/home/charlie/Dev/NUnit/nunit-2.5/work/src/bin/Debug/tests/mock-assembly.dll\" total=\"21\" errors=\"1\" failures=\"1\" not-run=\"7\" inconclusive=\"1\" ignored=\"4\" skipped=\"0\" invalid=\"3\" date=\"2010-10-18\" time=\"13:23:35\">\n  <environment nunit-version=\"2.5.8.0\" clr-version=\"2.0.50727.1433\" os-version=\"Unix 2.6.32.25\" platform=\"Unix\" cwd=\"/home/charlie/Dev/NUnit/nunit-2.5/work/src/bin/Debug\" machine-name=\"cedar\" user=\"charlie\" user-domain=\"cedar\" />\n  <culture-info current-culture=\"en-US\" current-uiculture=\"en-US\" />\n  <test-suite type=\"Assembly\" name=\"/home/charlie"],
  ["nunit3", "dorny__dotnet-nunit.xml", "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"no\"?>\n<test-run id=\"0\" runstate=\"Runnable\" testcasecount=\"9\" result=\"Failed\" total=\"9\" passed=\"3\" failed=\"5\" inconclusive=\"0\" skipped=\"1\" asserts=\"5\" engine-version=\"3.12.0.0\" clr-version=\"3.1.16\" start-time=\"2021-06-28 20:23:41Z\" end-time=\"2021-06-28 20:23:41Z\" duration=\"0.230308\">\n  <command-line><![CDATA[C:\\Users\\Michal\\.dotnet\\tools\\.store\\nunit.consolerunner.netcore\\3.12.0-beta2\\nunit.consolerunner.netcore\\3.12.0-beta2\\tools\\netcoreapp3.1\\any\\nunit3-console.dll reports/dotnet/DotnetTests.NUnitV3Tests/bin/Debug/netcoreapp3.1/DotnetTests.NUnitV3Tests.dll --result=__tests__/fixtures/dotnet-nunit.xml]]></command-line>\n  <test-suite type=\"Asse"],
  ["playwright-json", "playwright-report-summary__report-nested.json", "{\n  \"config\": {\n    \"configFile\": \"/project/tests/config/playwright.config.ts\",\n    \"rootDir\": \"/project/tests/functional\",\n    \"forbidOnly\": false,\n    \"fullyParallel\": true,\n    \"globalSetup\": null,\n    \"globalTeardown\": null,\n    \"globalTimeout\": 0,\n    \"grep\": {},\n    \"grepInvert\": null,\n    \"maxFailures\": 0,\n    \"metadata\": {\n      \"actualWorkers\": 5\n    },\n    \"preserveOutput\": \"always\",\n    \"reporter\": [\n      [\n        \"list\",\n        null\n      ],\n      [\n        \"html\",\n        {\n          \"outputFolder\": \"../reports/html\",\n          \"open\": \"on-failure\"\n        }\n      ],\n      [\n        \"json\",\n        {\n          \"outputFile\": \"../reports/json/report.json\"\n        }\n      ],\n   "],
  ["robot", "robot-plugin__robot4_if_output.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<robot generator=\"Robot 4.0rc1 (Python 3.8.5 on darwin)\" generated=\"20210310 14:21:36.349\" rpa=\"false\">\n    <suite id=\"s1\" name=\"Loops\" source=\"/Users/aleksisimell/projects/jenkinsci/sample_robot/basic-rf-run/loops.robot\">\n        <test id=\"s1-t1\" name=\"If Success\">\n            <kw name=\"Set Variable\" library=\"BuiltIn\">\n                <var>${var}</var>\n                <arg>mikki hiiri</arg>\n                <doc>Returns the given values which can then be assigned to a variables.</doc>\n                <msg timestamp=\"20210310 14:21:36.439\" level=\"INFO\">${var} = mikki hiiri</msg>\n                <status status=\"PASS\" starttime=\"20210310 14:21:36.439\" endt"],
  ["rspec-json", "dorny__rspec-json.json", "{\n  \"version\": \"3.13.0\",\n  \"examples\": [\n    {\n      \"id\": \"./spec/config/check_env_vars_spec.rb[1:1:1:1:1]\",\n      \"description\": \"logs success message\",\n      \"full_description\": \"CheckEnvVars#call when all env vars are defined behaves like success load logs success message\",\n      \"status\": \"passed\",\n      \"file_path\": \"./spec/config/check_env_vars_spec.rb\",\n      \"line_number\": 12,\n      \"run_time\": 0.079159625,\n      \"pending_message\": null\n    },\n    {\n      \"id\": \"./spec/config/check_env_vars_spec.rb[1:1:1:1:2]\",\n      \"description\": \"fails in assertion\",\n      \"full_description\": \"CheckEnvVars#call when all env vars are defined behaves like success load fails in assertion\",\n      \"st"],
  ["tap", "tapjs__version-14.tap", "TAP version 14\n1..5\nok 1\nok 2\nok 3\nok 4\nok 5\n"],
  ["tap", "tapjs__bailout.tap", "1..5\nok 1\nok 2\nok 3\nBail out!  GERONIMMMOOOOOO!!!\nok 4\nok 5\n"],
  ["testng", "testng-plugin__testng-dp-result.xml", "<testng-results>\n  <reporter-output>\n  </reporter-output>\n  <suite name=\"Ant suite\" duration-ms=\"29\" started-at=\"2011-03-09T21:13:15Z\" finished-at=\"2011-03-09T21:13:15Z\">\n    <groups>\n    </groups>\n    <test name=\"Ant test\" duration-ms=\"29\" started-at=\"2011-03-09T21:13:15Z\" finished-at=\"2011-03-09T21:13:15Z\">\n      <class name=\"org.jenkins.TestDataProvider\">\n        <test-method status=\"FAIL\" signature=\"test(int)\" name=\"test\" duration-ms=\"9\" started-at=\"2011-03-09T21:13:15Z\" finished-at=\"2011-03-09T21:13:15Z\">\n          <params>\n            <param index=\"0\">\n              <value>\n                <![CDATA[1]]>\n              </value>\n            </param>\n          </params>\n          <exceptio"],
  ["trx", "allure2__sample.trx", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<TestRun id=\"97f57849-3919-4bc0-8b5a-60884faca4a9\" name=\"camejef@BUMBLEBEE 2012-02-19 09:25:24\" runUser=\"BUMBLEBEE\\camejef\" xmlns=\"http://microsoft.com/schemas/VisualStudio/TeamTest/2010\">\n    <TestSettings name=\"Default Test Settings\" id=\"fca8b5a8-ae49-45c5-b2b7-a975e4a4fd10\">\n        <Deployment userDeploymentRoot=\"c:\\dev\\pickles-results-harness\" useDefaultDeploymentRoot=\"false\" runDeploymentRoot=\"camejef_BUMBLEBEE 2012-02-19 09_25_24\" />\n        <Execution>\n            <TestTypeSpecific />\n            <AgentRule name=\"Execution Agents\">\n            </AgentRule>\n        </Execution>\n    </TestSettings>\n    <Times creation=\"2012-02-19T09:25:24.8479038-"],
  ["xunit2", "xunit-plugin__xunitdotnet-testcase6-input.xml", "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<assemblies>\n\t<assembly name=\"Test.exe\" environment=\"OS: Microsoft Windows NT 6.2.9200.0\" run-date=\"2018-38-06\" run-time=\"02:38:04\" test-framework=\"Test Framework 0.1\" total=\"1\" passed=\"0\" failed=\"1\" skipped=\"0\" errors=\"0\">\n\t\t<collection name=\"collection1\" time=\"36.7820544\" total=\"1\" passed=\"0\" failed=\"1\" skipped=\"0\">\n\t\t\t<test name=\"collection1\\test.xml\" type=\"\" method=\"\" time=\"36.7820544\" result=\"Fail\">\n\t\t\t\t<failure>\n\t\t\t\t\t<message>OK: TestProcess.Execution.ExitCode == 0&#xD;\nFAIL: Output differs from reference.&#xD;\n  Left:  data\\ref&#xD;\n  Right: results\\out&#xD;\n  &#xD;\n                    </message>\n\t\t\t\t</failure>\n\t\t\t</test>\n\t\t</collection>\n\t</as"],
  ["cucumber-messages", "cucumber-js__basket.ndjson", "{\"meta\":{\"protocolVersion\":\"32.2.0\",\"implementation\":{\"version\":\"12.9.0\",\"name\":\"cucumber-js\"},\"cpu\":{\"name\":\"x64\"},\"os\":{\"name\":\"linux\",\"version\":\"6.18.44-fc-v595\"},\"runtime\":{\"name\":\"node.js\",\"version\":\"20.20.2\"}}}\n{\"source\":{\"data\":\"@shop\\nFeature: Basket\\n  A small shop basket, used to produce a Cucumber Messages fixture.\\n\\n  Background:\\n    Given an empty basket\\n\\n  Scenario: adding an item\\n    When I add 2 \\\"apple\\\"\\n    Then the basket holds 2 items\\n\\n  Scenario: a wrong total fails\\n    When I add 1 \\\"pear\\\"\\n    Then the basket holds 3 items\\n    And the receipt is printed\\n\\n  Scenario: a pending step\\n    When I add 1 \\\"plum\\\"\\n    Then the discount is applied\\n\\n  Scenario: an undefined step\\n    When I add 1 \\\"fig\\\"\\n    Then something nobody wrote happens\\n\\n  @skip-me\\n  Scenario: a step skips itself\\n    When I add 1 \\\"kiwi\\\"\\n    Then the stock check is skipped\\n\\n "],
];

/** Drives the state machine with events as parseJson delivers them: each line whole, at path [n]. */
function drive(events: Record<string, unknown>[], maxTextChars = 1000): Container[] {
  const out: Container[] = [];
  let id = 0;
  const h = dartHandler({ fileName: 'r.json', nextId: () => ++id, limits: { maxTextChars }, setProducer: () => {} }, (c) => out.push(c));
  events.forEach((e, i) => {
    if (h.open?.([i], 'object') !== true) throw new Error('each line must be taken whole');
    h.value?.([i], e);
  });
  h.end();
  return out;
}

const start = { protocolVersion: '0.1.1', runnerVersion: '1.25.3', pid: 1, type: 'start', time: 0 };
const suite = (id: number, path: string) => ({ suite: { id, platform: 'vm', path }, type: 'suite', time: 0 });
const group = (id: number, suiteID: number, parentID: number | null, name: string | null) => ({ group: { id, suiteID, parentID, name, metadata: { skip: false, skipReason: null }, testCount: 1, line: 3, column: 3, url: 'file:///p/test/a_test.dart' }, type: 'group', time: 1 });
const testStart = (id: number, name: string, suiteID: number, groupIDs: number[], time = 10, metadata: Record<string, unknown> = { skip: false, skipReason: null }) => ({
  test: { id, name, suiteID, groupIDs, metadata, line: 5, column: 5, url: 'file:///p/test/a_test.dart' },
  type: 'testStart',
  time,
});
const done = (testID: number, result: string, time = 20, extra: Record<string, unknown> = {}) => ({ testID, result, skipped: false, hidden: false, type: 'testDone', time, ...extra });

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

t.test('producer: dart test, or flutter test from flutter_test locations', async (t) => {
  const cases: [string, string][] = [
    ['dorny__dart-json.json', 'dart-test'],
    ['dorny__empty-dart-json.json', 'dart-test'],
    ['dorny__provider-test-results.json', 'flutter-test'],
  ];
  for (const [file, want] of cases) t.same((await run(readFileSync(path.join(FIXTURES, file)), file)).producers, [want], file);
});

t.test('a fixture in full: suites, nested groups with short titles, statuses, failure text', async (t) => {
  const { containers } = await run(readFileSync(path.join(FIXTURES, 'dorny__dart-json.json')), 'dorny__dart-json.json');
  const by = (title: string) => containers.find((c) => c.title === title)!;
  const main = by('test\\main_test.dart');
  const second = by('test\\second_test.dart');
  t.match(main, { type: 'suite', parentId: null, status: 'errored', meta: { file: 'test\\main_test.dart', platform: 'vm' } });
  t.match(by('Test 1'), { type: 'suite', parentId: main.id, status: 'errored' });
  t.match(by('Test 1.1'), { type: 'suite', parentId: by('Test 1').id });
  t.match(by('Failing test'), {
    type: 'test',
    parentId: by('Test 1.1').id,
    status: 'failed',
    durationMs: 20,
    failure: { message: 'Expected: <2>\n  Actual: <1>', stack: 'package:test_api          expect\ntest\\main_test.dart 13:9  main.<fn>.<fn>.<fn>' },
    meta: { fullName: 'Test 1 Test 1.1 Failing test', file: 'file:///C:/Users/Michal/Workspace/dorny/test-check/reports/dart/test/main_test.dart', line: '12' },
  });
  t.match(by('Timeout test'), { parentId: second.id, status: 'errored', failure: { message: /^TimeoutException/ } });
  t.match(by('Skipped test'), { status: 'skipped', failure: { message: 'skipped test' } });
  t.notOk(containers.some((c) => c.title.startsWith('loading ')), 'hidden loading tests are not containers');
  const ids = new Map(containers.map((c, i) => [c.id, i]));
  for (const c of containers) if (c.parentId !== null) t.ok(ids.get(c.parentId)! > ids.get(c.id)!, `${c.title} is emitted before its parent`);
});

t.test('sniff: every fixture votes above the match threshold', async (t) => {
  for (const f of manifest.files) {
    const bytes = readFileSync(path.join(FIXTURES, f.path));
    const { head: h } = readHead(bytes.subarray(0, HEAD_BYTES), f.path, bytes.length <= HEAD_BYTES);
    t.ok(dart.sniff(h) >= 0.9, f.path);
  }
});

t.test('sniff: other formats stay below the match threshold', async (t) => {
  for (const [format, file, text] of FOREIGN_HEADS) t.ok(dart.sniff(head(text, file)) < 0.5, `${format}: ${file}`);
  const others: [string, string][] = [
    ['empty', ''],
    ['one object with a type', '{"type":"start","name":"x"}'],
    ['webpack-style stats', '{"type":"done","time":3}\n{"type":"compile","time":4}\n{"type":"emit","time":5}\n'],
    ['plain text', 'All tests passed!\n'],
  ];
  for (const [name, text] of others) t.ok(dart.sniff(head(text)) < 0.5, name);
});

t.test('sniff: Dart streams without a start line, cut heads, and never throws', async (t) => {
  const lines = readFileSync(path.join(FIXTURES, 'dorny__dart-json.json'), 'utf8').split('\n');
  t.ok(dart.sniff(head(lines.slice(1).join('\n'))) >= 0.5, 'a stream whose start line was lost');
  t.ok(dart.sniff(readHead(Buffer.from(lines.join('\n').slice(0, 700)), 'r.json', false).head) >= 0.9, 'a head cut inside a line');
  t.ok(dart.sniff(head(`[{"event":"test.startedProcess","params":{}}]\n${lines.join('\n')}`)) >= 0.9, 'a flutter daemon line first');
  const broken = { ...head('{"type":"start","protocolVersion":"0.1.1"}'), text: null } as unknown as Head;
  t.equal(dart.sniff(broken), 0, 'a malformed head scores 0 instead of throwing');
});

t.test('chunk boundaries do not change the containers', async (t) => {
  const largest = [...manifest.files].filter((f) => !f.parse_error_expected).sort((a, b) => size(b.path) - size(a.path))[0]!;
  const bytes = readFileSync(path.join(FIXTURES, largest.path));
  const [one, seven, big] = await Promise.all([1, 7, 65536].map(async (n) => (await run(bytes, largest.path, n, 300)).containers));
  t.equal(count(big!).tests, largest.expected!.tests, largest.path);
  t.same(one, big, 'chunks of 1 byte');
  t.same(seven, big, 'chunks of 7 bytes');
});

function size(p: string): number {
  return readFileSync(path.join(FIXTURES, p)).length;
}

t.test('empty, truncated and foreign input reject with FormatError', async (t) => {
  const bytes = readFileSync(path.join(FIXTURES, 'dorny__dart-json.json'));
  const text = bytes.toString('utf8');
  const cut = text.indexOf('"type":"testDone"', text.length / 2);
  const cases: [string, Buffer][] = [
    ['empty', Buffer.alloc(0)],
    ['whitespace only', Buffer.from('\n\n')],
    ['truncated inside a line', Buffer.from(text.slice(0, cut))],
    ['JSON that is not a Dart event', Buffer.from('{"Time":"2022-01-01T00:00:00Z","Action":"run","Package":"p","Test":"TestA"}\n')],
    ['a text line among the events', Buffer.from(`${text.split('\n')[0]}\nRunning tests…\n`)],
  ];
  for (const [name, b] of cases) t.type(await failure(run(b, 'x.json')), FormatError, name);
});

t.test('state machine: a stream that stops at a line end leaves running tests errored', async (t) => {
  const out = drive([start, suite(0, 'test/a_test.dart'), testStart(1, 'loading test/a_test.dart', 0, [], 0), done(1, 'success', 5, { hidden: true }), group(2, 0, null, null), testStart(3, 'finishes', 0, [2]), done(3, 'success', 12), testStart(4, 'hangs', 0, [2], 13)]);
  t.same(count(out), { tests: 2, passed: 1, failed: 0, errored: 1, skipped: 0 });
  t.match(out.find((c) => c.title === 'hangs'), { status: 'errored', durationMs: null, failure: { message: /never|ended before its testDone/ } });
  t.match(out.find((c) => c.type === 'suite'), { title: 'test/a_test.dart', status: 'errored' });
});

t.test('state machine: hidden tests are not counted, a failed load is', async (t) => {
  const out = drive([
    start,
    suite(0, 'test/broken_test.dart'),
    testStart(1, 'loading test/broken_test.dart', 0, [], 1),
    { testID: 1, error: "Failed to load \"test/broken_test.dart\": Error: Can't find ')'", stackTrace: '', isFailure: false, type: 'error', time: 40 },
    done(1, 'error', 41),
    suite(2, 'test/ok_test.dart'),
    testStart(3, 'loading test/ok_test.dart', 2, [], 1),
    done(3, 'success', 30, { hidden: true }),
    group(4, 2, null, ''),
    testStart(5, '(setUpAll)', 2, [4], 31),
    done(5, 'success', 32, { hidden: true }),
    testStart(6, 'works', 2, [4], 33),
    done(6, 'success', 35),
    { success: false, type: 'done', time: 50 },
  ]);
  t.same(count(out), { tests: 2, passed: 1, failed: 0, errored: 1, skipped: 0 });
  t.match(out[0], { title: 'loading test/broken_test.dart', status: 'errored', durationMs: 40, failure: { message: /^Failed to load/, stack: null } });
  t.notOk(out.some((c) => c.title === '(setUpAll)'));
});

t.test('state machine: output, skip reasons, several errors, unknown results', async (t) => {
  const out = drive([
    start,
    suite(0, 'test/a_test.dart'),
    group(1, 0, null, null),
    group(2, 0, 1, 'math'),
    testStart(3, 'math adds', 0, [1, 2]),
    { testID: 3, messageType: 'print', message: 'line one', type: 'print', time: 11 },
    { testID: 3, messageType: 'print', message: 'line two', type: 'print', time: 12 },
    { testID: 3, error: 'Expected: <1>', stackTrace: 'a_test.dart 5:3\n', isFailure: true, type: 'error', time: 13 },
    { testID: 3, error: 'Bad state: late', stackTrace: 'a_test.dart 6:3\n', isFailure: false, type: 'error', time: 14 },
    done(3, 'failure', 15),
    testStart(4, 'math skips', 0, [1, 2], 16, { skip: true, skipReason: null }),
    { testID: 4, messageType: 'skip', message: 'Skip: not on CI', type: 'print', time: 16 },
    { testID: 4, result: 'success', skipped: true, hidden: false, type: 'testDone', time: 16 },
    testStart(5, 'math weird', 0, [1, 2], 17),
    done(5, 'toString', 18),
    { testID: 99, messageType: 'print', message: 'for a test never started', type: 'print', time: 19 },
    [{ event: 'test.startedProcess', params: {} }],
    { success: false, type: 'done', time: 20 },
    testStart(6, 'after done', 0, [1, 2], 21),
  ] as Record<string, unknown>[]);
  const [adds, skips, weird, mathGroup, file] = out;
  t.equal(out.length, 5, 'events after done are ignored');
  t.match(adds, { title: 'adds', parentId: mathGroup!.id, status: 'failed', output: { stdout: 'line one\nline two\n', stderr: null }, failure: { message: 'Expected: <1>\n\nBad state: late', type: null, stack: 'a_test.dart 5:3' }, meta: { fullName: 'math adds' } });
  t.match(skips, { status: 'skipped', failure: { message: 'not on CI' }, output: null });
  t.match(weird, { status: 'unknown', meta: { result: 'toString' } }, 'an unknown result, even one named like an Object method');
  t.match(mathGroup, { type: 'suite', title: 'math', parentId: file!.id, status: 'failed' });
  t.match(file, { type: 'suite', parentId: null, status: 'failed' });
  t.same(count(out), { tests: 3, passed: 0, failed: 1, errored: 0, skipped: 2 });
});

t.test('state machine: long output is cut with a marker', async (t) => {
  const out = drive([start, suite(0, 'a.dart'), testStart(1, 'noisy', 0, []), { testID: 1, messageType: 'print', message: 'x'.repeat(50), type: 'print', time: 11 }, done(1, 'success')], 10);
  t.match(out[0]!.output!.stdout, /^x{10}\n\[… truncated by Tally at 10 characters\]$/);
});
