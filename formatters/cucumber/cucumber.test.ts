import t from 'tap';
import type { Container } from '../../lib/formatter/api.js';
import { totalsOf as count } from '../../lib/formatter/check.js';
import { HEAD_BYTES, readHead } from '../../lib/formatter/head.js';
import { driveHandler, formatterChecks, formatterFixtures } from '../../test/helpers/formatter-fixtures.js';
import { walkJson } from '../../test/helpers/formatter-fixtures.js';
import { cucumber } from './index.js';
import { cucumberHandler } from './parse.js';

const fx = formatterFixtures(cucumber, import.meta.url);

formatterChecks(fx, {});

t.test('sniff: cut heads', async (t) => {
  t.ok(
    cucumber.sniff(readHead(Buffer.from('[ ]'), 'r.json', false).head) < 0.5,
    'an empty array that is not the whole file',
  );
  const description = `"description":"${'x'.repeat(70_000)}"`;
  const long = Buffer.from(`[{"keyword":"Feature","uri":"a.feature","id":"a","line":1,${description},"elements":[]}]`);
  t.ok(
    cucumber.sniff(readHead(long.subarray(0, HEAD_BYTES), 'r.json', false).head) >= 0.5,
    'a head cut inside a long feature description',
  );
});
const { run } = fx;

function drive(report: unknown, maxTextChars = 1000): { out: Container[]; producers: string[] } {
  return driveHandler(cucumberHandler, 'r.json', maxTextChars, (h) => walkJson(h, [], report));
}

const step = (status: string | null, name = `a ${status} step`, extra: Record<string, unknown> = {}) => ({
  keyword: 'Given ',
  name,
  line: 3,
  match: { location: 'Steps.java:3' },
  ...(status === null ? {} : { result: { status, duration: 2_000_000 } }),
  ...extra,
});
const scenarioOf = (name: string, steps: unknown[], extra: Record<string, unknown> = {}) => ({
  type: 'scenario',
  keyword: 'Scenario',
  name,
  id: `f;${name}`,
  line: 5,
  steps,
  ...extra,
});
const featureOf = (elements: unknown[], extra: Record<string, unknown> = {}) => ({
  uri: 'features/a.feature',
  id: 'f',
  keyword: 'Feature',
  name: 'A',
  line: 1,
  elements,
  ...extra,
});
const scenarios = (out: Container[]) => out.filter((c) => c.type === 'scenario');

