import t from 'tap';
import type { Container } from '../../lib/formatter/api.js';
import { totalsOf as count } from '../../lib/formatter/check.js';
import { readHead } from '../../lib/formatter/head.js';
import { driveHandler, formatterChecks, formatterFixtures, headOf } from '../../test/helpers/formatter-fixtures.js';
import { dart } from './index.js';
import { dartHandler } from './parse.js';

const fx = formatterFixtures(dart, import.meta.url);
const dartText = fx.read('dorny__dart-json.json').toString('utf8');

formatterChecks(fx, {
  fixtureScore: 0.9,
  rejects: [['truncated inside a line', dartText.slice(0, dartText.indexOf('"type":"testDone"', dartText.length / 2))]],
});

t.test('sniff: a lost start line, cut heads, a flutter daemon line first', async (t) => {
  const lines = dartText.split('\n');
  t.ok(dart.sniff(headOf(lines.slice(1).join('\n'), 'r.json')) >= 0.5, 'a stream whose start line was lost');
  t.ok(
    dart.sniff(readHead(Buffer.from(dartText.slice(0, 700)), 'r.json', false).head) >= 0.9,
    'a head cut inside a line',
  );
  const daemon = `[{"event":"test.startedProcess","params":{}}]\n${dartText}`;
  t.ok(dart.sniff(headOf(daemon, 'r.json')) >= 0.9, 'a flutter daemon line first');
});
const { run } = fx;

/** Drives the state machine with events as parseJson delivers them: each line whole, at path [n]. */
function drive(events: Record<string, unknown>[], maxTextChars = 1000): Container[] {
  return driveHandler(dartHandler, 'r.json', maxTextChars, (h) =>
    events.forEach((e, i) => {
      if (h.open?.([i], 'object') !== true) throw new Error('each line must be taken whole');
      h.value?.([i], e);
    }),
  ).out;
}

const start = { protocolVersion: '0.1.1', runnerVersion: '1.25.3', pid: 1, type: 'start', time: 0 };
const suite = (id: number, path: string) => ({ suite: { id, platform: 'vm', path }, type: 'suite', time: 0 });
const group = (id: number, suiteID: number, parentID: number | null, name: string | null) => ({
  group: {
    id,
    suiteID,
    parentID,
    name,
    metadata: { skip: false, skipReason: null },
    testCount: 1,
    line: 3,
    column: 3,
    url: 'file:///p/test/a_test.dart',
  },
  type: 'group',
  time: 1,
});
const testStart = (
  id: number,
  name: string,
  suiteID: number,
  groupIDs: number[],
  time = 10,
  metadata: Record<string, unknown> = { skip: false, skipReason: null },
) => ({
  test: { id, name, suiteID, groupIDs, metadata, line: 5, column: 5, url: 'file:///p/test/a_test.dart' },
  type: 'testStart',
  time,
});
const done = (testID: number, result: string, time = 20, extra: Record<string, unknown> = {}) => ({
  testID,
  result,
  skipped: false,
  hidden: false,
  type: 'testDone',
  time,
  ...extra,
});

t.test('a fixture in full: suites, nested groups with short titles, statuses, failure text', async (t) => {
  const { containers } = await run(fx.read('dorny__dart-json.json'), 'dorny__dart-json.json');
  const by = (title: string) => containers.find((c) => c.title === title)!;
  const main = by('test\\main_test.dart');
  const second = by('test\\second_test.dart');
  t.match(main, {
    type: 'suite',
    parentId: null,
    status: 'errored',
    meta: { file: 'test\\main_test.dart', platform: 'vm' },
  });
  t.match(by('Test 1'), { type: 'suite', parentId: main.id, status: 'errored' });
  t.match(by('Test 1.1'), { type: 'suite', parentId: by('Test 1').id });
  t.match(by('Failing test'), {
    type: 'test',
    parentId: by('Test 1.1').id,
    status: 'failed',
    durationMs: 20,
    failure: {
      message: 'Expected: <2>\n  Actual: <1>',
      stack: 'package:test_api          expect\ntest\\main_test.dart 13:9  main.<fn>.<fn>.<fn>',
    },
    meta: {
      fullName: 'Test 1 Test 1.1 Failing test',
      file: 'file:///C:/Users/Michal/Workspace/dorny/test-check/reports/dart/test/main_test.dart',
      line: '12',
    },
  });
  t.match(by('Timeout test'), { parentId: second.id, status: 'errored', failure: { message: /^TimeoutException/ } });
  t.match(by('Skipped test'), { status: 'skipped', failure: { message: 'skipped test' } });
  t.notOk(
    containers.some((c) => c.title.startsWith('loading ')),
    'hidden loading tests are not containers',
  );
  const ids = new Map(containers.map((c, i) => [c.id, i]));
  for (const c of containers)
    if (c.parentId !== null) t.ok(ids.get(c.parentId)! > ids.get(c.id)!, `${c.title} is emitted before its parent`);
});

