import t from 'tap';
import type { Container } from '../../lib/formatter/api.js';
import { totalsOf as count } from '../../lib/formatter/check.js';
import { driveHandler, formatterChecks, formatterFixtures } from '../../test/helpers/formatter-fixtures.js';
import { rspec } from './index.js';
import { rspecHandler } from './parse.js';

const fx = formatterFixtures(rspec, import.meta.url);

formatterChecks(fx, {
  fixtureScore: 0.9,
  eachFixture: (t, { producers }, name) => t.same(producers, ['rspec'], `${name}: producer`),
});
const { run } = fx;

type Event =
  | ['open', (string | number)[], 'object' | 'array']
  | ['value', (string | number)[], unknown]
  | ['close', (string | number)[], 'object' | 'array'];

function drive(events: Event[], fileName = 'rspec.json', maxTextChars = 1000): Container[] {
  return driveHandler(rspecHandler, fileName, maxTextChars, (h) => {
    for (const e of events) {
      if (e[0] === 'open') h.open?.(e[1], e[2]);
      else if (e[0] === 'value') h.value?.(e[1], e[2]);
      else h.close?.(e[1], e[2]);
    }
  }).out;
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

t.test('a fixture in full: hierarchy, failure, pending reason, meta', async (t) => {
  const { containers } = await run(fx.read('dorny__rspec-json.json'), 'dorny__rspec-json.json');
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
    meta: {
      id: './spec/config/check_env_vars_spec.rb[1:1:1:1:1]',
      file: './spec/config/check_env_vars_spec.rb',
      line: '12',
      description: 'logs success message',
    },
  });
  t.match(failed, {
    status: 'failed',
    durationMs: 4.411,
    failure: {
      type: 'RSpec::Mocks::MockExpectationError',
      message: /^\(#ActiveSupport::BroadcastLogger/,
      stack: /^\/usr\/local\/bundle\/.*\n\.\/config\/check_env_vars\.rb:11:in `call'\n/,
    },
  });
  t.match(pending, {
    status: 'skipped',
    durationMs: 0.023,
    failure: { message: 'Temporarily skipped with xit', type: null, stack: null },
  });
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
    const [test] = drive(
      report([{ id: 'a', description: 'x', full_description: 'A x', status, file_path: './spec/a_spec.rb' }]),
    );
    t.equal(test!.status, want, status);
    t.equal(test!.meta?.['status'], kept, `${status}: raw status kept only when unknown`);
  }
  const [noFile] = drive(report([{ description: 'orphan', status: 'passed' }]));
  t.equal(noFile!.title, 'orphan', 'the description stands in for a missing full_description');
});

type ContainerStatusName = Container['status'];

t.test('state machine: random order keeps one suite per spec file', async (t) => {
  const ex = (file: string, name: string, status: string) => ({ full_description: name, status, file_path: file });
  const out = drive(
    report([
      ex('./spec/a_spec.rb', 'a1', 'passed'),
      ex('./spec/b_spec.rb', 'b1', 'failed'),
      ex('./spec/a_spec.rb', 'a2', 'pending'),
    ]),
  );
  const suites = out.filter((c) => c.type === 'suite');
  t.same(
    suites.map((s) => [s.title, s.status]),
    [
      ['./spec/a_spec.rb', 'passed'],
      ['./spec/b_spec.rb', 'failed'],
      ['rspec.json', 'failed'],
    ],
  );
  const [a1, b1, a2] = out;
  t.equal(a1!.parentId, a2!.parentId, 'examples of one file share its suite');
  t.not(a1!.parentId, b1!.parentId);
  t.ok(out.indexOf(suites[0]!) > out.indexOf(a2!), 'a suite is emitted after its last example');
  t.same(
    count(out),
    { tests: 3, passed: 1, failed: 1, errored: 0, skipped: 1 },
    'equal names are not merged, suites are not counted',
  );
});

t.test('state machine: errors outside of examples make the run errored without adding a test', async (t) => {
  const load =
    '\nAn error occurred while loading ./spec/broken_spec.rb.\nFailure/Error: require "nope"\n\nLoadError:\n  ' +
    'cannot load such file -- nope';
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
    [
      'value',
      ['summary'],
      { duration: 0.001, example_count: 0, failure_count: 0, pending_count: 0, errors_outside_of_examples_count: 1 },
    ],
    ['value', ['summary_line'], '0 examples, 0 failures, 1 error occurred outside of examples'],
    ['close', [], 'object'],
  ]);
  t.equal(out.length, 1);
  t.match(out[0], {
    type: 'suite',
    status: 'errored',
    failure: { message: /^An error occurred while loading \.\/spec\/broken_spec\.rb\./ },
    meta: { errorsOutsideOfExamples: '1' },
  });
  t.same(
    out[0]!.properties.map((p) => p.name),
    ['version', 'seed', 'summary_line'],
  );
  t.same(count(out), { tests: 0, passed: 0, failed: 0, errored: 0, skipped: 0 });

  const countOnly = drive(report([], [['summary', { errors_outside_of_examples_count: 2 }]]));
  t.match(countOnly[0], { status: 'errored', failure: { message: '2 error(s) occurred outside of examples' } });
});

t.test('state machine: long failure text is cut with a marker', async (t) => {
  const [test] = drive(
    report([
      {
        full_description: 'big',
        status: 'failed',
        exception: { class: 'E', message: 'm'.repeat(50), backtrace: ['a', 'b'] },
      },
    ]),
    'r.json',
    10,
  );
  t.match(test!.failure, { type: 'E', message: /^m{10}\n\[… truncated by Tally at 10 characters\]$/, stack: 'a\nb' });
});
