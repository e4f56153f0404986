import t, { type Test } from 'tap';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FormatError, isCountedTest, type Container, type Head } from '../../lib/formatter-api.js';
import { decodeText } from '../../lib/sniff/encoding.js';
import { HEAD_BYTES, readHead } from '../../lib/sniff/head.js';
import { robot } from './index.js';
import { robotHandler } from './parse.js';
import { HtmlRefScanner, fileRef, screenshotNames } from './attachments.js';
import { robotTiming } from './values.js';

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
  await robot.parse(
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
  const h = robotHandler({ fileName: 'output.xml', nextId: () => ++id, limits: { maxTextChars }, setProducer: () => {} }, (c) => out.push(c));
  for (const e of events) {
    if (e[0] === 'open') h.open(e[1], e[2] ?? {});
    else if (e[0] === 'text') h.text(e[1]);
    else h.close(e[1]);
  }
  h.end();
  return out;
}

const head = (text: string, fileName = 'r.xml'): Head => readHead(Buffer.from(text), fileName, true).head;

const status = (value: string, text = '', attrs: Record<string, string> = {}): Event[] => [['open', 'status', { status: value, ...attrs }], ...(text ? ([['text', text]] as Event[]) : []), ['close', 'status']];
const el = (name: string, attrs: Record<string, string>, body: Event[]): Event[] => [['open', name, attrs], ...body, ['close', name]];
const suite = (name: string, body: Event[], st = 'PASS', text = ''): Event[] => el('suite', { id: name, name }, [...body, ...status(st, text)]);
const test = (name: string, body: Event[], st = 'PASS', text = ''): Event[] => el('test', { id: name, name }, [...body, ...status(st, text)]);
const kw = (name: string, attrs: Record<string, string>, body: Event[], st = 'PASS', text = ''): Event[] => el('kw', { name, ...attrs }, [...body, ...status(st, text)]);
const msg = (text: string, attrs: Record<string, string> = {}): Event[] => el('msg', { level: 'INFO', ...attrs }, [['text', text]]);
const robotFile = (body: Event[]): Event[] => el('robot', { generator: 'Robot 6.1 (Python 3.11 on linux)' }, body);

