import t from 'tap';
import { FormatError, isCountedTest, type Container } from '../../lib/formatter/api.js';
import { totalsOf as count } from '../../lib/formatter/check.js';
import { byTitle, driveHandler, formatterChecks, formatterFixtures } from '../../test/helpers/formatter-fixtures.js';
import { tap } from './index.js';
import { parsePoint, statusOf, tapHandler } from './parse.js';
import { readYaml } from './yaml.js';

const fx = formatterFixtures(tap, import.meta.url);
const nodeTest = fx.read('tapjs__node-test-mjs.tap').toString('utf8');
const { run } = fx;

/** Drives the state machine line by line. */
function drive(text: string, maxTextChars = 1000): Container[] {
  return driveHandler(tapHandler, 'ci/run.tap', maxTextChars, (h) =>
    text.split('\n').forEach((line, i) => h.line(line, i + 1)),
  ).out;
}

/** Problems of the emitted tree: a child after its parent, a missing parent, not one root. */
function treeProblems(cs: Container[]): string[] {
  const problems: string[] = [];
  const seen = new Set<number>();
  for (const c of cs) {
    for (const other of cs)
      if (other.parentId === c.id && !seen.has(other.id)) problems.push(`child ${other.title} after ${c.title}`);
    seen.add(c.id);
  }
  for (const c of cs) if (c.parentId !== null && !seen.has(c.parentId)) problems.push(`parent of ${c.title} missing`);
  const roots = cs.filter((c) => c.parentId === null).length;
  if (roots !== 1) problems.push(`${roots} roots`);
  return problems;
}

formatterChecks(fx, {
  eachFixture: (t, { containers }, name) => t.same(treeProblems(containers), [], `${name}: tree`),
  chunks: { eachInChunksOf: 7 },
  rejects: [
    ['truncated inside a YAML block', nodeTest.slice(0, nodeTest.indexOf('stack: |-'))],
    ['truncated inside a subtest', nodeTest.slice(0, nodeTest.indexOf('not ok 2 - A thing'))],
  ],
});

t.test('CRLF line ends give the same containers', async (t) => {
  const crlf = nodeTest.replace(/\n/g, '\r\n');
  const file = 'tapjs__node-test-mjs.tap';
  t.same((await run(Buffer.from(crlf), file, 3)).containers, (await run(Buffer.from(nodeTest), file)).containers);
});

t.test('test point lines', async (t) => {
  const cases: [string, Partial<ReturnType<typeof parsePoint>>][] = [
    ['ok', { ok: true, number: null, title: '', directive: null }],
    ['not ok 12', { ok: false, number: '12', title: '' }],
    ['ok 1 - adds numbers', { number: '1', title: 'adds numbers' }],
    ['ok - no number', { number: null, title: 'no number' }],
    ['ok 2 no dash', { number: '2', title: 'no dash' }],
    ['ok 3 # SKIP no db', { directive: 'skip', reason: 'no db', title: '' }],
    ['ok 4 - x # skipped: later', { directive: 'skip', reason: 'later', title: 'x' }],
    ['not ok 5 - y # TODO fix it', { ok: false, directive: 'todo', reason: 'fix it', title: 'y' }],
    ['ok 6 - z # todo', { directive: 'todo', reason: '' }],
    ['ok 7 - a \\# SKIP not a directive', { directive: null, title: 'a # SKIP not a directive' }],
    ['ok 8 - title#skip is not a directive', { directive: null, title: 'title#skip is not a directive' }],
    ['ok 9 - issue #12 # SKIP flaky', { directive: 'skip', reason: 'flaky', title: 'issue #12' }],
    ['ok 10 - boom # time=5.26ms', { durationMs: 5.26, title: 'boom' }],
    ['ok 11 - pkg.TestPass # time=0.010s', { durationMs: 10, title: 'pkg.TestPass' }],
    ['ok 12 - nesting {', { braced: true, title: 'nesting' }],
    ['ok 13 - back\\\\slash', { title: 'back\\slash' }],
  ];
  for (const [line, want] of cases) t.match(parsePoint(line), want, line);
  const statuses: [string, string][] = [
    ['ok 1', 'passed'],
    ['not ok 1', 'failed'],
    ['ok 1 # SKIP', 'skipped'],
    ['not ok 1 # SKIP', 'skipped'],
    ['not ok 1 # TODO', 'skipped'],
    ['ok 1 # TODO', 'passed'],
  ];
  for (const [line, want] of statuses) t.equal(statusOf(parsePoint(line)), want, line);
});