t.test('text lines among the events (a CI log around the stream) are skipped', async (t) => {
  const text = fx.read('dorny__dart-json.json').toString('utf8');
  const lines = text.split('\n');
  const noisy = [
    lines[0],
    'Running tests…',
    ...lines.slice(1, 4),
    '00:01 +1: some progress text',
    ...lines.slice(4),
  ].join('\n');
  const clean = await fx.run(Buffer.from(text), 'dart.json');
  const withNoise = await fx.run(Buffer.from(noisy), 'dart.json');
  t.same(count(withNoise.containers), count(clean.containers), 'the same tests');
});

t.test('state machine: a stream that stops at a line end leaves running tests errored', async (t) => {
  const out = drive([
    start,
    suite(0, 'test/a_test.dart'),
    testStart(1, 'loading test/a_test.dart', 0, [], 0),
    done(1, 'success', 5, { hidden: true }),
    group(2, 0, null, null),
    testStart(3, 'finishes', 0, [2]),
    done(3, 'success', 12),
    testStart(4, 'hangs', 0, [2], 13),
  ]);
  t.same(count(out), { tests: 2, passed: 1, failed: 0, errored: 1, skipped: 0 });
  t.match(
    out.find((c) => c.title === 'hangs'),
    { status: 'errored', durationMs: null, failure: { message: /never|ended before its testDone/ } },
  );
  t.match(
    out.find((c) => c.type === 'suite'),
    { title: 'test/a_test.dart', status: 'errored' },
  );
});

t.test('state machine: hidden tests are not counted, a failed load is', async (t) => {
  const out = drive([
    start,
    suite(0, 'test/broken_test.dart'),
    testStart(1, 'loading test/broken_test.dart', 0, [], 1),
    {
      testID: 1,
      error: "Failed to load \"test/broken_test.dart\": Error: Can't find ')'",
      stackTrace: '',
      isFailure: false,
      type: 'error',
      time: 40,
    },
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
  t.match(out[0], {
    title: 'loading test/broken_test.dart',
    status: 'errored',
    durationMs: 40,
    failure: { message: /^Failed to load/, stack: null },
  });
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
  t.match(adds, {
    title: 'adds',
    parentId: mathGroup!.id,
    status: 'failed',
    output: { stdout: 'line one\nline two\n', stderr: null },
    failure: { message: 'Expected: <1>\n\nBad state: late', type: null, stack: 'a_test.dart 5:3' },
    meta: { fullName: 'math adds' },
  });
  t.match(skips, { status: 'skipped', failure: { message: 'not on CI' }, output: null });
  t.match(
    weird,
    { status: 'unknown', meta: { result: 'toString' } },
    'an unknown result, even one named like an Object method',
  );
  t.match(mathGroup, { type: 'suite', title: 'math', parentId: file!.id, status: 'failed' });
  t.match(file, { type: 'suite', parentId: null, status: 'failed' });
  t.same(count(out), { tests: 3, passed: 0, failed: 1, errored: 0, skipped: 2 });
});

t.test('state machine: long output is cut with a marker', async (t) => {
  const out = drive(
    [
      start,
      suite(0, 'a.dart'),
      testStart(1, 'noisy', 0, []),
      { testID: 1, messageType: 'print', message: 'x'.repeat(50), type: 'print', time: 11 },
      done(1, 'success'),
    ],
    10,
  );
  t.match(out[0]!.output!.stdout, /^x{10}\n\[… truncated by Tally at 10 characters\]$/);
});
