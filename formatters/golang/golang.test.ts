import t from 'tap';
import type { Container } from '../../lib/formatter/api.js';
import { totalsOf as count } from '../../lib/formatter/check.js';
import { byTitle, childrenFirst, driveHandler, formatterChecks } from '../../test/helpers/formatter-fixtures.js';
import { formatterFixtures, headOf } from '../../test/helpers/formatter-fixtures.js';
import { golang } from './index.js';
import { DEFAULT_PACKAGE, goHandler, type GoEvent } from './parse.js';

const fx = formatterFixtures(golang, import.meta.url);
const failing = fx.read('go-junit-report__101-fail.gojson.txt');

formatterChecks(fx, {
  fixtureScore: 0.9,
  eachFixture: (t, { containers, producers }, name) => {
    t.same(producers, ['go-test'], `${name}: producer set once`);
    // Children are emitted before their parents, and every parent is emitted.
    t.ok(childrenFirst(containers), `${name}: children before parents, every parent emitted`);
  },
  chunks: { eachInChunksOf: 7 },
  rejects: [['truncated inside the last event', failing.subarray(0, failing.lastIndexOf('{"Time"') + 40)]],
});

t.test('a stream cut at a line end is complete as far as it goes: the open test is errored', async (t) => {
  const atLine = failing.subarray(0, failing.indexOf('\n', failing.indexOf('"Test":"TestTwo"')) + 1);
  t.same(count((await run(atLine, 'go.json')).containers), { tests: 2, passed: 0, failed: 1, errored: 1, skipped: 0 });
});

t.test('sniff: a head cut inside the second line', async (t) => {
  const text = '{"Time":"2024-01-01T00:00:00Z","Action":"run","Package":"m","Test":"TestA"}\n{"Time":"2024-01-01T0';
  t.ok(golang.sniff(headOf(text, 'r.json')) >= 0.9);
});
const { run } = fx;

/** Drives the state machine with events, as the JSON lines would. */
function drive(events: GoEvent[], maxTextChars = 1000): Container[] {
  return driveHandler(goHandler, 'go.json', maxTextChars, (h) => {
    for (const e of events) h.event(e);
  }).out;
}

const P = 'example.com/m/pkg';
const ev = (Action: string, Test?: string, extra: Partial<GoEvent> = {}): GoEvent => ({
  Time: '2024-05-01T10:00:00.5+02:00',
  Action,
  Package: P,
  ...(Test ? { Test } : {}),
  ...extra,
});
const out = (Test: string | undefined, Output: string): GoEvent => ev('output', Test, { Output });

t.test('non-JSON lines are skipped, not fatal', async (t) => {
  const text = [
    'go: downloading example.com/dep v1.0.0',
    '# example.com/m/other',
    'other/x.go:3:2: undefined: y',
    JSON.stringify(ev('run', 'TestA')),
    '|||not json|||',
    '{broken json',
    JSON.stringify(ev('pass', 'TestA', { Elapsed: 0.25 })),
    JSON.stringify(ev('pass', undefined, { Elapsed: 0.3 })),
    '',
  ].join('\n');
  const { containers } = await run(Buffer.from(text), 'go.txt');
  t.same(count(containers), { tests: 1, passed: 1, failed: 0, errored: 0, skipped: 0 });
  t.match(containers[0], { title: 'TestA', durationMs: 250, startedAt: '2024-05-01T08:00:00.500Z' });
});

t.test('state machine: -count=2 rerun in one package run is one flaky test', async (t) => {
  const cs = drive([
    ev('start'),
    ev('run', 'TestFlaky'),
    out('TestFlaky', '=== RUN   TestFlaky\n'),
    out('TestFlaky', '    a_test.go:4: first time fails\n'),
    out('TestFlaky', '--- FAIL: TestFlaky (0.00s)\n'),
    ev('fail', 'TestFlaky', { Elapsed: 0.01 }),
    ev('run', 'TestFlaky'),
    out('TestFlaky', '=== RUN   TestFlaky\n'),
    out('TestFlaky', '--- PASS: TestFlaky (0.00s)\n'),
    ev('pass', 'TestFlaky', { Elapsed: 0.02 }),
    out(undefined, 'FAIL\n'),
    ev('fail', undefined, { Elapsed: 0.1 }),
  ]);
  t.same(
    count(cs),
    { tests: 1, passed: 1, failed: 0, errored: 0, skipped: 0 },
    'the failed package is explained by the failed attempt: no rule-4 test',
  );
  const test = byTitle(cs, 'TestFlaky');
  t.match(test, { status: 'passed', flaky: true, durationMs: 20, failure: null });
  t.same(test.attempts, [
    {
      status: 'failed',
      durationMs: 10,
      failure: { message: 'a_test.go:4: first time fails', type: null, stack: '    a_test.go:4: first time fails' },
    },
    { status: 'passed', durationMs: 20, failure: null },
  ]);
  t.match(cs[cs.length - 1], { type: 'suite', title: P, status: 'failed', parentId: null });
});

