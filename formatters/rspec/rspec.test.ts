import t from 'tap';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FormatError, isCountedTest, type Container, type Head } from '../../lib/formatter-api.js';
import { decodeText } from '../../lib/sniff/encoding.js';
import { HEAD_BYTES, readHead } from '../../lib/sniff/head.js';
import { rspec } from './index.js';
import { rspecHandler } from './parse.js';

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
  await rspec.parse(
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
  ["tap", "tapjs__version-14.tap", "TAP version 14\n1..5\nok 1\nok 2\nok 3\nok 4\nok 5\n"],
  ["tap", "tapjs__bailout.tap", "1..5\nok 1\nok 2\nok 3\nBail out!  GERONIMMMOOOOOO!!!\nok 4\nok 5\n"],
  ["testng", "testng-plugin__testng-dp-result.xml", "<testng-results>\n  <reporter-output>\n  </reporter-output>\n  <suite name=\"Ant suite\" duration-ms=\"29\" started-at=\"2011-03-09T21:13:15Z\" finished-at=\"2011-03-09T21:13:15Z\">\n    <groups>\n    </groups>\n    <test name=\"Ant test\" duration-ms=\"29\" started-at=\"2011-03-09T21:13:15Z\" finished-at=\"2011-03-09T21:13:15Z\">\n      <class name=\"org.jenkins.TestDataProvider\">\n        <test-method status=\"FAIL\" signature=\"test(int)\" name=\"test\" duration-ms=\"9\" started-at=\"2011-03-09T21:13:15Z\" finished-at=\"2011-03-09T21:13:15Z\">\n          <params>\n            <param index=\"0\">\n              <value>\n                <![CDATA[1]]>\n              </value>\n            </param>\n          </params>\n          <exceptio"],
  ["trx", "allure2__sample.trx", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<TestRun id=\"97f57849-3919-4bc0-8b5a-60884faca4a9\" name=\"camejef@BUMBLEBEE 2012-02-19 09:25:24\" runUser=\"BUMBLEBEE\\camejef\" xmlns=\"http://microsoft.com/schemas/VisualStudio/TeamTest/2010\">\n    <TestSettings name=\"Default Test Settings\" id=\"fca8b5a8-ae49-45c5-b2b7-a975e4a4fd10\">\n        <Deployment userDeploymentRoot=\"c:\\dev\\pickles-results-harness\" useDefaultDeploymentRoot=\"false\" runDeploymentRoot=\"camejef_BUMBLEBEE 2012-02-19 09_25_24\" />\n        <Execution>\n            <TestTypeSpecific />\n            <AgentRule name=\"Execution Agents\">\n            </AgentRule>\n        </Execution>\n    </TestSettings>\n    <Times creation=\"2012-02-19T09:25:24.8479038-"],
  ["xunit2", "xunit-plugin__xunitdotnet-testcase6-input.xml", "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<assemblies>\n\t<assembly name=\"Test.exe\" environment=\"OS: Microsoft Windows NT 6.2.9200.0\" run-date=\"2018-38-06\" run-time=\"02:38:04\" test-framework=\"Test Framework 0.1\" total=\"1\" passed=\"0\" failed=\"1\" skipped=\"0\" errors=\"0\">\n\t\t<collection name=\"collection1\" time=\"36.7820544\" total=\"1\" passed=\"0\" failed=\"1\" skipped=\"0\">\n\t\t\t<test name=\"collection1\\test.xml\" type=\"\" method=\"\" time=\"36.7820544\" result=\"Fail\">\n\t\t\t\t<failure>\n\t\t\t\t\t<message>OK: TestProcess.Execution.ExitCode == 0&#xD;\nFAIL: Output differs from reference.&#xD;\n  Left:  data\\ref&#xD;\n  Right: results\\out&#xD;\n  &#xD;\n                    </message>\n\t\t\t\t</failure>\n\t\t\t</test>\n\t\t</collection>\n\t</as"],
  ["cucumber-messages", "cucumber-js__basket.ndjson", "{\"meta\":{\"protocolVersion\":\"32.2.0\",\"implementation\":{\"version\":\"12.9.0\",\"name\":\"cucumber-js\"},\"cpu\":{\"name\":\"x64\"},\"os\":{\"name\":\"linux\",\"version\":\"6.18.44-fc-v595\"},\"runtime\":{\"name\":\"node.js\",\"version\":\"20.20.2\"}}}\n{\"source\":{\"data\":\"@shop\\nFeature: Basket\\n  A small shop basket, used to produce a Cucumber Messages fixture.\\n\\n  Background:\\n    Given an empty basket\\n\\n  Scenario: adding an item\\n    When I add 2 \\\"apple\\\"\\n    Then the basket holds 2 items\\n\\n  Scenario: a wrong total fails\\n    When I add 1 \\\"pear\\\"\\n    Then the basket holds 3 items\\n    And the receipt is printed\\n\\n  Scenario: a pending step\\n    When I add 1 \\\"plum\\\"\\n    Then the discount is applied\\n\\n  Scenario: an undefined step\\n    When I add 1 \\\"fig\\\"\\n    Then something nobody wrote happens\\n\\n  @skip-me\\n  Scenario: a step skips itself\\n    When I add 1 \\\"kiwi\\\"\\n    Then the stock check is skipped\\n\\n "],
];

