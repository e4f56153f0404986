/**
 * The harness the built-in formatters' tests (formatters/<key>/<key>.test.ts) share:
 *
 * - `formatterFixtures(formatter, import.meta.url)`: the formatter's fixtures folder, its
 *   MANIFEST.json and `run`, which parses bytes as Tally does (head, encoding, the bytes in chunks).
 * - The checks every formatter passes the same way, each called from the test file's own `t.test`:
 *   `expectFixtureFolder` (listing, sha256 and README of the fixtures), `expectManifestTotals`,
 *   `expectChunkIndependence`, `expectFormatErrors`; the JSON report formats share all of theirs
 *   (`jsonReportChecks`).
 * - Tables of other formats' heads the sniff tests vote against (`headOf` builds a head from text).
 * - `driveHandler` (with `feedXml`, `walkJson`) to drive a formatter's state machine without its
 *   stream shell.
 *
 * Totals and the manifest come from the conformance kit (lib/formatter/check.ts, what `tally
 * formatter check` runs). Its `parseBytes` is not the runner here: it decodes the whole file and
 * cuts the text in characters, with `smart: true`, a fixed text limit and no producer, while these
 * tests cut the raw bytes (so 1-byte chunks split multi-byte characters in the decoder), set the
 * text limit and read the producer.
 */
import type { Test } from 'tap';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  FormatError,
  type Container,
  type Formatter,
  type Head,
  type JsonHandler,
  type JsonPath,
  type ParseContext,
  type XmlHandler,
} from '../../lib/formatter/api.js';
import { fixturesIn, totalsOf } from '../../lib/formatter/check.js';
import { decodeText } from '../../lib/formatter/encoding.js';
import { HEAD_BYTES, readHead } from '../../lib/formatter/head.js';

/** One file of a fixtures folder's MANIFEST.json. */
export type ManifestEntry = ReturnType<typeof fixturesIn>['manifest'][number] & { sha256: string };

/** What one parse gave: the head Tally voted on, the containers in emit order, every producer set. */
export interface Parsed {
  head: Head;
  containers: Container[];
  producers: string[];
}

/** Parses `bytes` as a file named `fileName`, fed in chunks of `chunkSize` bytes, text cut at `maxTextChars`. */
export type Run = (bytes: Buffer, fileName: string, chunkSize?: number, maxTextChars?: number) => Promise<Parsed>;

export interface FormatterFixtures {
  formatter: Formatter;
  /** The formatter's `fixtures` folder. */
  dir: string;
  /** The files MANIFEST.json lists, with their sha256 and expected totals. */
  manifest: ManifestEntry[];
  run: Run;
  /** The bytes of a fixture. */
  read(name: string): Buffer;
  /** The head Tally builds from a fixture's first bytes, to vote on. */
  head(name: string): Head;
}

/** The fixtures beside a test file (`moduleUrl` is its `import.meta.url`), and a runner for `formatter`. */
export function formatterFixtures(formatter: Formatter, moduleUrl: string): FormatterFixtures {
  const dir = path.join(path.dirname(fileURLToPath(moduleUrl)), 'fixtures');
  const read = (name: string): Buffer => readFileSync(path.join(dir, name));
  return {
    formatter,
    dir,
    manifest: loadManifest(dir),
    run: runner(formatter),
    read,
    head: (name) => headOfBytes(read(name), name),
  };
}

/** MANIFEST.json of a fixtures folder; a folder without one is an error, not an empty list. */
export function loadManifest(dir: string): ManifestEntry[] {
  if (!existsSync(path.join(dir, 'MANIFEST.json'))) throw new Error(`no MANIFEST.json in ${dir}`);
  return fixturesIn(dir).manifest as ManifestEntry[];
}

async function* byteChunks(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

/** Decodes and parses as Tally does: encoding from the head, the bytes in chunks of `chunkSize`. */
export function runner(formatter: Formatter): Run {
  return async (bytes, fileName, chunkSize = 65536, maxTextChars = 100_000) => {
    const { head, encoding } = readHead(bytes.subarray(0, HEAD_BYTES), fileName, bytes.length <= HEAD_BYTES);
    const containers: Container[] = [];
    const producers: string[] = [];
    let id = 0;
    await formatter.parse(
      decodeText(byteChunks(bytes, chunkSize), encoding),
      { emit: (c) => containers.push(c), ready: () => null },
      {
        fileName,
        nextId: () => ++id,
        limits: { maxTextChars },
        setProducer: (p) => producers.push(p),
        options: { smart: false },
      },
    );
    return { head, containers, producers };
  };
}

/** What `p` rejects with, or null when it resolves. */
export async function failure(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => null,
    (err: unknown) => err,
  );
}

/** The head of a whole file given as text (`complete`), for sniff tables. */
export function headOf(text: string, fileName: string): Head {
  return readHead(Buffer.from(text), fileName, true).head;
}

/** The head Tally builds from the first bytes of a file. */
export function headOfBytes(bytes: Buffer, fileName: string): Head {
  return readHead(bytes.subarray(0, HEAD_BYTES), fileName, bytes.length <= HEAD_BYTES).head;
}

export const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** The fixtures folder holds exactly the files of its manifest, byte-identical to their hash, each named in its README. */
export function expectFixtureFolder(t: Test, fx: FormatterFixtures): void {
  const readme = readFileSync(path.join(fx.dir, 'README.md'), 'utf8');
  const onDisk = readdirSync(fx.dir)
    .filter((f) => f !== 'MANIFEST.json' && f !== 'README.md')
    .sort();
  t.same(onDisk, fx.manifest.map((f) => f.path).sort());
  for (const f of fx.manifest) {
    t.equal(sha256(fx.read(f.path)), f.sha256, f.path);
    t.ok(readme.includes(f.path), `README lists ${f.path}`);
  }
}

/**
 * Every fixture parses (in one chunk) to its manifest totals, or rejects with a FormatError where
 * the manifest expects a parse error; `more` adds the formatter's own checks of each parsed fixture.
 */
export async function expectManifestTotals(
  t: Test,
  fx: FormatterFixtures,
  more?: (parsed: Parsed, name: string) => void,
): Promise<void> {
  for (const f of fx.manifest) {
    const bytes = fx.read(f.path);
    if (f.parse_error_expected) {
      t.type(await failure(fx.run(bytes, f.path)), FormatError, `${f.path} rejects with FormatError`);
      continue;
    }
    const parsed = await fx.run(bytes, f.path);
    t.same(totalsOf(parsed.containers), f.expected, f.path);
    more?.(parsed, f.path);
  }
}

/** Every container's parent was emitted after it (children first), and ids are unique. */
function expectChildrenFirst(t: Test, containers: Container[], name: string): void {
  const seen = new Set<number>();
  const ids = new Set(containers.map((c) => c.id));
  t.equal(ids.size, containers.length, `${name}: ids are unique`);
  for (const c of containers) {
    if (c.parentId !== null)
      t.ok(ids.has(c.parentId) && !seen.has(c.parentId), `${name}: ${c.title} comes before its parent`);
    seen.add(c.id);
  }
}

/** Every container's parent is emitted after it, and every parent id is a container of the file. */
export function childrenFirst(containers: Container[]): boolean {
  const ids = new Set(containers.map((c) => c.id));
  const emitted = new Set<number>();
  for (const c of containers) {
    if (c.parentId !== null && (emitted.has(c.parentId) || !ids.has(c.parentId))) return false;
    emitted.add(c.id);
  }
  return true;
}

const sizeOf = (fx: FormatterFixtures, name: string): number => fx.read(name).length;

/** The largest fixture that parses (the first in manifest order of equal ones). */
export function largestFixture(fx: FormatterFixtures): ManifestEntry {
  return [...fx.manifest]
    .filter((f) => !f.parse_error_expected)
    .sort((a, b) => sizeOf(fx, b.path) - sizeOf(fx, a.path))[0]!;
}

export interface ChunkCheck {
  /** The text limit of every run: a small one checks that truncation does not depend on where chunks end. Default 300. */
  maxTextChars?: number;
  /**
   * Compare the largest fixture's runs as JSON text instead of with tap's deep `same`: that is slow
   * on thousands of containers, and the JSON form (key order included) is what must not change.
   */
  asJson?: boolean;
  /** Then parse every fixture that parses in chunks of this many bytes too, against one chunk. */
  eachInChunksOf?: number;
  /** Compare those as JSON text too. */
  eachAsJson?: boolean;
}

/**
 * Chunk boundaries do not change the containers: the largest fixture in chunks of 1, 7 and 65536
 * bytes (its totals those of the manifest), and each fixture if `eachInChunksOf` says so.
 */
export async function expectChunkIndependence(t: Test, fx: FormatterFixtures, o: ChunkCheck = {}): Promise<void> {
  const maxTextChars = o.maxTextChars ?? 300;
  const same = (a: Container[], b: Container[], message: string, asJson = false): void => {
    if (asJson) t.equal(JSON.stringify(a), JSON.stringify(b), message);
    else t.same(a, b, message);
  };
  const largest = largestFixture(fx);
  const bytes = fx.read(largest.path);
  const [one, seven, big] = await Promise.all(
    [1, 7, 65536].map(async (n) => (await fx.run(bytes, largest.path, n, maxTextChars)).containers),
  );
  t.same(totalsOf(big!), largest.expected, largest.path);
  same(one!, big!, 'chunks of 1 byte', o.asJson);
  same(seven!, big!, 'chunks of 7 bytes', o.asJson);
  const n = o.eachInChunksOf;
  if (n === undefined) return;
  for (const f of fx.manifest.filter((x) => !x.parse_error_expected)) {
    const b = fx.read(f.path);
    const [small, whole] = [
      (await fx.run(b, f.path, n, maxTextChars)).containers,
      (await fx.run(b, f.path, 65536, maxTextChars)).containers,
    ];
    same(small, whole, `${f.path} in ${n}-byte chunks`, o.eachAsJson);
  }
}

/** Each input, parsed as a file named `fileName`, rejects with a FormatError. */
export async function expectFormatErrors(
  t: Test,
  fx: FormatterFixtures,
  fileName: string,
  cases: [name: string, input: Buffer | string][],
): Promise<void> {
  for (const [name, input] of cases)
    t.type(await failure(fx.run(Buffer.isBuffer(input) ? input : Buffer.from(input), fileName)), FormatError, name);
}

/** Empty, truncated and foreign input to a JSON report format, cut from its smallest fixture over 200 bytes. */
async function expectJsonReportRejects(t: Test, fx: FormatterFixtures): Promise<void> {
  const smallest = [...fx.manifest]
    .filter((f) => !f.parse_error_expected && sizeOf(fx, f.path) > 200)
    .sort((a, b) => sizeOf(fx, a.path) - sizeOf(fx, b.path))[0]!;
  const bytes = fx.read(smallest.path);
  await expectFormatErrors(t, fx, 'x.json', [
    ['empty', Buffer.alloc(0)],
    ['whitespace only', Buffer.from(' \n\t')],
    ['truncated in the middle', bytes.subarray(0, Math.floor(bytes.length / 2))],
    ['truncated one byte short', Buffer.from(bytes.toString('utf8').trimEnd().slice(0, -1))],
    ['a JSON array', Buffer.from('[{"stats":{}}]')],
    ['a JSON string', Buffer.from('"tests"')],
    ['not JSON', Buffer.from('<testsuites/>')],
    ['another JSON object', Buffer.from('{"name":"x","version":"1.0.0"}')],
  ]);
}

/** The container titled `title`; throws when there is none. */
export function byTitle(cs: Container[], title: string): Container {
  const c = cs.find((x) => x.title === title);
  if (!c) throw new Error(`no container ${title}`);
  return c;
}