t.test('state machine: gotestsum --rerun-fails appends a later package run', async (t) => {
  const cs = drive([
    ev('run', 'TestA'),
    ev('pass', 'TestA'),
    ev('run', 'TestB'),
    ev('run', 'TestB/sub'),
    out('TestB/sub', '    b_test.go:9: boom\n'),
    ev('fail', 'TestB/sub'),
    ev('fail', 'TestB'),
    ev('fail'),
    // The rerun: a new run of the same package with only the failed test.
    ev('start'),
    ev('run', 'TestB'),
    ev('run', 'TestB/sub'),
    ev('pass', 'TestB/sub'),
    ev('pass', 'TestB'),
    ev('pass'),
  ]);
  t.same(count(cs), { tests: 3, passed: 3, failed: 0, errored: 0, skipped: 0 });
  const sub = byTitle(cs, 'sub');
  t.match(sub, { status: 'passed', flaky: true, parentId: byTitle(cs, 'TestB').id, meta: { fullName: 'TestB/sub' } });
  t.same(
    sub.attempts!.map((a) => a.status),
    ['failed', 'passed'],
  );
  t.ok(cs.indexOf(sub) < cs.indexOf(byTitle(cs, 'TestB')), 'child before parent');
  t.match(cs[cs.length - 1], { type: 'suite', status: 'passed' });
});

t.test('state machine: counting rule 4 for failed packages', async (t) => {
  const build = drive([
    { ImportPath: `${P} [${P}.test]`, Action: 'build-output', Output: `# ${P} [${P}.test]\n` },
    { ImportPath: `${P} [${P}.test]`, Action: 'build-output', Output: 'pkg/x_test.go:3:27: undefined: y\n' },
    { ImportPath: `${P} [${P}.test]`, Action: 'build-fail' },
    ev('start'),
    out(undefined, `FAIL\t${P} [build failed]\n`),
    ev('fail', undefined, { Elapsed: 0, FailedBuild: `${P} [${P}.test]` }),
  ]);
  t.same(count(build), { tests: 1, passed: 0, failed: 0, errored: 1, skipped: 0 });
  t.match(build[0], {
    type: 'test',
    title: P,
    status: 'errored',
    meta: { synthetic: 'package-failure' },
    failure: {
      message: `Build failed: ${P} [${P}.test] (pkg/x_test.go:3:27: undefined: y)`,
      type: 'build failure',
      stack: /undefined: y[\s\S]*\[build failed\]/,
    },
  });
  t.match(build[1], { type: 'suite', status: 'errored' });

  const testMain = drive([
    out(undefined, 'TestMain failed, returning early\n'),
    out(undefined, `FAIL\t${P}\t0.001s\n`),
    ev('fail', undefined, { Elapsed: 0.001 }),
  ]);
  t.match(testMain[0], { status: 'errored', failure: { message: 'TestMain failed, returning early', type: null } });

  const latePanic = drive([
    ev('run', 'TestOne'),
    ev('pass', 'TestOne'),
    out(undefined, 'PASS\n'),
    out(undefined, 'panic: late\n'),
    ev('fail'),
  ]);
  t.same(count(latePanic), { tests: 2, passed: 1, failed: 0, errored: 1, skipped: 0 });
  t.match(byTitle(latePanic, P), { type: 'test', failure: { message: 'panic: late', type: 'panic' } });

  const failedTest = drive([ev('run', 'TestOne'), ev('fail', 'TestOne'), ev('fail')]);
  t.same(
    count(failedTest),
    { tests: 1, passed: 0, failed: 1, errored: 0, skipped: 0 },
    'a failed test explains the package failure',
  );

  const noTests = drive([out(undefined, `?   \t${P}\t[no test files]\n`), ev('skip')]);
  t.same(count(noTests), { tests: 0, passed: 0, failed: 0, errored: 0, skipped: 0 });
  t.match(noTests[0], { type: 'suite', status: 'skipped' });
});

