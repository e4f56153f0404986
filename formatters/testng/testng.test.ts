import t from 'tap';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FormatError, isCountedTest, type Container, type Head } from '../../lib/formatter-api.js';
import { decodeText } from '../../lib/sniff/encoding.js';
import { HEAD_BYTES, readHead } from '../../lib/sniff/head.js';
import { testng } from './index.js';
import { testngHandler } from './parse.js';
import { parseStartedAt } from './values.js';

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
  await testng.parse(
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

function drive(events: Event[], maxTextChars = 1000): Container[] {
  const out: Container[] = [];
  let id = 0;
  const h = testngHandler({ fileName: 'testng-results.xml', nextId: () => ++id, limits: { maxTextChars }, setProducer: () => {} }, (c) => out.push(c));
  for (const e of events) {
    if (e[0] === 'open') h.open(e[1], e[2] ?? {});
    else if (e[0] === 'text') h.text(e[1]);
    else h.close(e[1]);
  }
  h.end();
  return out;
}

/** A test-method element with optional children, as SAX events. */
function method(attrs: Record<string, string>, inner: Event[] = []): Event[] {
  return [['open', 'test-method', attrs], ...inner, ['close', 'test-method']];
}

function exception(type: string, message: string): Event[] {
  return [['open', 'exception', { class: type }], ['open', 'message'], ['text', `\n  ${message}\n  `], ['close', 'message'], ['open', 'full-stacktrace'], ['text', `${type}: ${message}\n\tat X.y(X.java:1)`], ['close', 'full-stacktrace'], ['close', 'exception']];
}

function inClass(rootAttrs: Record<string, string>, body: Event[], className = 'demo.C'): Event[] {
  return [
    ['open', 'testng-results', rootAttrs],
    ['open', 'suite', { name: 'S', 'started-at': '2024-01-02T03:04:05 UTC', 'duration-ms': '10' }],
    ['open', 'test', { name: 'T' }],
    ['open', 'class', { name: className }],
    ...body,
    ['close', 'class'],
    ['close', 'test'],
    ['close', 'suite'],
    ['close', 'testng-results'],
  ];
}

const head = (text: string, fileName = 'r.xml'): Head => readHead(Buffer.from(text), fileName, true).head;

/** Heads of every other format of the shared fixture set (its smallest and largest file, cut short). */
const OTHER_FORMATS: [string, string][] = [
    ["allure/allure2__invalid-status.json", "{\n  \"uuid\": \"93542b02b4f3b5c69033c3643e0428ed\",\n  \"status\": \"some-invalid-string\",\n  \"name\": \"shouldCreate\",\n  \"start\": 1479552611395,\n  \"stop\": 1479552611399\n}"],
    ["allure/allure2__7f0aea93-a14c-4e5b-8936-ee5ead7be819-result.json", "{\n  \"uuid\" : \"160549c101caec3c74170b2e5c059d68\",\n  \"historyId\" : \"second\",\n  \"status\" : \"passed\",\n  \"parameters\" : [ ],\n  \"labels\" : [ {\n    \"name\" : \"class\",\n    \"value\" : \"io.qameta.allure.ProjectServiceTest\"\n  }, {\n    \"name\" : \"method\",\n    \"value\" : \"shouldDelete\"\n  }, {\n    \"name\" : \"suite\",\n    \"value\" : \"My suite\"\n  }, {\n    \"name\" : \"test\",\n    \"value\" : \"All\"\n  }, {\n    \"name\" : \"host\",\n    \"value\" : \"charlie.local\"\n  }, {\n    \"name\" : \"thread\",\n    \"value\" : \"2208@charlie.local.main(1)\"\n  } ],\n  \"name\" : \"shouldDelete\",\n  \"start\" : 1480450640409,\n  \"stop\" : 1480450640412,\n  \"steps\" : [ {\n    \"status\" : \"passed\",\n    \"name\" : \"createProject\",\n    \"start\" : 1480450640410,\n    \"stop\" : 1480450640411,\n    \"steps\" : [ {\n      \"status\" : \"passed\",\n      \"name\" : \"more\",\n      \"start\" : 1480450640410,\n      \"stop\" : 1480450640410\n    }, {\n      \"status\" : \"passed\",\n      \"name\" : \"an"],
    ["allure1-xml/allure2__b785c222-0787-4bf3-b759-eccdca38d17e-testsuite.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<ns2:test-suite xmlns:ns2=\"urn:model.allure.qatools.yandex.ru\" start=\"1412949538852\" stop=\"1412949560076\" version=\"1.4.4-SNAPSHOT\">\n    <name>my.company.SimpleTest</name>\n    <test-cases>\n        <test-case start=\"1412949558829\" stop=\"1412949558830\" status=\"failed\">\n            <name>failedSimpleTest</name>\n            <failure>\n                <message>AssertionError: 5 is not 2 + 2\nExpected: is &lt;4&gt;\n     but: was &lt;5&gt;</message>\n                <stack-trace>java.lang.AssertionError: 5 is not 2 + 2\nExpected: is &lt;4&gt;\n     bu"],
    ["allure1-xml/allure2__c32503a8-2981-43da-afa5-e0d82dacfefd-testsuite.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<ns2:test-suite xmlns:ns2=\"urn:model.allure.qatools.yandex.ru\" start=\"1412949538851\" stop=\"1412949560112\" version=\"1.4.4-SNAPSHOT\">\n    <name>my.company.ManyInfoTest</name>\n    <description type=\"text\">Testsuite has testcases with many steps\n    and\nmany lines in description</description>\n    <test-cases>\n        <test-case start=\"1412949539800\" stop=\"1412949540461\" status=\"failed\">\n            <name>longAssertionTest</name>\n            <title>Test with long assertion text</title>\n            <failure>\n                <message>AssertionEr"],
    ["ctrf/ctrf-github-test-reporter__ctrf-report.json", "{\n\t\"results\": {\n\t\t\"tool\": {\n\t\t\t\"name\": \"jest\"\n\t\t},\n\t\t\"summary\": {\n\t\t\t\"tests\": 10,\n\t\t\t\"passed\": 5,\n\t\t\t\"failed\": 2,\n\t\t\t\"pending\": 1,\n\t\t\t\"skipped\": 1,\n\t\t\t\"other\": 1,\n\t\t\t\"start\": 1722511783500,\n\t\t\t\"stop\": 1722519283500\n\t\t},\n\t\t\"tests\": [\n\t\t\t{\n\t\t\t\t\"name\": \"should be able to login\",\n\t\t\t\t\"status\": \"passed\",\n\t\t\t\t\"duration\": 1200,\n\t\t\t\t\"filePath\": \"tests/login.test.ts\",\n\t\t\t\t\"suite\": \"login.test.ts > login\"\n\t\t\t},\n\t\t\t{\n\t\t\t\t\"name\": \"should display title\",\n\t\t\t\t\"status\": \"failed\",\n\t\t\t\t\"duration\": 800,\n\t\t\t\t\"message\": \"\\u001b[31mTimed out 5000ms waiting for \\u001b[39m\\u001b[2mexpect(\\u001b[22m\\u001b[31mlocator\\u001b[39m\\u001b[2m).\\u001b[22mtoHaveTitle\\u001b[2m(\\u001b[22m\\u001b[32mexpected\\u001b[39m\\u001b[2m)\\u001b[22m\\n\\nLocator: locator(':root')\\nExpected pattern: \\u001b[32m/Playwrc cight/\\u001b[39m\\nReceived string:  \\u001b[31m\\\"Fast and reliable end-to-end testing for modern web apps | Playwright\\\"\\u00"],
    ["ctrf/ctrf-github-test-reporter__test.json", "{\n\t\"results\": {\n\t\t\"tool\": {\n\t\t\t\"name\": \"jest\"\n\t\t},\n\t\t\"summary\": {\n\t\t\t\"tests\": 65,\n\t\t\t\"passed\": 65,\n\t\t\t\"failed\": 0,\n\t\t\t\"pending\": 0,\n\t\t\t\"skipped\": 0,\n\t\t\t\"other\": 0,\n\t\t\t\"start\": 1753814301032,\n\t\t\t\"stop\": 1753814313709,\n\t\t\t\"extra\": {\n\t\t\t\t\"flakyRate\": 0,\n\t\t\t\t\"flakyRateChange\": 0,\n\t\t\t\t\"failRate\": 0,\n\t\t\t\t\"failRateChange\": 0,\n\t\t\t\t\"finalResults\": 0,\n\t\t\t\t\"finalFailures\": 0,\n\t\t\t\t\"result\": \"passed\"\n\t\t\t}\n\t\t},\n\t\t\"tests\": [\n\t\t\t{\n\t\t\t\t\"name\": \"String Helpers splitLines should split lines correctly for multiline strings\",\n\t\t\t\t\"duration\": 21,\n\t\t\t\t\"status\": \"passed\",\n\t\t\t\t\"rawStatus\": \"passed\",\n\t\t\t\t\"type\": \"unit\",\n\t\t\t\t\"filePath\": \"/home/runner/work/github-test-reporter/github-test-reporter/__tests__/handlebars/string.test.ts\",\n\t\t\t\t\"retries\": 0,\n\t\t\t\t\"flaky\": false,\n\t\t\t\t\"suite\": \"string.test.ts > String Helpers > splitLines\"\n\t\t\t},\n\t\t\t{\n\t\t\t\t\"name\": \"String Helpers splitLines should filter out empty lines\",\n\t\t\t"],
    ["cucumber-json/cucumber-reporting__empty.json", "[\n]"],
    ["cucumber-json/cucumber-reporting__sample.json", "[\n    {\n        \"id\": \"account-holder-withdraws-cash\",\n        \"tags\": [\n            {\n                \"name\": \"@featureTag\",\n                \"line\": 1\n            }\n        ],\n        \"description\": \"This is description of the feature\",\n        \"name\": \"1st feature\",\n        \"keyword\": \"Feature\",\n        \"line\": 2,\n        \"elements\": [\n            {\n                \"description\": \"Perfect background\",\n                \"name\": \"Activate Credit Card\",\n                \"keyword\": \"Background\",\n                \"line\": 7,\n                \"steps\": [\n                    {\n                        \"result\": {\n                            \"duration\": 99107447000,\n                            \"status\": \"passed\"\n                        },\n                        \"name\": \"I have a new credit card\",\n                        \"keyword\": \"Given \",\n                        \"line\": 8,\n                        \""],
    ["dart-json/dorny__empty-dart-json.json", "{\"protocolVersion\":\"0.1.1\",\"runnerVersion\":\"1.25.3\",\"pid\":7103,\"type\":\"start\",\"time\":0}\n{\"suite\":{\"id\":0,\"platform\":\"vm\",\"path\":\"test/second_test.dart\"},\"type\":\"suite\",\"time\":0}\n{\"test\":{\"id\":1,\"name\":\"loading test/second_test.dart\",\"suiteID\":0,\"groupIDs\":[],\"metadata\":{\"skip\":false,\"skipReason\":null},\"line\":null,\"column\":null,\"url\":null},\"type\":\"testStart\",\"time\":0}\n{\"suite\":{\"id\":2,\"platform\":\"vm\",\"path\":\"test/main_test.dart\"},\"type\":\"suite\",\"time\":4}\n{\"test\":{\"id\":3,\"name\":\"loading test/main_test.dart\",\"suiteID\":2,\"groupIDs\":[],\"metadata\":{\"skip\":false,\"skipReason\":null},\"line\":null,\"column\":null,\"url\":null},\"type\":\"testStart\",\"time\":4}\n{\"count\":2,\"time\":5,\"type\":\"allSuites\"}\n{\"testID\":1,\"result\":\"success\",\"skipped\":false,\"hidden\":true,\"type\":\"testDone\",\"time\":294}\n{\"testID\":3,\"messageType\":\"print\",\"message\":\"Hello from the test\",\"type\":\"print\",\"time\":297}\n{\"testID\":3,\"result\":\"succes"],
    ["dart-json/dorny__provider-test-results.json", "{\"protocolVersion\":\"0.1.1\",\"runnerVersion\":null,\"pid\":515,\"type\":\"start\",\"time\":0}\n{\"suite\":{\"id\":0,\"platform\":\"vm\",\"path\":\"/__w/provider/provider/test/value_listenable_provider_test.dart\"},\"type\":\"suite\",\"time\":0}\n{\"test\":{\"id\":1,\"name\":\"loading /__w/provider/provider/test/value_listenable_provider_test.dart\",\"suiteID\":0,\"groupIDs\":[],\"metadata\":{\"skip\":false,\"skipReason\":null},\"line\":null,\"column\":null,\"url\":null},\"type\":\"testStart\",\"time\":2}\n{\"count\":16,\"type\":\"allSuites\",\"time\":14}\n{\"testID\":1,\"result\":\"success\",\"skipped\":false,\"hidden\":true,\"type\":\"testDone\",\"time\":8608}\n{\"group\":{\"id\":2,\"suiteID\":0,\"parentID\":null,\"name\":\"\",\"metadata\":{\"skip\":false,\"skipReason\":null},\"testCount\":5,\"line\":null,\"column\":null,\"url\":null},\"type\":\"group\",\"time\":8617}\n{\"group\":{\"id\":3,\"suiteID\":0,\"parentID\":2,\"name\":\"valueListenableProvider\",\"metadata\":{\"skip\":false,\"skipReason\":null},\"testCount\":5,\"line"],
    ["go-test-json/go-junit-report__105-panic.gojson.txt", "{\"Time\":\"2019-10-09T00:00:00.596409464+00:00\",\"Action\":\"output\",\"Package\":\"package/name/panic\",\"Output\":\"panic: init\\n\"}\n{\"Time\":\"2019-10-09T00:00:00.596508615+00:00\",\"Action\":\"output\",\"Package\":\"package/name/panic\",\"Output\":\"\\n\"}\n{\"Time\":\"2019-10-09T00:00:00.596515201+00:00\",\"Action\":\"output\",\"Package\":\"package/name/panic\",\"Output\":\"goroutine 1 [running]:\\n\"}\n{\"Time\":\"2019-10-09T00:00:00.596518457+00:00\",\"Action\":\"output\",\"Package\":\"package/name/panic\",\"Output\":\"package/name/panic.init.0()\\n\"}\n{\"Time\":\"2019-10-09T00:00:00.596521268+00:00\",\"Action\":\"output\",\"Package\":\"package/name/panic\",\"Output\":\"\\t/src/package/name/panic/main_test.go:6 +0x27\\n\"}\n{\"Time\":\"2019-10-09T00:00:00.596604261+00:00\",\"Action\":\"output\",\"Package\":\"package/name/panic\",\"Output\":\"exit status 2\\n\"}\n{\"Time\":\"2019-10-09T00:00:00.596615441+00:00\",\"Action\":\"output\",\"Package\":\"package/name/panic\",\"Output\":\"FAIL\\tpackage/na"],
    ["go-test-json/dorny__golang-json.json", "{\"Time\":\"2025-04-22T08:59:55.364618802-05:00\",\"Action\":\"start\",\"Package\":\"_/home/james_t/git/test-reporter/reports/go\"}\n{\"Time\":\"2025-04-22T08:59:55.371779289-05:00\",\"Action\":\"run\",\"Package\":\"_/home/james_t/git/test-reporter/reports/go\",\"Test\":\"TestPassing\"}\n{\"Time\":\"2025-04-22T08:59:55.371805677-05:00\",\"Action\":\"output\",\"Package\":\"_/home/james_t/git/test-reporter/reports/go\",\"Test\":\"TestPassing\",\"Output\":\"=== RUN   TestPassing\\n\"}\n{\"Time\":\"2025-04-22T08:59:55.428201983-05:00\",\"Action\":\"output\",\"Package\":\"_/home/james_t/git/test-reporter/reports/go\",\"Test\":\"TestPassing\",\"Output\":\"    calculator_test.go:11: pass!\\n\"}\n{\"Time\":\"2025-04-22T08:59:55.428265529-05:00\",\"Action\":\"output\",\"Package\":\"_/home/james_t/git/test-reporter/reports/go\",\"Test\":\"TestPassing\",\"Output\":\"--- PASS: TestPassing (0.06s)\\n\"}\n{\"Time\":\"2025-04-22T08:59:55.428285649-05:00\",\"Action\":\"pass\",\"Package\":\"_/home/james_t/git"],
    ["jest-json/jest-editor-support__with-ancestors-and-each.json", "{\n  \"numFailedTestSuites\": 1,\n  \"numFailedTests\": 2,\n  \"numPassedTestSuites\": 0,\n  \"numPassedTests\": 5,\n  \"numPendingTestSuites\": 0,\n  \"numPendingTests\": 0,\n  \"numRuntimeErrorTestSuites\": 0,\n  \"numTodoTests\": 0,\n  \"numTotalTestSuites\": 1,\n  \"numTotalTests\": 7,\n  \"openHandles\": [],\n  \"snapshot\": {\n    \"added\": 0,\n    \"didUpdate\": false,\n    \"failure\": false,\n    \"filesAdded\": 0,\n    \"filesRemoved\": 0,\n    \"filesRemovedList\": [],\n    \"filesUnmatched\": 0,\n    \"filesUpdated\": 0,\n    \"matched\": 0,\n    \"total\": 0,\n    \"unchecked\": 0,\n    \"uncheckedKeysByFile\": [],\n    \"unmatched\": 0,\n    \"updated\": 0\n  },\n  \"startTime\": 1590606132766,\n  \"success\": false,\n  \"testResults\": [\n    {\n      \"assertionResults\": [\n        {\n          \"ancestorTitles\": [\n            \"block-1\",\n            \"block-1-1\"\n          ],\n          \"failureMessages\": [],\n          \"fullName\": \"block-1 block-1-1 testing\",\n      "],
    ["jest-json/jest-editor-support__failing_metaphysics.json", "{\n    \"numFailedTests\": 213,\n    \"numPassedTests\": 0,\n    \"numPendingTests\": 0,\n    \"numRuntimeErrorTestSuites\": 0,\n    \"numTotalTestSuites\": 39,\n    \"numTotalTests\": 213,\n    \"startTime\": 1479666965602,\n    \"success\": false,\n    \"testResults\": [\n        {\n            \"message\": \"\\u001b[1m\\u001b[31m  \\u001b[1m\u25cf \\u001b[1mArtist type \u203a fetches an artist by ID\\u001b[39m\\u001b[22m\\n\\n    ReferenceError: installPromiseMatchers is not defined\\n\\u001b[2m      \\n      \\u001b[2mat _get_original__ (\\u001b[2mtest/helper.js\\u001b[2m:117:600)\\u001b[2m\\n      \\u001b[2mat _get__ (\\u001b[2mtest/helper.js\\u001b[2m:117:199)\\u001b[2m\\n      \\u001b[2mat Object.<anonymous> (\\u001b[2mtest/helper.js\\u001b[2m:62:29)\\u001b[2m\\n      \\u001b[2mat handle (\\u001b[2mnode_modules/worker-farm/lib/child/index.js\\u001b[2m:41:8)\\u001b[2m\\n      \\u001b[2mat process.<anonymous> (\\u001b[2mnode_modules/worker-farm/lib/child/i"],
    ["junit/dorny__phpunit-empty.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites/>"],
    ["junit/dorny__jest-test-results.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"jest tests\" tests=\"4239\" failures=\"2\" errors=\"0\" time=\"165.872\">\n  <testsuite name=\"packages/jest-config/src/__tests__/normalize.test.js\" errors=\"0\" failures=\"0\" skipped=\"0\" timestamp=\"2021-01-24T19:21:45\" time=\"0.798\" tests=\"118\">\n    <testcase classname=\"\" name=\"picks a name based on the rootDir\" time=\"0.006\">\n    </testcase>\n    <testcase classname=\"\" name=\"keeps custom project name based on the projects rootDir\" time=\"0.001\">\n    </testcase>\n    <testcase classname=\"\" name=\"keeps custom names based on the rootDir\" time=\"0.001\">\n    <"],
    ["mocha-json/dorny__empty-mocha-json.json", "{\n  \"stats\": {\n    \"suites\": 0,\n    \"tests\": 0,\n    \"passes\": 0,\n    \"pending\": 0,\n    \"failures\": 0,\n    \"start\": \"2021-03-08T20:01:44.391Z\",\n    \"end\": \"2021-03-08T20:01:44.391Z\",\n    \"duration\": 0\n  },\n  \"tests\": [],\n  \"pending\": [],\n  \"failures\": [],\n  \"passes\": []\n}"],
    ["mocha-json/dorny__mocha-test-results.json", "{\n  \"stats\": {\n    \"suites\": 590,\n    \"tests\": 839,\n    \"passes\": 833,\n    \"pending\": 6,\n    \"failures\": 0,\n    \"start\": \"2021-04-01T07:58:46.190Z\",\n    \"end\": \"2021-04-01T07:58:52.155Z\",\n    \"duration\": 5965\n  },\n  \"tests\": [\n    {\n      \"title\": \"should work\",\n      \"fullTitle\": \"Context nested should work\",\n      \"file\": \"C:\\\\Users\\\\Michal\\\\Workspace\\\\dorny\\\\mocha\\\\test\\\\unit\\\\context.spec.js\",\n      \"duration\": 3,\n      \"currentRetry\": 0,\n      \"speed\": \"fast\",\n      \"err\": {}\n    },\n    {\n      \"title\": \"should work\",\n      \"fullTitle\": \"Context Siblings sequestered sibling should work\",\n      \"file\": \"C:\\\\Users\\\\Michal\\\\Workspace\\\\dorny\\\\mocha\\\\test\\\\unit\\\\context.spec.js\",\n      \"duration\": 0,\n      \"currentRetry\": 0,\n      \"speed\": \"fast\",\n      \"err\": {}\n    },\n    {\n      \"title\": \"should not have value set within a sibling describe\",\n      \"fullTitle\": \"Context Siblings siblin"],
    ["mochawesome/mochawesome-report-generator__hooks-only.json", "{\n  \"stats\": {\n    \"suites\": 0,\n    \"tests\": 0,\n    \"passes\": 0,\n    \"pending\": 0,\n    \"failures\": 0,\n    \"start\": \"2017-06-26T19:30:43.924Z\",\n    \"end\": \"2017-06-26T19:30:43.926Z\",\n    \"duration\": 2,\n    \"testsRegistered\": 0,\n    \"passPercent\": null,\n    \"pendingPercent\": null,\n    \"other\": 0,\n    \"hasOther\": false,\n    \"skipped\": 0,\n    \"hasSkipped\": false,\n    \"passPercentClass\": \"success\",\n    \"pendingPercentClass\": \"success\"\n  },\n  \"suites\": {\n    \"title\": \"\",\n    \"suites\": [],\n    \"tests\": [],\n    \"pending\": [],\n    \"root\": true,\n    \"_timeout\": 2000,\n    \"uuid\": \"6a6184e8-645e-4a5e-b4db-dc0fa1763b26\",\n    \"beforeHooks\": [\n      {\n        \"title\": \"\\\"before all\\\" hook: before\",\n        \"fullTitle\": \" \\\"before all\\\" hook: before\",\n        \"timedOut\": false,\n        \"duration\": 0,\n        \"pass\": false,\n        \"fail\": false,\n        \"pending\": false,\n        \"code\": \"addContext(this"],
    ["mochawesome/mochawesome-report-generator__hooks.json", "{\n  \"stats\": {\n    \"suites\": 3,\n    \"tests\": 5,\n    \"passes\": 1,\n    \"pending\": 2,\n    \"failures\": 2,\n    \"start\": \"2017-06-05T15:28:31.735Z\",\n    \"end\": \"2017-06-05T15:28:31.755Z\",\n    \"duration\": 20,\n    \"testsRegistered\": 7,\n    \"passPercent\": 20,\n    \"pendingPercent\": 28.6,\n    \"other\": 2,\n    \"hasOther\": true,\n    \"skipped\": 2,\n    \"hasSkipped\": true\n  },\n  \"results\": [\n    {\n      \"title\": \"\",\n      \"suites\": [\n        {\n          \"title\": \"Hooks\",\n          \"suites\": [\n            {\n              \"title\": \"Nested Failed Before\",\n              \"suites\": [],\n              \"tests\": [\n                {\n                  \"title\": \"should be true\",\n                  \"fullTitle\": \"Hooks Nested Failed Before should be true\",\n                  \"timedOut\": false,\n                  \"duration\": 0,\n                  \"pass\": false,\n                  \"fail\": false,\n                  \"pending\": f"],
    ["nunit2/xunit-plugin__nunit-testcase1-input.xml", "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"no\"?>\n<!--This file represents the results of running a test suite-->\n<test-results name=\"/home/erik/coding/test/nunittests/Tests.dll\" total=\"4\" failures=\"1\" not-run=\"0\" date=\"2007-07-27\"\n              time=\"11:18:43\">\n    <environment nunit-version=\"2.2.8.0\" clr-version=\"2.0.50727.42\" os-version=\"Unix 2.6.18.4\" platform=\"Unix\"\n                 cwd=\"/home/erik/coding/test/nunittests\" machine-name=\"akira.ramfelt.se\" user=\"erik\"\n                 user-domain=\"akira.ramfelt.se\"/>\n    <culture-info current-culture=\"sv-SE\" current-uiculture=\"sv-SE\"/>\n"],
    ["nunit2/xunit-plugin__nunit-testcase14-input.xml", "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"no\"?>\n<!--This file represents the results of running a test suite -->\n<test-results name=\"/home/jenkins/workspace/LfMerge-Linux-any-qa-release/output/Release/LfMerge.Core.Tests.dll\" total=\"295\" errors=\"0\" failures=\"0\" not-run=\"2\"\n    inconclusive=\"0\" ignored=\"2\" skipped=\"0\" invalid=\"0\" date=\"2018-06-07\" time=\"15:48:40\">\n    <environment nunit-version=\"2.6.4.14350\" clr-version=\"4.0.30319.17020\" os-version=\"Unix 4.15.17.1\" platform=\"Unix\"\n        cwd=\"/home/jenkins/workspace/LfMerge-Linux-any-qa-release/output/Release\" machine-name=\"ba-xenial-jen"],
    ["nunit3/xunit-plugin__nunit3-testcase3-input.xml", "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"no\"?>\n<test-run id=\"2\" name=\"mock-assembly.dll\" fullname=\"D:\\Dev\\NUnit\\nunit-3.0\\work\\bin\\vs2008\\Debug\\mock-assembly.dll\" testcasecount=\"25\" result=\"Failed\" time=\"0.154\" total=\"18\" passed=\"12\" failed=\"2\" inconclusive=\"1\" skipped=\"3\" asserts=\"2\" run-date=\"2011-07-26\" start-time=\"11:34:27\">\n  <environment nunit-version=\"1.0.0.0\" clr-version=\"2.0.50727.4961\" os-version=\"Microsoft Windows NT 6.1.7600.0\" platform=\"Win32NT\" cwd=\"D:\\Dev\\NUnit\\nunit-3.0\\work\\bin\\vs2008\\Debug\" machine-name=\"CHARLIE-LAPTOP\" user=\"charlie\" user-domain=\"charlie-laptop\" cult"],
    ["nunit3/xunit-plugin__nunit3-testcase5-input.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<test-run id=\"2\" testcasecount=\"19\" result=\"Failed(Child)\" total=\"19\" passed=\"0\" failed=\"19\" inconclusive=\"0\" skipped=\"0\" asserts=\"0\" engine-version=\"3.5.0.0\" clr-version=\"4.0.30319.42000\" start-time=\"2019-02-22 16:03:02Z\" end-time=\"2019-02-22 16:04:59Z\" duration=\"116.7749347\">\n  <test-suite type=\"TestSuite\" id=\"1000\" name=\"FCA 2018\" fullname=\"FCA 2018\" runstate=\"Runnable\" testcasecount=\"19\" result=\"Failed\" site=\"Child\" start-time=\"2019-02-22 16:03:02Z\" end-time=\"2019-02-22 16:04:59Z\" duration=\"116.774935\" total=\"19\" passed=\"0\" failed=\"19\" inconclusive=\"0"],
    ["playwright-json/playwright-report-summary__report-sharded.json", "{\n  \"config\": {\n    \"forbidOnly\": false,\n    \"fullyParallel\": false,\n    \"globalSetup\": null,\n    \"globalTeardown\": null,\n    \"globalTimeout\": 0,\n    \"grep\": {},\n    \"grepInvert\": null,\n    \"maxFailures\": 0,\n    \"metadata\": {\n      \"totalTime\": 5003.32,\n      \"actualWorkers\": 20\n    },\n    \"preserveOutput\": \"always\",\n    \"projects\": [],\n    \"reporter\": [\n      [\n        \"list\"\n      ]\n    ],\n    \"reportSlowTests\": {\n      \"max\": 5,\n      \"threshold\": 15000\n    },\n    \"rootDir\": \"/project\",\n    \"quiet\": false,\n    \"shard\": null,\n    \"updateSnapshots\": \"missing\",\n    \"version\": \"1.37.1\",\n    \"workers\": 20,\n    \"webServer\": null,\n    \"listOnly\": false\n  },\n  \"suites\": [\n    {\n      \"title\": \"add.spec.ts\",\n      \"file\": \"add.spec.ts\",\n      \"column\": 0,\n      \"line\": 0,\n      \"specs\": [],\n      \"suites\": [\n        {\n          \"title\": \"add\",\n          \"file\": \"add.spec.ts\",\n          \"line\":"],
    ["playwright-json/playwright-report-summary__report-valid.json", "{\n  \"config\": {\n    \"configFile\": \"/project/tests/config/playwright.config.ts\",\n    \"rootDir\": \"/project/tests/functional\",\n    \"forbidOnly\": false,\n    \"fullyParallel\": true,\n    \"globalSetup\": null,\n    \"globalTeardown\": null,\n    \"globalTimeout\": 0,\n    \"grep\": {},\n    \"grepInvert\": null,\n    \"maxFailures\": 0,\n    \"metadata\": {\n      \"actualWorkers\": 5,\n      \"totalTime\": 1118.34\n    },\n    \"preserveOutput\": \"always\",\n    \"reporter\": [\n      [\n        \"list\",\n        null\n      ],\n      [\n        \"html\",\n        {\n          \"outputFolder\": \"../reports/html\",\n          \"open\": \"on-failure\"\n        }\n      ],\n      [\n        \"json\",\n        {\n          \"outputFile\": \"../reports/json/report.json\"\n        }\n      ]\n    ],\n    \"reportSlowTests\": {\n      \"max\": 5,\n      \"threshold\": 15000\n    },\n    \"quiet\": false,\n    \"projects\": [\n      {\n        \"outputDir\": \"/project/tests/results\",\n   "],
    ["robot/robot-plugin__inline_var_output.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<robot generator=\"Robot 7.0a1 (Python 3.8.5 on darwin)\" generated=\"2023-11-13T15:33:07.131714\" rpa=\"false\" schemaversion=\"5\">\n<suite id=\"s1\" name=\"Rf7\" source=\"/Users/aleksisimell/projects/tmp/rf7.robot\">\n<test id=\"s1-t1\" name=\"Test Inline Var\" line=\"2\">\n<variable name=\"${local}\">\n<var>mikki hiiri</var>\n<status status=\"PASS\" start=\"2023-11-13T15:33:07.168900\" elapsed=\"0.000162\"/>\n</variable>\n<kw name=\"Should Be Equal\" owner=\"BuiltIn\">\n<arg>${local}</arg>\n<arg>mikki hiiri</arg>\n<doc>Fails if the given objects are unequal.</doc>\n<status status=\"PASS\" start="],
    ["robot/robot-plugin__low_failure_output.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<robot generated=\"20130913 16:37:03.459\" generator=\"Rebot 2.8.1 (Python 2.6.6 on linux2)\">\n<suite id=\"s1\" name=\"Test\">\n<test id=\"s1-t1\" name=\"Nice 0\">\n<kw type=\"kw\" name=\"BuiltIn.Should Be Equal As Strings\">\n<doc>Fails if objects are unequal after converting them to strings.</doc>\n<arguments>\n<arg>passed</arg>\n<arg>passed</arg>\n</arguments>\n<msg timestamp=\"20130913 16:36:59.721\" level=\"INFO\">Argument types are:\n&lt;type 'str'&gt;\n&lt;type 'str'&gt;</msg>\n<status status=\"PASS\" endtime=\"20130913 16:36:59.721\" starttime=\"20130913 16:36:59.721\"></status>\n</kw"],
    ["rspec-json/dorny__rspec-json.json", "{\n  \"version\": \"3.13.0\",\n  \"examples\": [\n    {\n      \"id\": \"./spec/config/check_env_vars_spec.rb[1:1:1:1:1]\",\n      \"description\": \"logs success message\",\n      \"full_description\": \"CheckEnvVars#call when all env vars are defined behaves like success load logs success message\",\n      \"status\": \"passed\",\n      \"file_path\": \"./spec/config/check_env_vars_spec.rb\",\n      \"line_number\": 12,\n      \"run_time\": 0.079159625,\n      \"pending_message\": null\n    },\n    {\n      \"id\": \"./spec/config/check_env_vars_spec.rb[1:1:1:1:2]\",\n      \"description\": \"fails in assertion\",\n      \"full_description\": \"CheckEnvVars#call when all env vars are defined behaves like success load fails in assertion\",\n      \"status\": \"failed\",\n      \"file_path\": \"./spec/config/check_env_vars_spec.rb\",\n      \"line_number\": 17,\n      \"run_time\": 0.004411051,\n      \"pending_message\": null,\n      \"exception\": {\n        \"class\":"],
    ["tap/tapjs__version-14.tap", "TAP version 14\n1..5\nok 1\nok 2\nok 3\nok 4\nok 5\n"],
    ["tap/tapjs__tap-tests.tap", "TAP version 13\n# buffer_compare.js\n# TAP version 13\n# same buffers\nok 1 should be equivalent\n# not same buffers\nok 2 should not be equivalent\n# tests 2\n# pass  2\n# ok\nok 3 test/buffer_compare.js\n\n# common.js\nok 4 just setup, nothing relevant\nok 5 test/common.js\n\n# consumer.js\n# TAP version 13\n# basic.tap\nok 6 should be equivalent\n# indent.tap\nok 7 should be equivalent\n# missing.tap\nok 8 should be equivalent\n# skip-all.tap\nok 9 should be equivalent\n# yamlish.tap\nok 10 should be equivalent\n# tests 5\n# pass  5\n# ok\nok 11 test/consumer.js\n\n# debug-test.js\ndebug test\nt.plan=1\n'Debugger listening on"],
    ["trx/dorny__empty-dotnet-trx.trx", "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<TestRun id=\"80e4c095-f726-4ab2-9441-416daa162672\" name=\"...\" runUser=\"...\" xmlns=\"http://microsoft.com/schemas/VisualStudio/TeamTest/2010\">\n  <Times creation=\"2021-02-26T10:36:33.7131022+02:00\" queuing=\"2021-02-26T10:36:33.7131029+02:00\" start=\"2021-02-26T10:36:33.3278956+02:00\" finish=\"2021-02-26T10:36:33.7139830+02:00\" />\n  <TestSettings name=\"default\" id=\"863a1d8b-ee3b-45f9-86ee-1869bc4e889f\">\n    <Deployment runDeploymentRoot=\"...\" />\n  </TestSettings>\n  <TestLists>\n    <TestList name=\"Results Not in a List\" id=\"8c84fa94-04c1-424b-9868-57a2d4851a1d\" "],
    ["trx/dorny__FluentValidation.Tests.trx", "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<TestRun id=\"61a44da7-13c2-4e68-b76a-995af5b7c636\" name=\"Michal@DORNY-PC 2021-01-28 21:34:14\" runUser=\"DORNY-PC\\Michal\" xmlns=\"http://microsoft.com/schemas/VisualStudio/TeamTest/2010\">\n  <Times creation=\"2021-01-28T21:34:14.0898908+01:00\" queuing=\"2021-01-28T21:34:14.0898916+01:00\" start=\"2021-01-28T21:34:12.8947623+01:00\" finish=\"2021-01-28T21:34:17.3745367+01:00\" />\n  <TestSettings name=\"default\" id=\"e29c919e-321c-4fe2-965b-323442dd84da\">\n    <Deployment runDeploymentRoot=\"Michal_DORNY-PC_2021-01-28_21_34_14\" />\n  </TestSettings>\n  <Results>\n    <UnitTe"],
    ["xunit2/allure2__passed-test.xml", "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<assemblies>\n    <assembly>\n        <collection>\n            <test name=\"Some test\"\n                  type=\"org.example.XunitTest\"\n                  method=\"passedTest\" time=\"0.0445156\"\n                  result=\"Pass\">\n                <output><![CDATA[test output\\n]]></output>\n            </test>\n        </collection>\n    </assembly>\n</assemblies>\n"],
    ["xunit2/xunit-plugin__xunitdotnet-testcase1-input.xml", "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<assemblies>\n  <assembly name=\"C:\\Jenkins\\jobs\\my-project\\workspace\\MyProject\\MyProject.Tests\\bin\\Release\\MyProject.Tests.DLL\" environment=\"64-bit .NET 4.0.30319.18444 [collection-per-class, parallel]\" test-framework=\"xUnit.net 2.0.0.2785\" run-date=\"2014-12-18\" run-time=\"14:34:32\" config-file=\"C:\\Jenkins\\jobs\\my-project\\workspace\\MyProject\\xunit\\xunit.console.exe.Config\" total=\"3\" passed=\"1\" failed=\"1\" skipped=\"1\" time=\"0.288\" errors=\"0\">\n    <errors />\n    <collection total=\"3\" passed=\"1\" failed=\"1\" skipped=\"1\" name=\"Test collection for MyProject.Tests.S"],
];

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
    t.same(producers, ['testng'], `${f.path}: producer set once`);
  }
});

