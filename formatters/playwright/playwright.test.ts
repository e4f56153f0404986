import t from 'tap';
import { totalsOf as count } from '../../lib/formatter/check.js';
import { formatterFixtures, jsonReportChecks, textParser } from '../../test/helpers/formatter-fixtures.js';
import { playwright as formatter } from './index.js';

const fx = formatterFixtures(formatter, import.meta.url);
const parseText = textParser(fx, 'r.json');

const CONFIG =
  '"config":{"rootDir":"/p/tests","projects":[{"outputDir":"/p/test-results","retries":2,"id":"chromium",' +
  '"name":"chromium","testDir":"/p/tests","timeout":30000}],"version":"1.40.0","workers":2}';
const result = (status: string, extra: Record<string, unknown> = {}) => ({
  workerIndex: 0,
  status,
  duration: 10,
  errors: [],
  stdout: [],
  stderr: [],
  retry: 0,
  startTime: '2024-05-01T10:00:00.000Z',
  attachments: [],
  ...extra,
});
const ptest = (status: string, results: unknown[], extra: Record<string, unknown> = {}) => ({
  timeout: 30000,
  annotations: [],
  expectedStatus: 'passed',
  projectId: 'chromium',
  projectName: 'chromium',
  results,
  status,
  ...extra,
});
const spec = (title: string, tests: unknown[], extra: Record<string, unknown> = {}) => ({
  title,
  ok: true,
  tags: [],
  tests,
  id: `id-${title}`,
  file: 'a.spec.ts',
  line: 3,
  column: 5,
  ...extra,
});
const report = (suites: unknown[], errors: unknown[] = []) =>
  `{${CONFIG},"suites":${JSON.stringify(suites)},"errors":${JSON.stringify(errors)},` +
  `"stats":{"startTime":"2024-05-01T09:59:59.000Z","duration":5,"expected":1,"unexpected":0,"flaky":0,` +
  `"skipped":0}}`;
const failedError = {
  message: '\u001b[31mexpect(received).toBe(expected)\u001b[39m',
  stack: 'Error: expect(received).toBe(expected)\n    at /p/tests/a.spec.ts:4:9',
};

t.test('state machine: statuses, retries as attempts, flaky', async (t) => {
  const out = await parseText(
    report([
      {
        title: 'a.spec.ts',
        file: 'a.spec.ts',
        line: 0,
        column: 0,
        specs: [
          spec('flaky', [
            ptest('flaky', [
              result('failed', { error: failedError, duration: 30 }),
              result('timedOut', { retry: 1, startTime: '2024-05-01T10:00:01.000Z' }),
              result('passed', { retry: 2, duration: 12, startTime: '2024-05-01T10:00:02.000Z' }),
            ]),
          ]),
          spec('broken', [
            ptest('unexpected', [
              result('failed', { error: failedError }),
              result('failed', { retry: 1, error: { message: 'second', stack: 'Error: second' } }),
            ]),
          ]),
          spec('skipped', [
            ptest('skipped', [result('skipped')], {
              expectedStatus: 'skipped',
              annotations: [{ type: 'skip', description: 'not on CI' }],
            }),
          ]),
          spec('fixme', [ptest('expected', [result('skipped')], { expectedStatus: 'skipped' })]),
          spec('known bug', [
            ptest('expected', [result('failed', { error: failedError })], { expectedStatus: 'failed' }),
          ]),
          spec(
            'two projects',
            [
              ptest('expected', [result('passed')]),
              ptest('expected', [result('passed')], { projectId: 'firefox', projectName: 'firefox' }),
            ],
            { tags: ['@smoke'] },
          ),
          spec('no project', [ptest('expected', [result('passed')], { projectId: '', projectName: '' })]),
        ],
        suites: [
          {
            title: 'inner',
            file: 'a.spec.ts',
            line: 9,
            column: 1,
            specs: [spec('deep', [ptest('expected', [result('passed', { startTime: '2024-05-01T09:00:00.000Z' })])])],
          },
        ],
      },
    ]),
  );
  t.same(count(out), { tests: 9, passed: 6, failed: 1, errored: 0, skipped: 2 });
  const byTitle = Object.fromEntries(out.map((c) => [c.title, c]));
  const flaky = byTitle['flaky [chromium]']!;
  t.match(flaky, {
    status: 'passed',
    flaky: true,
    durationMs: 12,
    startedAt: '2024-05-01T10:00:00.000Z',
    failure: null,
    meta: { project: 'chromium', file: 'a.spec.ts', line: '3', specId: 'id-flaky' },
  });
  t.same(
    flaky.attempts!.map((a) => a.status),
    ['failed', 'failed', 'passed'],
  );
  t.same(flaky.attempts![0]!.failure, {
    message: 'expect(received).toBe(expected)',
    type: 'Error',
    stack: 'Error: expect(received).toBe(expected)\n    at /p/tests/a.spec.ts:4:9',
  });
  t.match(byTitle['broken [chromium]'], { status: 'failed', flaky: false, failure: { message: 'second' } });
  t.match(byTitle['skipped [chromium]'], {
    status: 'skipped',
    properties: [{ name: 'skip', value: 'not on CI' }],
    meta: { expectedStatus: 'skipped' },
  });
  t.match(byTitle['fixme [chromium]'], { status: 'skipped' }, 'expected + expectedStatus skipped is skipped');
  t.match(byTitle['known bug [chromium]'], { status: 'passed', failure: null }, 'test.fail() that failed is expected');
  t.match(byTitle['two projects [firefox]'], {
    status: 'passed',
    properties: [{ name: 'tag', value: '@smoke' }],
    meta: { project: 'firefox' },
  });
  t.ok(byTitle['no project'], 'no project, no suffix');
  t.match(byTitle['inner'], { type: 'suite', startedAt: '2024-05-01T09:00:00.000Z', meta: { line: '9' } });
  t.match(
    byTitle['a.spec.ts'],
    { type: 'suite', parentId: null, status: 'failed', startedAt: '2024-05-01T09:00:00.000Z' },
    'a suite is dated by its earliest test',
  );
});