t.test('state machine: tests without a terminal action are errored', async (t) => {
  const timeout = drive([
    ev('run', 'TestHang'),
    out('TestHang', '=== RUN   TestHang\n'),
    out('TestHang', 'panic: test timed out after 1s\n'),
    out(undefined, `FAIL\t${P}\t1.003s\n`),
    ev('fail', undefined, { Elapsed: 1.003 }),
  ]);
  t.same(
    count(timeout),
    { tests: 1, passed: 0, failed: 0, errored: 1, skipped: 0 },
    'the errored test explains the package failure',
  );
  t.match(timeout[0], {
    title: 'TestHang',
    status: 'errored',
    failure: { message: /no pass, fail or skip event/, stack: 'panic: test timed out after 1s' },
  });

  const bench = drive([
    ev('run', 'BenchmarkX'),
    out('BenchmarkX', 'BenchmarkX-8   \t1000\t  2945 ns/op\n'),
    ev('pass', undefined, { Elapsed: 0.01 }),
  ]);
  t.same(
    count(bench),
    { tests: 1, passed: 0, failed: 0, errored: 1, skipped: 0 },
    'counting rules: started without a terminal action',
  );
  t.match(bench[0], { failure: { message: /benchmarks/ } });

  const cutOff = drive([ev('run', 'TestA'), ev('run', 'TestA/sub')]);
  t.same(count(cutOff), { tests: 2, passed: 0, failed: 0, errored: 2, skipped: 0 }, 'the file ends while tests run');
  t.same(
    cutOff.map((c) => c.title),
    ['sub', 'TestA', P],
    'children first even when nothing ended',
  );
  t.match(cutOff[2], { type: 'suite', status: 'errored' });
});

t.test('state machine: subtest names, output, properties and times', async (t) => {
  const cs = drive(
    [
      ev('run', 'TestCases'),
      ev('run', 'TestCases/1_/_2_=_1'),
      ev('attr', 'TestCases/1_/_2_=_1', { Key: 'issue', Value: 'GH-12' }),
      ev('artifacts', 'TestCases/1_/_2_=_1', { Path: '/tmp/out/_artifacts/123' }),
      out('TestCases/1_/_2_=_1', '=== RUN   TestCases/1_/_2_=_1\n'),
      out('TestCases/1_/_2_=_1', '    calc_test.go:67: expected 1 / 2 = 1, got 0\n'),
      out('TestCases/1_/_2_=_1', '    --- FAIL: TestCases/1_/_2_=_1 (0.92s)\n'),
      ev('fail', 'TestCases/1_/_2_=_1', { Elapsed: 0.92 }),
      { Action: 'run', Package: P, Test: 'TestCached' },
      { Action: 'output', Package: P, Test: 'TestCached', Output: 'x'.repeat(50) },
      { Action: 'pass', Package: P, Test: 'TestCached' },
      { Time: '2024-05-01T10:00:00', Action: 'run', Package: P, Test: 'TestNaive' },
      { Time: '2024-05-01T10:00:01', Action: 'skip', Package: P, Test: 'TestNaive', Elapsed: 1.7e-5 },
      ev('fail', 'TestCases'),
      ev('fail'),
    ],
    10,
  );
  const sub = byTitle(cs, '1_/_2_=_1');
  t.match(sub, {
    parentId: byTitle(cs, 'TestCases').id,
    status: 'failed',
    durationMs: 920,
    properties: [{ name: 'issue', value: 'GH-12' }],
    meta: { fullName: 'TestCases/1_/_2_=_1', artifacts: '/tmp/out/_artifacts/123' },
    failure: { message: 'calc_t' }, // cut at 10 characters before the first line is read
  });
  t.match(byTitle(cs, 'TestCached'), {
    startedAt: null,
    durationMs: null,
    output: { stdout: /^x{10}\n\[… truncated by Tally at 10 characters\]$/ },
  });
  t.match(byTitle(cs, 'TestNaive'), {
    status: 'skipped',
    startedAt: '2024-05-01T10:00:00.000Z',
    startedAtNaive: true,
    durationMs: 0.017,
  });
  t.equal(
    byTitle(cs, 'TestCases').failure,
    null,
    'a parent that failed only through a subtest has no failure text of its own',
  );
  t.same(count(cs), { tests: 4, passed: 1, failed: 2, errored: 0, skipped: 1 });
});

t.test('state machine: a package run with very many tests is emitted as it goes', async (t) => {
  const events: GoEvent[] = [];
  for (let i = 0; i < 10_050; i++) events.push(ev('run', `Test${i}`), ev(i === 7 ? 'fail' : 'pass', `Test${i}`));
  let id = 0;
  const out: Container[] = [];
  const h = goHandler(
    { fileName: 'go.json', nextId: () => ++id, limits: { maxTextChars: 100 }, setProducer: () => {} },
    (c) => out.push(c),
  );
  for (const e of events) h.event(e);
  const emittedBeforeEnd = out.length;
  h.event(ev('fail'));
  h.end();
  t.ok(emittedBeforeEnd >= 10_000, 'ended tests are not all held until the package ends');
  t.same(count(out), { tests: 10_050, passed: 10_049, failed: 1, errored: 0, skipped: 0 });
  t.equal(out[out.length - 1]!.type, 'suite');
});

