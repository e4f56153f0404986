import t from 'tap';
import type { Container } from '../../lib/formatter/api.js';
import { totalsOf as count } from '../../lib/formatter/check.js';
import { readHead } from '../../lib/formatter/head.js';
import { driveHandler, formatterChecks, formatterFixtures } from '../../test/helpers/formatter-fixtures.js';
import { headOf, walkJson } from '../../test/helpers/formatter-fixtures.js';
import { cucumberMessages } from './index.js';
import { messagesHandler } from './parse.js';

const fx = formatterFixtures(cucumberMessages, import.meta.url);

const firstLine = fx.read('cucumber-js__basket-checkout.ndjson').toString('utf8').split('\n')[0];

formatterChecks(fx, { fixtureScore: 0.9, rejects: [['a text line', `${firstLine}\n> cucumber-js\n`]] });

t.test('sniff: without the meta line, long source lines, cut heads', async (t) => {
  const text = fx.read('cucumber-js__basket-checkout.ndjson').toString('utf8');
  const lines = text.split('\n');
  t.ok(cucumberMessages.sniff(headOf(lines.slice(1).join('\n'), 'm.ndjson')) >= 0.8, 'without the meta line');
  const data = 'Feature: x\\n'.repeat(8000);
  const source = `{"source":{"data":"${data}","uri":"a.feature","mediaType":"text/x.cucumber.gherkin+plain"}}`;
  t.ok(
    cucumberMessages.sniff(readHead(Buffer.from(`${lines[0]}\n${source}\n`), 'm.ndjson', false).head) >= 0.9,
    'a source line longer than the head',
  );
  t.ok(
    cucumberMessages.sniff(readHead(Buffer.from(text.slice(0, 300)), 'm.ndjson', false).head) >= 0.9,
    'a head cut inside the first line',
  );
});
const { run } = fx;

/** Drives the state machine with one envelope per line, each walked the way parseJson does. */
function drive(envelopes: unknown[], maxTextChars = 1000): { out: Container[]; producers: string[] } {
  return driveHandler(messagesHandler, 'm.ndjson', maxTextChars, (h) =>
    envelopes.forEach((e, i) => walkJson(h, [i], e)),
  );
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
        ...(background.length
          ? [
              {
                background: {
                  id: 'bg',
                  keyword: 'Background',
                  steps: background.map(([id, keyword]) => ({ id, keyword, text: 'x', location: { line: 2 } })),
                },
              },
            ]
          : []),
        {
          scenario: {
            id: 'sc',
            keyword: 'Scenario',
            name: 's',
            steps: steps.map(([id, keyword]) => ({ id, keyword, text: 'x', location: { line: 3 } })),
          },
        },
      ],
    },
  },
});
const pickle = (id: string, uri: string, name: string, steps: [string, string, string][]) => ({
  pickle: {
    id,
    uri,
    name,
    location: { line: 3, column: 3 },
    tags: [{ name: '@t', astNodeId: 'tag' }],
    steps: steps.map(([sid, text, ast]) => ({ id: sid, text, type: 'Context', astNodeIds: [ast] })),
  },
});
const testCase = (
  id: string,
  pickleId: string,
  steps: ({ id: string; pickleStepId: string } | { id: string; hookId: string })[],
) => ({ testCase: { id, pickleId, testSteps: steps } });
const started = (id: string, testCaseId: string, attempt = 0, at = 100) => ({
  testCaseStarted: { id, testCaseId, attempt, timestamp: ts(at) },
});
const stepDone = (
  testCaseStartedId: string,
  testStepId: string,
  status: string,
  extra: Record<string, unknown> = {},
) => ({
  testStepFinished: {
    testCaseStartedId,
    testStepId,
    testStepResult: { status, duration: dur(2_000_000), ...extra },
    timestamp: ts(101),
  },
});
const finished = (testCaseStartedId: string, willBeRetried = false, at = 102) => ({
  testCaseFinished: { testCaseStartedId, willBeRetried, timestamp: ts(at) },
});
const meta = {
  meta: {
    protocolVersion: '32.2.0',
    implementation: { name: 'cucumber-jvm', version: '7.20.1' },
    runtime: { name: 'Java' },
    os: { name: 'Linux' },
    cpu: { name: 'x64' },
  },
};
/** One feature with one scenario of one step, defined (gherkin, pickle, test case) but not yet run. */
const defined = (n = '1') => [
  doc(`f${n}.feature`, `Feature ${n}`, [[`a${n}`, 'Given ']]),
  pickle(`p${n}`, `f${n}.feature`, `scenario ${n}`, [[`ps${n}`, 'it runs', `a${n}`]]),
  testCase(`tc${n}`, `p${n}`, [{ id: `ts${n}`, pickleStepId: `ps${n}` }]),
];
const scenarios = (out: Container[]) => out.filter((c) => c.type === 'scenario');