/** What a handler of a formatter's state machine is given. */
export type HandlerContext = Pick<ParseContext, 'fileName' | 'nextId' | 'limits' | 'setProducer'>;

/**
 * Drives a formatter's state machine without its stream shell: the handler gets ids from 1, the
 * text limit and a producer list, `feed` hands it its events, then `end()` is called.
 */
export function driveHandler<H extends { end(): void }>(
  make: (ctx: HandlerContext, emit: (c: Container) => void) => H,
  fileName: string,
  maxTextChars: number,
  feed: (h: H) => void,
): { out: Container[]; producers: string[] } {
  const out: Container[] = [];
  const producers: string[] = [];
  let id = 0;
  const h = make(
    { fileName, nextId: () => ++id, limits: { maxTextChars }, setProducer: (p) => producers.push(p) },
    (c) => out.push(c),
  );
  feed(h);
  h.end();
  return { out, producers };
}

/** An XML event as parseXml hands it to a handler. */
export type XmlEvent = ['open', string, Record<string, string>?] | ['text', string] | ['close', string];

/** Feeds XML events to a handler. */
export function feedXml(h: XmlHandler, events: XmlEvent[]): void {
  for (const e of events) {
    if (e[0] === 'open') h.open(e[1], e[2] ?? {});
    else if (e[0] === 'text') h.text(e[1]);
    else h.close(e[1]);
  }
}

/** Walks a value the way parseJson does: containers the handler takes whole arrive in one `value`. */
export function walkJson(h: JsonHandler, path: JsonPath, v: unknown): void {
  if (v === null || typeof v !== 'object') return void h.value?.(path, v);
  const kind = Array.isArray(v) ? 'array' : 'object';
  if (h.open?.(path, kind) === true) return void h.value?.(path, v);
  for (const [k, child] of Object.entries(v)) walkJson(h, [...path, Array.isArray(v) ? Number(k) : k], child);
  h.close?.(path, kind);
}

/**
 * Heads of every JSON format Tally reads, as their tools write them (real key order, cut short),
 * plus a few XML/text ones. Each JSON report formatter (ctrf, jest, mocha, mochawesome,
 * playwright) votes on this table (`jsonReportChecks`): for its own rows, and under the match
 * threshold for all others.
 */
const JSON_HEADS: [format: string, name: string, file: string, text: string][] = [
  [
    'mocha',
    'Mocha JSON',
    'mocha.json',
    '{\n  "stats": {\n    "suites": 1,\n    "tests": 1,\n    "passes": 1,\n    "pending": 0,\n    "failures": 0,\n    "start": "2021-03-08T20:01:44.391Z",\n    "end": "2021-03-08T20:01:44.400Z",\n    "duration": 9\n  },\n  "tests": [\n    {\n      "title": "a",\n      "fullTitle": "s a",\n      "file": "/t/a.spec.js",\n      "duration": 1,\n      "currentRetry": 0,\n      "speed": "fast",\n      "err": {}\n    }\n  ],\n  "pending": [],\n  "failures": [],\n  "passes": []\n}\n',
  ],
  [
    'mocha',
    'Mocha JSON after an npm banner',
    'mocha.txt',
    '\n> pkg@1.0.0 test\n> mocha --reporter json\n\n{\n  "stats": {\n    "suites": 1,\n    "tests": 1,\n    "passes": 1,\n    "pending": 0,\n    "failures": 0,\n    "start": "2021-03-08T20:01:44.391Z",\n    "end": "2021-03-08T20:01:44.400Z",\n    "duration": 9\n  },\n  "tests": [',
  ],
  [
    'mochawesome',
    'mochawesome 4+',
    'mochawesome.json',
    '{"stats":{"suites":1,"tests":1,"passes":1,"pending":0,"failures":0,"start":"2023-01-01T00:00:00.000Z","end":"2023-01-01T00:00:01.000Z","duration":5,"testsRegistered":1,"passPercent":100,"pendingPercent":0,"other":0,"hasOther":false,"skipped":0,"hasSkipped":false},"results":[{"uuid":"u","title":"","fullFile":"/c/a.cy.js","file":"a.cy.js","beforeHooks":[],"afterHooks":[],"tests":[],"suites":[],"passes":[],"failures":[],"pending":[],"skipped":[],"duration":0,"root":true,"rootEmpty":true,"_timeout":2000}],"meta":{"mocha":{"version":"10.2.0"},"mochawesome":{"options":{},"version":"7.1.3"},"marge":{"options":{},"version":"6.2.0"}}}',
  ],
  [
    'mochawesome',
    'mochawesome < 4',
    'mochawesome.json',
    '{"stats":{"suites":0,"tests":0,"passes":0,"pending":0,"failures":0,"start":"2017-06-26T19:30:43.924Z","end":"2017-06-26T19:30:43.926Z","duration":2,"testsRegistered":0,"passPercent":null,"pendingPercent":null,"other":0,"hasOther":false,"skipped":0,"hasSkipped":false},"suites":{"title":"","suites":[],"tests":[],"pending":[],"root":true,"_timeout":2000,"uuid":"x","beforeHooks":[],"afterHooks":[],"fullFile":"","file":"","passes":[],"failures":[],"skipped":[],"duration":0,"rootEmpty":true},"allTests":[],"allPending":[],"allPasses":[],"allFailures":[],"copyrightYear":2017}',
  ],
  [
    'mochawesome',
    'mochawesome, nothing ran',
    'mochawesome.json',
    '{"stats":{"suites":0,"tests":0,"passes":0,"pending":0,"failures":0,"start":"2023-01-01T00:00:00.000Z","end":"2023-01-01T00:00:00.000Z","duration":0,"testsRegistered":0,"passPercent":0,"pendingPercent":0,"other":0,"hasOther":false,"skipped":0,"hasSkipped":false},"results":[false],"meta":{"mocha":{"version":"10.2.0"},"mochawesome":{"options":{},"version":"7.1.3"},"marge":{"options":{},"version":"6.2.0"}}}',
  ],
  [
    'jest',
    'Jest --json',
    'jest.json',
    '{"numFailedTestSuites":0,"numFailedTests":0,"numPassedTestSuites":1,"numPassedTests":1,"numPendingTestSuites":0,"numPendingTests":0,"numRuntimeErrorTestSuites":0,"numTodoTests":0,"numTotalTestSuites":1,"numTotalTests":1,"openHandles":[],"snapshot":{"added":0,"didUpdate":false},"startTime":1590606132766,"success":true,"testResults":[{"assertionResults":[{"ancestorTitles":[],"failureMessages":[],"fullName":"a","location":null,"status":"passed","title":"a"}],"endTime":1590606133773,"message":"","name":"/t/a.test.ts","startTime":1590606133162,"status":"passed","summary":""}],"wasInterrupted":false}',
  ],
  [
    'jest',
    'Vitest --reporter=json',
    'vitest.json',
    '{"numTotalTestSuites":1,"numPassedTestSuites":1,"numFailedTestSuites":0,"numPendingTestSuites":0,"numTotalTests":1,"numPassedTests":1,"numFailedTests":0,"numPendingTests":0,"numTodoTests":0,"snapshot":{"added":0},"startTime":1700000000000,"success":true,"testResults":[{"assertionResults":[{"ancestorTitles":["s"],"fullName":"s a","status":"passed","title":"a","duration":1,"failureMessages":[],"location":{"line":3,"column":3},"meta":{}}],"startTime":1700000000001,"endTime":1700000000005,"status":"passed","message":"","name":"/p/a.test.ts"}]}',
  ],
  [
    'jest',
    'Jest --json after an npm banner',
    'jest.txt',
    '\n> app@1.0.0 test\n> jest --json\n\n{"numFailedTestSuites":0,"numFailedTests":0,"numPassedTestSuites":1,"numPassedTests":1,"numPendingTestSuites":0,"numPendingTests":0,"numRuntimeErrorTestSuites":0,"numTotalTestSuites":1,"numTotalTests":1,"startTime":1590606132766,"success":true,"testResults":[]}\n',
  ],
  [
    'playwright',
    'Playwright JSON',
    'playwright.json',
    '{\n  "config": {\n    "configFile": "/p/playwright.config.ts",\n    "rootDir": "/p/tests",\n    "forbidOnly": false,\n    "fullyParallel": true,\n    "globalSetup": null,\n    "projects": [\n      {\n        "outputDir": "/p/test-results",\n        "repeatEach": 1,\n        "retries": 0,\n        "id": "chromium",\n        "name": "chromium",\n        "testDir": "/p/tests",\n        "timeout": 30000\n      }\n    ],\n    "version": "1.40.0",\n    "workers": 4\n  },\n  "suites": [\n    {\n      "title": "a.spec.ts",\n      "file": "a.spec.ts",\n      "column": 0,\n      "line": 0,\n      "specs": []\n    }\n  ],\n  "errors": [],\n  "stats": {\n    "startTime": "2023-12-01T10:00:00.000Z",\n    "duration": 1234.5,\n    "expected": 1,\n    "skipped": 0,\n    "unexpected": 0,\n    "flaky": 0\n  }\n}',
  ],
  [
    'ctrf',
    'CTRF (no specVersion)',
    'ctrf.json',
    '{\n\t"results": {\n\t\t"tool": {\n\t\t\t"name": "jest"\n\t\t},\n\t\t"summary": {\n\t\t\t"tests": 1,\n\t\t\t"passed": 1,\n\t\t\t"failed": 0,\n\t\t\t"pending": 0,\n\t\t\t"skipped": 0,\n\t\t\t"other": 0,\n\t\t\t"start": 1722511783500,\n\t\t\t"stop": 1722519283500\n\t\t},\n\t\t"tests": [\n\t\t\t{\n\t\t\t\t"name": "a",\n\t\t\t\t"status": "passed",\n\t\t\t\t"duration": 1\n\t\t\t}\n\t\t]\n\t}\n}',
  ],
  [
    'ctrf',
    'CTRF with reportFormat',
    'ctrf-report.json',
    '{"reportFormat":"CTRF","specVersion":"0.0.0","reportId":"33333333-3333-4333-8333-333333333333","timestamp":"2025-01-01T00:00:00Z","generatedBy":"playwright-ctrf-json-reporter","results":{"tool":{"name":"playwright","version":"1.49.0"},"summary":{"tests":0,"passed":0,"failed":0,"skipped":0,"pending":0,"other":0,"start":1,"stop":2},"tests":[]}}',
  ],
  [
    'allure',
    'Allure 2 result',
    '7f0aea93-a14c-4e5b-8936-ee5ead7be819-result.json',
    '{"uuid":"7f0aea93-a14c-4e5b-8936-ee5ead7be819","historyId":"9b7a2cb6","status":"passed","parameters":[],"labels":[{"name":"suite","value":"S"},{"name":"framework","value":"junit5"}],"name":"a","start":1612185393563,"stop":1612185393590,"steps":[],"attachments":[{"name":"log","source":"x-attachment.txt","type":"text/plain"}]}',
  ],
  [
    'allure',
    'Allure 2 container',
    '04642ae7-159a-4dcd-baef-8db98884d041-container.json',
    '{"uuid":"04642ae7-159a-4dcd-baef-8db98884d041","children":["7f0aea93-a14c-4e5b-8936-ee5ead7be819"],"name":"S","start":1,"stop":2,"befores":[{"name":"setUp","status":"passed","start":1,"stop":2}],"afters":[]}',
  ],
  [
    'allure',
    'Allure 2 result with results-like keys',
    'x-result.json',
    '{"uuid":"a","status":"failed","statusDetails":{"message":"m","trace":"t"},"name":"tests","fullName":"a.b.tests","start":1,"stop":2,"labels":[],"steps":[],"parameters":[]}',
  ],
  [
    'rspec',
    'RSpec JSON',
    'rspec.json',
    '{"version":"3.10.1","examples":[{"id":"./spec/a_spec.rb[1:1]","description":"a","full_description":"A a","status":"passed","file_path":"./spec/a_spec.rb","line_number":2,"run_time":0.001,"pending_message":null}],"summary":{"duration":0.01,"example_count":1,"failure_count":0,"pending_count":0,"errors_outside_of_examples_count":0},"summary_line":"1 example, 0 failures"}',
  ],
  [
    'cucumber',
    'Cucumber JSON',
    'cucumber.json',
    '[{"keyword":"Feature","uri":"a.feature","id":"a","name":"A","line":1,"elements":[{"type":"scenario","keyword":"Scenario","name":"s","steps":[{"keyword":"Given ","name":"x","result":{"status":"passed","duration":1}}]}]}]',
  ],
  ['cucumber', 'Cucumber JSON, empty run', 'cucumber.json', '[]'],
  [
    'cucumber-messages',
    'Cucumber Messages NDJSON',
    'messages.ndjson',
    '{"meta":{"protocolVersion":"22.0.0","implementation":{"name":"cucumber-js","version":"9.0.0"},"runtime":{"name":"node.js","version":"20.0.0"},"os":{"name":"linux"},"cpu":{"name":"x64"}}}\n{"source":{"uri":"a.feature","data":"Feature: A","mediaType":"text/x.cucumber.gherkin+plain"}}\n{"testRunStarted":{"timestamp":{"seconds":1,"nanos":0}}}\n',
  ],
  [
    'golang',
    'Go test2json',
    'go.json',
    '{"Time":"2022-01-01T00:00:00Z","Action":"run","Package":"p","Test":"TestA"}\n{"Time":"2022-01-01T00:00:01Z","Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\\n"}\n{"Time":"2022-01-01T00:00:01Z","Action":"pass","Package":"p","Test":"TestA","Elapsed":1}\n',
  ],
  [
    'dart',
    'Dart JSON reporter',
    'dart.json',
    '{"protocolVersion":"0.1.1","runnerVersion":"1.15.4","pid":1,"type":"start","time":0}\n{"suite":{"id":0,"platform":"vm","path":"test/a_test.dart"},"type":"suite","time":0}\n{"test":{"id":1,"name":"loading test/a_test.dart","suiteID":0,"groupIDs":[],"metadata":{"skip":false,"skipReason":null},"line":null,"column":null,"url":null},"type":"testStart","time":1}\n{"count":1,"time":2,"type":"allSuites"}\n',
  ],
  [
    'newman',
    'Newman JSON',
    'newman.json',
    '{"collection":{"info":{"name":"c"},"item":[]},"environment":{},"globals":{},"run":{"stats":{"iterations":{"total":1},"tests":{"total":1,"failed":0}},"executions":[],"timings":{"started":1},"failures":[]}}',
  ],
  [
    'junit',
    'JUnit XML',
    'r.xml',
    '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="jest tests" tests="1"><testsuite name="s" tests="1"><testcase name="a" classname="s a"/></testsuite></testsuites>',
  ],
  ['tap', 'TAP', 'r.tap', 'TAP version 13\n1..2\nok 1 - passes\nnot ok 2 - fails\n  ---\n  message: x\n  ...\n'],
  [
    'none',
    'other JSON',
    'package.json',
    '{"name":"x","version":"1.0.0","scripts":{"test":"mocha"},"results":[],"stats":{}}',
  ],
  ['none', 'a JSON string', 'r.json', '"stats"'],
  ['none', 'empty', 'r.json', ''],
];

