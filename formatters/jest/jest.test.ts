import t from 'tap';
import { totalsOf as count } from '../../lib/formatter/check.js';
import { readHead } from '../../lib/formatter/head.js';
import { formatterFixtures, jsonReportChecks, textParser } from '../../test/helpers/formatter-fixtures.js';
import { jest as formatter } from './index.js';

const fx = formatterFixtures(formatter, import.meta.url);
const { run } = fx;
const parseText = textParser(fx, 'r.json');

const assertion = (title: string, ancestors: string[], status: string, extra: Record<string, unknown> = {}) => ({
  ancestorTitles: ancestors,
  failureMessages: [],
  fullName: [...ancestors, title].join(' '),
  location: null,
  status,
  title,
  ...extra,
});
const file = (name: string, assertionResults: unknown[], extra: Record<string, unknown> = {}) => ({
  assertionResults,
  endTime: 1700000001500,
  message: '',
  name,
  startTime: 1700000001000,
  status: 'passed',
  summary: '',
  ...extra,
});
const report = (...files: unknown[]) =>
  JSON.stringify({
    numFailedTestSuites: 0,
    numFailedTests: 0,
    numPassedTestSuites: 1,
    numPassedTests: 1,
    numTotalTests: 1,
    startTime: 1700000000000,
    success: true,
    testResults: files,
    wasInterrupted: false,
  });

t.test('state machine: statuses, describe suites, file suites', async (t) => {
  const out = await parseText(
    report(
      file(
        '/p/a.test.ts',
        [
          assertion('ok', ['A', 'B'], 'passed', { duration: 12, location: { line: 4, column: 5 } }),
          assertion('bad', ['A'], 'failed', {
            failureMessages: [
              '\u001b[31mError: expect(received).toBe(expected)\n\nExpected: 2\u001b[39m\n    at Object.<anonymous> ' +
                '(/p/a.test.ts:9:5)\n    at run (node_modules/x.js:1:1)',
            ],
          }),
          assertion('skip', [], 'pending'),
          assertion('off', ['A'], 'disabled'),
          assertion('later', ['A', 'B'], 'todo'),
          assertion('odd', [], 'focused'),
        ],
        { status: 'failed' },
      ),
    ),
  );
  t.same(count(out), { tests: 6, passed: 1, failed: 1, errored: 0, skipped: 4 });
  const byTitle = Object.fromEntries(out.map((c) => [c.title, c]));
  t.match(byTitle['ok'], { status: 'passed', durationMs: 12, meta: { fullName: 'A B ok', line: '4', column: '5' } });
  t.same(byTitle['bad']!.failure, {
    message: 'expect(received).toBe(expected)\n\nExpected: 2',
    type: 'Error',
    stack:
      'Error: expect(received).toBe(expected)\n\nExpected: 2\n    at Object.<anonymous> (/p/a.test.ts:9:5)\n    at ' +
      'run (node_modules/x.js:1:1)',
  });
  t.match(byTitle, {
    skip: { status: 'skipped' },
    off: { status: 'skipped' },
    later: { status: 'pending' },
    odd: { status: 'unknown', meta: { status: 'focused' } },
  });
  t.match(byTitle['B'], { type: 'suite', parentId: byTitle['A']!.id, status: 'passed' });
  t.match(byTitle['A'], { type: 'suite', status: 'failed' });
  t.match(byTitle['/p/a.test.ts'], {
    type: 'suite',
    parentId: null,
    status: 'failed',
    durationMs: 500,
    startedAt: '2023-11-14T22:13:21.000Z',
    failure: null,
    meta: { file: '/p/a.test.ts' },
  });
  t.equal(byTitle['skip']!.parentId, byTitle['/p/a.test.ts']!.id, 'a test outside any describe sits in its file');
  t.ok(out.indexOf(byTitle['B']!) < out.indexOf(byTitle['A']!), 'the inner describe is emitted before the outer one');
});

