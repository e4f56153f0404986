import t from 'tap';
import { FormatError } from '../../lib/formatter/api.js';
import { totalsOf as count } from '../../lib/formatter/check.js';
import { failure, formatterFixtures, jsonReportChecks, textParser } from '../../test/helpers/formatter-fixtures.js';
import { ctrf as formatter } from './index.js';

const fx = formatterFixtures(formatter, import.meta.url);
const { run } = fx;
const parseText = textParser(fx, 'r.json');

const report = (tests: unknown[], extra = '') =>
  `{${extra}"results":{"tool":{"name":"playwright","version":"1.49.0"},"summary":{"tests":${tests.length},` +
  `"passed":0,"failed":0,"skipped":0,"pending":0,"other":0,"start":1714557600000,"stop":1714557660000},` +
  `"tests":${JSON.stringify(tests)}}}`;

t.test('state machine: statuses, suites from `suite` or `filePath`, the run date', async (t) => {
  const { containers: out, producers } = await run(
    Buffer.from(
      report([
        {
          name: 'a',
          status: 'passed',
          duration: 5,
          suite: ['login.spec.ts', 'Login', 'form'],
          start: 1714557601000,
          stop: 1714557601005,
        },
        {
          name: 'b',
          status: 'failed',
          duration: 6,
          suite: 'login.spec.ts > Login',
          message: '\u001b[31mError: expected 1\u001b[39m',
          trace: 'Error: expected 1\n    at login.spec.ts:9:3',
          line: 9,
        },
        { name: 'c', status: 'skipped', duration: 0, filePath: 'tests/other.spec.ts' },
        { name: 'd', status: 'pending', duration: 0, filePath: 'tests/other.spec.ts' },
        { name: 'e', status: 'other', rawStatus: 'interrupted', duration: 0 },
        { name: 'f', status: 'weird', duration: 0 },
      ]),
    ),
    'ctrf.json',
  );
  t.same(producers, ['playwright']);
  t.same(count(out), { tests: 6, passed: 1, failed: 1, errored: 0, skipped: 4 });
  const byTitle = Object.fromEntries(out.map((c) => [c.title, c]));
  t.match(byTitle, {
    a: { status: 'passed', startedAt: '2024-05-01T10:00:01.000Z', durationMs: 5 },
    c: { status: 'skipped' },
    d: { status: 'pending' },
    e: { status: 'unknown', parentId: null, meta: { rawStatus: 'interrupted' } },
    f: { status: 'unknown', meta: { status: 'weird' } },
  });
  t.match(byTitle['b'], {
    failure: { message: 'Error: expected 1', type: 'Error', stack: 'Error: expected 1\n    at login.spec.ts:9:3' },
    meta: { line: '9', suite: 'login.spec.ts > Login' },
  });
  t.equal(byTitle['a']!.parentId, byTitle['form']!.id);
  t.equal(byTitle['form']!.parentId, byTitle['Login']!.id);
  t.equal(byTitle['b']!.parentId, byTitle['Login']!.id, 'the string and the array form give the same suite');
  t.equal(byTitle['c']!.parentId, byTitle['tests/other.spec.ts']!.id, 'without `suite`, the file groups');
  t.match(byTitle['login.spec.ts'], {
    type: 'suite',
    parentId: null,
    status: 'failed',
    startedAt: '2024-05-01T10:00:01.000Z',
  });
  t.match(
    byTitle['tests/other.spec.ts'],
    { type: 'suite', parentId: null, status: 'skipped', startedAt: '2024-05-01T10:00:00.000Z' },
    'dated by summary.start',
  );
});