/** The formatter keyed `key` votes for its own rows of the JSON heads, stays under 0.5 for the others, and never throws. */
function expectJsonHeadVotes(t: Test, formatter: Formatter, key: string): void {
  for (const [format, name, file, text] of JSON_HEADS) {
    const score = formatter.sniff(headOf(text, file));
    if (format === key) t.ok(score >= 0.5, `${name}: ${score}`);
    else t.ok(score < 0.5, `${name}: ${score}`);
  }
  // A head cut inside a string, and a malformed head, still get an answer.
  const cut = readHead(Buffer.from(JSON_HEADS.find(([f]) => f === key)![3].slice(0, 40)), 'r.json', false).head;
  t.doesNotThrow(() => formatter.sniff(cut));
  const broken = { ...cut, topLevelKeys: null, text: null } as unknown as Head;
  t.equal(formatter.sniff(broken), 0, 'a malformed head scores 0 instead of throwing');
}

/**
 * The tests the JSON report formatters (ctrf, jest, mocha, mochawesome, playwright) share, as
 * subtests of `t`: the fixture folder; the manifest counts, each fixture with its producer set once
 * and children before parents; every fixture votes 0.8 or more; the JSON heads, its own rows (those
 * of `key`) yes and all others no; chunk boundaries (compared as JSON text, a text limit of 300,
 * every fixture also in 7-byte chunks); and empty, truncated and foreign input.
 */
export function jsonReportChecks(t: Test, fx: FormatterFixtures, key: string): void {
  const { formatter } = fx;
  t.test('fixture folder: every file listed, byte-identical to its manifest hash, and in the README', async (t) =>
    expectFixtureFolder(t, fx),
  );
  t.test('every fixture gives the manifest counts, children before parents', async (t) =>
    expectManifestTotals(t, fx, ({ containers, producers }, name) => {
      t.equal(producers.length, 1, `${name}: the producer is set once`);
      expectChildrenFirst(t, containers, name);
    }),
  );
  t.test('sniff: every fixture votes for this format', async (t) => {
    for (const f of fx.manifest)
      t.ok(formatter.sniff(fx.head(f.path)) >= 0.8, `${f.path}: ${formatter.sniff(fx.head(f.path))}`);
  });
  t.test('sniff: its own heads vote yes, every other format stays under the threshold', async (t) =>
    expectJsonHeadVotes(t, formatter, key),
  );
  t.test('chunk boundaries do not change the containers', async (t) =>
    expectChunkIndependence(t, fx, { asJson: true, eachInChunksOf: 7, eachAsJson: true }),
  );
  t.test('empty, truncated and foreign input reject with FormatError', async (t) => expectJsonReportRejects(t, fx));
}

