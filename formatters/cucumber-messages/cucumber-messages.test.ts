import t from 'tap';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FormatError, isCountedTest, type Container, type Head, type JsonHandler, type JsonPath } from '../../lib/formatter-api.js';
import { decodeText } from '../../lib/sniff/encoding.js';
import { HEAD_BYTES, readHead } from '../../lib/sniff/head.js';
import { cucumberMessages } from './index.js';
import { messagesHandler } from './parse.js';

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
  await cucumberMessages.parse(
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

const head = (text: string, fileName = 'messages.ndjson'): Head => readHead(Buffer.from(text), fileName, true).head;

/** Heads of the other formats' real files (first bytes of a shared fixture each), which must not be claimed. */
export const FOREIGN_HEADS: [format: string, file: string, text: string][] = [
  ["allure", "allure2__invalid-status.json", "{\n  \"uuid\": \"93542b02b4f3b5c69033c3643e0428ed\",\n  \"status\": \"some-invalid-string\",\n  \"name\": \"shouldCreate\",\n  \"start\": 1479552611395,\n  \"stop\": 1479552611399\n}"],
  ["allure", "allure2__04642ae7-159a-4dcd-baef-8db98884d041-container.json", "{\n  \"uuid\" : \"b1c94ca2fbc3e78fc30069c8d0f01680\",\n  \"children\" : [ \"120625640d9b3ddbd6b47646e544e313\", \"93542b02b4f3b5c69033c3643e0428ed\" ],\n  \"name\" : \"All\",\n  \"start\" : 1480450609874,\n  \"stop\" : 1480450655458,\n  \"befores\" : [ {\n    \"name\" : \"mockAuthorization\",\n    \"start\" : 1480450609874,\n    \"stop\" : 1480450609892,\n    \"steps\" : [ {\n      \"status\" : \"passed\",\n      \"name\" : \"generateRandomUsername\",\n      \"start\" : 1480450609890,\n      \"stop\" : 1480450609891\n    }, {\n      \"status\" : \"passed\",\n      \"parameters\" : [ {\n        \"name\" : \"username\",\n        \"value\" : \"some-user-123\"\n      } ],\n      \"name\" : \"createMockUser\",\n      \"start\" : 1480450609892,\n      \"stop\" : 1480450609892\n    },"],
  ["allure1-xml", "allure2__c32503a8-2981-43da-afa5-e0d82dacfefd-testsuite.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<ns2:test-suite xmlns:ns2=\"urn:model.allure.qatools.yandex.ru\" start=\"1412949538851\" stop=\"1412949560112\" version=\"1.4.4-SNAPSHOT\">\n    <name>my.company.ManyInfoTest</name>\n    <description type=\"text\">Testsuite has testcases with many steps\n    and\nmany lines in description</description>\n    <test-cases>\n        <test-case start=\"1412949539800\" stop=\"1412949540461\" status=\"failed\">\n            <name>longAssertionTest</name>\n            <title>Test with long assertion text</title>\n            <failure>\n                <message>AssertionError:\nExpected: \"{\\n\\\"name\\\": \\\"test\\\",\\n\\\"value\\\": \\\"ok value\\\"\\n}\"\n     but: was \"{\\n\\\"name\\\": \\\"te"],
  ["ctrf", "ctrf-github-test-reporter__test.json", "{\n\t\"results\": {\n\t\t\"tool\": {\n\t\t\t\"name\": \"jest\"\n\t\t},\n\t\t\"summary\": {\n\t\t\t\"tests\": 65,\n\t\t\t\"passed\": 65,\n\t\t\t\"failed\": 0,\n\t\t\t\"pending\": 0,\n\t\t\t\"skipped\": 0,\n\t\t\t\"other\": 0,\n\t\t\t\"start\": 1753814301032,\n\t\t\t\"stop\": 1753814313709,\n\t\t\t\"extra\": {\n\t\t\t\t\"flakyRate\": 0,\n\t\t\t\t\"flakyRateChange\": 0,\n\t\t\t\t\"failRate\": 0,\n\t\t\t\t\"failRateChange\": 0,\n\t\t\t\t\"finalResults\": 0,\n\t\t\t\t\"finalFailures\": 0,\n\t\t\t\t\"result\": \"passed\"\n\t\t\t}\n\t\t},\n\t\t\"tests\": [\n\t\t\t{\n\t\t\t\t\"name\": \"String Helpers splitLines should split lines correctly for multiline strings\",\n\t\t\t\t\"duration\": 21,\n\t\t\t\t\"status\": \"passed\",\n\t\t\t\t\"rawStatus\": \"passed\",\n\t\t\t\t\"type\": \"unit\",\n\t\t\t\t\"filePath\": \"/home/runner/work/github-test-reporter/github-test-reporter/__tests__/handlebars/"],
  ["cucumber-json", "cucumber-reporting__part2-rerun-failed.json", "[\n  {\n    \"line\": 1,\n    \"elements\": [\n      {\n        \"start_timestamp\": \"2019-11-25T13:36:53.146Z\",\n        \"line\": 4,\n        \"name\": \"Open Home page\",\n        \"id\": \"home-page;open-home-page\",\n        \"after\": [\n          {\n            \"result\": {\n              \"duration\": 853411900,\n              \"status\": \"passed\"\n            },\n            \"match\": {\n              \"location\": \"ContextShutdownHook.teardown()\"\n            }\n          }\n        ],\n        \"type\": \"scenario\",\n        \"keyword\": \"Scenario\",\n        \"steps\": [\n          {\n            \"result\": {\n              \"duration\": 12449931600,\n              \"status\": \"failed\"\n            },\n            \"line\": 5,\n            \"name\": "],
  ["dart-json", "dorny__dart-json.json", "{\"protocolVersion\":\"0.1.1\",\"runnerVersion\":\"1.15.4\",\"pid\":7504,\"type\":\"start\",\"time\":0}\n{\"suite\":{\"id\":0,\"platform\":\"vm\",\"path\":\"test\\\\main_test.dart\"},\"type\":\"suite\",\"time\":0}\n{\"test\":{\"id\":1,\"name\":\"loading test\\\\main_test.dart\",\"suiteID\":0,\"groupIDs\":[],\"metadata\":{\"skip\":false,\"skipReason\":null},\"line\":null,\"column\":null,\"url\":null},\"type\":\"testStart\",\"time\":1}\n{\"suite\":{\"id\":2,\"platform\":\"vm\",\"path\":\"test\\\\second_test.dart\"},\"type\":\"suite\",\"time\":11}\n{\"test\":{\"id\":3,\"name\":\"loading test\\\\second_test.dart\",\"suiteID\":2,\"groupIDs\":[],\"metadata\":{\"skip\":false,\"skipReason\":null},\"line\":null,\"column\":null,\"url\":null},\"type\":\"testStart\",\"time\":11}\n{\"count\":2,\"type\":\"allSuites\",\"time\":11}\n{\"tes"],
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
];

/** Walks one line the way parseJson does: containers the handler takes whole arrive in one `value`. */
function walk(h: JsonHandler, path: JsonPath, v: unknown): void {
  if (v === null || typeof v !== 'object') return void h.value?.(path, v);
  const kind = Array.isArray(v) ? 'array' : 'object';
  if (h.open?.(path, kind) === true) return void h.value?.(path, v);
  for (const [k, child] of Object.entries(v)) walk(h, [...path, Array.isArray(v) ? Number(k) : k], child);
  h.close?.(path, kind);
}

function drive(envelopes: unknown[], maxTextChars = 1000): { out: Container[]; producers: string[] } {
  const out: Container[] = [];
  const producers: string[] = [];
  let id = 0;
  const h = messagesHandler({ fileName: 'm.ndjson', nextId: () => ++id, limits: { maxTextChars }, setProducer: (p) => producers.push(p) }, (c) => out.push(c));
  envelopes.forEach((e, i) => walk(h, [i], e));
  h.end();
  return { out, producers };
}

const ts = (seconds: number, nanos = 0) => ({ seconds, nanos });
const dur = (nanos: number) => ({ seconds: 0, nanos });
const doc = (uri: string, name: string, steps: [string, string][], background: [string, string][] = []) => ({
  gherkinDocument: {
    uri,
    feature: {
      keyword: 'Feature',
      name,
      children: [
        ...(background.length ? [{ background: { id: 'bg', keyword: 'Background', steps: background.map(([id, keyword]) => ({ id, keyword, text: 'x', location: { line: 2 } })) } }] : []),
        { scenario: { id: 'sc', keyword: 'Scenario', name: 's', steps: steps.map(([id, keyword]) => ({ id, keyword, text: 'x', location: { line: 3 } })) } },
      ],
    },
  },
});
const pickle = (id: string, uri: string, name: string, steps: [string, string, string][]) => ({
  pickle: { id, uri, name, location: { line: 3, column: 3 }, tags: [{ name: '@t', astNodeId: 'tag' }], steps: steps.map(([sid, text, ast]) => ({ id: sid, text, type: 'Context', astNodeIds: [ast] })) },
});
const testCase = (id: string, pickleId: string, steps: ({ id: string; pickleStepId: string } | { id: string; hookId: string })[]) => ({ testCase: { id, pickleId, testSteps: steps } });
const started = (id: string, testCaseId: string, attempt = 0, at = 100) => ({ testCaseStarted: { id, testCaseId, attempt, timestamp: ts(at) } });
const stepDone = (testCaseStartedId: string, testStepId: string, status: string, extra: Record<string, unknown> = {}) => ({
  testStepFinished: { testCaseStartedId, testStepId, testStepResult: { status, duration: dur(2_000_000), ...extra }, timestamp: ts(101) },
});
const finished = (testCaseStartedId: string, willBeRetried = false, at = 102) => ({ testCaseFinished: { testCaseStartedId, willBeRetried, timestamp: ts(at) } });
const meta = { meta: { protocolVersion: '32.2.0', implementation: { name: 'cucumber-jvm', version: '7.20.1' }, runtime: { name: 'Java' }, os: { name: 'Linux' }, cpu: { name: 'x64' } } };
/** One feature with one scenario of one step, defined (gherkin, pickle, test case) but not yet run. */
const defined = (n = '1') => [doc(`f${n}.feature`, `Feature ${n}`, [[`a${n}`, 'Given ']]), pickle(`p${n}`, `f${n}.feature`, `scenario ${n}`, [[`ps${n}`, 'it runs', `a${n}`]]), testCase(`tc${n}`, `p${n}`, [{ id: `ts${n}`, pickleStepId: `ps${n}` }])];
const scenarios = (out: Container[]) => out.filter((c) => c.type === 'scenario');

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

t.test('the generated fixture in full: retries, flaky, background, hooks, logs, attachments', async (t) => {
  const file = 'cucumber-js__basket-checkout.ndjson';
  const { containers, producers } = await run(readFileSync(path.join(FIXTURES, file)), file);
  t.same(producers, ['cucumber-js']);
  const by = (title: string) => containers.find((c) => c.type === 'scenario' && c.title === title)!;
  const basket = containers.find((c) => c.type === 'suite' && c.title === 'Basket')!;
  const checkout = containers.find((c) => c.type === 'suite' && c.title === 'Checkout')!;
  t.match(basket, { parentId: null, status: 'failed', meta: { file: 'features/basket.feature' } });
  t.match(checkout, { parentId: null, status: 'failed', meta: { file: 'features/flaky.feature' } });

  const flaky = by('a flaky payment passes on retry');
  t.match(flaky, { parentId: checkout.id, status: 'passed', flaky: true, failure: null, meta: { file: 'features/flaky.feature', line: '2' } });
  t.same(flaky.attempts!.map((a) => a.status), ['failed', 'passed']);
  t.match(flaky.attempts![0]!.failure, { message: 'payment gateway timed out', type: 'Error', stack: /^Error: payment gateway timed out\n    at World/ });

  const wrong = by('a wrong total fails');
  t.match(wrong, { status: 'failed', flaky: false, failure: { type: 'AssertionError', message: 'Expected values to be strictly equal:\n\n1 !== 3' } });
  t.same(wrong.attempts!.map((a) => a.status), ['failed', 'failed']);
  t.same(
    containers.filter((c) => c.parentId === wrong.id).map((c) => [c.type, c.title, c.status, c.meta?.['background'] ?? '']),
    [
      ['step', 'Given an empty basket', 'passed', 'true'],
      ['step', 'When I add 1 "pear"', 'passed', ''],
      ['step', 'Then the basket holds 3 items', 'failed', ''],
      ['step', 'And the receipt is printed', 'skipped', ''],
    ],
    'steps of the last attempt, titled with their gherkin keyword, background marked',
  );
  t.same(wrong.properties, [{ name: 'tag', value: '@shop' }]);

  const hook = by('a failing Before hook');
  t.match(hook, { status: 'failed', failure: { message: 'database is not reachable', type: 'Error' } });
  t.match(containers.find((c) => c.parentId === hook.id), { type: 'hook', title: 'Before', status: 'failed', meta: { location: 'features/step_definitions/steps.js:48' } });

  t.match(by('a pending step'), { status: 'pending', failure: { message: 'Pending step: Then the discount is applied', type: 'pending' } });
  t.match(by('an undefined step'), { status: 'pending', failure: { message: 'Undefined step: Then something nobody wrote happens', type: 'undefined' } });
  t.match(by('a step skips itself'), { status: 'skipped', meta: { attachments: '1', attachmentTypes: 'text/plain' } });
  t.equal(containers.filter((c) => c.title.startsWith('adding ') && c.title.endsWith('of lemon')).length, 1, 'outline rows are test cases of their own');

  const receipt = by('the receipt is attached');
  t.match(receipt, { status: 'passed', output: { stdout: 'receipt for apple\n', stderr: null }, meta: { attachments: '2', attachmentTypes: 'application/json, image/png' } });
  t.same(receipt.attachmentRefs, [], 'inline attachment bodies are not paths');
  t.match(receipt.startedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  t.notOk('startedAtNaive' in receipt);

  const ids = new Map(containers.map((c, i) => [c.id, i]));
  for (const c of containers) if (c.parentId !== null) t.ok(ids.get(c.parentId)! > ids.get(c.id)!, `${c.type} ${c.title} is emitted before its parent`);
  t.equal(new Set(containers.map((c) => c.id)).size, containers.length, 'ids are unique');
});

t.test('sniff: every fixture votes above the match threshold', async (t) => {
  for (const f of manifest.files) {
    const bytes = readFileSync(path.join(FIXTURES, f.path));
    const { head: h } = readHead(bytes.subarray(0, HEAD_BYTES), f.path, bytes.length <= HEAD_BYTES);
    t.ok(cucumberMessages.sniff(h) >= 0.9, f.path);
  }
});

t.test('sniff: other formats stay below the match threshold', async (t) => {
  for (const [format, file, text] of FOREIGN_HEADS) t.ok(cucumberMessages.sniff(head(text, file)) < 0.5, `${format}: ${file}`);
  const others: [string, string][] = [
    ['empty', ''],
    ['one object with two envelope keys', '{"meta":{},"source":{}}'],
    ['an envelope name with a scalar', '{"meta":"x"}\n{"pickle":1}\n'],
    ['other NDJSON', '{"level":"info","msg":"started"}\n{"level":"info","msg":"done"}\n'],
    ['Go test2json with a junk first line', 'go: downloading example.com/x v1.0.0\n{"Time":"2022-01-01T00:00:00Z","Action":"run","Package":"p","Test":"TestA"}\n'],
  ];
  for (const [name, text] of others) t.ok(cucumberMessages.sniff(head(text)) < 0.5, name);
});

t.test('sniff: variants, long source lines, and never throws', async (t) => {
  const text = readFileSync(path.join(FIXTURES, 'cucumber-js__basket-checkout.ndjson'), 'utf8');
  const lines = text.split('\n');
  t.ok(cucumberMessages.sniff(head(lines.slice(1).join('\n'))) >= 0.8, 'without the meta line');
  const longSource = `${lines[0]}\n{"source":{"data":"${'Feature: x\\n'.repeat(8000)}","uri":"a.feature","mediaType":"text/x.cucumber.gherkin+plain"}}\n`;
  t.ok(cucumberMessages.sniff(readHead(Buffer.from(longSource), 'm.ndjson', false).head) >= 0.9, 'a source line longer than the head');
  t.ok(cucumberMessages.sniff(readHead(Buffer.from(text.slice(0, 300)), 'm.ndjson', false).head) >= 0.9, 'a head cut inside the first line');
  const broken = { ...head('{"meta":{}}'), text: 42 } as unknown as Head;
  t.equal(cucumberMessages.sniff(broken), 0, 'a malformed head scores 0 instead of throwing');
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
  const text = readFileSync(path.join(FIXTURES, 'cucumber-js__basket-checkout.ndjson'), 'utf8');
  const cases: [string, Buffer][] = [
    ['empty', Buffer.alloc(0)],
    ['whitespace only', Buffer.from('\n \n')],
    ['truncated inside a line', Buffer.from(text.slice(0, Math.floor(text.length / 2)))],
    ['Go test2json', Buffer.from('{"Time":"2022-01-01T00:00:00Z","Action":"run","Package":"p","Test":"TestA"}\n')],
    ['Dart events', Buffer.from('{"protocolVersion":"0.1.1","runnerVersion":"1.25.3","pid":1,"type":"start","time":0}\n')],
    ['a text line', Buffer.from(`${text.split('\n')[0]}\n> cucumber-js\n`)],
  ];
  for (const [name, b] of cases) t.type(await failure(run(b, 'x.ndjson')), FormatError, name);
});

t.test('state machine: a stream cut at a line end leaves the running test case errored', async (t) => {
  const text = readFileSync(path.join(FIXTURES, 'cucumber-js__basket-checkout.ndjson'), 'utf8');
  const lines = text.split('\n');
  const cut = lines.findIndex((l) => l.includes('"willBeRetried":true'));
  const { containers } = await run(Buffer.from(`${lines.slice(0, cut + 3).join('\n')}\n`), 'cut.ndjson');
  const last = scenarios(containers).pop()!;
  t.match(last, { title: 'a wrong total fails', status: 'errored', failure: { message: /ended before its testCaseFinished/ } });
  t.same(last.attempts!.map((a) => a.status), ['failed', 'errored'], 'the finished attempt is kept');
  t.same(count(containers), { tests: 2, passed: 1, failed: 0, errored: 1, skipped: 0 }, 'test cases that never started are not counted');
});

t.test('state machine: retries, and a retry that never came', async (t) => {
  const { out } = drive([
    ...defined(),
    started('r0', 'tc1', 0),
    stepDone('r0', 'ts1', 'FAILED', { message: 'boom\n\tat X.y(X.java:3)' }),
    finished('r0', true),
  ]);
  const [only] = scenarios(out);
  t.match(only, { status: 'failed', failure: { message: 'boom', type: null, stack: 'boom\n\tat X.y(X.java:3)' } });
  t.equal(only!.attempts, undefined, 'the announced retry never started: the one attempt is the test');
  t.same(count(out), { tests: 1, passed: 0, failed: 1, errored: 0, skipped: 0 });

  // Messages before 17 said willBeRetried on the step result; seconds were strings.
  const old = drive([
    ...defined(),
    { testCaseStarted: { id: 'r0', testCaseId: 'tc1', attempt: 0, timestamp: { seconds: '1600000000', nanos: 5000000 } } },
    { testStepFinished: { testCaseStartedId: 'r0', testStepId: 'ts1', testStepResult: { status: 'FAILED', willBeRetried: true, duration: { seconds: '1', nanos: 500000000 } } } },
    { testCaseFinished: { testCaseStartedId: 'r0', timestamp: { seconds: '1600000001' } } },
    { testCaseStarted: { id: 'r1', testCaseId: 'tc1', attempt: 1, timestamp: { seconds: '1600000002' } } },
    { testStepFinished: { testCaseStartedId: 'r1', testStepId: 'ts1', testStepResult: { status: 'PASSED', duration: { seconds: '0', nanos: 1000 } } } },
    { testCaseFinished: { testCaseStartedId: 'r1', timestamp: { seconds: '1600000003' } } },
  ]).out;
  const [retried] = scenarios(old);
  t.match(retried, { status: 'passed', flaky: true, startedAt: '2020-09-13T12:26:40.005Z', durationMs: 0.001 });
  t.same(retried!.attempts!.map((a) => [a.status, a.durationMs]), [['failed', 1500], ['passed', 0.001]]);
});

t.test('state machine: status table (most severe of steps and hooks)', async (t) => {
  const cases: [string, string[], Container['status']][] = [
    ['no steps', [], 'passed'],
    ['passed', ['PASSED', 'PASSED'], 'passed'],
    ['passed and skipped', ['PASSED', 'SKIPPED'], 'skipped'],
    ['undefined', ['PASSED', 'UNDEFINED', 'SKIPPED'], 'pending'],
    ['pending', ['PENDING'], 'pending'],
    ['ambiguous', ['AMBIGUOUS', 'SKIPPED'], 'failed'],
    ['failed hook first', ['FAILED', 'SKIPPED'], 'failed'],
    ['unknown', ['UNKNOWN'], 'skipped'],
    ['lower-case status', ['failed'], 'failed'],
  ];
  for (const [name, statuses, want] of cases) {
    const steps = statuses.map((_, i) => ({ id: `s${i}`, hookId: 'h' }));
    const { out } = drive([
      { hook: { id: 'h', type: 'BEFORE_TEST_CASE', sourceReference: { uri: 'steps.js', location: { line: 4 } } } },
      pickle('p', 'a.feature', 'x', []),
      testCase('tc', 'p', steps),
      started('r', 'tc'),
      ...statuses.map((s, i) => stepDone('r', `s${i}`, s)),
      finished('r'),
    ]);
    t.equal(scenarios(out)[0]!.status, want, name);
  }
  const missing = drive([...defined(), started('r', 'tc1'), finished('r')]).out;
  t.equal(scenarios(missing)[0]!.status, 'skipped', 'a step that never reported is not passed');
  t.match(missing.find((c) => c.type === 'step'), { status: 'unknown', title: 'Given it runs' });
});

t.test('state machine: attachments, external references, log output', async (t) => {
  const { out } = drive([
    ...defined(),
    started('r', 'tc1'),
    { attachment: { testCaseStartedId: 'r', testStepId: 'ts1', body: 'aGVsbG8=', contentEncoding: 'BASE64', mediaType: 'text/x.cucumber.log+plain' } },
    { attachment: { testCaseStartedId: 'r', testStepId: 'ts1', body: 'iVBORw0KGgo=', contentEncoding: 'BASE64', mediaType: 'image/png', fileName: 'shot.png' } },
    { attachment: { testCaseStartedId: 'r', testStepId: 'ts1', body: '', contentEncoding: 'IDENTITY', mediaType: 'video/webm', url: 'videos/run-1.webm' } },
    { externalAttachment: { testCaseStartedId: 'r', testStepId: 'ts1', mediaType: 'application/zip', url: 'traces/trace.zip' } },
    { externalAttachment: { testCaseStartedId: 'r', mediaType: 'application/zip', url: 'traces/trace.zip' } },
    { attachment: { testCaseStartedId: 'nobody', body: 'x', contentEncoding: 'IDENTITY', mediaType: 'text/plain' } },
    stepDone('r', 'ts1', 'PASSED'),
    finished('r'),
  ]);
  const [s] = scenarios(out);
  t.same(s!.attachmentRefs, ['videos/run-1.webm', 'traces/trace.zip'], 'URLs are references, deduplicated');
  t.match(s, { output: { stdout: 'hello\n' }, meta: { attachments: '1', attachmentTypes: 'image/png' } });
});

t.test('state machine: failures outside test cases are errored tests (rule 4)', async (t) => {
  const parse = drive([meta, { parseError: { source: { uri: 'features/b.feature', location: { line: 4, column: 3 } }, message: "(4:3): expected: #EOF, got 'oops'" } }, { testRunFinished: { success: false, timestamp: ts(1) } }]);
  t.same(parse.producers, ['cucumber-jvm']);
  t.same(count(parse.out), { tests: 1, passed: 0, failed: 0, errored: 1, skipped: 0 });
  t.match(parse.out[0], { title: 'Parse error: features/b.feature', status: 'errored', parentId: null, failure: { message: /^\(4:3\)/, type: 'parseError' }, meta: { synthetic: 'parse-error', file: 'features/b.feature', line: '4' } });

  const hook = drive([
    { hook: { id: 'h', type: 'BEFORE_TEST_RUN', name: 'db', sourceReference: { javaMethod: { className: 'Hooks', methodName: 'db' } } } },
    { testRunHookStarted: { id: 'rh', hookId: 'h', testRunStartedId: 'run', timestamp: ts(1) } },
    { testRunHookFinished: { testRunHookStartedId: 'rh', result: { status: 'FAILED', duration: dur(5), exception: { type: 'java.sql.SQLException', message: 'no db' } }, timestamp: ts(2) } },
    { testRunFinished: { success: false, timestamp: ts(3), exception: { type: 'java.sql.SQLException', message: 'no db' } } },
  ]);
  t.same(count(hook.out), { tests: 1, passed: 0, failed: 0, errored: 1, skipped: 0 }, 'the run failure is the hook failure, counted once');
  t.match(hook.out[0], { title: 'BeforeAll: db', failure: { type: 'java.sql.SQLException', message: 'no db' }, meta: { synthetic: 'run-hook', location: 'Hooks.db' } });

  const passedHook = drive([
    { hook: { id: 'h', type: 'AFTER_TEST_RUN', sourceReference: { uri: 'hooks.js', location: { line: 1 } } } },
    { testRunHookStarted: { id: 'rh', hookId: 'h' } },
    { testRunHookFinished: { testRunHookStartedId: 'rh', result: { status: 'PASSED' } } },
    { testRunFinished: { success: true } },
  ]);
  t.same(passedHook.out, [], 'a passing run hook is no test');

  const crash = drive([meta, { testRunFinished: { success: false, timestamp: ts(3), exception: { type: 'Error', message: 'worker crashed', stackTrace: 'Error: worker crashed\n    at x' } } }]);
  t.match(crash.out, [{ title: 'Test run', status: 'errored', failure: { message: 'worker crashed', type: 'Error', stack: /^Error: worker crashed/ }, meta: { synthetic: 'run-error' } }]);
});

t.test('state machine: titles from the gherkin document, hooks by type and name', async (t) => {
  const { out } = drive([
    doc('a.feature', 'Alpha', [['a1', 'When ']], [['b1', 'Given ']]),
    pickle('p1', 'a.feature', 'first', [['s1', 'logged in', 'b1'], ['s2', 'it runs', 'a1']]),
    doc('b.feature', 'Beta', [['c1', 'Then ']]),
    pickle('p2', 'b.feature', 'second', [['s3', 'it ends', 'c1'], ['s4', 'stale keyword', 'a1']]),
    { hook: { id: 'h1', type: 'AFTER_TEST_STEP', name: 'screenshot', sourceReference: { uri: 'hooks.js', location: { line: 9 } } } },
    testCase('tc1', 'p1', [{ id: 't1', pickleStepId: 's1' }, { id: 't2', pickleStepId: 's2' }, { id: 't3', hookId: 'h1' }]),
    testCase('tc2', 'p2', [{ id: 't4', pickleStepId: 's3' }, { id: 't5', pickleStepId: 's4' }]),
    testCase('tc3', 'p2', []),
    started('r1', 'tc1'),
    started('r2', 'tc2'),
    stepDone('r2', 't4', 'PASSED'),
    stepDone('r1', 't1', 'PASSED'),
    stepDone('r1', 't2', 'PASSED'),
    stepDone('r1', 't3', 'PASSED'),
    stepDone('r2', 't5', 'PASSED'),
    finished('r2'),
    finished('r1'),
  ]);
  t.same(
    out.map((c) => [c.type, c.title]),
    [
      ['step', 'Then it ends'],
      ['step', 'stale keyword'],
      ['scenario', 'second'],
      ['step', 'Given logged in'],
      ['step', 'When it runs'],
      ['hook', 'AfterStep: screenshot'],
      ['scenario', 'first'],
      ['suite', 'Alpha'],
      ['suite', 'Beta'],
    ],
    'interleaved test cases; a keyword of an earlier document is no longer known; tc3 never started',
  );
  t.match(out.find((c) => c.title === 'Given logged in'), { meta: { background: 'true' } });
  t.same(count(out), { tests: 2, passed: 2, failed: 0, errored: 0, skipped: 0 });
});

t.test('state machine: long failure text is cut with a marker', async (t) => {
  const { out } = drive([...defined(), started('r', 'tc1'), stepDone('r', 'ts1', 'FAILED', { exception: { type: 'E', message: 'm'.repeat(50) } }), finished('r')], 10);
  t.match(scenarios(out)[0]!.failure, { type: 'E', message: /^m{10}\n\[… truncated by Tally at 10 characters\]$/ });
});