type Event = ['open', (string | number)[], 'object' | 'array'] | ['value', (string | number)[], unknown] | ['close', (string | number)[], 'object' | 'array'];

function drive(events: Event[], fileName = 'rspec.json', maxTextChars = 1000): Container[] {
  const out: Container[] = [];
  let id = 0;
  const h = rspecHandler({ fileName, nextId: () => ++id, limits: { maxTextChars }, setProducer: () => {} }, (c) => out.push(c));
  for (const e of events) {
    if (e[0] === 'open') h.open?.(e[1], e[2]);
    else if (e[0] === 'value') h.value?.(e[1], e[2]);
    else h.close?.(e[1], e[2]);
  }
  h.end();
  return out;
}

/** The events parseJson gives for `{"version": …, "examples": [ … ], …rest}` with each example taken whole. */
function report(examples: unknown[], rest: [string, unknown][] = []): Event[] {
  return [
    ['open', [], 'object'],
    ['value', ['version'], '3.13.0'],
    ['open', ['examples'], 'array'],
    ...examples.map((e, i): Event => ['value', ['examples', i], e]),
    ['close', ['examples'], 'array'],
    ...rest.map(([k, v]): Event => ['value', [k], v]),
    ['close', [], 'object'],
  ];
}

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
    const { containers, producers } = await run(bytes, f.path);
    t.same(count(containers), f.expected, f.path);
    t.same(producers, ['rspec'], `${f.path}: producer`);
  }
});