/** Heads of the other formats' real files (first bytes of a shared fixture each), which must not be claimed. */
const FOREIGN_HEADS: [format: string, file: string, text: string][] = [
  [
    'allure',
    'allure2__invalid-status.json',
    '{\n  "uuid": "93542b02b4f3b5c69033c3643e0428ed",\n  "status": "some-invalid-string",\n  "name": "shouldCreate",\n  "start": 1479552611395,\n  "stop": 1479552611399\n}',
  ],
  [
    'allure',
    'allure2__04642ae7-159a-4dcd-baef-8db98884d041-container.json',
    '{\n  "uuid" : "b1c94ca2fbc3e78fc30069c8d0f01680",\n  "children" : [ "120625640d9b3ddbd6b47646e544e313", "93542b02b4f3b5c69033c3643e0428ed" ],\n  "name" : "All",\n  "start" : 1480450609874,\n  "stop" : 1480450655458,\n  "befores" : [ {\n    "name" : "mockAuthorization",\n    "start" : 1480450609874,\n    "stop" : 1480450609892,\n    "steps" : [ {\n      "status" : "passed",\n      "name" : "generateRandomUsername",\n      "start" : 1480450609890,\n      "stop" : 1480450609891\n    }, {\n      "status" : "passed",\n      "parameters" : [ {\n        "name" : "username",\n        "value" : "some-user-123"\n      } ],\n      "name" : "createMockUser",\n      "start" : 1480450609892,\n      "stop" : 1480450609892\n    },',
  ],
  [
    'allure1-xml',
    'allure2__c32503a8-2981-43da-afa5-e0d82dacfefd-testsuite.xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<ns2:test-suite xmlns:ns2="urn:model.allure.qatools.yandex.ru" start="1412949538851" stop="1412949560112" version="1.4.4-SNAPSHOT">\n    <name>my.company.ManyInfoTest</name>\n    <description type="text">Testsuite has testcases with many steps\n    and\nmany lines in description</description>\n    <test-cases>\n        <test-case start="1412949539800" stop="1412949540461" status="failed">\n            <name>longAssertionTest</name>\n            <title>Test with long assertion text</title>\n            <failure>\n                <message>AssertionError:\nExpected: "{\\n\\"name\\": \\"test\\",\\n\\"value\\": \\"ok value\\"\\n}"\n     but: was "{\\n\\"name\\": \\"te',
  ],
  [
    'ctrf',
    'ctrf-github-test-reporter__test.json',
    '{\n\t"results": {\n\t\t"tool": {\n\t\t\t"name": "jest"\n\t\t},\n\t\t"summary": {\n\t\t\t"tests": 65,\n\t\t\t"passed": 65,\n\t\t\t"failed": 0,\n\t\t\t"pending": 0,\n\t\t\t"skipped": 0,\n\t\t\t"other": 0,\n\t\t\t"start": 1753814301032,\n\t\t\t"stop": 1753814313709,\n\t\t\t"extra": {\n\t\t\t\t"flakyRate": 0,\n\t\t\t\t"flakyRateChange": 0,\n\t\t\t\t"failRate": 0,\n\t\t\t\t"failRateChange": 0,\n\t\t\t\t"finalResults": 0,\n\t\t\t\t"finalFailures": 0,\n\t\t\t\t"result": "passed"\n\t\t\t}\n\t\t},\n\t\t"tests": [\n\t\t\t{\n\t\t\t\t"name": "String Helpers splitLines should split lines correctly for multiline strings",\n\t\t\t\t"duration": 21,\n\t\t\t\t"status": "passed",\n\t\t\t\t"rawStatus": "passed",\n\t\t\t\t"type": "unit",\n\t\t\t\t"filePath": "/home/runner/work/github-test-reporter/github-test-reporter/__tests__/handlebars/',
  ],
  [
    'cucumber-json',
    'cucumber-reporting__part2-rerun-failed.json',
    '[\n  {\n    "line": 1,\n    "elements": [\n      {\n        "start_timestamp": "2019-11-25T13:36:53.146Z",\n        "line": 4,\n        "name": "Open Home page",\n        "id": "home-page;open-home-page",\n        "after": [\n          {\n            "result": {\n              "duration": 853411900,\n              "status": "passed"\n            },\n            "match": {\n              "location": "ContextShutdownHook.teardown()"\n            }\n          }\n        ],\n        "type": "scenario",\n        "keyword": "Scenario",\n        "steps": [\n          {\n            "result": {\n              "duration": 12449931600,\n              "status": "failed"\n            },\n            "line": 5,\n            "name": ',
  ],
  [
    'dart-json',
    'dorny__dart-json.json',
    '{"protocolVersion":"0.1.1","runnerVersion":"1.15.4","pid":7504,"type":"start","time":0}\n{"suite":{"id":0,"platform":"vm","path":"test\\\\main_test.dart"},"type":"suite","time":0}\n{"test":{"id":1,"name":"loading test\\\\main_test.dart","suiteID":0,"groupIDs":[],"metadata":{"skip":false,"skipReason":null},"line":null,"column":null,"url":null},"type":"testStart","time":1}\n{"suite":{"id":2,"platform":"vm","path":"test\\\\second_test.dart"},"type":"suite","time":11}\n{"test":{"id":3,"name":"loading test\\\\second_test.dart","suiteID":2,"groupIDs":[],"metadata":{"skip":false,"skipReason":null},"line":null,"column":null,"url":null},"type":"testStart","time":11}\n{"count":2,"type":"allSuites","time":11}\n{"tes',
  ],
  [
    'go-test-json',
    'go-junit-report__105-panic.gojson.txt',
    '{"Time":"2019-10-09T00:00:00.596409464+00:00","Action":"output","Package":"package/name/panic","Output":"panic: init\\n"}\n{"Time":"2019-10-09T00:00:00.596508615+00:00","Action":"output","Package":"package/name/panic","Output":"\\n"}\n{"Time":"2019-10-09T00:00:00.596515201+00:00","Action":"output","Package":"package/name/panic","Output":"goroutine 1 [running]:\\n"}\n{"Time":"2019-10-09T00:00:00.596518457+00:00","Action":"output","Package":"package/name/panic","Output":"package/name/panic.init.0()\\n"}\n{"Time":"2019-10-09T00:00:00.596521268+00:00","Action":"output","Package":"package/name/panic","Output":"\\t/src/package/name/panic/main_test.go:6 +0x27\\n"}\n{"Time":"2019-10-09T00:00:00.596604261+00:00',
  ],
  [
    'go-test-json',
    'go-junit-report__108-paniclate.gojson.txt',
    '{"Time":"2019-10-09T00:00:00.660908821+00:00","Action":"run","Package":"package/name/paniclate","Test":"TestOne"}\n{"Time":"2019-10-09T00:00:00.660994505+00:00","Action":"output","Package":"package/name/paniclate","Test":"TestOne","Output":"=== RUN   TestOne\\n"}\n{"Time":"2019-10-09T00:00:00.661001176+00:00","Action":"output","Package":"package/name/paniclate","Test":"TestOne","Output":"    main_test.go:13: ok\\n"}\n{"Time":"2019-10-09T00:00:00.661007326+00:00","Action":"output","Package":"package/name/paniclate","Test":"TestOne","Output":"--- PASS: TestOne (0.00s)\\n"}\n{"Time":"2019-10-09T00:00:00.661010216+00:00","Action":"pass","Package":"package/name/paniclate","Test":"TestOne","Elapsed":0}\n{',
  ],
  [
    'jest-json',
    'jest-editor-support__failing_expects.json',
    '{"numFailedTestSuites":1,"numFailedTests":7,"numPassedTestSuites":5,"numPassedTests":8,"numPendingTestSuites":0,"numPendingTests":0,"numRuntimeErrorTestSuites":0,"numTotalTestSuites":6,"numTotalTests":15,"snapshot":{"added":0,"didUpdate":false,"failure":true,"filesAdded":0,"filesRemoved":0,"filesUnmatched":1,"filesUpdated":0,"matched":5,"total":6,"unchecked":0,"unmatched":1,"updated":0},"startTime":1495204247174,"success":false,"testResults":[{"assertionResults":[{"failureMessages":["Error: expect(received).toEqual(expected)\\n\\nExpected value to equal:\\n  2\\nReceived:\\n  1\\n    at Object.<anonymous>.it (/Users/orta/dev/projects/artsy/js/libs/jest-snapshots-svg/src/_tests/example.test.ts:3:13',
  ],
  [
    'junit',
    'dorny__jest-junit.xml',
    '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="jest tests" tests="6" failures="4" errors="0" time="1.36">\n  <testsuite name="__tests__\\main.test.js" errors="0" failures="3" skipped="0" timestamp="2020-10-27T21:39:41" time="0.486" tests="4">\n    <testcase classname="Test 1" name="Passing test" time="0.001">\n    </testcase>\n    <testcase classname="Test 1 › Test 1.1" name="Failing test" time="0.002">\n      <failure>Error: expect(received).toBeTruthy()\n\nReceived: false\n    at Object.&lt;anonymous&gt; (C:\\Users\\Michal\\Workspace\\dorny\\test-check\\reports\\jest\\__tests__\\main.test.js:10:21)\n    at Object.asyncJestTest (C:\\Users\\Michal\\Workspace\\dorny\\test-check\\reports\\jest\\node_modules\\',
  ],
  [
    'mocha-json',
    'dorny__mocha-json.json',
    '{\n  "stats": {\n    "suites": 3,\n    "tests": 6,\n    "passes": 1,\n    "pending": 1,\n    "failures": 4,\n    "start": "2021-02-24T20:26:09.297Z",\n    "end": "2021-02-24T20:26:09.309Z",\n    "duration": 12\n  },\n  "tests": [\n    {\n      "title": "Timeout test",\n      "fullTitle": "Timeout test",\n      "file": "C:\\\\Users\\\\Michal\\\\Workspace\\\\dorny\\\\test-reporter\\\\reports\\\\mocha\\\\test\\\\second.test.js",\n      "duration": 8,\n      "currentRetry": 0,\n      "err": {\n        "stack": "Error: Timeout of 1ms exceeded. For async tests and hooks, ensure \\"done()\\" is called; if returning a Promise, ensure it resolves. (C:\\\\Users\\\\Michal\\\\Workspace\\\\dorny\\\\test-reporter\\\\reports\\\\mocha\\\\test\\\\second.test.js)\\n',
  ],
  [
    'mochawesome',
    'mochawesome-report-generator__sample-data-test.json',
    '{\n  "stats": {\n    "suites": 1,\n    "tests": 1,\n    "passes": 0,\n    "pending": 0,\n    "failures": 1,\n    "start": "2017-06-05T12:31:54.955Z",\n    "end": "2017-06-05T12:31:54.968Z",\n    "duration": 13,\n    "testsRegistered": 1,\n    "passPercent": 0,\n    "pendingPercent": 0,\n    "other": 0,\n    "hasOther": false,\n    "skipped": 0,\n    "hasSkipped": false\n  },\n  "results": [\n    {\n      "title": "",\n      "suites": [\n        {\n          "title": "Main Suite",\n          "suites": [],\n          "tests": [\n            {\n              "title": "should be true",\n              "fullTitle": "Main Suite should be true",\n              "timedOut": false,\n              "duration": 3,\n              "state',
  ],
  [
    'nunit2',
    'xunit-plugin__nunit-testcase8-input.xml',
    '<?xml version="1.0" encoding="utf-8" standalone="no"?>\n<!--This file represents the results of running a test suite-->\n<test-results name="/home/charlie/Dev/NUnit/nunit-2.5/work/src/bin/Debug/tests/mock-assembly.dll" total="21" errors="1" failures="1" not-run="7" inconclusive="1" ignored="4" skipped="0" invalid="3" date="2010-10-18" time="13:23:35">\n  <environment nunit-version="2.5.8.0" clr-version="2.0.50727.1433" os-version="Unix 2.6.32.25" platform="Unix" cwd="/home/charlie/Dev/NUnit/nunit-2.5/work/src/bin/Debug" machine-name="cedar" user="charlie" user-domain="cedar" />\n  <culture-info current-culture="en-US" current-uiculture="en-US" />\n  <test-suite type="Assembly" name="/home/charlie',
  ],
  [
    'nunit3',
    'dorny__dotnet-nunit.xml',
    '<?xml version="1.0" encoding="utf-8" standalone="no"?>\n<test-run id="0" runstate="Runnable" testcasecount="9" result="Failed" total="9" passed="3" failed="5" inconclusive="0" skipped="1" asserts="5" engine-version="3.12.0.0" clr-version="3.1.16" start-time="2021-06-28 20:23:41Z" end-time="2021-06-28 20:23:41Z" duration="0.230308">\n  <command-line><![CDATA[C:\\Users\\Michal\\.dotnet\\tools\\.store\\nunit.consolerunner.netcore\\3.12.0-beta2\\nunit.consolerunner.netcore\\3.12.0-beta2\\tools\\netcoreapp3.1\\any\\nunit3-console.dll reports/dotnet/DotnetTests.NUnitV3Tests/bin/Debug/netcoreapp3.1/DotnetTests.NUnitV3Tests.dll --result=__tests__/fixtures/dotnet-nunit.xml]]></command-line>\n  <test-suite type="Asse',
  ],
  [
    'playwright-json',
    'playwright-report-summary__report-nested.json',
    '{\n  "config": {\n    "configFile": "/project/tests/config/playwright.config.ts",\n    "rootDir": "/project/tests/functional",\n    "forbidOnly": false,\n    "fullyParallel": true,\n    "globalSetup": null,\n    "globalTeardown": null,\n    "globalTimeout": 0,\n    "grep": {},\n    "grepInvert": null,\n    "maxFailures": 0,\n    "metadata": {\n      "actualWorkers": 5\n    },\n    "preserveOutput": "always",\n    "reporter": [\n      [\n        "list",\n        null\n      ],\n      [\n        "html",\n        {\n          "outputFolder": "../reports/html",\n          "open": "on-failure"\n        }\n      ],\n      [\n        "json",\n        {\n          "outputFile": "../reports/json/report.json"\n        }\n      ],\n   ',
  ],
  [
    'robot',
    'robot-plugin__robot4_if_output.xml',
    '<?xml version="1.0" encoding="UTF-8"?>\n<robot generator="Robot 4.0rc1 (Python 3.8.5 on darwin)" generated="20210310 14:21:36.349" rpa="false">\n    <suite id="s1" name="Loops" source="/Users/aleksisimell/projects/jenkinsci/sample_robot/basic-rf-run/loops.robot">\n        <test id="s1-t1" name="If Success">\n            <kw name="Set Variable" library="BuiltIn">\n                <var>${var}</var>\n                <arg>mikki hiiri</arg>\n                <doc>Returns the given values which can then be assigned to a variables.</doc>\n                <msg timestamp="20210310 14:21:36.439" level="INFO">${var} = mikki hiiri</msg>\n                <status status="PASS" starttime="20210310 14:21:36.439" endt',
  ],
  [
    'rspec-json',
    'dorny__rspec-json.json',
    '{\n  "version": "3.13.0",\n  "examples": [\n    {\n      "id": "./spec/config/check_env_vars_spec.rb[1:1:1:1:1]",\n      "description": "logs success message",\n      "full_description": "CheckEnvVars#call when all env vars are defined behaves like success load logs success message",\n      "status": "passed",\n      "file_path": "./spec/config/check_env_vars_spec.rb",\n      "line_number": 12,\n      "run_time": 0.079159625,\n      "pending_message": null\n    },\n    {\n      "id": "./spec/config/check_env_vars_spec.rb[1:1:1:1:2]",\n      "description": "fails in assertion",\n      "full_description": "CheckEnvVars#call when all env vars are defined behaves like success load fails in assertion",\n      "st',
  ],
  ['tap', 'tapjs__version-14.tap', 'TAP version 14\n1..5\nok 1\nok 2\nok 3\nok 4\nok 5\n'],
  ['tap', 'tapjs__bailout.tap', '1..5\nok 1\nok 2\nok 3\nBail out!  GERONIMMMOOOOOO!!!\nok 4\nok 5\n'],
  [
    'testng',
    'testng-plugin__testng-dp-result.xml',
    '<testng-results>\n  <reporter-output>\n  </reporter-output>\n  <suite name="Ant suite" duration-ms="29" started-at="2011-03-09T21:13:15Z" finished-at="2011-03-09T21:13:15Z">\n    <groups>\n    </groups>\n    <test name="Ant test" duration-ms="29" started-at="2011-03-09T21:13:15Z" finished-at="2011-03-09T21:13:15Z">\n      <class name="org.jenkins.TestDataProvider">\n        <test-method status="FAIL" signature="test(int)" name="test" duration-ms="9" started-at="2011-03-09T21:13:15Z" finished-at="2011-03-09T21:13:15Z">\n          <params>\n            <param index="0">\n              <value>\n                <![CDATA[1]]>\n              </value>\n            </param>\n          </params>\n          <exceptio',
  ],
  [
    'trx',
    'allure2__sample.trx',
    '<?xml version="1.0" encoding="UTF-8"?>\n<TestRun id="97f57849-3919-4bc0-8b5a-60884faca4a9" name="camejef@BUMBLEBEE 2012-02-19 09:25:24" runUser="BUMBLEBEE\\camejef" xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010">\n    <TestSettings name="Default Test Settings" id="fca8b5a8-ae49-45c5-b2b7-a975e4a4fd10">\n        <Deployment userDeploymentRoot="c:\\dev\\pickles-results-harness" useDefaultDeploymentRoot="false" runDeploymentRoot="camejef_BUMBLEBEE 2012-02-19 09_25_24" />\n        <Execution>\n            <TestTypeSpecific />\n            <AgentRule name="Execution Agents">\n            </AgentRule>\n        </Execution>\n    </TestSettings>\n    <Times creation="2012-02-19T09:25:24.8479038-',
  ],
  [
    'xunit2',
    'xunit-plugin__xunitdotnet-testcase6-input.xml',
    '<?xml version="1.0" encoding="utf-8"?>\n<assemblies>\n\t<assembly name="Test.exe" environment="OS: Microsoft Windows NT 6.2.9200.0" run-date="2018-38-06" run-time="02:38:04" test-framework="Test Framework 0.1" total="1" passed="0" failed="1" skipped="0" errors="0">\n\t\t<collection name="collection1" time="36.7820544" total="1" passed="0" failed="1" skipped="0">\n\t\t\t<test name="collection1\\test.xml" type="" method="" time="36.7820544" result="Fail">\n\t\t\t\t<failure>\n\t\t\t\t\t<message>OK: TestProcess.Execution.ExitCode == 0&#xD;\nFAIL: Output differs from reference.&#xD;\n  Left:  data\\ref&#xD;\n  Right: results\\out&#xD;\n  &#xD;\n                    </message>\n\t\t\t\t</failure>\n\t\t\t</test>\n\t\t</collection>\n\t</as',
  ],
  [
    'cucumber-messages',
    'cucumber-js__basket.ndjson',
    '{"meta":{"protocolVersion":"32.2.0","implementation":{"version":"12.9.0","name":"cucumber-js"},"cpu":{"name":"x64"},"os":{"name":"linux","version":"6.18.44-fc-v595"},"runtime":{"name":"node.js","version":"20.20.2"}}}\n{"source":{"data":"@shop\\nFeature: Basket\\n  A small shop basket, used to produce a Cucumber Messages fixture.\\n\\n  Background:\\n    Given an empty basket\\n\\n  Scenario: adding an item\\n    When I add 2 \\"apple\\"\\n    Then the basket holds 2 items\\n\\n  Scenario: a wrong total fails\\n    When I add 1 \\"pear\\"\\n    Then the basket holds 3 items\\n    And the receipt is printed\\n\\n  Scenario: a pending step\\n    When I add 1 \\"plum\\"\\n    Then the discount is applied\\n\\n  Scenario: an undefined step\\n    When I add 1 \\"fig\\"\\n    Then something nobody wrote happens\\n\\n  @skip-me\\n  Scenario: a step skips itself\\n    When I add 1 \\"kiwi\\"\\n    Then the stock check is skipped\\n\\n ',
  ],
];