t.test('the generated fixture in full: retries, flaky, background, hooks, logs, attachments', async (t) => {
  const file = 'cucumber-js__basket-checkout.ndjson';
  const { containers, producers } = await run(fx.read(file), file);
  t.same(producers, ['cucumber-js']);
  const by = (title: string) => containers.find((c) => c.type === 'scenario' && c.title === title)!;
  const basket = containers.find((c) => c.type === 'suite' && c.title === 'Basket')!;
  const checkout = containers.find((c) => c.type === 'suite' && c.title === 'Checkout')!;
  t.match(basket, { parentId: null, status: 'failed', meta: { file: 'features/basket.feature' } });
  t.match(checkout, { parentId: null, status: 'failed', meta: { file: 'features/flaky.feature' } });

  const flaky = by('a flaky payment passes on retry');
  t.match(flaky, {
    parentId: checkout.id,
    status: 'passed',
    flaky: true,
    failure: null,
    meta: { file: 'features/flaky.feature', line: '2' },
  });
  t.same(
    flaky.attempts!.map((a) => a.status),
    ['failed', 'passed'],
  );
  t.match(flaky.attempts![0]!.failure, {
    message: 'payment gateway timed out',
    type: 'Error',
    stack: /^Error: payment gateway timed out\n {4}at World/,
  });

  const wrong = by('a wrong total fails');
  t.match(wrong, {
    status: 'failed',
    flaky: false,
    failure: { type: 'AssertionError', message: 'Expected values to be strictly equal:\n\n1 !== 3' },
  });
  t.same(
    wrong.attempts!.map((a) => a.status),
    ['failed', 'failed'],
  );
  t.same(
    containers
      .filter((c) => c.parentId === wrong.id)
      .map((c) => [c.type, c.title, c.status, c.meta?.['background'] ?? '']),
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
  t.match(
    containers.find((c) => c.parentId === hook.id),
    { type: 'hook', title: 'Before', status: 'failed', meta: { location: 'features/step_definitions/steps.js:48' } },
  );

  t.match(by('a pending step'), {
    status: 'pending',
    failure: { message: 'Pending step: Then the discount is applied', type: 'pending' },
  });
  t.match(by('an undefined step'), {
    status: 'pending',
    failure: { message: 'Undefined step: Then something nobody wrote happens', type: 'undefined' },
  });
  t.match(by('a step skips itself'), { status: 'skipped', meta: { attachments: '1', attachmentTypes: 'text/plain' } });
  t.equal(
    containers.filter((c) => c.title.startsWith('adding ') && c.title.endsWith('of lemon')).length,
    1,
    'outline rows are test cases of their own',
  );

  const receipt = by('the receipt is attached');
  t.match(receipt, {
    status: 'passed',
    output: { stdout: 'receipt for apple\n', stderr: null },
    meta: { attachments: '2', attachmentTypes: 'application/json, image/png' },
  });
  t.same(receipt.attachmentRefs, [], 'inline attachment bodies are not paths');
  t.match(receipt.startedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  t.notOk('startedAtNaive' in receipt);

  const ids = new Map(containers.map((c, i) => [c.id, i]));
  for (const c of containers)
    if (c.parentId !== null)
      t.ok(ids.get(c.parentId)! > ids.get(c.id)!, `${c.type} ${c.title} is emitted before its parent`);
  t.equal(new Set(containers.map((c) => c.id)).size, containers.length, 'ids are unique');
});

t.test('state machine: a stream cut at a line end leaves the running test case errored', async (t) => {
  const text = fx.read('cucumber-js__basket-checkout.ndjson').toString('utf8');
  const lines = text.split('\n');
  const cut = lines.findIndex((l) => l.includes('"willBeRetried":true'));
  const { containers } = await run(Buffer.from(`${lines.slice(0, cut + 3).join('\n')}\n`), 'cut.ndjson');
  const last = scenarios(containers).pop()!;
  t.match(last, {
    title: 'a wrong total fails',
    status: 'errored',
    failure: { message: /ended before its testCaseFinished/ },
  });
  t.same(
    last.attempts!.map((a) => a.status),
    ['failed', 'errored'],
    'the finished attempt is kept',
  );
  t.same(
    count(containers),
    { tests: 2, passed: 1, failed: 0, errored: 1, skipped: 0 },
    'test cases that never started are not counted',
  );
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
    {
      testCaseStarted: {
        id: 'r0',
        testCaseId: 'tc1',
        attempt: 0,
        timestamp: { seconds: '1600000000', nanos: 5000000 },
      },
    },
    {
      testStepFinished: {
        testCaseStartedId: 'r0',
        testStepId: 'ts1',
        testStepResult: { status: 'FAILED', willBeRetried: true, duration: { seconds: '1', nanos: 500000000 } },
      },
    },
    { testCaseFinished: { testCaseStartedId: 'r0', timestamp: { seconds: '1600000001' } } },
    { testCaseStarted: { id: 'r1', testCaseId: 'tc1', attempt: 1, timestamp: { seconds: '1600000002' } } },
    {
      testStepFinished: {
        testCaseStartedId: 'r1',
        testStepId: 'ts1',
        testStepResult: { status: 'PASSED', duration: { seconds: '0', nanos: 1000 } },
      },
    },
    { testCaseFinished: { testCaseStartedId: 'r1', timestamp: { seconds: '1600000003' } } },
  ]).out;
  const [retried] = scenarios(old);
  t.match(retried, { status: 'passed', flaky: true, startedAt: '2020-09-13T12:26:40.005Z', durationMs: 0.001 });
  t.same(
    retried!.attempts!.map((a) => [a.status, a.durationMs]),
    [
      ['failed', 1500],
      ['passed', 0.001],
    ],
  );
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
  t.match(
    missing.find((c) => c.type === 'step'),
    { status: 'unknown', title: 'Given it runs' },
  );
});

