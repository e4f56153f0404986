import t from 'tap';
import type { Container } from '../../lib/formatter/api.js';
import { totalsOf as count } from '../../lib/formatter/check.js';
import { driveHandler, feedXml, formatterChecks, formatterFixtures } from '../../test/helpers/formatter-fixtures.js';
import { headOf } from '../../test/helpers/formatter-fixtures.js';
import type { XmlEvent } from '../../test/helpers/formatter-fixtures.js';
import { testng } from './index.js';
import { testngHandler } from './parse.js';
import { parseStartedAt } from './values.js';

const fx = formatterFixtures(testng, import.meta.url);

formatterChecks(fx, {
  fixtureScore: 0.9,
  eachFixture: (t, { producers }, name) => t.same(producers, ['testng'], `${name}: producer set once`),
  chunks: { asJson: true, eachInChunksOf: 7 },
});

t.test('sniff: a bare root still votes', async (t) => {
  t.equal(testng.sniff(headOf('<testng-results/>')), 0.85);
});
const { run } = fx;

type Event = XmlEvent;

function drive(events: Event[], maxTextChars = 1000): Container[] {
  return driveHandler(testngHandler, 'testng-results.xml', maxTextChars, (h) => feedXml(h, events)).out;
}

/** A test-method element with optional children, as SAX events. */
function method(attrs: Record<string, string>, inner: Event[] = []): Event[] {
  return [['open', 'test-method', attrs], ...inner, ['close', 'test-method']];
}