/** The foreign heads (cucumber, cucumber-messages, dart, rspec), but for the format named `own` in the table. */
export function foreignHeads(own: string): [format: string, file: string, text: string][] {
  return FOREIGN_HEADS.filter(([format]) => format !== own);
}

/** Heads of every format of the shared fixture set (its smallest and largest file, cut short), as `format/file`. */
const SHARED_SET_HEADS: [string, string][] = [
  [
    'allure/allure2__invalid-status.json',
    '{\n  "uuid": "93542b02b4f3b5c69033c3643e0428ed",\n  "status": "some-invalid-string",\n  "name": "shouldCreate",\n  "start": 1479552611395,\n  "stop": 1479552611399\n}',
  ],
  [
    'allure/allure2__7f0aea93-a14c-4e5b-8936-ee5ead7be819-result.json',
    '{\n  "uuid" : "160549c101caec3c74170b2e5c059d68",\n  "historyId" : "second",\n  "status" : "passed",\n  "parameters" : [ ],\n  "labels" : [ {\n    "name" : "class",\n    "value" : "io.qameta.allure.ProjectServiceTest"\n  }, {\n    "name" : "method",\n    "value" : "shouldDelete"\n  }, {\n    "name" : "suite",\n    "value" : "My suite"\n  }, {\n    "name" : "test",\n    "value" : "All"\n  }, {\n    "name" : "host",\n    "value" : "charlie.local"\n  }, {\n    "name" : "thread",\n    "value" : "2208@charlie.local.main(1)"\n  } ],\n  "name" : "shouldDelete",\n  "start" : 1480450640409,\n  "stop" : 1480450640412,\n  "steps" : [ {\n    "status" : "passed",\n    "name" : "createProject",\n    "start" : 1480450640410,\n    "stop" : 1480450640411,\n    "steps" : [ {\n      "status" : "passed",\n      "name" : "more",\n      "start" : 1480450640410,\n      "stop" : 1480450640410\n    }, {\n      "status" : "passed",\n      "name" : "an',
  ],
  [
    'allure1-xml/allure2__b785c222-0787-4bf3-b759-eccdca38d17e-testsuite.xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<ns2:test-suite xmlns:ns2="urn:model.allure.qatools.yandex.ru" start="1412949538852" stop="1412949560076" version="1.4.4-SNAPSHOT">\n    <name>my.company.SimpleTest</name>\n    <test-cases>\n        <test-case start="1412949558829" stop="1412949558830" status="failed">\n            <name>failedSimpleTest</name>\n            <failure>\n                <message>AssertionError: 5 is not 2 + 2\nExpected: is &lt;4&gt;\n     but: was &lt;5&gt;</message>\n                <stack-trace>java.lang.AssertionError: 5 is not 2 + 2\nExpected: is &lt;4&gt;\n     bu',
  ],
  [
    'allure1-xml/allure2__c32503a8-2981-43da-afa5-e0d82dacfefd-testsuite.xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<ns2:test-suite xmlns:ns2="urn:model.allure.qatools.yandex.ru" start="1412949538851" stop="1412949560112" version="1.4.4-SNAPSHOT">\n    <name>my.company.ManyInfoTest</name>\n    <description type="text">Testsuite has testcases with many steps\n    and\nmany lines in description</description>\n    <test-cases>\n        <test-case start="1412949539800" stop="1412949540461" status="failed">\n            <name>longAssertionTest</name>\n            <title>Test with long assertion text</title>\n            <failure>\n                <message>AssertionEr',
  ],
  [
    'ctrf/ctrf-github-test-reporter__ctrf-report.json',
    '{\n\t"results": {\n\t\t"tool": {\n\t\t\t"name": "jest"\n\t\t},\n\t\t"summary": {\n\t\t\t"tests": 10,\n\t\t\t"passed": 5,\n\t\t\t"failed": 2,\n\t\t\t"pending": 1,\n\t\t\t"skipped": 1,\n\t\t\t"other": 1,\n\t\t\t"start": 1722511783500,\n\t\t\t"stop": 1722519283500\n\t\t},\n\t\t"tests": [\n\t\t\t{\n\t\t\t\t"name": "should be able to login",\n\t\t\t\t"status": "passed",\n\t\t\t\t"duration": 1200,\n\t\t\t\t"filePath": "tests/login.test.ts",\n\t\t\t\t"suite": "login.test.ts > login"\n\t\t\t},\n\t\t\t{\n\t\t\t\t"name": "should display title",\n\t\t\t\t"status": "failed",\n\t\t\t\t"duration": 800,\n\t\t\t\t"message": "\\u001b[31mTimed out 5000ms waiting for \\u001b[39m\\u001b[2mexpect(\\u001b[22m\\u001b[31mlocator\\u001b[39m\\u001b[2m).\\u001b[22mtoHaveTitle\\u001b[2m(\\u001b[22m\\u001b[32mexpected\\u001b[39m\\u001b[2m)\\u001b[22m\\n\\nLocator: locator(\':root\')\\nExpected pattern: \\u001b[32m/Playwrc cight/\\u001b[39m\\nReceived string:  \\u001b[31m\\"Fast and reliable end-to-end testing for modern web apps | Playwright\\"\\u00',
  ],
  [
    'ctrf/ctrf-github-test-reporter__test.json',
    '{\n\t"results": {\n\t\t"tool": {\n\t\t\t"name": "jest"\n\t\t},\n\t\t"summary": {\n\t\t\t"tests": 65,\n\t\t\t"passed": 65,\n\t\t\t"failed": 0,\n\t\t\t"pending": 0,\n\t\t\t"skipped": 0,\n\t\t\t"other": 0,\n\t\t\t"start": 1753814301032,\n\t\t\t"stop": 1753814313709,\n\t\t\t"extra": {\n\t\t\t\t"flakyRate": 0,\n\t\t\t\t"flakyRateChange": 0,\n\t\t\t\t"failRate": 0,\n\t\t\t\t"failRateChange": 0,\n\t\t\t\t"finalResults": 0,\n\t\t\t\t"finalFailures": 0,\n\t\t\t\t"result": "passed"\n\t\t\t}\n\t\t},\n\t\t"tests": [\n\t\t\t{\n\t\t\t\t"name": "String Helpers splitLines should split lines correctly for multiline strings",\n\t\t\t\t"duration": 21,\n\t\t\t\t"status": "passed",\n\t\t\t\t"rawStatus": "passed",\n\t\t\t\t"type": "unit",\n\t\t\t\t"filePath": "/home/runner/work/github-test-reporter/github-test-reporter/__tests__/handlebars/string.test.ts",\n\t\t\t\t"retries": 0,\n\t\t\t\t"flaky": false,\n\t\t\t\t"suite": "string.test.ts > String Helpers > splitLines"\n\t\t\t},\n\t\t\t{\n\t\t\t\t"name": "String Helpers splitLines should filter out empty lines",\n\t\t\t',
  ],
  ['cucumber-json/cucumber-reporting__empty.json', '[\n]'],
  [
    'cucumber-json/cucumber-reporting__sample.json',
    '[\n    {\n        "id": "account-holder-withdraws-cash",\n        "tags": [\n            {\n                "name": "@featureTag",\n                "line": 1\n            }\n        ],\n        "description": "This is description of the feature",\n        "name": "1st feature",\n        "keyword": "Feature",\n        "line": 2,\n        "elements": [\n            {\n                "description": "Perfect background",\n                "name": "Activate Credit Card",\n                "keyword": "Background",\n                "line": 7,\n                "steps": [\n                    {\n                        "result": {\n                            "duration": 99107447000,\n                            "status": "passed"\n                        },\n                        "name": "I have a new credit card",\n                        "keyword": "Given ",\n                        "line": 8,\n                        "',
  ],
  [
    'dart-json/dorny__empty-dart-json.json',
    '{"protocolVersion":"0.1.1","runnerVersion":"1.25.3","pid":7103,"type":"start","time":0}\n{"suite":{"id":0,"platform":"vm","path":"test/second_test.dart"},"type":"suite","time":0}\n{"test":{"id":1,"name":"loading test/second_test.dart","suiteID":0,"groupIDs":[],"metadata":{"skip":false,"skipReason":null},"line":null,"column":null,"url":null},"type":"testStart","time":0}\n{"suite":{"id":2,"platform":"vm","path":"test/main_test.dart"},"type":"suite","time":4}\n{"test":{"id":3,"name":"loading test/main_test.dart","suiteID":2,"groupIDs":[],"metadata":{"skip":false,"skipReason":null},"line":null,"column":null,"url":null},"type":"testStart","time":4}\n{"count":2,"time":5,"type":"allSuites"}\n{"testID":1,"result":"success","skipped":false,"hidden":true,"type":"testDone","time":294}\n{"testID":3,"messageType":"print","message":"Hello from the test","type":"print","time":297}\n{"testID":3,"result":"succes',
  ],
  [
    'dart-json/dorny__provider-test-results.json',
    '{"protocolVersion":"0.1.1","runnerVersion":null,"pid":515,"type":"start","time":0}\n{"suite":{"id":0,"platform":"vm","path":"/__w/provider/provider/test/value_listenable_provider_test.dart"},"type":"suite","time":0}\n{"test":{"id":1,"name":"loading /__w/provider/provider/test/value_listenable_provider_test.dart","suiteID":0,"groupIDs":[],"metadata":{"skip":false,"skipReason":null},"line":null,"column":null,"url":null},"type":"testStart","time":2}\n{"count":16,"type":"allSuites","time":14}\n{"testID":1,"result":"success","skipped":false,"hidden":true,"type":"testDone","time":8608}\n{"group":{"id":2,"suiteID":0,"parentID":null,"name":"","metadata":{"skip":false,"skipReason":null},"testCount":5,"line":null,"column":null,"url":null},"type":"group","time":8617}\n{"group":{"id":3,"suiteID":0,"parentID":2,"name":"valueListenableProvider","metadata":{"skip":false,"skipReason":null},"testCount":5,"line',
  ],
  [
    'go-test-json/go-junit-report__105-panic.gojson.txt',
    '{"Time":"2019-10-09T00:00:00.596409464+00:00","Action":"output","Package":"package/name/panic","Output":"panic: init\\n"}\n{"Time":"2019-10-09T00:00:00.596508615+00:00","Action":"output","Package":"package/name/panic","Output":"\\n"}\n{"Time":"2019-10-09T00:00:00.596515201+00:00","Action":"output","Package":"package/name/panic","Output":"goroutine 1 [running]:\\n"}\n{"Time":"2019-10-09T00:00:00.596518457+00:00","Action":"output","Package":"package/name/panic","Output":"package/name/panic.init.0()\\n"}\n{"Time":"2019-10-09T00:00:00.596521268+00:00","Action":"output","Package":"package/name/panic","Output":"\\t/src/package/name/panic/main_test.go:6 +0x27\\n"}\n{"Time":"2019-10-09T00:00:00.596604261+00:00","Action":"output","Package":"package/name/panic","Output":"exit status 2\\n"}\n{"Time":"2019-10-09T00:00:00.596615441+00:00","Action":"output","Package":"package/name/panic","Output":"FAIL\\tpackage/na',
  ],
  [
    'go-test-json/dorny__golang-json.json',
    '{"Time":"2025-04-22T08:59:55.364618802-05:00","Action":"start","Package":"_/home/james_t/git/test-reporter/reports/go"}\n{"Time":"2025-04-22T08:59:55.371779289-05:00","Action":"run","Package":"_/home/james_t/git/test-reporter/reports/go","Test":"TestPassing"}\n{"Time":"2025-04-22T08:59:55.371805677-05:00","Action":"output","Package":"_/home/james_t/git/test-reporter/reports/go","Test":"TestPassing","Output":"=== RUN   TestPassing\\n"}\n{"Time":"2025-04-22T08:59:55.428201983-05:00","Action":"output","Package":"_/home/james_t/git/test-reporter/reports/go","Test":"TestPassing","Output":"    calculator_test.go:11: pass!\\n"}\n{"Time":"2025-04-22T08:59:55.428265529-05:00","Action":"output","Package":"_/home/james_t/git/test-reporter/reports/go","Test":"TestPassing","Output":"--- PASS: TestPassing (0.06s)\\n"}\n{"Time":"2025-04-22T08:59:55.428285649-05:00","Action":"pass","Package":"_/home/james_t/git',
  ],
  [
    'jest-json/jest-editor-support__with-ancestors-and-each.json',
    '{\n  "numFailedTestSuites": 1,\n  "numFailedTests": 2,\n  "numPassedTestSuites": 0,\n  "numPassedTests": 5,\n  "numPendingTestSuites": 0,\n  "numPendingTests": 0,\n  "numRuntimeErrorTestSuites": 0,\n  "numTodoTests": 0,\n  "numTotalTestSuites": 1,\n  "numTotalTests": 7,\n  "openHandles": [],\n  "snapshot": {\n    "added": 0,\n    "didUpdate": false,\n    "failure": false,\n    "filesAdded": 0,\n    "filesRemoved": 0,\n    "filesRemovedList": [],\n    "filesUnmatched": 0,\n    "filesUpdated": 0,\n    "matched": 0,\n    "total": 0,\n    "unchecked": 0,\n    "uncheckedKeysByFile": [],\n    "unmatched": 0,\n    "updated": 0\n  },\n  "startTime": 1590606132766,\n  "success": false,\n  "testResults": [\n    {\n      "assertionResults": [\n        {\n          "ancestorTitles": [\n            "block-1",\n            "block-1-1"\n          ],\n          "failureMessages": [],\n          "fullName": "block-1 block-1-1 testing",\n      ',
  ],
  [
    'jest-json/jest-editor-support__failing_metaphysics.json',
    '{\n    "numFailedTests": 213,\n    "numPassedTests": 0,\n    "numPendingTests": 0,\n    "numRuntimeErrorTestSuites": 0,\n    "numTotalTestSuites": 39,\n    "numTotalTests": 213,\n    "startTime": 1479666965602,\n    "success": false,\n    "testResults": [\n        {\n            "message": "\\u001b[1m\\u001b[31m  \\u001b[1m\u25cf \\u001b[1mArtist type \u203a fetches an artist by ID\\u001b[39m\\u001b[22m\\n\\n    ReferenceError: installPromiseMatchers is not defined\\n\\u001b[2m      \\n      \\u001b[2mat _get_original__ (\\u001b[2mtest/helper.js\\u001b[2m:117:600)\\u001b[2m\\n      \\u001b[2mat _get__ (\\u001b[2mtest/helper.js\\u001b[2m:117:199)\\u001b[2m\\n      \\u001b[2mat Object.<anonymous> (\\u001b[2mtest/helper.js\\u001b[2m:62:29)\\u001b[2m\\n      \\u001b[2mat handle (\\u001b[2mnode_modules/worker-farm/lib/child/index.js\\u001b[2m:41:8)\\u001b[2m\\n      \\u001b[2mat process.<anonymous> (\\u001b[2mnode_modules/worker-farm/lib/child/i',
  ],
  ['junit/dorny__phpunit-empty.xml', '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites/>'],
  [
    'junit/dorny__jest-test-results.xml',
    '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="jest tests" tests="4239" failures="2" errors="0" time="165.872">\n  <testsuite name="packages/jest-config/src/__tests__/normalize.test.js" errors="0" failures="0" skipped="0" timestamp="2021-01-24T19:21:45" time="0.798" tests="118">\n    <testcase classname="" name="picks a name based on the rootDir" time="0.006">\n    </testcase>\n    <testcase classname="" name="keeps custom project name based on the projects rootDir" time="0.001">\n    </testcase>\n    <testcase classname="" name="keeps custom names based on the rootDir" time="0.001">\n    <',
  ],
  [
    'mocha-json/dorny__empty-mocha-json.json',
    '{\n  "stats": {\n    "suites": 0,\n    "tests": 0,\n    "passes": 0,\n    "pending": 0,\n    "failures": 0,\n    "start": "2021-03-08T20:01:44.391Z",\n    "end": "2021-03-08T20:01:44.391Z",\n    "duration": 0\n  },\n  "tests": [],\n  "pending": [],\n  "failures": [],\n  "passes": []\n}',
  ],
  [
    'mocha-json/dorny__mocha-test-results.json',
    '{\n  "stats": {\n    "suites": 590,\n    "tests": 839,\n    "passes": 833,\n    "pending": 6,\n    "failures": 0,\n    "start": "2021-04-01T07:58:46.190Z",\n    "end": "2021-04-01T07:58:52.155Z",\n    "duration": 5965\n  },\n  "tests": [\n    {\n      "title": "should work",\n      "fullTitle": "Context nested should work",\n      "file": "C:\\\\Users\\\\Michal\\\\Workspace\\\\dorny\\\\mocha\\\\test\\\\unit\\\\context.spec.js",\n      "duration": 3,\n      "currentRetry": 0,\n      "speed": "fast",\n      "err": {}\n    },\n    {\n      "title": "should work",\n      "fullTitle": "Context Siblings sequestered sibling should work",\n      "file": "C:\\\\Users\\\\Michal\\\\Workspace\\\\dorny\\\\mocha\\\\test\\\\unit\\\\context.spec.js",\n      "duration": 0,\n      "currentRetry": 0,\n      "speed": "fast",\n      "err": {}\n    },\n    {\n      "title": "should not have value set within a sibling describe",\n      "fullTitle": "Context Siblings siblin',
  ],
  [
    'mochawesome/mochawesome-report-generator__hooks-only.json',
    '{\n  "stats": {\n    "suites": 0,\n    "tests": 0,\n    "passes": 0,\n    "pending": 0,\n    "failures": 0,\n    "start": "2017-06-26T19:30:43.924Z",\n    "end": "2017-06-26T19:30:43.926Z",\n    "duration": 2,\n    "testsRegistered": 0,\n    "passPercent": null,\n    "pendingPercent": null,\n    "other": 0,\n    "hasOther": false,\n    "skipped": 0,\n    "hasSkipped": false,\n    "passPercentClass": "success",\n    "pendingPercentClass": "success"\n  },\n  "suites": {\n    "title": "",\n    "suites": [],\n    "tests": [],\n    "pending": [],\n    "root": true,\n    "_timeout": 2000,\n    "uuid": "6a6184e8-645e-4a5e-b4db-dc0fa1763b26",\n    "beforeHooks": [\n      {\n        "title": "\\"before all\\" hook: before",\n        "fullTitle": " \\"before all\\" hook: before",\n        "timedOut": false,\n        "duration": 0,\n        "pass": false,\n        "fail": false,\n        "pending": false,\n        "code": "addContext(this',
  ],
  [
    'mochawesome/mochawesome-report-generator__hooks.json',
    '{\n  "stats": {\n    "suites": 3,\n    "tests": 5,\n    "passes": 1,\n    "pending": 2,\n    "failures": 2,\n    "start": "2017-06-05T15:28:31.735Z",\n    "end": "2017-06-05T15:28:31.755Z",\n    "duration": 20,\n    "testsRegistered": 7,\n    "passPercent": 20,\n    "pendingPercent": 28.6,\n    "other": 2,\n    "hasOther": true,\n    "skipped": 2,\n    "hasSkipped": true\n  },\n  "results": [\n    {\n      "title": "",\n      "suites": [\n        {\n          "title": "Hooks",\n          "suites": [\n            {\n              "title": "Nested Failed Before",\n              "suites": [],\n              "tests": [\n                {\n                  "title": "should be true",\n                  "fullTitle": "Hooks Nested Failed Before should be true",\n                  "timedOut": false,\n                  "duration": 0,\n                  "pass": false,\n                  "fail": false,\n                  "pending": f',
  ],
  [
    'nunit2/xunit-plugin__nunit-testcase1-input.xml',
    '<?xml version="1.0" encoding="utf-8" standalone="no"?>\n<!--This file represents the results of running a test suite-->\n<test-results name="/home/erik/coding/test/nunittests/Tests.dll" total="4" failures="1" not-run="0" date="2007-07-27"\n              time="11:18:43">\n    <environment nunit-version="2.2.8.0" clr-version="2.0.50727.42" os-version="Unix 2.6.18.4" platform="Unix"\n                 cwd="/home/erik/coding/test/nunittests" machine-name="akira.ramfelt.se" user="erik"\n                 user-domain="akira.ramfelt.se"/>\n    <culture-info current-culture="sv-SE" current-uiculture="sv-SE"/>\n',
  ],
  [
    'nunit2/xunit-plugin__nunit-testcase14-input.xml',
    '<?xml version="1.0" encoding="utf-8" standalone="no"?>\n<!--This file represents the results of running a test suite -->\n<test-results name="/home/jenkins/workspace/LfMerge-Linux-any-qa-release/output/Release/LfMerge.Core.Tests.dll" total="295" errors="0" failures="0" not-run="2"\n    inconclusive="0" ignored="2" skipped="0" invalid="0" date="2018-06-07" time="15:48:40">\n    <environment nunit-version="2.6.4.14350" clr-version="4.0.30319.17020" os-version="Unix 4.15.17.1" platform="Unix"\n        cwd="/home/jenkins/workspace/LfMerge-Linux-any-qa-release/output/Release" machine-name="ba-xenial-jen',
  ],
  [
    'nunit3/xunit-plugin__nunit3-testcase3-input.xml',
    '<?xml version="1.0" encoding="utf-8" standalone="no"?>\n<test-run id="2" name="mock-assembly.dll" fullname="D:\\Dev\\NUnit\\nunit-3.0\\work\\bin\\vs2008\\Debug\\mock-assembly.dll" testcasecount="25" result="Failed" time="0.154" total="18" passed="12" failed="2" inconclusive="1" skipped="3" asserts="2" run-date="2011-07-26" start-time="11:34:27">\n  <environment nunit-version="1.0.0.0" clr-version="2.0.50727.4961" os-version="Microsoft Windows NT 6.1.7600.0" platform="Win32NT" cwd="D:\\Dev\\NUnit\\nunit-3.0\\work\\bin\\vs2008\\Debug" machine-name="CHARLIE-LAPTOP" user="charlie" user-domain="charlie-laptop" cult',
  ],
  [
    'nunit3/xunit-plugin__nunit3-testcase5-input.xml',
    '<?xml version="1.0" encoding="UTF-8"?>\n<test-run id="2" testcasecount="19" result="Failed(Child)" total="19" passed="0" failed="19" inconclusive="0" skipped="0" asserts="0" engine-version="3.5.0.0" clr-version="4.0.30319.42000" start-time="2019-02-22 16:03:02Z" end-time="2019-02-22 16:04:59Z" duration="116.7749347">\n  <test-suite type="TestSuite" id="1000" name="FCA 2018" fullname="FCA 2018" runstate="Runnable" testcasecount="19" result="Failed" site="Child" start-time="2019-02-22 16:03:02Z" end-time="2019-02-22 16:04:59Z" duration="116.774935" total="19" passed="0" failed="19" inconclusive="0',
  ],
  [
    'playwright-json/playwright-report-summary__report-sharded.json',
    '{\n  "config": {\n    "forbidOnly": false,\n    "fullyParallel": false,\n    "globalSetup": null,\n    "globalTeardown": null,\n    "globalTimeout": 0,\n    "grep": {},\n    "grepInvert": null,\n    "maxFailures": 0,\n    "metadata": {\n      "totalTime": 5003.32,\n      "actualWorkers": 20\n    },\n    "preserveOutput": "always",\n    "projects": [],\n    "reporter": [\n      [\n        "list"\n      ]\n    ],\n    "reportSlowTests": {\n      "max": 5,\n      "threshold": 15000\n    },\n    "rootDir": "/project",\n    "quiet": false,\n    "shard": null,\n    "updateSnapshots": "missing",\n    "version": "1.37.1",\n    "workers": 20,\n    "webServer": null,\n    "listOnly": false\n  },\n  "suites": [\n    {\n      "title": "add.spec.ts",\n      "file": "add.spec.ts",\n      "column": 0,\n      "line": 0,\n      "specs": [],\n      "suites": [\n        {\n          "title": "add",\n          "file": "add.spec.ts",\n          "line":',
  ],
  [
    'playwright-json/playwright-report-summary__report-valid.json',
    '{\n  "config": {\n    "configFile": "/project/tests/config/playwright.config.ts",\n    "rootDir": "/project/tests/functional",\n    "forbidOnly": false,\n    "fullyParallel": true,\n    "globalSetup": null,\n    "globalTeardown": null,\n    "globalTimeout": 0,\n    "grep": {},\n    "grepInvert": null,\n    "maxFailures": 0,\n    "metadata": {\n      "actualWorkers": 5,\n      "totalTime": 1118.34\n    },\n    "preserveOutput": "always",\n    "reporter": [\n      [\n        "list",\n        null\n      ],\n      [\n        "html",\n        {\n          "outputFolder": "../reports/html",\n          "open": "on-failure"\n        }\n      ],\n      [\n        "json",\n        {\n          "outputFile": "../reports/json/report.json"\n        }\n      ]\n    ],\n    "reportSlowTests": {\n      "max": 5,\n      "threshold": 15000\n    },\n    "quiet": false,\n    "projects": [\n      {\n        "outputDir": "/project/tests/results",\n   ',
  ],
  [
    'robot/robot-plugin__inline_var_output.xml',
    '<?xml version="1.0" encoding="UTF-8"?>\n<robot generator="Robot 7.0a1 (Python 3.8.5 on darwin)" generated="2023-11-13T15:33:07.131714" rpa="false" schemaversion="5">\n<suite id="s1" name="Rf7" source="/Users/aleksisimell/projects/tmp/rf7.robot">\n<test id="s1-t1" name="Test Inline Var" line="2">\n<variable name="${local}">\n<var>mikki hiiri</var>\n<status status="PASS" start="2023-11-13T15:33:07.168900" elapsed="0.000162"/>\n</variable>\n<kw name="Should Be Equal" owner="BuiltIn">\n<arg>${local}</arg>\n<arg>mikki hiiri</arg>\n<doc>Fails if the given objects are unequal.</doc>\n<status status="PASS" start=',
  ],
  [
    'robot/robot-plugin__low_failure_output.xml',
    '<?xml version="1.0" encoding="UTF-8"?>\n<robot generated="20130913 16:37:03.459" generator="Rebot 2.8.1 (Python 2.6.6 on linux2)">\n<suite id="s1" name="Test">\n<test id="s1-t1" name="Nice 0">\n<kw type="kw" name="BuiltIn.Should Be Equal As Strings">\n<doc>Fails if objects are unequal after converting them to strings.</doc>\n<arguments>\n<arg>passed</arg>\n<arg>passed</arg>\n</arguments>\n<msg timestamp="20130913 16:36:59.721" level="INFO">Argument types are:\n&lt;type \'str\'&gt;\n&lt;type \'str\'&gt;</msg>\n<status status="PASS" endtime="20130913 16:36:59.721" starttime="20130913 16:36:59.721"></status>\n</kw',
  ],
  [
    'rspec-json/dorny__rspec-json.json',
    '{\n  "version": "3.13.0",\n  "examples": [\n    {\n      "id": "./spec/config/check_env_vars_spec.rb[1:1:1:1:1]",\n      "description": "logs success message",\n      "full_description": "CheckEnvVars#call when all env vars are defined behaves like success load logs success message",\n      "status": "passed",\n      "file_path": "./spec/config/check_env_vars_spec.rb",\n      "line_number": 12,\n      "run_time": 0.079159625,\n      "pending_message": null\n    },\n    {\n      "id": "./spec/config/check_env_vars_spec.rb[1:1:1:1:2]",\n      "description": "fails in assertion",\n      "full_description": "CheckEnvVars#call when all env vars are defined behaves like success load fails in assertion",\n      "status": "failed",\n      "file_path": "./spec/config/check_env_vars_spec.rb",\n      "line_number": 17,\n      "run_time": 0.004411051,\n      "pending_message": null,\n      "exception": {\n        "class":',
  ],
  ['tap/tapjs__version-14.tap', 'TAP version 14\n1..5\nok 1\nok 2\nok 3\nok 4\nok 5\n'],
  [
    'tap/tapjs__tap-tests.tap',
    "TAP version 13\n# buffer_compare.js\n# TAP version 13\n# same buffers\nok 1 should be equivalent\n# not same buffers\nok 2 should not be equivalent\n# tests 2\n# pass  2\n# ok\nok 3 test/buffer_compare.js\n\n# common.js\nok 4 just setup, nothing relevant\nok 5 test/common.js\n\n# consumer.js\n# TAP version 13\n# basic.tap\nok 6 should be equivalent\n# indent.tap\nok 7 should be equivalent\n# missing.tap\nok 8 should be equivalent\n# skip-all.tap\nok 9 should be equivalent\n# yamlish.tap\nok 10 should be equivalent\n# tests 5\n# pass  5\n# ok\nok 11 test/consumer.js\n\n# debug-test.js\ndebug test\nt.plan=1\n'Debugger listening on",
  ],
  [
    'testng/testng-plugin__testng-failed-test-config.xml',
    '<?xml version="1.0" encoding="UTF-8"?>\n<testng-results skipped="0" failed="0" total="121" passed="121">\n    <reporter-output>\n    </reporter-output>\n    <suite name="Failed Test Method Config suite" duration-ms="23913" started-at="2012-01-23T10:51:27Z" finished-at="2012-01-23T10:51:51Z">\n        <groups>\n        </groups>\n        <test name="Failed Test Config Method test" duration-ms="23913" started-at="2012-01-23T10:51:27Z" finished-at="2012-01-23T10:51:51Z">\n            <class name="com.fakepkg.test.MyFakeTest">\n                <test-method status="FAIL" signature="testSetup" name="testSetu',
  ],
  [
    'testng/testng-plugin__testng-results-testng.xml',
    '<?xml version="1.0" encoding="UTF-8"?>\n<testng-results skipped="0" failed="0" total="526" passed="526">\n  <reporter-output>\n    <line>\n      <![CDATA[IN THE REPORTER: param1]]>\n    </line>\n    <line>\n      <![CDATA[IN THE REPORTER: param2]]>\n    </line>\n    <line>\n      <![CDATA[Child.test3]]>\n    </line>\n    <line>\n      <![CDATA[beforeSuite]]>\n    </line>\n    <line>\n      <![CDATA[beforeTest]]>\n    </line>\n    <line>\n      <![CDATA[beforeTestClass]]>\n    </line>\n    <line>\n      <![CDATA[beforeTestMethod]]>\n    </line>\n    <line>\n      <![CDATA[Child.test1]]>\n    </line>\n    <line>\n      <![',
  ],
  [
    'trx/dorny__empty-dotnet-trx.trx',
    '<?xml version="1.0" encoding="utf-8"?>\n<TestRun id="80e4c095-f726-4ab2-9441-416daa162672" name="..." runUser="..." xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010">\n  <Times creation="2021-02-26T10:36:33.7131022+02:00" queuing="2021-02-26T10:36:33.7131029+02:00" start="2021-02-26T10:36:33.3278956+02:00" finish="2021-02-26T10:36:33.7139830+02:00" />\n  <TestSettings name="default" id="863a1d8b-ee3b-45f9-86ee-1869bc4e889f">\n    <Deployment runDeploymentRoot="..." />\n  </TestSettings>\n  <TestLists>\n    <TestList name="Results Not in a List" id="8c84fa94-04c1-424b-9868-57a2d4851a1d" ',
  ],
  [
    'trx/dorny__FluentValidation.Tests.trx',
    '<?xml version="1.0" encoding="utf-8"?>\n<TestRun id="61a44da7-13c2-4e68-b76a-995af5b7c636" name="Michal@DORNY-PC 2021-01-28 21:34:14" runUser="DORNY-PC\\Michal" xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010">\n  <Times creation="2021-01-28T21:34:14.0898908+01:00" queuing="2021-01-28T21:34:14.0898916+01:00" start="2021-01-28T21:34:12.8947623+01:00" finish="2021-01-28T21:34:17.3745367+01:00" />\n  <TestSettings name="default" id="e29c919e-321c-4fe2-965b-323442dd84da">\n    <Deployment runDeploymentRoot="Michal_DORNY-PC_2021-01-28_21_34_14" />\n  </TestSettings>\n  <Results>\n    <UnitTe',
  ],
  [
    'xunit2/allure2__passed-test.xml',
    '<?xml version="1.0" encoding="utf-8"?>\n<assemblies>\n    <assembly>\n        <collection>\n            <test name="Some test"\n                  type="org.example.XunitTest"\n                  method="passedTest" time="0.0445156"\n                  result="Pass">\n                <output><![CDATA[test output\\n]]></output>\n            </test>\n        </collection>\n    </assembly>\n</assemblies>\n',
  ],
  [
    'xunit2/xunit-plugin__xunitdotnet-testcase1-input.xml',
    '<?xml version="1.0" encoding="utf-8"?>\n<assemblies>\n  <assembly name="C:\\Jenkins\\jobs\\my-project\\workspace\\MyProject\\MyProject.Tests\\bin\\Release\\MyProject.Tests.DLL" environment="64-bit .NET 4.0.30319.18444 [collection-per-class, parallel]" test-framework="xUnit.net 2.0.0.2785" run-date="2014-12-18" run-time="14:34:32" config-file="C:\\Jenkins\\jobs\\my-project\\workspace\\MyProject\\xunit\\xunit.console.exe.Config" total="3" passed="1" failed="1" skipped="1" time="0.288" errors="0">\n    <errors />\n    <collection total="3" passed="1" failed="1" skipped="1" name="Test collection for MyProject.Tests.S',
  ],
];