t.test('state machine: a file that failed to run is one errored test (rule 4)', async (t) => {
  const message =
    "  \u001b[1m● \u001b[22mTest suite failed to run\n\n    Cannot find module 'x' from 'a.test.ts'\n\n      at " +
    'Resolver.resolveModule (node_modules/jest-resolve/build/index.js:191:17)';
  const out = await parseText(
    report(file('/p/broken.test.ts', [], { status: 'failed', message }), file('/p/empty.test.ts', [])),
  );
  t.same(count(out), { tests: 1, passed: 0, failed: 0, errored: 1, skipped: 0 });
  t.match(out[0], {
    type: 'test',
    title: 'Test suite failed to run',
    status: 'errored',
    meta: { synthetic: 'file-error' },
    failure: {
      message: /^● Test suite failed to run\n\n {4}Cannot find module 'x'/,
      stack: /at Resolver\.resolveModule/,
    },
  });
  t.match(out[1], { type: 'suite', title: '/p/broken.test.ts', status: 'errored' });
  t.match(
    out[2],
    { type: 'suite', title: '/p/empty.test.ts', status: 'passed' },
    'a file without tests that did not fail is an empty suite',
  );
  const execError = await parseText(
    report(
      file('/p/x.test.ts', [], {
        status: 'failed',
        testExecError: { message: 'Jest worker crashed', stack: 'Error: Jest worker crashed\n    at w' },
      }),
    ),
  );
  t.match(execError[0], {
    status: 'errored',
    failure: { message: 'Jest worker crashed', stack: 'Error: Jest worker crashed\n    at w' },
  });
  // A failed file whose tests all passed: an afterAll threw; the error stays on the file.
  const afterAll = await parseText(
    report(
      file('/p/y.test.ts', [assertion('ok', [], 'passed')], {
        status: 'failed',
        message: 'afterAll hook failed\n    at z',
      }),
    ),
  );
  t.same(count(afterAll), { tests: 1, passed: 1, failed: 0, errored: 0, skipped: 0 });
  t.match(afterAll[1], { type: 'suite', status: 'errored', failure: { message: 'afterAll hook failed' } });
});

t.test('state machine: retried tests, Vitest, key order, capped text', async (t) => {
  const out = await parseText(
    report(
      file('/p/r.test.ts', [
        assertion('retried', [], 'passed', {
          invocations: 3,
          retryReasons: ['Error: first\n    at a', 'Error: second\n    at b'],
          duration: 7,
        }),
      ]),
    ),
  );
  t.match(out[0], { status: 'passed', flaky: true, meta: { invocations: '3' } });
  t.same(
    out[0]!.attempts!.map((a) => [a.status, a.failure?.message ?? null]),
    [
      ['failed', 'first'],
      ['failed', 'second'],
      ['passed', null],
    ],
  );

  const vitest = await run(
    Buffer.from(
      JSON.stringify({
        numTotalTestSuites: 1,
        numTotalTests: 1,
        testResults: [
          {
            assertionResults: [{ ...assertion('v', ['s'], 'passed'), meta: {} }],
            startTime: 1,
            endTime: 2,
            status: 'passed',
            message: '',
            name: '/p/v.test.ts',
          },
        ],
      }),
    ),
    'r.json',
  );
  t.same(vitest.producers, ['vitest']);

  // Jest before 25 wrote `assertionResults` first and `name` last: the file is still named right.
  const order = await parseText(
    '{"numTotalTests":1,"testResults":[{"assertionResults":[{"status":"passed","title":"t","ancestorTitles":["d"]}],' +
      '"endTime":2,"message":"","name":"/p/late-name.test.ts","startTime":1,"status":"passed"}]}',
  );
  t.match(order[order.length - 1], { type: 'suite', title: '/p/late-name.test.ts' });
  t.equal(order[0]!.parentId, order[1]!.id);
  t.equal(order[1]!.parentId, order[2]!.id);

  const capped = await parseText(
    report(file('/p/c.test.ts', [assertion('long', [], 'failed', { failureMessages: ['x'.repeat(50)] })])),
    10,
  );
  t.match(capped[0]!.failure!.message, /^x{10}\n\[… truncated by Tally at 10 characters\]$/);
});

t.test('an npm banner and console output before the report are skipped', async (t) => {
  const body = fx.read('jest-editor-support__with-ancestors-and-each.json').toString('utf8').replace(/\n\s*/g, '');
  const noisy = `\n> app@1.0.0 test\n> jest --json\n\nconsole.log\n  {\n    a: 1\n  }\n${body}\n`;
  const { head } = readHead(Buffer.from(noisy), 'out.txt', true);
  t.equal(head.kind, 'text');
  t.ok(formatter.sniff(head) >= 0.5, 'the vote finds the report after the banner');
  for (const n of [1, 5, 65536]) {
    const { containers } = await run(Buffer.from(noisy), 'out.txt', n);
    t.same(count(containers), { tests: 7, passed: 5, failed: 2, errored: 0, skipped: 0 }, `chunks of ${n}`);
  }
});

t.test('UTF-16 LE with a BOM (Windows PowerShell `>` redirection) reads the same', async (t) => {
  const bytes = fx.read('jest-editor-support__with-ancestors-and-each.json');
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(bytes.toString('utf8'), 'utf16le')]);
  const { head, containers } = await run(utf16, 'r.json', 7);
  t.ok(formatter.sniff(head) >= 0.8);
  t.same(count(containers), { tests: 7, passed: 5, failed: 2, errored: 0, skipped: 0 });
});

// Fixture folder, manifest counts, sniff votes, chunk boundaries, bad input: as for every JSON report format.
jsonReportChecks(fx);
