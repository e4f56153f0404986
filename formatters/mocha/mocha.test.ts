import t from 'tap';
import { FormatError } from '../../lib/formatter/api.js';
import { totalsOf as count } from '../../lib/formatter/check.js';
import { readHead } from '../../lib/formatter/head.js';
import { failure, formatterFixtures, jsonReportChecks, textParser } from '../../test/helpers/formatter-fixtures.js';
import { mocha as formatter } from './index.js';

const fx = formatterFixtures(formatter, import.meta.url);
const { run } = fx;
const parseText = textParser(fx, 'r.json');

/** A Mocha report in the reporter's order, from entries written as `[title, fullTitle, file, err?, extra?]`. */
function report(
  sections: Partial<Record<'tests' | 'pending' | 'failures' | 'passes', object[]>>,
  order = ['stats', 'tests', 'pending', 'failures', 'passes'],
): string {
  const parts: string[] = [];
  for (const key of order) {
    if (key === 'stats')
      parts.push(
        `"stats":{"suites":1,"tests":0,"passes":0,"pending":0,"failures":0,"start":"2024-05-01T10:00:00.000Z",` +
          `"end":"2024-05-01T10:00:01.000Z","duration":1000}`,
      );
    else parts.push(`${JSON.stringify(key)}:${JSON.stringify(sections[key as 'tests'] ?? [])}`);
  }
  return `{${parts.join(',')}}`;
}
const entry = (title: string, fullTitle: string, file: string | undefined, err: object = {}, extra: object = {}) => ({
  title,
  fullTitle,
  file,
  duration: 3,
  currentRetry: 0,
  err,
  ...extra,
});

t.test('state machine: pending[] decides skipped; it may come before or after tests[]', async (t) => {
  const tests = [
    entry('a', 'S a', '/t/a.js'),
    entry('b', 'S b', '/t/a.js'),
    entry('c', 'S c', '/t/a.js', { message: 'boom', stack: 'Error: boom\n    at x' }),
  ];
  const pending = [entry('b', 'S b', '/t/a.js')];
  const normal = await parseText(report({ tests, pending }));
  const reordered = await parseText(report({ tests, pending }, ['pending', 'passes', 'failures', 'tests', 'stats']));
  for (const [name, out] of [
    ['mocha order', normal],
    ['pending first', reordered],
  ] as const) {
    t.same(count(out), { tests: 3, passed: 1, failed: 1, errored: 0, skipped: 1 }, name);
    const byTitle = Object.fromEntries(out.filter((c) => c.type === 'test').map((c) => [c.title, c]));
    t.match(
      byTitle,
      {
        a: { status: 'passed' },
        b: { status: 'skipped', failure: null },
        c: { status: 'failed', failure: { message: 'boom', type: 'Error', stack: 'Error: boom\n    at x' } },
      },
      name,
    );
  }
  // Same fullTitle in another file is another test.
  const other = await parseText(
    report({
      tests: [entry('b', 'S b', '/t/a.js'), entry('b', 'S b', '/t/b.js')],
      pending: [entry('b', 'S b', '/t/b.js')],
    }),
  );
  t.same(
    other.filter((c) => c.type === 'test').map((c) => [c.meta!['file'], c.status]),
    [
      ['/t/a.js', 'passed'],
      ['/t/b.js', 'skipped'],
    ],
  );
});

t.test('state machine: failures[] entries that match no test are hook failures (rule 4)', async (t) => {
  const hookErr = { message: 'setup failed', stack: 'TypeError: setup failed\n    at Context.<anonymous>' };
  const tests = [
    entry('a', 'S a', '/t/a.js', {
      message: 'x',
      stack: 'AssertionError [ERR_ASSERTION]: x\n    at y',
      name: 'AssertionError',
    }),
  ];
  const failures = [
    entry('a', 'S a', '/t/a.js', { message: 'x' }),
    entry('"before each" hook for "b"', 'S "before each" hook for "b"', '/t/a.js', hookErr),
  ];
  for (const order of [undefined, ['stats', 'failures', 'passes', 'pending', 'tests']]) {
    const out = await parseText(report({ tests, failures }, order));
    t.same(
      count(out),
      { tests: 2, passed: 0, failed: 1, errored: 1, skipped: 0 },
      order ? 'failures before tests' : 'mocha order',
    );
    const hook = out.find((c) => c.status === 'errored')!;
    t.match(hook, {
      type: 'test',
      title: '"before each" hook for "b"',
      failure: { message: 'setup failed', type: 'TypeError' },
      meta: { synthetic: 'hook', file: '/t/a.js' },
    });
    const suite = out.find((c) => c.id === hook.parentId)!;
    t.match(suite, { type: 'suite', title: 'S', status: 'errored' });
  }
  // A root-level hook (no describe) sits under its file.
  const root = await parseText(
    report({
      tests: [],
      failures: [entry('"before all" hook in "{root}"', '"before all" hook in "{root}"', '/t/setup.js', hookErr)],
    }),
  );
  t.match(root, [
    { type: 'test', status: 'errored' },
    { type: 'suite', title: '/t/setup.js', parentId: null, status: 'errored' },
  ]);
});