function exception(type: string, message: string): Event[] {
  return [
    ['open', 'exception', { class: type }],
    ['open', 'message'],
    ['text', `\n  ${message}\n  `],
    ['close', 'message'],
    ['open', 'full-stacktrace'],
    ['text', `${type}: ${message}\n\tat X.y(X.java:1)`],
    ['close', 'full-stacktrace'],
    ['close', 'exception'],
  ];
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

t.test('the generated TestNG 7 file: retries, flaky, failed @BeforeClass, data provider', async (t) => {
  const file = 'tally-generated__testng7-retry-config.xml';
  const { containers } = await run(fx.read(file), file);
  const byTitle = (title: string): Container[] => containers.filter((c) => c.title === title);
  const [flaky] = byTitle('passesOnSecondTry');
  t.match(flaky, {
    type: 'test',
    status: 'passed',
    flaky: true,
    output: { stdout: 'attempt 2' },
    properties: [{ name: 'group', value: 'smoke' }],
  });
  t.same(
    flaky!.attempts!.map((a) => a.status),
    ['failed', 'passed'],
  );
  t.match(flaky!.attempts![0], {
    durationMs: 0,
    failure: { type: 'java.lang.AssertionError', message: 'first attempt fails expected [true] but found [false]' },
  });
  // The second retried run of alwaysFails is written after its final FAIL; it is still an attempt.
  const always = byTitle('alwaysFails');
  t.equal(always.length, 1, 'three runs of alwaysFails are one test');
  t.match(always[0], { status: 'failed', flaky: false, durationMs: 1 });
  t.same(
    always[0]!.attempts!.map((a) => [a.status, a.durationMs]),
    [
      ['failed', 6],
      ['failed', 0],
      ['failed', 1],
    ],
  );
  t.match(byTitle('connect')[0], {
    type: 'test',
    status: 'errored',
    meta: { config: 'true', synthetic: 'config-failure', classname: 'demo.BrokenSetupTest' },
    failure: { message: 'database unreachable', type: 'java.lang.IllegalStateException' },
  });
  t.match(byTitle('needsDatabase')[0], { status: 'skipped', failure: { message: 'database unreachable' } });
  t.match(byTitle('withData(1)')[0], { status: 'passed', meta: { dataProvider: 'numbers' } });
  t.match(byTitle('withData(2)')[0], {
    status: 'failed',
    failure: { message: 'too big: 2 expected [true] but found [false]' },
  });
  const root = containers[containers.length - 1]!;
  t.match(root, {
    type: 'suite',
    title: 'Surefire suite',
    parentId: null,
    status: 'errored',
    durationMs: 43,
    startedAt: '2026-11-22T01:07:02.000Z',
  });
  t.notOk(root.startedAtNaive, '`UTC` is a zone');
  t.notOk(
    containers.some((c) => c.type === 'step'),
    'no retried run is left over',
  );
});

t.test('state machine: retried runs become attempts of their final run', async (t) => {
  const retried = { retried: 'true', status: 'SKIP' };
  // Without a root `retried` count the class streams: a retried run waits for the next final run.
  const streamed = drive(
    inClass({}, [
      ...method(
        { name: 'a', signature: 'a()', ...retried, 'duration-ms': '5' },
        exception('java.lang.AssertionError', 'boom'),
      ),
      ...method({ name: 'b', signature: 'b()', status: 'PASS' }),
      ...method({ name: 'a', signature: 'a()', status: 'PASS', 'duration-ms': '7' }),
      ...method({ name: 'c', signature: 'c()', ...retried }),
    ]),
  );
  t.same(count(streamed), { tests: 2, passed: 2, failed: 0, errored: 0, skipped: 0 });
  const a = streamed.find((c) => c.title === 'a')!;
  t.match(a, { flaky: true, durationMs: 7 });
  t.same(a.attempts, [
    {
      status: 'failed',
      durationMs: 5,
      failure: {
        message: 'boom',
        type: 'java.lang.AssertionError',
        stack: 'java.lang.AssertionError: boom\n\tat X.y(X.java:1)',
      },
    },
    { status: 'passed', durationMs: 7, failure: null },
  ]);
  t.match(
    streamed.find((c) => c.title === 'c'),
    { type: 'step', status: 'skipped', meta: { retried: 'true' } },
    'a retried run without its final run is kept, not counted',
  );

  // With `retried="N"` on the root the class is held, so a retried run written after its final run
  // (same start millisecond) still joins it; parameters keep data-provider rows apart.
  const param = (v: string): Event[] => [
    ['open', 'params'],
    ['open', 'param', { index: '0' }],
    ['open', 'value'],
    ['text', `\n ${v} \n`],
    ['close', 'value'],
    ['close', 'param'],
    ['close', 'params'],
  ];
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
  t.same(
    d1.attempts!.map((x) => x.failure?.message),
    ['first', 'final'],
  );
  t.equal(d1.flaky, false);
  t.equal(d2.flaky, true);
  t.ok(
    held.findIndex((c) => c.title === 'd(1)') < held.findIndex((c) => c.title === 'demo.C'),
    'tests are emitted before their class',
  );
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
    ...method(
      { name: 'init', 'is-config': 'true', status: 'FAIL' },
      exception('java.lang.IllegalStateException', 'no db'),
    ),
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
  t.same(
    count(out),
    { tests: 4, passed: 2, failed: 0, errored: 1, skipped: 1 },
    'a failed config is one errored test; an unknown status counts as skipped',
  );
  const get = (title: string): Container => out.find((c) => c.title === title)!;
  t.match(get('setUp'), { type: 'hook', status: 'passed', meta: { config: 'true' } });
  t.match(get('tearDown'), { type: 'hook', status: 'skipped' });
  t.match(get('init'), {
    type: 'test',
    status: 'errored',
    failure: { message: 'no db', type: 'java.lang.IllegalStateException' },
  });
  t.match(get('t1'), {
    status: 'passed',
    output: { stdout: 'first\nsecond', stderr: null },
    meta: { classname: 'pkg.C', description: 'does a thing' },
  });
  t.same(
    get('t1').properties,
    [
      { name: 'group', value: 'fast' },
      { name: 'group', value: 'slow' },
    ],
    'suite <groups> and the groups attribute, once each',
  );
  t.match(get('t2'), { status: 'passed', failure: null });
  t.match(get('pkg.C'), { type: 'suite', status: 'errored' });
  t.notOk(
    out.some((c) => c.output?.stdout?.includes('run-level')),
    'run-level reporter output belongs to no container',
  );
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
  const [test] = drive(
    inClass({}, method({ name: 'x', status: 'PASS', 'started-at': '2024-01-02T03:04:05 CEST', 'duration-ms': '12' })),
  );
  t.match(test, { startedAt: '2024-01-02T03:04:05.000Z', startedAtNaive: true, durationMs: 12 });
});

t.test('long text is cut with the marker', async (t) => {
  const [test] = drive(inClass({}, method({ name: 'x', status: 'FAIL' }, exception('E', 'y'.repeat(50)))), 10);
  t.match(test!.failure!.message, /^y{10}\n\[… truncated by Tally at 10 characters\]$/);
});