t.test('a fixture in full: background steps, hooks, step hooks, embeddings noted in meta', async (t) => {
  const { containers, producers } = await run(
    fx.read('cucumber-reporting__sample.json'),
    'cucumber-reporting__sample.json',
  );
  t.same(producers, [], 'nothing names the producer');
  const [outline, second] = scenarios(containers);
  const firstFeature = containers.find((c) => c.type === 'suite' && c.title === '1st feature')!;
  t.match(firstFeature, {
    parentId: null,
    status: 'passed',
    meta: { file: 'net/masterthought/example(s)/ATM:東京.feature', keyword: 'Feature' },
  });
  t.same(firstFeature.properties, [{ name: 'tag', value: '@featureTag' }]);
  t.match(outline, {
    title: 'Account has <sufficient funds>',
    parentId: firstFeature.id,
    status: 'passed',
    meta: { keyword: 'Scenario Outline', embeddings: '2', embeddingTypes: 'image/url, text/plain' },
  });
  t.same(outline!.attachmentRefs, [], 'inline embeddings are not resolvable paths');
  const outlineSteps = containers.filter((c) => c.parentId === outline!.id);
  t.same(
    outlineSteps.map((c) => [c.type, c.title, c.meta?.['background'] ?? '']),
    [
      ['step', 'Given I have a new credit card', 'true'],
      ['step', 'And My credit card is described as follow:', 'true'],
      ['step', 'When I confirm my pin number', 'true'],
      ['step', 'Then the card should be activated', 'true'],
      ['step', 'Given the account balance is 100', ''],
      ['step', 'And the card is valid', ''],
      ['step', 'And 100 is contained in the machine', ''],
      ['step', 'When the Account Holder requests 10, entering PIN 1234', ''],
      ['step', 'Then the ATM should dispense 10 monetary units', ''],
      ['step', 'And the account balance should be 90', ''],
      ['hook', 'After', ''],
    ],
    'the background steps come first, the After hook last',
  );
  t.match(second, {
    title: 'Account may not have sufficient funds',
    status: 'failed',
    failure: { message: 'Failed hook: Before', type: 'failed' },
    output: { stdout: /^System version: beta3\n/ },
  });
  const hooks = containers.filter((c) => c.type === 'hook' && c.title === 'BeforeStep');
  t.equal(hooks.length, 1);
  t.match(hooks[0], { status: 'failed', meta: { embeddings: '1', embeddingTypes: 'text/plain' } });
  t.match(
    containers.find((c) => c.id === hooks[0]!.parentId),
    { type: 'step', title: 'Given the account balance is 100', status: 'pending' },
    'a step hook is a child of its step',
  );
  const skippedWithError = containers.find(
    (c) => c.type === 'step' && c.title === 'And the account balance should be 90' && c.status === 'skipped',
  )!;
  t.match(skippedWithError.failure, {
    message: 'java.lang.AssertionError: \nExpected: is <80>\n     got: <90>',
    type: 'java.lang.AssertionError',
    stack: /\n\tat org\.junit\.Assert\.assertThat\(Assert\.java:780\)\n/,
  });
  t.match(scenarios(containers)[3], { title: 'This step has no result...', status: 'skipped' });
  const ids = new Map(containers.map((c, i) => [c.id, i]));
  for (const c of containers)
    if (c.parentId !== null) t.ok(ids.get(c.parentId)! > ids.get(c.id)!, `${c.title} is emitted before its parent`);
});

t.test('a cucumber-jvm fixture: start_timestamp, nanoseconds, producer', async (t) => {
  const { containers, producers } = await run(fx.read('cucumber-reporting__part2-rerun-failed.json'), 'part2.json');
  t.same(producers, ['cucumber-jvm']);
  const s = scenarios(containers)[0]!;
  t.match(s, {
    title: 'Open Home page',
    status: 'failed',
    startedAt: '2019-11-25T13:36:53.146Z',
    durationMs: 13303.344,
    failure: { message: 'Failed step: Given Open Home page' },
  });
  t.notOk('startedAtNaive' in s);
  t.match(containers[containers.length - 1], {
    type: 'suite',
    title: 'Home page',
    meta: { file: 'classpath:reporting/home-page.feature' },
  });
});

t.test('state machine: a background belongs to the one scenario that follows it', async (t) => {
  const background = {
    type: 'background',
    keyword: 'Background',
    name: '',
    steps: [step('passed', 'a logged-in user')],
  };
  const { out } = drive([
    featureOf([
      background,
      scenarioOf('one', [step('passed')]),
      background,
      scenarioOf('two', [step('passed')]),
      background,
    ]),
  ]);
  const [one, two] = scenarios(out);
  t.same(
    count(out),
    { tests: 2, passed: 2, failed: 0, errored: 0, skipped: 0 },
    'backgrounds are not tests; a trailing one is dropped',
  );
  t.same(
    out.filter((c) => c.parentId === one!.id).map((c) => c.title),
    ['Given a logged-in user', 'Given a passed step'],
  );
  t.same(
    out.filter((c) => c.parentId === two!.id).map((c) => c.title),
    ['Given a logged-in user', 'Given a passed step'],
  );

  const failingBackground = {
    ...background,
    steps: [step('failed', 'a broken login', { result: { status: 'failed', error_message: 'boom' } })],
  };
  const { out: failed } = drive([featureOf([failingBackground, scenarioOf('three', [step('skipped')])])]);
  t.match(
    scenarios(failed)[0],
    { status: 'failed', failure: { message: 'boom' } },
    'a failed background step fails its scenario',
  );
});