t.test('state machine: errors outside tests (rule 4), attachments, output', async (t) => {
  const out = await parseText(
    report(
      [
        {
          title: 'b.spec.ts',
          file: 'b.spec.ts',
          specs: [
            spec('shots', [
              ptest('unexpected', [
                result('failed', {
                  error: failedError,
                  stdout: [{ text: 'hello\n' }, { buffer: Buffer.from('bytes\n').toString('base64') }],
                  stderr: [{ text: 'warn\n' }],
                  attachments: [
                    {
                      name: 'screenshot',
                      contentType: 'image/png',
                      path: '/p/test-results/b-shots-chromium/test-failed-1.png',
                    },
                    {
                      name: 'trace',
                      contentType: 'application/zip',
                      path: '/p/test-results/b-shots-chromium/trace.zip',
                    },
                    { name: 'note', contentType: 'text/plain', body: 'aW5saW5l' },
                  ],
                }),
                result('failed', {
                  retry: 1,
                  attachments: [
                    {
                      name: 'screenshot',
                      contentType: 'image/png',
                      path: '/p/test-results/b-shots-chromium-retry1/test-failed-1.png',
                    },
                  ],
                }),
              ]),
            ]),
          ],
        },
      ],
      [
        {
          message: 'Error: \u001b[31mglobalSetup failed\u001b[39m\n\nmore',
          stack: 'Error: globalSetup failed\n    at setup (/p/global-setup.ts:3:9)',
          location: { file: '/p/global-setup.ts', line: 3, column: 9 },
        },
        { message: '' },
      ],
    ),
  );
  t.same(count(out), { tests: 3, passed: 0, failed: 1, errored: 2, skipped: 0 });
  const shots = out.find((c) => c.title === 'shots [chromium]')!;
  t.same(shots.attachmentRefs, [
    '/p/test-results/b-shots-chromium/test-failed-1.png',
    '/p/test-results/b-shots-chromium/trace.zip',
    '/p/test-results/b-shots-chromium-retry1/test-failed-1.png',
  ]);
  t.same(shots.output, { stdout: 'hello\nbytes\n', stderr: 'warn\n' });
  const [setup, second] = out.filter((c) => c.meta?.['synthetic'] === 'run-error');
  t.match(setup, {
    type: 'test',
    parentId: null,
    status: 'errored',
    title: 'Error: globalSetup failed',
    failure: { type: 'Error', stack: /global-setup\.ts:3:9/ },
    meta: { file: '/p/global-setup.ts', line: '3' },
  });
  t.match(second, { title: 'Error outside any test #2', status: 'errored' });
});

// Fixture folder, manifest counts, sniff votes, chunk boundaries, bad input: as for every JSON report format.
jsonReportChecks(fx);