t.test('YAML diagnostics: a minimal reader that never interprets tags or anchors', async (t) => {
  const entries = readYaml([
    '  message: "expected \\"a\\"\\n got b"',
    "  severity: 'fail'",
    '  plain: some text # a comment',
    '  duration_ms: 12.5',
    '  stack: |-',
    '    at f (a.js:1:2)',
    '      at g (b.js:3:4)',
    '  folded: >',
    '    one',
    '    two',
    '',
    '    three',
    '  at:',
    '    file: a.js',
    '    line: 12',
    '  list:',
    '  - a',
    '  - b',
    '  anchor: &x !!python/object:os.system "rm -rf"',
    '  alias: *x',
    '  empty:',
  ]);
  const get = (k: string) => entries.find((e) => e.key === k);
  t.same(get('message'), { key: 'message', value: 'expected "a"\n got b', nested: false });
  t.equal(get('severity')?.value, 'fail');
  t.equal(get('plain')?.value, 'some text');
  t.equal(get('duration_ms')?.value, '12.5');
  t.equal(get('stack')?.value, 'at f (a.js:1:2)\n  at g (b.js:3:4)');
  t.equal(get('folded')?.value, 'one two\nthree');
  t.same(get('at'), { key: 'at', value: 'file: a.js\nline: 12', nested: true });
  t.same(get('list'), { key: 'list', value: '- a\n- b', nested: true });
  t.equal(get('anchor')?.value, '&x !!python/object:os.system "rm -rf"', 'tags and anchors stay literal text');
  t.equal(get('alias')?.value, '*x', 'aliases are not resolved');
  t.equal(get('empty')?.value, '');
  t.same(readYaml([]), []);
  t.same(readYaml(['   ', '']), []);
});

t.test('state machine: YAML blocks become failure, duration, properties', async (t) => {
  const cs = drive(
    [
      'TAP version 14',
      'not ok 1 - compares',
      '  ---',
      '  message: values differ',
      '  name: AssertionError',
      '  found: 1',
      '  wanted: 2',
      '  duration_ms: 3.5',
      '  stack: |',
      '    at a.js:1:1',
      '  ...',
      'not ok 2 - no diagnostics',
      'not ok 3 - only some keys',
      '  ---',
      '  results:',
      '    ok: false',
      '  ...',
      'ok 4 - a skip # SKIP not today',
      '1..4',
    ].join('\n'),
  );
  t.match(byTitle(cs, 'compares'), {
    type: 'test',
    status: 'failed',
    durationMs: 3.5,
    failure: { message: 'values differ', type: 'AssertionError', stack: 'at a.js:1:1' },
    properties: [
      { name: 'name', value: 'AssertionError' },
      { name: 'found', value: '1' },
      { name: 'wanted', value: '2' },
    ],
    meta: { number: '1' },
  });
  t.equal(byTitle(cs, 'no diagnostics').failure, null);
  t.match(byTitle(cs, 'only some keys'), { failure: { message: null, stack: 'results:\n  ok: false' } });
  t.match(byTitle(cs, 'a skip'), { status: 'skipped', failure: { message: 'not today' }, meta: { directive: 'SKIP' } });
  t.match(cs[cs.length - 1], {
    type: 'suite',
    title: 'run.tap',
    status: 'failed',
    meta: { tapVersion: '14', plan: '1..4' },
  });
});

t.test('state machine: bail out and plans', async (t) => {
  const bailed = drive('1..4\nok 1\n    ok 1 - inner\nBail out! db down\nok 2\nnot ok 3\n');
  t.same(
    count(bailed),
    { tests: 1, passed: 1, failed: 0, errored: 0, skipped: 0 },
    'nothing after a top-level bail out counts',
  );
  t.match(
    bailed.find((c) => c.type === 'suite' && c.parentId !== null),
    { meta: { incomplete: 'no summary test point' } },
    'the cut subtest is kept as a non-counted suite',
  );
  t.match(bailed[bailed.length - 1], {
    status: 'errored',
    failure: { message: 'Bail out! db down', type: 'bail out' },
  });

  const nested = drive('ok 1 - a\n    Bail out! only the subtest\n    ok 1 - b\nok 2 - c\n');
  t.same(
    count(nested),
    { tests: 2, passed: 2, failed: 0, errored: 0, skipped: 0 },
    'an indented bail out is not top level',
  );

  const missing = drive('1..5\nok 1\nok 2\n');
  t.same(
    count(missing),
    { tests: 2, passed: 2, failed: 0, errored: 0, skipped: 0 },
    'planned but missing tests are not counted',
  );
  t.match(missing[missing.length - 1], {
    status: 'errored',
    failure: { message: 'Planned 5 tests but 2 test points were reported' },
  });

  const skipAll = drive('1..0 # SKIP no positrons\n');
  t.same(count(skipAll), { tests: 0, passed: 0, failed: 0, errored: 0, skipped: 0 });
  t.match(skipAll[0], { status: 'skipped', meta: { planReason: 'SKIP no positrons' } });
});