/** Every container's parent is emitted after it, and every parent id is a container of the file. */
function childrenFirst(t: Test, containers: Container[], name: string): void {
  const ids = new Set(containers.map((c) => c.id));
  const emitted = new Set<number>();
  let ok = true;
  for (const c of containers) {
    if (c.parentId !== null && (emitted.has(c.parentId) || !ids.has(c.parentId))) ok = false;
    emitted.add(c.id);
  }
  t.ok(ok, `${name}: children before parents`);
}

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
    ["rspec-json/dorny__rspec-json.json", "{\n  \"version\": \"3.13.0\",\n  \"examples\": [\n    {\n      \"id\": \"./spec/config/check_env_vars_spec.rb[1:1:1:1:1]\",\n      \"description\": \"logs success message\",\n      \"full_description\": \"CheckEnvVars#call when all env vars are defined behaves like success load logs success message\",\n      \"status\": \"passed\",\n      \"file_path\": \"./spec/config/check_env_vars_spec.rb\",\n      \"line_number\": 12,\n      \"run_time\": 0.079159625,\n      \"pending_message\": null\n    },\n    {\n      \"id\": \"./spec/config/check_env_vars_spec.rb[1:1:1:1:2]\",\n      \"description\": \"fails in assertion\",\n      \"full_description\": \"CheckEnvVars#call when all env vars are defined behaves like success load fails in assertion\",\n      \"status\": \"failed\",\n      \"file_path\": \"./spec/config/check_env_vars_spec.rb\",\n      \"line_number\": 17,\n      \"run_time\": 0.004411051,\n      \"pending_message\": null,\n      \"exception\": {\n        \"class\":"],
    ["tap/tapjs__version-14.tap", "TAP version 14\n1..5\nok 1\nok 2\nok 3\nok 4\nok 5\n"],
    ["tap/tapjs__tap-tests.tap", "TAP version 13\n# buffer_compare.js\n# TAP version 13\n# same buffers\nok 1 should be equivalent\n# not same buffers\nok 2 should not be equivalent\n# tests 2\n# pass  2\n# ok\nok 3 test/buffer_compare.js\n\n# common.js\nok 4 just setup, nothing relevant\nok 5 test/common.js\n\n# consumer.js\n# TAP version 13\n# basic.tap\nok 6 should be equivalent\n# indent.tap\nok 7 should be equivalent\n# missing.tap\nok 8 should be equivalent\n# skip-all.tap\nok 9 should be equivalent\n# yamlish.tap\nok 10 should be equivalent\n# tests 5\n# pass  5\n# ok\nok 11 test/consumer.js\n\n# debug-test.js\ndebug test\nt.plan=1\n'Debugger listening on"],
    ["testng/testng-plugin__testng-failed-test-config.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testng-results skipped=\"0\" failed=\"0\" total=\"121\" passed=\"121\">\n    <reporter-output>\n    </reporter-output>\n    <suite name=\"Failed Test Method Config suite\" duration-ms=\"23913\" started-at=\"2012-01-23T10:51:27Z\" finished-at=\"2012-01-23T10:51:51Z\">\n        <groups>\n        </groups>\n        <test name=\"Failed Test Config Method test\" duration-ms=\"23913\" started-at=\"2012-01-23T10:51:27Z\" finished-at=\"2012-01-23T10:51:51Z\">\n            <class name=\"com.fakepkg.test.MyFakeTest\">\n                <test-method status=\"FAIL\" signature=\"testSetup\" name=\"testSetu"],
    ["testng/testng-plugin__testng-results-testng.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testng-results skipped=\"0\" failed=\"0\" total=\"526\" passed=\"526\">\n  <reporter-output>\n    <line>\n      <![CDATA[IN THE REPORTER: param1]]>\n    </line>\n    <line>\n      <![CDATA[IN THE REPORTER: param2]]>\n    </line>\n    <line>\n      <![CDATA[Child.test3]]>\n    </line>\n    <line>\n      <![CDATA[beforeSuite]]>\n    </line>\n    <line>\n      <![CDATA[beforeTest]]>\n    </line>\n    <line>\n      <![CDATA[beforeTestClass]]>\n    </line>\n    <line>\n      <![CDATA[beforeTestMethod]]>\n    </line>\n    <line>\n      <![CDATA[Child.test1]]>\n    </line>\n    <line>\n      <!["],
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
    childrenFirst(t, containers, f.path);
    t.equal(producers.length, 1, `${f.path}: producer set once`);
  }
  const { producers } = await run(readFileSync(path.join(FIXTURES, 'robot-plugin__low_failure_output.xml')), 'output.xml');
  t.same(producers, ['rebot'], 'Rebot-merged output');
});

t.test('sniff: every fixture votes for Robot', async (t) => {
  for (const f of manifest.files) {
    const bytes = readFileSync(path.join(FIXTURES, f.path));
    const { head: h } = readHead(bytes.subarray(0, HEAD_BYTES), f.path, bytes.length <= HEAD_BYTES);
    t.ok(robot.sniff(h) >= 0.9, f.path);
  }
});

t.test('sniff: every other format scores below the match threshold', async (t) => {
  for (const [name, text] of OTHER_FORMATS) t.ok(robot.sniff(head(text, name.split('/').pop())) < 0.5, name);
  const more: [string, string, number][] = [
    ['Robot --xunit output (JUnit)', '<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="Tests" tests="1" errors="0" failures="0" skipped="0" time="0.01" timestamp="2024-01-01T00:00:00.000"><testcase classname="Tests" name="A" time="0.001"/>', 0],
    ['some other <robot> vocabulary', '<robot><arm joints="6"/></robot>', 0.3],
    ['empty', '', 0],
    ['JSON', '{"robot":{}}', 0],
  ];
  for (const [name, text, want] of more) t.equal(robot.sniff(head(text)), want, name);
  t.equal(robot.sniff(head('<robot><suite id="s1" name="x">')), 0.85, 'no generator, first child <suite>');
  const broken = { ...head('<robot>'), rootAttributes: null } as unknown as Head;
  t.equal(robot.sniff(broken), 0, 'a malformed head scores 0 instead of throwing');
});