t.test('state machine: status table (most severe of steps and hooks)', async (t) => {
  const cases: [string, Record<string, unknown>, Container['status']][] = [
    ['no steps', scenarioOf('s', []), 'passed'],
    ['all passed', scenarioOf('s', [step('passed'), step('passed')]), 'passed'],
    ['passed and skipped', scenarioOf('s', [step('passed'), step('skipped')]), 'skipped'],
    ['undefined', scenarioOf('s', [step('passed'), step('undefined'), step('skipped')]), 'pending'],
    ['pending', scenarioOf('s', [step('pending')]), 'pending'],
    ['ambiguous', scenarioOf('s', [step('ambiguous'), step('skipped')]), 'failed'],
    ['failed beats undefined', scenarioOf('s', [step('undefined'), step('failed')]), 'failed'],
    ['missing result', scenarioOf('s', [step(null)]), 'skipped'],
    ['unknown word', scenarioOf('s', [step('passed'), step('untested')]), 'skipped'],
    [
      'failing Before hook, skipped steps',
      scenarioOf('s', [step('skipped')], { before: [{ result: { status: 'failed', error_message: 'setup' } }] }),
      'failed',
    ],
    ['failing After hook', scenarioOf('s', [step('passed')], { after: [{ result: { status: 'failed' } }] }), 'failed'],
    [
      'failing step hook',
      scenarioOf('s', [step('passed', 'x', { after: [{ result: { status: 'failed' } }] })]),
      'failed',
    ],
    [
      'cucumber-js hidden hook failing',
      scenarioOf('s', [{ keyword: 'Before', hidden: true, result: { status: 'failed' } }, step('skipped')]),
      'failed',
    ],
  ];
  for (const [name, element, want] of cases) {
    const { out } = drive([featureOf([element])]);
    t.equal(scenarios(out)[0]!.status, want, name);
  }
  const { out } = drive([featureOf([scenarioOf('s', [step('passed'), step('undefined', 'an unwritten step')])])]);
  t.match(scenarios(out)[0]!.failure, { message: 'Undefined step: Given an unwritten step', type: 'undefined' });
  t.same(count(out), { tests: 1, passed: 0, failed: 0, errored: 0, skipped: 1 }, 'pending counts as skipped');
});

t.test('state machine: outline rows with equal names stay separate tests', async (t) => {
  const { out } = drive([
    featureOf([
      scenarioOf('row', [step('passed')], { keyword: 'Scenario Outline', id: 'f;row;;1' }),
      scenarioOf('row', [step('failed')], { keyword: 'Scenario Outline', id: 'f;row;;2' }),
    ]),
  ]);
  t.same(count(out), { tests: 2, passed: 1, failed: 1, errored: 0, skipped: 0 });
  t.same(
    scenarios(out).map((c) => c.meta?.['id']),
    ['f;row;;1', 'f;row;;2'],
  );
});

t.test('state machine: embeddings, output, tags, hook titles, cucumber-js hooks', async (t) => {
  const { out, producers } = drive([
    featureOf(
      [
        scenarioOf(
          'shot',
          [
            {
              keyword: 'Before',
              hidden: true,
              result: { status: 'passed', duration: 1_000_000 },
              match: { location: 'hooks.js:3' },
            },
            step('passed', 'a page', {
              embeddings: [
                { data: 'iVBORw0KGgo=', mime_type: 'image/png' },
                { data: 'aGk=', media: { type: 'text/plain' } },
              ],
              output: ['log one', ['nested'], 42],
            }),
          ],
          { tags: [{ name: '@ui', line: 4 }, { name: '@ui', line: 4 }, '@legacy'] },
        ),
      ],
      { tags: [{ name: '@ui', type: 'Tag', location: { line: 1, column: 1 } }] },
    ),
  ]);
  t.same(producers, ['cucumber-js']);
  const [hook, shot, scenario, feature] = out;
  t.match(hook, { type: 'hook', title: 'Before', durationMs: 1, meta: { location: 'hooks.js:3' } });
  t.match(shot, {
    type: 'step',
    meta: { embeddings: '2', embeddingTypes: 'image/png, text/plain' },
    output: { stdout: 'log one\nnested\n42' },
  });
  t.match(scenario, {
    durationMs: 3,
    meta: { embeddings: '2' },
    output: { stdout: 'log one\nnested\n42\n', stderr: null },
  });
  t.same(
    scenario!.properties,
    [
      { name: 'tag', value: '@ui' },
      { name: 'tag', value: '@legacy' },
    ],
    'tags are deduplicated',
  );
  t.same(scenario!.attachmentRefs, []);
  t.same(feature!.properties, [{ name: 'tag', value: '@ui' }]);
});