t.test('state machine: subtests are steps under the point that summarises them', async (t) => {
  const streamed = drive(
    [
      'TAP version 14',
      '# Subtest: outer',
      '    # Subtest: inner',
      '        ok 1 - deep',
      '        1..1',
      '    ok 1',
      '    not ok 2 - fails inside # TODO known',
      '    1..2',
      'ok 1 - outer',
      'ok 2 - after {',
      '    ok 1 - buffered child',
      '}',
      '    ok 1 - orphan child',
      '1..2',
      'ok 3 - late',
    ].join('\n'),
  );
  t.same(count(streamed), { tests: 3, passed: 3, failed: 0, errored: 0, skipped: 0 });
  t.same(treeProblems(streamed), [], 'tree');
  const outer = byTitle(streamed, 'outer');
  const inner = byTitle(streamed, 'inner');
  t.match(
    inner,
    { type: 'step', parentId: outer.id, status: 'passed' },
    'an untitled summary takes its # Subtest name',
  );
  t.match(byTitle(streamed, 'deep'), { type: 'step', parentId: inner.id });
  t.match(byTitle(streamed, 'fails inside'), {
    type: 'step',
    status: 'skipped',
    parentId: outer.id,
    meta: { todo: 'known' },
  });
  t.match(byTitle(streamed, 'buffered child'), { parentId: byTitle(streamed, 'after').id });
  t.match(byTitle(streamed, '(subtest without a summary line)'), {
    type: 'suite',
    parentId: streamed[streamed.length - 1]!.id,
  });
  t.match(byTitle(streamed, 'orphan child'), { parentId: byTitle(streamed, '(subtest without a summary line)').id });
});

t.test('state machine: output, limits and untitled points', async (t) => {
  const cs = drive(
    [
      '# comment',
      'console noise',
      'ok 1',
      'ok',
      'not ok 2 - long',
      '  ---',
      `  message: ${'m'.repeat(40)}`,
      '  ...',
    ].join('\n'),
    10,
  );
  t.same(
    cs.filter(isCountedTest).map((c) => c.title),
    ['test #1', 'test #2', 'long'],
  );
  t.match(
    byTitle(cs, 'long').failure,
    { message: /^\[… truncated by Tally at 10 characters\]$/ },
    'a YAML block is cut at the text limit, with the marker',
  );
  const capped = drive(['not ok 1 - long', '  ---', `  message: ${'m'.repeat(40)}`, '  ...'].join('\n'), 30);
  t.match(byTitle(capped, 'long').failure, { message: /^m{19} \[… truncated by Tally at 30 characters\]$/ });
  t.match(
    cs[cs.length - 1]!.output,
    { stdout: /^# comment\n\n\[… truncated/ },
    "comments and other lines are the file suite's output",
  );
});

t.test('state machine: pathological nesting stays bounded', async (t) => {
  const deepestFirst = Array.from({ length: 100 }, (_, i) => `${' '.repeat(4 * (99 - i))}ok 1 - d${99 - i}`).join('\n');
  const cs = drive(deepestFirst);
  t.same(count(cs), { tests: 1, passed: 1, failed: 0, errored: 0, skipped: 0 });
  t.same(treeProblems(cs), []);
  const ever = Array.from({ length: 1_000 }, (_, i) => `${' '.repeat(4 * i)}ok 1`).join('\n');
  t.throws(() => drive(ever), FormatError, 'ever deeper and never summarised: truncated');
  t.same(
    count(drive(`${' '.repeat(1_000_000)}ok 1\nok 1 - top`)),
    { tests: 1, passed: 1, failed: 0, errored: 0, skipped: 0 },
    'a huge indent',
  );
});