/** Events of `go tool test2json` without `-p`: no Package. */
const bare = (Action: string, Test?: string, extra: Partial<GoEvent> = {}): GoEvent => ({
  Action,
  ...(Test ? { Test } : {}),
  ...extra,
});
const bareOut = (Output: string, Test?: string): GoEvent => bare('output', Test, { Output });

t.test("no Package: go test -v piped through test2json, named by go's summary line", async (t) => {
  const { containers } = await run(fx.read('tally-generated__test2json-one-package.json'), 'go.json');
  const suites = containers.filter((c) => c.type === 'suite');
  t.same(
    suites.map((c) => [c.title, c.status, c.durationMs]),
    [['example.com/wordcount', 'failed', 12]],
    'one suite, titled and timed by `FAIL\texample.com/wordcount\t0.012s`',
  );
  t.ok(
    containers.filter((c) => c.type === 'test' && c.parentId === suites[0]!.id).length === 4,
    'the four top-level tests under it',
  );
  t.match(byTitle(containers, 'hyphen'), { status: 'failed', failure: { message: /want 4/ } });
});

t.test('no Package: the packages of go test -v ./... stay apart', async (t) => {
  const { containers } = await run(fx.read('tally-generated__test2json-three-packages.json'), 'go.json');
  const suites = containers.filter((c) => c.type === 'suite');
  t.same(
    suites.map((c) => [c.title, c.status]),
    [
      ['example.com/wordcount', 'failed'],
      ['example.com/wordcount/split', 'passed'],
    ],
    "a suite per package with tests; none for go's closing FAIL",
  );
  const counts = containers.filter((c) => c.title === 'TestCount').sort((a, b) => a.parentId! - b.parentId!);
  t.same(
    counts.map((c) => [c.parentId, c.status, c.attempts?.length ?? 0]),
    [
      [suites[0]!.id, 'failed', 0],
      [suites[1]!.id, 'passed', 0],
    ],
    'TestCount of each package is its own test, not a rerun of the other',
  );
});

t.test("state machine: no Package and no summary line (a test binary's -test.v output)", async (t) => {
  const cs = drive([
    bare('start'),
    bare('run', 'TestA'),
    bareOut('=== RUN   TestA\n', 'TestA'),
    bareOut('    a_test.go:9: boom\n', 'TestA'),
    bare('fail', 'TestA', { Elapsed: 0.01 }),
    bareOut('FAIL\n'),
    bare('fail', undefined, { Elapsed: 0.02 }),
  ]);
  t.same(
    cs.map((c) => [c.type, c.title, c.status]),
    [
      ['test', 'TestA', 'failed'],
      ['suite', DEFAULT_PACKAGE, 'failed'],
    ],
  );
  t.equal(DEFAULT_PACKAGE, '(no package)');
  t.equal(cs[1]!.durationMs, 20, 'the package result gives the suite its time');
});

t.test('state machine: no Package, a package that fails to build', async (t) => {
  const cs = drive([
    bare('start'),
    bareOut('# example.com/m/broken\n'),
    bareOut('broken/x.go:3:2: undefined: y\n'),
    bareOut('FAIL\texample.com/m/broken [build failed]\n'),
    bare('run', 'TestOk'),
    bare('pass', 'TestOk'),
    bareOut('ok  \texample.com/m/fine\t0.002s\n'),
    bareOut('FAIL\n'),
    bare('fail'),
  ]);
  t.same(
    cs.map((c) => [c.type, c.title, c.status]),
    [
      ['test', 'example.com/m/broken', 'errored'],
      ['test', 'TestOk', 'passed'],
      ['suite', 'example.com/m/broken', 'errored'],
      ['suite', 'example.com/m/fine', 'passed'],
    ],
    "counting rule 4 for the broken package; the closing FAIL is go's exit, not a package",
  );
  t.match(cs[0]!.failure, { message: /^Build failed \(broken\/x\.go:3:2: undefined: y\)$/, type: 'build failure' });
});

t.test('sniff: test2json without -p', async (t) => {
  t.ok(golang.sniff(headOf('{"Action":"start"}\n{"Action":"run","Test":"TestA"}\n', 'r.json')) >= 0.9);
  t.ok(golang.sniff(headOf('{"Action":"output","Output":"ok  \\tm\\t0.1s\\n"}\n', 'r.json')) >= 0.9);
  t.equal(golang.sniff(headOf('{"Action":"start","type":"x"}\n', 'r.json')), 0, 'a field test2json never writes');
  t.equal(golang.sniff(headOf('{"Action":"output"}\n', 'r.json')), 0, 'output without Output');
});