/** The shared fixture set's heads (allure, robot, testng) but for those in the folders `own` of the table. */
export function otherFormatHeads(...own: string[]): [string, string][] {
  return SHARED_SET_HEADS.filter(([name]) => !own.includes(name.split('/')[0]!));
}

/** The start of a real file of every format in the shared fixture set, and near misses, by formatter key. */
const XML_NEIGHBOUR_HEADS: [format: string, name: string, file: string, text: string][] = [
  [
    'allure',
    'Allure 1 (ns2:test-suite)',
    'b785c222-testsuite.xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<ns2:test-suite xmlns:ns2="urn:model.allure.qatools.yandex.ru" start="1412949538852" stop="1412949560076" version="1.4.4-SNAPSHOT">\n    <name>my.company.SimpleTest</name>\n    <test-cases>\n        <test-case start="1412949558829" stop="1412949558830" status="failed">\n            <name>failedSimpleTest</name>',
  ],
  [
    'allure',
    'Allure 1 with its namespace as default',
    'x-testsuite.xml',
    '<test-suite xmlns="urn:model.allure.qatools.yandex.ru" start="1" stop="2"><name>S</name><test-cases><test-case status="passed"><name>a</name></test-case></test-cases></test-suite>',
  ],
  [
    'allure',
    'Allure 1 unprefixed, no namespace',
    'x-testsuite.xml',
    '<test-suite start="1" stop="2"><name>S</name><test-cases><test-case status="passed"><name>a</name></test-case></test-cases></test-suite>',
  ],
  [
    'allure',
    'Allure 2 result',
    'a-result.json',
    '{"uuid":"7f0aea93","historyId":"h","status":"passed","name":"t","start":1480450609874,"stop":1480450609900,"labels":[]}',
  ],
  [
    'allure',
    'Allure 2 container',
    'a-container.json',
    '{\n  "uuid" : "b1c94ca2fbc3e78fc30069c8d0f01680",\n  "children" : [ "120625640d9b3ddbd6b47646e544e313" ],\n  "name" : "All",\n  "start" : 1480450609874',
  ],
  [
    'ctrf',
    'CTRF',
    'ctrf-report.json',
    '{\n\t"results": {\n\t\t"tool": {\n\t\t\t"name": "jest"\n\t\t},\n\t\t"summary": {\n\t\t\t"tests": 10,\n\t\t\t"passed": 5',
  ],
  [
    'cucumber',
    'Cucumber JSON',
    'cucumber.json',
    '[{"keyword":"Feature","uri":"a.feature","id":"a","elements":[{"type":"scenario","steps":[]}]}]',
  ],
  ['cucumber', 'Cucumber JSON, empty run', 'empty.json', '[\n]'],
  [
    'cucumber-messages',
    'Cucumber messages',
    'messages.ndjson',
    '{"meta":{"protocolVersion":"22.0.0","implementation":{"name":"cucumber-js"}}}\n{"source":{"uri":"a.feature","data":"Feature: a"}}\n',
  ],
  [
    'dart',
    'Dart JSON reporter',
    'dart.json',
    '{"protocolVersion":"0.1.1","runnerVersion":"1.15.4","pid":7504,"type":"start","time":0}\n{"suite":{"id":0,"platform":"vm","path":"test\\\\main_test.dart"},"type":"suite","time":0}\n',
  ],
  [
    'golang',
    'Go test2json',
    'go.json',
    '{"Time":"2025-04-22T08:59:55.364618802-05:00","Action":"start","Package":"_/home/x/go"}\n{"Time":"2025-04-22T08:59:55.371779289-05:00","Action":"run","Package":"_/home/x/go","Test":"TestPassing"}\n',
  ],
  [
    'jest',
    'Jest JSON',
    'jest.json',
    '{"numFailedTestSuites":1,"numFailedTests":7,"numPassedTestSuites":5,"numPassedTests":8,"numTotalTests":15,"testResults":[]}',
  ],
  [
    'junit',
    'JUnit testsuites',
    'junit.xml',
    '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="jest tests" tests="6" failures="4"><testsuite name="a" tests="1"><testcase name="x" classname="y" time="0.1"/>',
  ],
  [
    'junit',
    'JUnit Surefire testsuite',
    'TEST-a.B.xml',
    '<?xml version="1.0" encoding="UTF-8"?>\n<testsuite xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" name="a.B" time="0.1" tests="1" errors="0" skipped="0" failures="0"><properties><property name="java.version" value="17"/></properties><testcase name="t" classname="a.B" time="0.01"/>',
  ],
  [
    'mocha',
    'Mocha JSON',
    'mocha.json',
    '{\n  "stats": {\n    "suites": 0,\n    "tests": 0,\n    "passes": 0\n  },\n  "tests": [],\n  "pending": [],\n  "failures": [],\n  "passes": []\n}',
  ],
  [
    'mochawesome',
    'mochawesome',
    'mochawesome.json',
    '{"stats":{"suites":1,"tests":1,"passes":1},"results":[{"uuid":"x","suites":[]}],"meta":{"mocha":{"version":"10"}}}',
  ],
  [
    'playwright',
    'Playwright JSON',
    'pw.json',
    '{\n  "config": {\n    "configFile": "/project/playwright.config.ts",\n    "rootDir": "/project/tests"\n  },\n  "suites": [],\n  "errors": []\n}',
  ],
  [
    'robot',
    'Robot output.xml',
    'output.xml',
    '<?xml version="1.0" encoding="UTF-8"?>\n<robot generator="Robot 5.0b1 (Python 3.8.5 on darwin)" generated="20220214 11:03:22.043" rpa="false" schemaversion="3">\n<suite id="s1" name="Test" source="/t/test.robot">\n<test id="s1-t1" name="Try" line="2">',
  ],
  [
    'rspec',
    'RSpec JSON',
    'rspec.json',
    '{\n  "version": "3.13.0",\n  "examples": [\n    {\n      "id": "./spec/a_spec.rb[1:1]",\n      "status": "passed"\n    }\n  ]\n}',
  ],
  ['tap', 'TAP', 'r.tap', 'TAP version 13\n1..2\nok 1 - passes\nnot ok 2 - fails\n'],
  ['tap', 'TAP bail out', 'bailout.tap', '1..5\nok 1\nok 2\nok 3\nBail out!  GERONIMMMOOOOOO!!!\nok 4\n'],
  [
    'testng',
    'TestNG',
    'testng-results.xml',
    '<testng-results>\n  <reporter-output>\n  </reporter-output>\n  <suite name="Ant suite" duration-ms="29" started-at="2011-03-09T21:13:15Z">\n    <test name="Ant test"><class name="C"><test-method status="FAIL" name="m"/>',
  ],
  [
    'trx',
    'TRX',
    'r.trx',
    '<?xml version="1.0" encoding="UTF-8"?>\n<TestRun id="37bd1bbc" name="@ip 2017-09-11 07:32:55" xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010">\n    <Times creation="2017-09-11T07:32:55.5710479+00:00" />\n    <Results>\n        <UnitTestResult testName="A" outcome="Failed"/>',
  ],
  [
    'xunit',
    'xUnit.net v2',
    'xunit.xml',
    '<?xml version="1.0" encoding="utf-8"?>\n<assemblies>\n  <assembly name="C:\\x\\MyProject.Tests.DLL" test-framework="xUnit.net 2.0.0.2785" run-date="2014-12-18" run-time="14:34:32" total="3">\n    <errors />\n    <collection total="3" name="Test collection for X">',
  ],
  [
    'xunit',
    'xUnit.net v1',
    'xunit1.xml',
    '<assembly name="x.dll" run-date="2013-01-01" run-time="10:00:00" total="1" test-framework="xUnit.net 1.9.2"><class name="C" total="1" passed="1"><test name="A" result="Pass"/>',
  ],
  [
    'nunit',
    'NUnit 3',
    'TestResult.xml',
    '<?xml version="1.0" encoding="utf-8" standalone="no"?>\n<test-run id="0" runstate="Runnable" testcasecount="9" result="Failed" total="9" engine-version="3.12.0.0"><command-line><![CDATA[nunit3-console x.dll]]></command-line><test-suite type="Assembly" id="1-1011" name="x.dll"><test-case id="1-1004" name="A" result="Passed"/>',
  ],
  [
    'nunit',
    'NUnit 3 bare suite',
    'TestResult.xml',
    '<test-suite type="Assembly" id="0-1005" name="x.dll" runstate="Runnable" testcasecount="1"><test-case id="0-1001"/>',
  ],
  [
    'nunit',
    'NUnit 2',
    'TestResult.xml',
    '<?xml version="1.0" encoding="utf-8" standalone="no"?>\n<!--This file represents the results of running a test suite-->\n<test-results name="x.dll" total="4" errors="0" failures="1" not-run="0" date="2011-04-01" time="11:26:18"><environment nunit-version="2.5.8.0"/><culture-info current-culture="en-US"/><test-suite type="Assembly" name="x.dll">',
  ],
  [
    'open-test-reporting',
    'Open Test Reporting',
    'events.xml',
    '<?xml version="1.0" encoding="UTF-8"?>\n<e:events xmlns="https://schemas.opentest4j.org/reporting/core/0.1.0" xmlns:e="https://schemas.opentest4j.org/reporting/events/0.1.0"><e:started id="1" name="JUnit Jupiter" time="2023-01-01T00:00:00Z"/>',
  ],
];

/** Those heads (nunit, trx, xunit) but for the formatter keyed `own`, as [name, file, text]. */
export function neighbourHeads(own: string): [name: string, file: string, text: string][] {
  return XML_NEIGHBOUR_HEADS.filter(([format]) => format !== own).map(
    ([, name, file, text]): [string, string, string] => [name, file, text],
  );
}