t.test('chunk boundaries do not change the containers', async (t) => {
  const parsed = manifest.files.filter((f) => !f.parse_error_expected);
  const size = (p: string): number => readFileSync(path.join(FIXTURES, p)).length;
  const largest = [...parsed].sort((a, b) => size(b.path) - size(a.path))[0]!;
  const bytes = readFileSync(path.join(FIXTURES, largest.path));
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
  const bytes = readFileSync(path.join(FIXTURES, 'robot-plugin__blue_skip.xml'));
  const cases: [string, Buffer][] = [
    ['empty', Buffer.alloc(0)],
    ['whitespace only', Buffer.from('\n\n')],
    ['prolog only', Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n')],
    ['truncated in the middle (a killed run)', bytes.subarray(0, Math.floor(bytes.length / 2))],
    ['truncated in a tag', Buffer.from('<robot generator="Robot 7.0"><suite id="s1" name="A"><test id="s1-t1" na')],
    ['JUnit root', Buffer.from('<testsuite name="a"><testcase name="b"/></testsuite>')],
    ['JSON', Buffer.from('{"suite":{}}')],
  ];
  for (const [name, b] of cases) t.type(await failure(run(b, 'output.xml')), FormatError, name);
});

t.test('the generated RF 7 file: nested teardown failure, screenshots, steps and hooks', async (t) => {
  const file = 'tally-generated__rf7-nested-teardown-screenshots.xml';
  const { containers } = await run(readFileSync(path.join(FIXTURES, file)), file);
  const get = (title: string): Container => containers.find((c) => c.title === title)!;
  t.match(get('Passes With Screenshot'), {
    type: 'test',
    status: 'failed',
    failure: { message: 'Parent suite teardown failed:\ninner teardown broke', type: null, stack: null },
    attachmentRefs: ['selenium-screenshot-1.png'],
    properties: [{ name: 'tag', value: 'smoke' }, { name: 'tag', value: 'ui' }],
    startedAt: '2026-11-22T01:07:30.654Z',
    startedAtNaive: true,
    meta: { id: 's1-s1-s1-t1', line: '2' },
  });
  t.match(get('Fails With Screenshot'), { status: 'failed', failure: { message: 'Element not found' }, attachmentRefs: ['screens/failure.png'] });
  t.match(get('Skipped One'), { status: 'skipped', failure: { message: 'not today' } });
  t.match(get('Simple Pass'), { status: 'passed', failure: null }, 'a sibling suite is not touched by the teardown');
  t.match(get('Inner'), { type: 'suite', status: 'failed', failure: { message: 'Suite teardown failed:\ninner teardown broke' } });
  const hooks = containers.filter((c) => c.type === 'hook');
  t.same(hooks.map((h) => [h.title, h.status, h.parentId]), [
    ['BuiltIn.Log', 'passed', get('Inner').id],
    ['BuiltIn.Fail', 'failed', get('Inner').id],
    ['BuiltIn.Log', 'passed', get('Simple Pass').id],
  ]);
  t.same(containers.filter((c) => c.parentId === get('Simple Pass').id && c.type === 'step').map((c) => c.title), ['FOR IN RANGE', 'IF']);
  t.match(get('Passes With Screenshot'), { durationMs: 0.776 });
});

t.test('state machine: a suite teardown fails the PASS tests of its subtree only', async (t) => {
  const teardown = (text: string): Event[] => kw('Fail', { library: 'BuiltIn', type: 'TEARDOWN' }, [], 'FAIL', text);
  const out = drive(
    robotFile([
      ...suite('Root', [
        ...suite('A', [
          ...suite('A1', [...test('a1 pass', []), ...test('a1 fail', [], 'FAIL', 'own failure'), ...test('a1 skip', [], 'SKIP', 'skipped')]),
          ...test('a pass', []),
          ...teardown('A broke'),
        ], 'FAIL', 'Suite teardown failed:\nA broke'),
        ...suite('B', [...test('b pass', [])]),
      ]),
      ...el('statistics', {}, el('suite', {}, el('stat', { id: 's1', name: 'Root', pass: '2' }, [['text', 'Root']]))),
      ...el('errors', {}, msg('[ WARN ] something', { level: 'WARN' })),
    ]),
  );
  t.same(count(out), { tests: 5, passed: 1, failed: 3, errored: 0, skipped: 1 });
  const get = (title: string): Container => out.find((c) => c.title === title)!;
  t.match(get('a1 pass'), { status: 'failed', failure: { message: 'Parent suite teardown failed:\nA broke' } });
  t.match(get('a1 fail'), { status: 'failed', failure: { message: 'own failure' } });
  t.match(get('a pass'), { status: 'failed' });
  t.match(get('b pass'), { status: 'passed' });
  t.equal(out.filter((c) => c.type === 'suite').length, 4, '<suite> inside <statistics> is not a suite');
  childrenFirst(t, out, 'nested suites');
  // Failed and skipped tests go out at once; PASS tests wait for the top-level suite.
  t.ok(out.findIndex((c) => c.title === 'a1 fail') < out.findIndex((c) => c.title === 'a1 pass'));
  t.equal(out[out.length - 1]!.title, 'Root');
});

t.test('state machine: RF 2/3 teardown without status text, tags, metadata, last status wins', async (t) => {
  const out = drive(
    robotFile(
      suite(
        'Old',
        [
          ...test('t', [...el('tags', {}, [...el('tag', {}, [['text', 'smoke']]), ...el('tag', {}, [['text', ' ']])]), ...status('FAIL', 'first'), ...kw('Log', { type: 'kw' }, [])], 'PASS', ''),
          ...test('u', [...kw('BuiltIn.Fail', { type: 'kw' }, msg('boom', { level: 'FAIL' }), 'FAIL')], 'FAIL', 'boom'),
          ...kw('BuiltIn.Fail', { type: 'teardown' }, msg('went wrong', { level: 'FAIL' }), 'FAIL'),
          ...el('metadata', {}, el('item', { name: 'Version' }, [['text', '1.2']])),
        ],
        'FAIL',
        'Suite teardown failed:\nwent wrong',
      ),
    ),
  );
  const get = (title: string): Container => out.find((c) => c.title === title)!;
  t.match(get('t'), { status: 'failed', properties: [{ name: 'tag', value: 'smoke' }], failure: { message: 'Parent suite teardown failed:\nwent wrong' } }, 'the last direct <status> decides; the teardown message comes from the suite');
  t.match(out.find((c) => c.type === 'step' && c.title === 'BuiltIn.Fail'), { status: 'failed', failure: { message: 'boom' } }, 'a keyword without status text takes its FAIL message');
  t.match(out.find((c) => c.type === 'hook'), { title: 'BuiltIn.Fail', status: 'failed', failure: { message: 'went wrong' } });
  t.same(get('Old').properties, [{ name: 'Version', value: '1.2' }]);
});

t.test('state machine: statuses, step titles, times', async (t) => {
  const out = drive(
    robotFile(
      suite('S', [
        ...test('not run', [], 'NOT RUN'),
        ...test('odd', [], 'WEIRD'),
        ...el('test', { id: 't3', name: 'rf7', line: '9' }, [
          ...el('for', { flavor: 'IN ENUMERATE' }, status('PASS')),
          ...el('while', { condition: '$x > 0' }, status('NOT RUN')),
          ...el('group', { name: 'Login' }, status('PASS')),
          ...el('variable', { name: '${x}' }, status('PASS')),
          ...kw('Should Be Equal', { owner: 'BuiltIn' }, []),
          ...el('setup', { name: 'Open', owner: 'Browser' }, status('PASS')),
          ...status('PASS', '', { start: '2024-03-01T10:00:00.123456', elapsed: '1.5' }),
        ]),
        ...el('test', { id: 't4', name: 'rf6' }, status('PASS', '', { starttime: '20240301 10:00:00.100', endtime: '20240301 10:00:02.350' })),
        ...el('test', { id: 't5', name: 'merged' }, status('PASS', '', { starttime: 'N/A', endtime: 'N/A' })),
      ]),
    ),
  );
  t.same(count(out), { tests: 5, passed: 3, failed: 0, errored: 0, skipped: 2 }, 'NOT RUN is skipped; an unknown status counts as skipped');
  const rf7 = out.find((c) => c.title === 'rf7')!;
  t.same(out.filter((c) => c.parentId === rf7.id).map((c) => [c.type, c.title, c.status]), [
    ['step', 'FOR IN ENUMERATE', 'passed'],
    ['step', 'WHILE $x > 0', 'skipped'],
    ['step', 'GROUP Login', 'passed'],
    ['step', 'VARIABLE ${x}', 'passed'],
    ['step', 'BuiltIn.Should Be Equal', 'passed'],
    ['hook', 'Browser.Open', 'passed'],
  ]);
  t.match(rf7, { startedAt: '2024-03-01T10:00:00.123Z', startedAtNaive: true, durationMs: 1500, meta: { id: 't3', line: '9' } });
  t.match(out.find((c) => c.title === 'rf6'), { startedAt: '2024-03-01T10:00:00.100Z', durationMs: 2250 });
  t.match(out.find((c) => c.title === 'merged'), { startedAt: null, durationMs: null });
  t.same(robotTiming({ elapsedtime: '42', starttime: 'N/A' }), { startedAt: null, durationMs: 42 });
});

t.test('attachments: HTML messages, plain screenshot names, what is not a file', async (t) => {
  const out = drive(
    robotFile(
      suite('S', [
        ...kw('Open', { type: 'setup' }, msg('<img src="suite-shot.png">', { html: 'true' })),
        ...test('t', [
          ...kw('Capture', {}, [
            ...kw('Nested', {}, msg('</td></tr><tr><td colspan="3"><a href="selenium-screenshot-7.png"><img src="selenium-screenshot-7.png" width="800px"></a>', { html: 'yes' })),
            ...msg('<a href="https://example.com/x.png">remote</a><img src="data:image/png;base64,AAAA"><a href="log.html#s1">log</a><a href="details">no extension</a>', { html: 'true' }),
            ...msg("<img src='file:///C:/work/out/shot%201.png'>", { html: 'true' }),
            ...msg('Screenshot saved to /home/ci/out/selenium-screenshot-8.png and <img src="not-html.png">'),
          ]),
        ]),
      ]),
    ),
  );
  t.same(out.find((c) => c.title === 't')!.attachmentRefs, ['selenium-screenshot-7.png', 'log.html', 'C:/work/out/shot 1.png', '/home/ci/out/selenium-screenshot-8.png']);
  t.same(out.find((c) => c.title === 'S')!.attachmentRefs, ['suite-shot.png'], 'suite setup screenshots belong to the suite');

  const found: string[] = [];
  const scanner = new HtmlRefScanner((r) => found.push(r));
  const html = '<a hr' + 'ef="a/b.png"><img src="' + 'x'.repeat(10_000) + '"><img SRC = "c.png">';
  for (let i = 0; i < html.length; i += 3) scanner.push(html.slice(i, i + 3));
  t.same(found, ['a/b.png', 'c.png'], 'values split across pieces are found; an over-long inline value is skipped');
  t.same(screenshotNames('see C:\\ci\\selenium-screenshot-1.png, then selenium-screenshot-2.jpg.'), ['C:\\ci\\selenium-screenshot-1.png', 'selenium-screenshot-2.jpg']);
  t.equal(fileRef('#top', true), null);
  t.equal(fileRef('mailto:a@b', false), null);
  t.equal(fileRef('shots/a.png?v=1', false), 'shots/a.png');
});

t.test('long status text is cut with the marker', async (t) => {
  const out = drive(robotFile(suite('S', test('t', [], 'FAIL', `\n  ${'y'.repeat(50)}`))), 10);
  t.match(out.find((c) => c.title === 't')!.failure!.message, /^y{10}\n\[… truncated by Tally at 10 characters\]$/);
});