t.test('a fixture in full: hierarchy, failure, pending reason, meta', async (t) => {
  const { containers } = await run(readFileSync(path.join(FIXTURES, 'dorny__rspec-json.json')), 'dorny__rspec-json.json');
  const [passed, failed, pending, file, root] = containers;
  t.equal(containers.length, 5);
  t.match(root, { type: 'suite', parentId: null, title: 'dorny__rspec-json.json', status: 'failed', failure: null });
  t.same(root!.properties, [
    { name: 'version', value: '3.13.0' },
    { name: 'summary_line', value: '3 examples, 1 failures, 1 pending' },
  ]);
  t.match(file, { type: 'suite', parentId: root!.id, title: './spec/config/check_env_vars_spec.rb', status: 'failed' });
  t.match(passed, {
    type: 'test',
    parentId: file!.id,
    title: 'CheckEnvVars#call when all env vars are defined behaves like success load logs success message',
    status: 'passed',
    durationMs: 79.16,
    failure: null,
    meta: { id: './spec/config/check_env_vars_spec.rb[1:1:1:1:1]', file: './spec/config/check_env_vars_spec.rb', line: '12', description: 'logs success message' },
  });
  t.match(failed, {
    status: 'failed',
    durationMs: 4.411,
    failure: { type: 'RSpec::Mocks::MockExpectationError', message: /^\(#ActiveSupport::BroadcastLogger/, stack: /^\/usr\/local\/bundle\/.*\n\.\/config\/check_env_vars\.rb:11:in `call'\n/ },
  });
  t.match(pending, { status: 'skipped', durationMs: 0.023, failure: { message: 'Temporarily skipped with xit', type: null, stack: null } });
});

t.test('sniff: every fixture votes above the match threshold', async (t) => {
  for (const f of manifest.files) {
    const bytes = readFileSync(path.join(FIXTURES, f.path));
    const { head: h } = readHead(bytes.subarray(0, HEAD_BYTES), f.path, bytes.length <= HEAD_BYTES);
    t.ok(rspec.sniff(h) >= 0.9, f.path);
  }
});

t.test('sniff: other formats stay below the match threshold', async (t) => {
  for (const [format, file, text] of FOREIGN_HEADS) t.ok(rspec.sniff(head(text, file)) < 0.5, `${format}: ${file}`);
  const others: [string, string][] = [
    ['empty', ''],
    ['empty object', '{}'],
    ['array of examples', '[{"examples":[]}]'],
    ['some other examples key', '{"name":"x","examples":[{"input":1,"output":2}]}'],
    ['plain text', 'examples: 3, failures: 0'],
  ];
  for (const [name, text] of others) t.ok(rspec.sniff(head(text)) < 0.5, name);
});

t.test('sniff: RSpec variants, and never throws', async (t) => {
  const positive: [string, string][] = [
    ['no examples ran', '{"version":"3.12.0","examples":[],"summary":{"duration":0.0001,"example_count":0,"failure_count":0,"pending_count":0,"errors_outside_of_examples_count":1},"summary_line":"0 examples, 0 failures, 1 error occurred outside of examples"}'],
    ['messages and seed first', '{"version":"3.12.2","messages":["Run options: include {:focus=>true}"],"seed":1234,"examples":[{"id":"./spec/a_spec.rb[1:1]","description":"works","full_description":"A works","status":"passed"'],
    ['minified, cut inside the head', '{"version":"3.9.1","examples":[{"id":"./spec/a_spec.rb[1:1]","description":"works","full_description":"A works","status":"pass'],
  ];
  for (const [name, text] of positive) t.ok(rspec.sniff(head(text)) >= 0.5, name);
  const broken = { ...head('{"examples":[]}'), topLevelKeys: null } as unknown as Head;
  t.equal(rspec.sniff(broken), 0, 'a malformed head scores 0 instead of throwing');
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
  const bytes = readFileSync(path.join(FIXTURES, 'dorny__rspec-json.json'));
  const cases: [string, Buffer][] = [
    ['empty', Buffer.alloc(0)],
    ['whitespace only', Buffer.from('  \n')],
    ['truncated in the middle', bytes.subarray(0, Math.floor(bytes.length / 2))],
    ['truncated after the examples', Buffer.from('{"version":"3.13.0","examples":[]')],
    ['an array', Buffer.from('[{"examples":[]}]')],
    ['an object without examples', Buffer.from('{"stats":{"tests":1},"tests":[]}')],
    ['not JSON', Buffer.from('3 examples, 1 failure')],
  ];
  for (const [name, b] of cases) t.type(await failure(run(b, 'x.json')), FormatError, name);
});

t.test('state machine: status table', async (t) => {
  const cases: [string, ContainerStatusName, string?][] = [
    ['passed', 'passed'],
    ['failed', 'failed'],
    ['pending', 'skipped'],
    ['exploded', 'unknown', 'exploded'],
    ['constructor', 'unknown', 'constructor'],
  ];
  for (const [status, want, kept] of cases) {
    const [test] = drive(report([{ id: 'a', description: 'x', full_description: 'A x', status, file_path: './spec/a_spec.rb' }]));
    t.equal(test!.status, want, status);
    t.equal(test!.meta?.['status'], kept, `${status}: raw status kept only when unknown`);
  }
  const [noFile] = drive(report([{ description: 'orphan', status: 'passed' }]));
  t.equal(noFile!.title, 'orphan', 'the description stands in for a missing full_description');
});

type ContainerStatusName = Container['status'];

t.test('state machine: random order keeps one suite per spec file', async (t) => {
  const ex = (file: string, name: string, status: string) => ({ full_description: name, status, file_path: file });
  const out = drive(report([ex('./spec/a_spec.rb', 'a1', 'passed'), ex('./spec/b_spec.rb', 'b1', 'failed'), ex('./spec/a_spec.rb', 'a2', 'pending')]));
  const suites = out.filter((c) => c.type === 'suite');
  t.same(suites.map((s) => [s.title, s.status]), [['./spec/a_spec.rb', 'passed'], ['./spec/b_spec.rb', 'failed'], ['rspec.json', 'failed']]);
  const [a1, b1, a2] = out;
  t.equal(a1!.parentId, a2!.parentId, 'examples of one file share its suite');
  t.not(a1!.parentId, b1!.parentId);
  t.ok(out.indexOf(suites[0]!) > out.indexOf(a2!), 'a suite is emitted after its last example');
  t.same(count(out), { tests: 3, passed: 1, failed: 1, errored: 0, skipped: 1 }, 'equal names are not merged, suites are not counted');
});

t.test('state machine: errors outside of examples make the run errored without adding a test', async (t) => {
  const load = '\nAn error occurred while loading ./spec/broken_spec.rb.\nFailure/Error: require "nope"\n\nLoadError:\n  cannot load such file -- nope';
  const out = drive([
    ['open', [], 'object'],
    ['value', ['version'], '3.12.0'],
    ['open', ['messages'], 'array'],
    ['value', ['messages', 0], 'Run options: include {:focus=>true}'],
    ['value', ['messages', 1], load],
    ['close', ['messages'], 'array'],
    ['value', ['seed'], 4242],
    ['open', ['examples'], 'array'],
    ['close', ['examples'], 'array'],
    ['value', ['summary'], { duration: 0.001, example_count: 0, failure_count: 0, pending_count: 0, errors_outside_of_examples_count: 1 }],
    ['value', ['summary_line'], '0 examples, 0 failures, 1 error occurred outside of examples'],
    ['close', [], 'object'],
  ]);
  t.equal(out.length, 1);
  t.match(out[0], { type: 'suite', status: 'errored', failure: { message: /^An error occurred while loading \.\/spec\/broken_spec\.rb\./ }, meta: { errorsOutsideOfExamples: '1' } });
  t.same(out[0]!.properties.map((p) => p.name), ['version', 'seed', 'summary_line']);
  t.same(count(out), { tests: 0, passed: 0, failed: 0, errored: 0, skipped: 0 });

  const countOnly = drive(report([], [['summary', { errors_outside_of_examples_count: 2 }]]));
  t.match(countOnly[0], { status: 'errored', failure: { message: '2 error(s) occurred outside of examples' } });
});

t.test('state machine: long failure text is cut with a marker', async (t) => {
  const [test] = drive(report([{ full_description: 'big', status: 'failed', exception: { class: 'E', message: 'm'.repeat(50), backtrace: ['a', 'b'] } }]), 'r.json', 10);
  t.match(test!.failure, { type: 'E', message: /^m{10}\n\[… truncated by Tally at 10 characters\]$/, stack: 'a\nb' });
});
