import t from 'tap';
import { totalsOf as count } from '../../lib/formatter/check.js';
import { formatterFixtures, jsonReportChecks, textParser } from '../../test/helpers/formatter-fixtures.js';
import { mochawesome as formatter } from './index.js';

const fx = formatterFixtures(formatter, import.meta.url);
const parseText = textParser(fx, 'r.json');

const STATS =
  '"stats":{"suites":1,"tests":2,"passes":1,"pending":0,"failures":1,"start":"2024-05-01T10:00:00.000Z",' +
  '"end":"2024-05-01T10:00:01.000Z","duration":1000,"testsRegistered":2,"passPercent":50,"pendingPercent":0,' +
  '"other":0,"hasOther":false,"skipped":0,"hasSkipped":false}';
const META =
  '"meta":{"mocha":{"version":"10.2.0"},"mochawesome":{"options":{},"version":"7.1.3"},"marge":{"options":{},' +
  '"version":"6.2.0"}}';
const test = (title: string, extra: Record<string, unknown>) => ({
  title,
  fullTitle: `S ${title}`,
  timedOut: false,
  duration: 4,
  state: null,
  pass: false,
  fail: false,
  pending: false,
  code: 'x()',
  err: {},
  uuid: `u-${title}`,
  isHook: false,
  skipped: false,
  ...extra,
});
const suite = (title: string, parts: Record<string, unknown>) => ({
  uuid: `s-${title}`,
  title,
  fullFile: '/p/cypress/e2e/a.cy.js',
  file: 'cypress/e2e/a.cy.js',
  beforeHooks: [],
  afterHooks: [],
  tests: [],
  suites: [],
  passes: [],
  failures: [],
  pending: [],
  skipped: [],
  duration: 8,
  root: false,
  rootEmpty: false,
  _timeout: 2000,
  ...parts,
});
const report = (...roots: unknown[]) => `{${STATS},"results":${JSON.stringify(roots)},${META}}`;

t.test('state machine: statuses, failed hooks (rule 4), the suite tree', async (t) => {
  const hookErr = {
    message: 'TypeError: a is not defined',
    estack: 'TypeError: a is not defined\n    at Context.before (x.js:1:1)',
    diff: null,
  };
  const out = await parseText(
    report(
      suite('', {
        root: true,
        rootEmpty: true,
        suites: [
          suite('Login', {
            beforeHooks: [
              test('"before all" hook for "logs in"', { isHook: true, state: 'failed', fail: true, err: hookErr }),
              test('"before each" hook', { isHook: true }),
            ],
            tests: [
              test('logs in', { skipped: true }),
              test('passes', { state: 'passed', pass: true }),
              test('fails', {
                state: 'failed',
                fail: true,
                timedOut: true,
                err: {
                  message: 'AssertionError: expected 1 to equal 2',
                  estack: 'AssertionError: expected 1 to equal 2\n    at Context.<anonymous> (a.cy.js:9:5)',
                  diff: '- 1\n+ 2\n',
                },
              }),
              test('later', { pending: true }),
              test('never ran', {}),
            ],
          }),
        ],
      }),
    ),
  );
  t.same(count(out), { tests: 6, passed: 1, failed: 1, errored: 1, skipped: 3 });
  const byTitle = Object.fromEntries(out.map((c) => [c.title, c]));
  t.match(byTitle['"before all" hook for "logs in"'], {
    type: 'test',
    status: 'errored',
    failure: { message: 'TypeError: a is not defined', type: 'TypeError' },
    meta: { synthetic: 'hook', hook: 'before' },
  });
  t.notOk(byTitle['"before each" hook'], 'a hook that did not fail and carries no context is not kept');
  t.match(byTitle['fails'], {
    status: 'failed',
    failure: { type: 'AssertionError', stack: /at Context/ },
    properties: [{ name: 'diff', value: '- 1\n+ 2\n' }],
    meta: { timedOut: 'true', fullTitle: 'S fails' },
  });
  t.match(byTitle['logs in'], { status: 'skipped', meta: { skipped: 'true' } });
  t.match(byTitle['later'], { status: 'skipped', meta: { pending: 'true' } });
  t.match(byTitle['Login'], { type: 'suite', status: 'errored', durationMs: 8, startedAt: null });
  // The spec file's root suite has an empty title: its file names it, and the run's start dates it.
  t.match(out[out.length - 1], {
    type: 'suite',
    parentId: null,
    title: 'cypress/e2e/a.cy.js',
    startedAt: '2024-05-01T10:00:00.000Z',
  });
  t.equal(byTitle['Login']!.parentId, out[out.length - 1]!.id);
});