t.test('state machine: durations and timestamps', async (t) => {
  const stamp = (s: string) => scenarios(drive([featureOf([scenarioOf('s', [], { start_timestamp: s })])]).out)[0]!;
  t.match(stamp('2019-11-25T13:36:53.146Z'), { startedAt: '2019-11-25T13:36:53.146Z' });
  t.notOk('startedAtNaive' in stamp('2019-11-25T13:36:53.146Z'));
  t.match(
    stamp('2019-11-25T13:36:53'),
    { startedAt: '2019-11-25T13:36:53.000Z', startedAtNaive: true },
    'a time without a zone is read as UTC and flagged',
  );
  t.match(stamp('yesterday'), { startedAt: null });
  const behave = scenarios(
    drive([
      featureOf([scenarioOf('s', [{ keyword: 'Given', name: 'x', result: { status: 'passed', duration: 0.0123 } }])]),
    ]).out,
  )[0]!;
  t.equal(behave.durationMs, 12.3, 'behave writes seconds as floats');
  const none = scenarios(drive([featureOf([scenarioOf('s', [step(null)])])]).out)[0]!;
  t.equal(none.durationMs, null, 'no duration at all stays null');
});

t.test('state machine: failure text from error_message', async (t) => {
  const failed = (msg: string) =>
    scenarios(
      drive([featureOf([scenarioOf('s', [step('failed', 'x', { result: { status: 'failed', error_message: msg } })])])])
        .out,
    )[0]!.failure;
  t.same(
    failed(
      'java.lang.AssertionError: expected:<1> but was:<2>\n\tat org.junit.Assert.fail(Assert.java:88)\n\tat ' +
        'Steps.x(Steps.java:9)',
    ),
    {
      message: 'java.lang.AssertionError: expected:<1> but was:<2>',
      type: 'java.lang.AssertionError',
      stack:
        'java.lang.AssertionError: expected:<1> but was:<2>\n\tat org.junit.Assert.fail(Assert.java:88)\n\tat ' +
        'Steps.x(Steps.java:9)',
    },
  );
  t.match(
    failed(
      'expected: 1\n     got: 2 (RSpec::Expectations::ExpectationNotMetError)\n./features/step_definitions/' +
        "steps.rb:5:in `/^x$/'",
    ),
    { message: 'expected: 1\n     got: 2 (RSpec::Expectations::ExpectationNotMetError)', type: null },
  );
  t.match(failed("boom (RuntimeError)\n./features/step_definitions/steps.rb:5:in `x'"), {
    message: 'boom (RuntimeError)',
    type: 'RuntimeError',
  });
  t.match(failed('AssertionError [ERR_ASSERTION]: 1 == 2\n    at World.<anonymous> (steps.js:4:10)'), {
    message: 'AssertionError [ERR_ASSERTION]: 1 == 2',
    type: 'AssertionError',
  });
  const long = scenarios(
    drive(
      [
        featureOf([
          scenarioOf('s', [step('failed', 'x', { result: { status: 'failed', error_message: 'y'.repeat(50) } })]),
        ]),
      ],
      10,
    ).out,
  )[0]!;
  t.match(long.failure, { message: /^y{10}\n\[… truncated by Tally at 10 characters\]$/ });
});