t.test('state machine: suites from file and describe path, dates, retries, old Mocha entries', async (t) => {
  const out = await parseText(
    report({
      tests: [entry('a', 'Outer Inner a', '/t/a.js', {}, { currentRetry: 2 }), entry('top', 'top', '/t/a.js')],
    }),
  );
  const [a, top, inner, file] = out;
  t.match(a, {
    title: 'a',
    status: 'passed',
    flaky: true,
    durationMs: 3,
    meta: { fullTitle: 'Outer Inner a', file: '/t/a.js', currentRetry: '2' },
  });
  t.match(inner, { type: 'suite', title: 'Outer Inner', parentId: file!.id, startedAt: null });
  t.equal(a!.parentId, inner!.id);
  t.equal(top!.parentId, file!.id);
  t.match(file, {
    type: 'suite',
    title: '/t/a.js',
    parentId: null,
    startedAt: '2024-05-01T10:00:00.000Z',
    status: 'passed',
  });
  t.notOk(file!.startedAtNaive);
  // Old Mocha wrote only title, fullTitle and duration: no file, no err.
  const old = await parseText(
    '{"stats":{"tests":2},"tests":[{"title":"a","fullTitle":"S a","duration":1},{"title":"b","fullTitle":"b",' +
      '"duration":0}],"pending":[],"failures":[],"passes":[]}',
  );
  t.same(count(old), { tests: 2, passed: 2, failed: 0, errored: 0, skipped: 0 });
  t.match(old, [
    { title: 'a', parentId: 1 },
    { title: 'b', parentId: null },
    { id: 1, type: 'suite', title: 'S', parentId: null },
  ]);
  const capped = await parseText(report({ tests: [entry('a', 'a', '/t/a.js', { message: 'x'.repeat(50) })] }), 10);
  t.match(capped[0]!.failure!.message, /^x{10}\n\[… truncated by Tally at 10 characters\]$/);
});

t.test('an npm banner and console output before the report are skipped', async (t) => {
  const body = fx.read('dorny__mocha-json.json').toString('utf8');
  const noisy =
    `\n> reports@1.0.0 test\n> mocha --reporter json\n\n{ a: 1 }\n{\n  nested: true\n}\nconsole ` + `output\n${body}`;
  const { head } = readHead(Buffer.from(noisy), 'out.txt', true);
  t.equal(head.kind, 'text');
  t.ok(formatter.sniff(head) >= 0.5, 'the vote finds the report after the banner');
  for (const n of [1, 5, 65536]) {
    const { containers } = await run(Buffer.from(noisy), 'out.txt', n);
    t.same(count(containers), { tests: 6, passed: 1, failed: 4, errored: 0, skipped: 1 }, `chunks of ${n}`);
  }
  t.type(
    await failure(run(Buffer.from('npm ERR! missing script: test\n'.repeat(5000)), 'out.txt')),
    FormatError,
    'a log without a report',
  );
});

t.test('UTF-16 LE with a BOM (Windows PowerShell `>` redirection) reads the same', async (t) => {
  const bytes = fx.read('dorny__mocha-json.json');
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(bytes.toString('utf8'), 'utf16le')]);
  const { head, containers } = await run(utf16, 'r.json', 7);
  t.ok(formatter.sniff(head) >= 0.8);
  t.same(count(containers), { tests: 6, passed: 1, failed: 4, errored: 0, skipped: 1 });
});

// Fixture folder, manifest counts, sniff votes, chunk boundaries, bad input: as for every JSON report format.
jsonReportChecks(fx);