t.test('state machine: attachments, external references, log output', async (t) => {
  const { out } = drive([
    ...defined(),
    started('r', 'tc1'),
    {
      attachment: {
        testCaseStartedId: 'r',
        testStepId: 'ts1',
        body: 'aGVsbG8=',
        contentEncoding: 'BASE64',
        mediaType: 'text/x.cucumber.log+plain',
      },
    },
    {
      attachment: {
        testCaseStartedId: 'r',
        testStepId: 'ts1',
        body: 'iVBORw0KGgo=',
        contentEncoding: 'BASE64',
        mediaType: 'image/png',
        fileName: 'shot.png',
      },
    },
    {
      attachment: {
        testCaseStartedId: 'r',
        testStepId: 'ts1',
        body: '',
        contentEncoding: 'IDENTITY',
        mediaType: 'video/webm',
        url: 'videos/run-1.webm',
      },
    },
    {
      externalAttachment: {
        testCaseStartedId: 'r',
        testStepId: 'ts1',
        mediaType: 'application/zip',
        url: 'traces/trace.zip',
      },
    },
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
  const parse = drive([
    meta,
    {
      parseError: {
        source: { uri: 'features/b.feature', location: { line: 4, column: 3 } },
        message: "(4:3): expected: #EOF, got 'oops'",
      },
    },
    { testRunFinished: { success: false, timestamp: ts(1) } },
  ]);
  t.same(parse.producers, ['cucumber-jvm']);
  t.same(count(parse.out), { tests: 1, passed: 0, failed: 0, errored: 1, skipped: 0 });
  t.match(parse.out[0], {
    title: 'Parse error: features/b.feature',
    status: 'errored',
    parentId: null,
    failure: { message: /^\(4:3\)/, type: 'parseError' },
    meta: { synthetic: 'parse-error', file: 'features/b.feature', line: '4' },
  });

  const hook = drive([
    {
      hook: {
        id: 'h',
        type: 'BEFORE_TEST_RUN',
        name: 'db',
        sourceReference: { javaMethod: { className: 'Hooks', methodName: 'db' } },
      },
    },
    { testRunHookStarted: { id: 'rh', hookId: 'h', testRunStartedId: 'run', timestamp: ts(1) } },
    {
      testRunHookFinished: {
        testRunHookStartedId: 'rh',
        result: { status: 'FAILED', duration: dur(5), exception: { type: 'java.sql.SQLException', message: 'no db' } },
        timestamp: ts(2),
      },
    },
    {
      testRunFinished: {
        success: false,
        timestamp: ts(3),
        exception: { type: 'java.sql.SQLException', message: 'no db' },
      },
    },
  ]);
  t.same(
    count(hook.out),
    { tests: 1, passed: 0, failed: 0, errored: 1, skipped: 0 },
    'the run failure is the hook failure, counted once',
  );
  t.match(hook.out[0], {
    title: 'BeforeAll: db',
    failure: { type: 'java.sql.SQLException', message: 'no db' },
    meta: { synthetic: 'run-hook', location: 'Hooks.db' },
  });

  const passedHook = drive([
    { hook: { id: 'h', type: 'AFTER_TEST_RUN', sourceReference: { uri: 'hooks.js', location: { line: 1 } } } },
    { testRunHookStarted: { id: 'rh', hookId: 'h' } },
    { testRunHookFinished: { testRunHookStartedId: 'rh', result: { status: 'PASSED' } } },
    { testRunFinished: { success: true } },
  ]);
  t.same(passedHook.out, [], 'a passing run hook is no test');

  const crash = drive([
    meta,
    {
      testRunFinished: {
        success: false,
        timestamp: ts(3),
        exception: { type: 'Error', message: 'worker crashed', stackTrace: 'Error: worker crashed\n    at x' },
      },
    },
  ]);
  t.match(crash.out, [
    {
      title: 'Test run',
      status: 'errored',
      failure: { message: 'worker crashed', type: 'Error', stack: /^Error: worker crashed/ },
      meta: { synthetic: 'run-error' },
    },
  ]);
});

t.test('state machine: titles from the gherkin document, hooks by type and name', async (t) => {
  const { out } = drive([
    doc('a.feature', 'Alpha', [['a1', 'When ']], [['b1', 'Given ']]),
    pickle('p1', 'a.feature', 'first', [
      ['s1', 'logged in', 'b1'],
      ['s2', 'it runs', 'a1'],
    ]),
    doc('b.feature', 'Beta', [['c1', 'Then ']]),
    pickle('p2', 'b.feature', 'second', [
      ['s3', 'it ends', 'c1'],
      ['s4', 'stale keyword', 'a1'],
    ]),
    {
      hook: {
        id: 'h1',
        type: 'AFTER_TEST_STEP',
        name: 'screenshot',
        sourceReference: { uri: 'hooks.js', location: { line: 9 } },
      },
    },
    testCase('tc1', 'p1', [
      { id: 't1', pickleStepId: 's1' },
      { id: 't2', pickleStepId: 's2' },
      { id: 't3', hookId: 'h1' },
    ]),
    testCase('tc2', 'p2', [
      { id: 't4', pickleStepId: 's3' },
      { id: 't5', pickleStepId: 's4' },
    ]),
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
  t.match(
    out.find((c) => c.title === 'Given logged in'),
    { meta: { background: 'true' } },
  );
  t.same(count(out), { tests: 2, passed: 2, failed: 0, errored: 0, skipped: 0 });
});

t.test('state machine: long failure text is cut with a marker', async (t) => {
  const { out } = drive(
    [
      ...defined(),
      started('r', 'tc1'),
      stepDone('r', 'ts1', 'FAILED', { exception: { type: 'E', message: 'm'.repeat(50) } }),
      finished('r'),
    ],
    10,
  );
  t.match(scenarios(out)[0]!.failure, { type: 'E', message: /^m{10}\n\[… truncated by Tally at 10 characters\]$/ });
});