t.test('sniff: every fixture votes for TestNG', async (t) => {
  for (const f of manifest.files) {
    const bytes = readFileSync(path.join(FIXTURES, f.path));
    const { head: h } = readHead(bytes.subarray(0, HEAD_BYTES), f.path, bytes.length <= HEAD_BYTES);
    t.ok(testng.sniff(h) >= 0.9, f.path);
  }
});

t.test('sniff: every other format scores below the match threshold', async (t) => {
  for (const [name, text] of OTHER_FORMATS) t.ok(testng.sniff(head(text, name.split('/').pop())) < 0.5, name);
  const more: [string, string][] = [
    ['TestNG JUnit report', '<?xml version="1.0" encoding="UTF-8"?>\n<testsuite hostname="h" name="demo.FlakyTest" tests="3" failures="1" timestamp="2024-01-01T00:00:00 UTC"><testcase name="a" classname="demo.FlakyTest" time="0.001"/>'],
    ['empty', ''],
    ['text that mentions the root', 'testng-results <testng-results> is the root\n'],
    ['JSON', '{"testng-results":{}}'],
  ];
  for (const [name, text] of more) t.equal(testng.sniff(head(text)), 0, name);
  const broken = { ...head('<testng-results>'), rootAttributes: null } as unknown as Head;
  t.equal(testng.sniff(broken), 0, 'a malformed head scores 0 instead of throwing');
  t.equal(testng.sniff(head('<testng-results/>')), 0.85, 'a bare root still votes');
});