t.test('state machine: retry attempts, flaky, attachments, output, steps', async (t) => {
  const out = await parseText(
    report(
      [
        {
          name: 'retried',
          status: 'passed',
          duration: 50,
          retries: 2,
          flaky: true,
          retryAttempts: [
            {
              attempt: 1,
              status: 'failed',
              duration: 100,
              message: 'timeout',
              trace: 'TimeoutError: timeout\n    at x',
              attachments: [{ name: 'screenshot', contentType: 'image/png', path: 'test-results/retried-1.png' }],
            },
            { attempt: 2, status: 'failed', start: 1000, stop: 1040, message: 'again' },
          ],
          attachments: [
            { name: 'video', contentType: 'video/webm', path: 'test-results/retried.webm' },
            { name: 'inline', contentType: 'image/png', path: 'data:image/png;base64,AAAA' },
          ],
          stdout: ['line 1', 'line 2'],
          stderr: ['oops'],
          tags: ['@slow'],
          labels: { owner: 'qa' },
          parameters: { user: 'alice', n: 2 },
          steps: [
            { name: 'open page', status: 'passed' },
            { name: 'click', status: 'failed' },
          ],
        },
        { name: 'reported flaky without attempts', status: 'passed', duration: 1, flaky: true, retries: 1 },
        {
          name: 'failed every time',
          status: 'failed',
          duration: 1,
          message: 'no',
          retryAttempts: [{ status: 'failed', duration: 1 }],
        },
      ],
      '"reportFormat":"CTRF","specVersion":"0.0.0","timestamp":"2024-05-01T09:00:00Z",',
    ),
  );
  t.same(count(out), { tests: 3, passed: 2, failed: 1, errored: 0, skipped: 0 });
  const [step1, step2, retried, reported, failedAll] = out;
  t.match(step1, { type: 'step', title: 'open page', status: 'passed', parentId: retried!.id });
  t.match(step2, { type: 'step', title: 'click', status: 'failed', parentId: retried!.id });
  t.match(retried, {
    status: 'passed',
    flaky: true,
    meta: { retries: '2' },
    output: { stdout: 'line 1\nline 2', stderr: 'oops' },
  });
  t.same(retried!.attempts, [
    {
      status: 'failed',
      durationMs: 100,
      failure: { message: 'timeout', type: 'TimeoutError', stack: 'TimeoutError: timeout\n    at x' },
    },
    { status: 'failed', durationMs: 40, failure: { message: 'again', type: null, stack: null } },
    { status: 'passed', durationMs: 50, failure: null },
  ]);
  t.same(retried!.attachmentRefs, ['test-results/retried.webm', 'test-results/retried-1.png']);
  t.same(retried!.properties, [
    { name: 'tag', value: '@slow' },
    { name: 'owner', value: 'qa' },
    { name: 'user', value: 'alice' },
    { name: 'n', value: '2' },
  ]);
  t.match(reported, { flaky: true, attempts: undefined }, 'the reporter’s own flaky flag is kept');
  t.match(failedAll, { status: 'failed', flaky: false });
  t.same(
    failedAll!.attempts!.map((a) => a.status),
    ['failed', 'failed'],
  );
});

t.test('newer reports: reportFormat, top-level timestamp; suites get the run date', async (t) => {
  const text =
    '{"reportFormat":"CTRF","specVersion":"0.0.0","timestamp":"2024-05-01T09:00:00Z",' +
    '"results":{"tool":{"name":"jest"},"summary":{"tests":1,"passed":1,"failed":0,"skipped":0,"pending":0,' +
    '"other":0},"tests":[{"name":"a","status":"passed","duration":1,"suite":["s"]}]}}';
  const out = await parseText(text);
  t.match(out[1], { type: 'suite', title: 's', startedAt: '2024-05-01T09:00:00.000Z' });
  t.type(await failure(parseText('{"reportFormat":"CTRF","results":[]}')), FormatError, '`results` must be an object');
  t.type(await failure(parseText('{"results":{"tool":{"name":"x"}}}')), FormatError, 'no tests array');
});

// Fixture folder, manifest counts, sniff votes, chunk boundaries, bad input: as for every JSON report format.
jsonReportChecks(fx);