t.test('context: screenshot and video paths become attachment references', async (t) => {
  const context = JSON.stringify([
    { title: 'screenshot', value: 'assets/a.cy.js/Login -- fails (failed).png' },
    { title: 'video', value: '../videos/a.cy.js.mp4' },
    { title: 'inline', value: 'data:image/png;base64,AAAA' },
    { title: 'link', value: 'https://ci.example.com/build/1' },
    { title: 'note', value: 'plain text, not a file' },
    { title: 'data', value: { user: 'alice' } },
    'C:\\shots\\fails.png',
  ]);
  const out = await parseText(
    report(
      suite('S', {
        tests: [test('fails', { state: 'failed', fail: true, context })],
        afterHooks: [
          test('"after each" hook', {
            isHook: true,
            state: 'passed',
            pass: true,
            context: JSON.stringify('shots/after.png'),
          }),
        ],
      }),
    ),
  );
  const failed = out.find((c) => c.title === 'fails')!;
  t.same(failed.attachmentRefs, [
    'assets/a.cy.js/Login -- fails (failed).png',
    '../videos/a.cy.js.mp4',
    'C:\\shots\\fails.png',
  ]);
  t.same(
    failed.properties.map((p) => p.name),
    ['screenshot', 'video', 'inline', 'link', 'note', 'data', 'context'],
  );
  t.equal(failed.properties[5]!.value, '{"user":"alice"}');
  const hook = out.find((c) => c.type === 'hook')!;
  t.match(hook, {
    title: '"after each" hook',
    status: 'passed',
    attachmentRefs: ['shots/after.png'],
    meta: { hook: 'after' },
  });
  t.same(count(out), { tests: 1, passed: 0, failed: 1, errored: 0, skipped: 0 }, 'a hook that passed is not a test');
  const plain = await parseText(
    report(suite('S', { tests: [test('t', { state: 'passed', pass: true, context: 'not JSON at all' })] })),
  );
  t.same(plain[0]!.properties, [{ name: 'context', value: 'not JSON at all' }]);
});

t.test('older shapes: a single `suites` tree, copies in allTests, and `results: [false]`', async (t) => {
  const tree = suite('', {
    root: true,
    file: '',
    fullFile: '',
    suites: [
      suite('S', {
        tests: [
          test('a', { state: 'passed', pass: true }),
          test('b', {
            state: 'failed',
            fail: true,
            err: { _message: 'expected false', estack: 'AssertionError: expected false\n    at x' },
          }),
        ],
      }),
    ],
  });
  const copies = JSON.stringify([test('a', { state: 'passed', pass: true })]);
  const old = await parseText(
    `{${STATS},"suites":${JSON.stringify(tree)},"allTests":${copies},"allPasses":${copies},"allFailures":[],` +
      `"allPending":[],"copyrightYear":2017}`,
  );
  t.same(
    count(old),
    { tests: 2, passed: 1, failed: 1, errored: 0, skipped: 0 },
    'allTests repeats tests: not counted again',
  );
  t.match(
    old.find((c) => c.title === 'b'),
    { failure: { message: 'expected false', type: 'AssertionError' } },
  );
  t.match(old[old.length - 1], { type: 'suite', title: 'r.json', parentId: null });
  const none = await parseText(`{${STATS},"results":[false],${META}}`);
  t.same(none, [], 'nothing ran: no containers, no error');
});

// Fixture folder, manifest counts, sniff votes, chunk boundaries, bad input: as for every JSON report format.
jsonReportChecks(fx);