t.test('chunk boundaries do not change the containers', async (t) => {
  const parsed = manifest.files.filter((f) => !f.parse_error_expected);
  const size = (p: string): number => readFileSync(path.join(FIXTURES, p)).length;
  const largest = [...parsed].sort((a, b) => size(b.path) - size(a.path))[0]!;
  const bytes = readFileSync(path.join(FIXTURES, largest.path));
  // A small text limit also checks that truncation does not depend on where chunks end.
  const [one, seven, big] = await Promise.all([1, 7, 65536].map(async (n) => (await run(bytes, largest.path, n, 300)).containers));
  t.equal(count(big!).tests, largest.expected!.tests, largest.path);
  // Compared as JSON: tap's deep comparison of thousands of containers is slow and says no more.
  t.equal(JSON.stringify(one), JSON.stringify(big), 'chunks of 1 byte');
  t.equal(JSON.stringify(seven), JSON.stringify(big), 'chunks of 7 bytes');
  for (const f of parsed) {
    const b = readFileSync(path.join(FIXTURES, f.path));
    t.same((await run(b, f.path, 7, 300)).containers, (await run(b, f.path, 65536, 300)).containers, `${f.path} in 7-byte chunks`);
  }
});

t.test('empty, truncated and foreign input reject with FormatError', async (t) => {
  const bytes = readFileSync(path.join(FIXTURES, 'testng-plugin__testng-dp-result.xml'));
  const cases: [string, Buffer][] = [
    ['empty', Buffer.alloc(0)],
    ['whitespace only', Buffer.from(' \n')],
    ['prolog only', Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n')],
    ['truncated in the middle', bytes.subarray(0, Math.floor(bytes.length / 2))],
    ['truncated in a tag', Buffer.from('<testng-results><suite name="s"><test name="t"><class name="c"><test-meth')],
    ['JUnit root', Buffer.from('<testsuite name="a"><testcase name="b"/></testsuite>')],
    ['JSON', Buffer.from('{"suites":[]}')],
  ];
  for (const [name, b] of cases) t.type(await failure(run(b, 'testng-results.xml')), FormatError, name);
});

t.test('the generated TestNG 7 file: retries, flaky, failed @BeforeClass, data provider', async (t) => {
  const file = 'tally-generated__testng7-retry-config.xml';
  const { containers } = await run(readFileSync(path.join(FIXTURES, file)), file);
  const byTitle = (title: string): Container[] => containers.filter((c) => c.title === title);
  const [flaky] = byTitle('passesOnSecondTry');
  t.match(flaky, { type: 'test', status: 'passed', flaky: true, output: { stdout: 'attempt 2' }, properties: [{ name: 'group', value: 'smoke' }] });
  t.same(flaky!.attempts!.map((a) => a.status), ['failed', 'passed']);
  t.match(flaky!.attempts![0], { durationMs: 0, failure: { type: 'java.lang.AssertionError', message: 'first attempt fails expected [true] but found [false]' } });
  // The second retried run of alwaysFails is written after its final FAIL; it is still an attempt.
  const always = byTitle('alwaysFails');
  t.equal(always.length, 1, 'three runs of alwaysFails are one test');
  t.match(always[0], { status: 'failed', flaky: false, durationMs: 1 });
  t.same(always[0]!.attempts!.map((a) => [a.status, a.durationMs]), [['failed', 6], ['failed', 0], ['failed', 1]]);
  t.match(byTitle('connect')[0], { type: 'test', status: 'errored', meta: { config: 'true', synthetic: 'config-failure', classname: 'demo.BrokenSetupTest' }, failure: { message: 'database unreachable', type: 'java.lang.IllegalStateException' } });
  t.match(byTitle('needsDatabase')[0], { status: 'skipped', failure: { message: 'database unreachable' } });
  t.match(byTitle('withData(1)')[0], { status: 'passed', meta: { dataProvider: 'numbers' } });
  t.match(byTitle('withData(2)')[0], { status: 'failed', failure: { message: 'too big: 2 expected [true] but found [false]' } });
  const root = containers[containers.length - 1]!;
  t.match(root, { type: 'suite', title: 'Surefire suite', parentId: null, status: 'errored', durationMs: 43, startedAt: '2026-11-22T01:07:02.000Z' });
  t.notOk(root.startedAtNaive, '`UTC` is a zone');
  t.notOk(containers.some((c) => c.type === 'step'), 'no retried run is left over');
});

t.test('state machine: retried runs become attempts of their final run', async (t) => {
  const retried = { retried: 'true', status: 'SKIP' };
  // Without a root `retried` count the class streams: a retried run waits for the next final run.
  const streamed = drive(
    inClass({}, [
      ...method({ name: 'a', signature: 'a()', ...retried, 'duration-ms': '5' }, exception('java.lang.AssertionError', 'boom')),
      ...method({ name: 'b', signature: 'b()', status: 'PASS' }),
      ...method({ name: 'a', signature: 'a()', status: 'PASS', 'duration-ms': '7' }),
      ...method({ name: 'c', signature: 'c()', ...retried }),
    ]),
  );
  t.same(count(streamed), { tests: 2, passed: 2, failed: 0, errored: 0, skipped: 0 });
  const a = streamed.find((c) => c.title === 'a')!;
  t.match(a, { flaky: true, durationMs: 7 });
  t.same(a.attempts, [
    { status: 'failed', durationMs: 5, failure: { message: 'boom', type: 'java.lang.AssertionError', stack: 'java.lang.AssertionError: boom\n\tat X.y(X.java:1)' } },
    { status: 'passed', durationMs: 7, failure: null },
  ]);
  t.match(streamed.find((c) => c.title === 'c'), { type: 'step', status: 'skipped', meta: { retried: 'true' } }, 'a retried run without its final run is kept, not counted');

  // With `retried="N"` on the root the class is held, so a retried run written after its final run
  // (same start millisecond) still joins it; parameters keep data-provider rows apart.
  const param = (v: string): Event[] => [['open', 'params'], ['open', 'param', { index: '0' }], ['open', 'value'], ['text', `\n ${v} \n`], ['close', 'value'], ['close', 'param'], ['close', 'params']];
  const held = drive(
    inClass({ retried: '2' }, [
      ...method({ name: 'd', signature: 'd(int)', status: 'FAIL' }, [...param('1'), ...exception('E', 'final')]),
      ...method({ name: 'd', signature: 'd(int)', ...retried }, [...param('1'), ...exception('E', 'first')]),
      ...method({ name: 'd', signature: 'd(int)', ...retried }, [...param('2'), ...exception('E', 'row two')]),
      ...method({ name: 'd', signature: 'd(int)', status: 'PASS' }, param('2')),
    ]),
  );
  t.same(count(held), { tests: 2, passed: 1, failed: 1, errored: 0, skipped: 0 });
  const d1 = held.find((c) => c.title === 'd(1)')!;
  const d2 = held.find((c) => c.title === 'd(2)')!;
  t.same(d1.attempts!.map((x) => x.failure?.message), ['first', 'final']);
  t.equal(d1.flaky, false);
  t.equal(d2.flaky, true);
  t.ok(held.findIndex((c) => c.title === 'd(1)') < held.findIndex((c) => c.title === 'demo.C'), 'tests are emitted before their class');
});

t.test('state machine: configuration methods, groups, output, statuses', async (t) => {
  const out = drive([
    ['open', 'testng-results', {}],
    ['open', 'reporter-output'],
    ['open', 'line'],
    ['text', 'run-level line'],
    ['close', 'line'],
    ['close', 'reporter-output'],
    ['open', 'suite', { name: 'S' }],
    ['open', 'groups'],
    ['open', 'group', { name: 'fast' }],
    ['open', 'method', { signature: 'C.t1()', name: 't1', class: 'pkg.C' }],
    ['close', 'method'],
    ['close', 'group'],
    ['close', 'groups'],
    ['open', 'test', { name: 'T' }],
    ['open', 'class', { name: 'C', package: 'pkg' }],
    ...method({ name: 'setUp', 'is-config': 'true', status: 'PASS' }),
    ...method({ name: 'tearDown', 'is-config': 'true', status: 'SKIP' }),
    ...method({ name: 'init', 'is-config': 'true', status: 'FAIL' }, exception('java.lang.IllegalStateException', 'no db')),
    ...method({ name: 't1', status: 'PASS', groups: 'slow, fast', description: 'does a thing' }, [
      ['open', 'reporter-output'],
      ['open', 'line'],
      ['text', '\n   first  \n  '],
      ['close', 'line'],
      ['open', 'line'],
      ['text', 'second'],
      ['close', 'line'],
      ['close', 'reporter-output'],
    ]),
    ...method({ name: 't2', status: 'SUCCESS_PERCENTAGE_FAILURE' }, exception('E', 'within percentage')),
    ...method({ name: 't3', status: 'WEIRD' }),
    ['close', 'class'],
    ['close', 'test'],
    ['close', 'suite'],
    ['close', 'testng-results'],
  ]);
  t.same(count(out), { tests: 4, passed: 2, failed: 0, errored: 1, skipped: 1 }, 'a failed config is one errored test; an unknown status counts as skipped');
  const get = (title: string): Container => out.find((c) => c.title === title)!;
  t.match(get('setUp'), { type: 'hook', status: 'passed', meta: { config: 'true' } });
  t.match(get('tearDown'), { type: 'hook', status: 'skipped' });
  t.match(get('init'), { type: 'test', status: 'errored', failure: { message: 'no db', type: 'java.lang.IllegalStateException' } });
  t.match(get('t1'), { status: 'passed', output: { stdout: 'first\nsecond', stderr: null }, meta: { classname: 'pkg.C', description: 'does a thing' } });
  t.same(get('t1').properties, [{ name: 'group', value: 'fast' }, { name: 'group', value: 'slow' }], 'suite <groups> and the groups attribute, once each');
  t.match(get('t2'), { status: 'passed', failure: null });
  t.match(get('pkg.C'), { type: 'suite', status: 'errored' });
  t.notOk(out.some((c) => c.output?.stdout?.includes('run-level')), 'run-level reporter output belongs to no container');
});

t.test('started-at values: zones, abbreviations and literal Z', async (t) => {
  const cases: [string, string | null, boolean?][] = [
    ['2024-01-02T03:04:05 UTC', '2024-01-02T03:04:05.000Z', false],
    ['2012-01-23T10:51:27Z', '2012-01-23T10:51:27.000Z', false],
    ['2024-01-02T03:04:05 IST', '2024-01-02T03:04:05.000Z', true],
    ['2024-01-02T03:04:05 CEST', '2024-01-02T03:04:05.000Z', true],
    ['2024-01-02T03:04:05+05:30', '2024-01-01T21:34:05.000Z', false],
    ['02 Jan 2024', null],
    ['', null],
  ];
  for (const [raw, iso, naive] of cases) {
    const got = parseStartedAt(raw);
    t.equal(got?.iso ?? null, iso, raw);
    if (iso !== null) t.equal(got?.naive, naive, `naive for ${raw}`);
  }
  const [test] = drive(inClass({}, method({ name: 'x', status: 'PASS', 'started-at': '2024-01-02T03:04:05 CEST', 'duration-ms': '12' })));
  t.match(test, { startedAt: '2024-01-02T03:04:05.000Z', startedAtNaive: true, durationMs: 12 });
});

t.test('long text is cut with the marker', async (t) => {
  const [test] = drive(inClass({}, method({ name: 'x', status: 'FAIL' }, exception('E', 'y'.repeat(50)))), 10);
  t.match(test!.failure!.message, /^y{10}\n\[… truncated by Tally at 10 characters\]$/);
});
