/**
 * The xctest formatter in a started Tally: listed by `/api/v2/formatters`, and one file of each
 * family posted to `/import` without a key is detected as xctest and answers with its totals; a
 * counts-only xcresulttool file is refused with what to send instead.
 */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import { startTally, storeKinds, type Harness } from '../../test/helpers/tally.js';
import { field, file, multipart } from '../../test/helpers/multipart.js';

const fixture = (name: string): Promise<Buffer> => readFile(new URL(`fixtures/${name}`, import.meta.url));

async function importFile(h: Harness, name: string, bytes: Buffer, suffix = '/import') {
  const m = multipart([file('file[]', name, bytes, 'application/octet-stream'), field('ignore_empty_import', 'true')]);
  return h.send({
    path: `/api/v2/profile/${h.profileId}${suffix}`,
    headers: { 'content-type': m.contentType },
    body: m.body,
  });
}

const totals = (r: { json: any }) => {
  const x = r.json.report.totals;
  return { tests: x.tests, passed: x.passed, failed: x.failed, errored: x.errored, skipped: x.skipped + x.pending };
};

const FAMILIES: [family: string, name: string, expected: ReturnType<typeof totals>][] = [
  [
    'xcodebuild console output (a crash)',
    'xcodebuild-xcode10-crash-restart-failure.log',
    { tests: 18, passed: 17, failed: 0, errored: 1, skipped: 0 },
  ],
  [
    'swift test output with Swift Testing',
    'swift-test-6.0-linux-xctest-and-swift-testing-failures.log',
    { tests: 6, passed: 4, failed: 2, errored: 0, skipped: 0 },
  ],
  [
    'Xcode 16+ xcresulttool JSON',
    'xcresulttool-test-results-tests-xcode26-retries-swift-testing.json',
    { tests: 20, passed: 13, failed: 5, errored: 0, skipped: 2 },
  ],
  [
    'legacy xcresulttool JSON',
    'xcresulttool-legacy-testplanrunsummaries-xcode12-skip-ui-failures.json',
    { tests: 7, passed: 3, failed: 3, errored: 0, skipped: 1 },
  ],
];

for (const kind of storeKinds(t))
  t.test(`xctest over HTTP (${kind} store)`, async (t) => {
    const h = await startTally(t, { store: kind });

    await t.test('GET /api/v2/formatters lists it', async (t) => {
      const r = await h.send({ method: 'GET', path: '/api/v2/formatters', noKey: true });
      t.match(
        r.json.formatters.find((f: any) => f.key === 'xctest'),
        {
          key: 'xctest',
          extensions: ['.log', '.txt', '.json', '.out'],
          media_types: ['text/plain', 'application/json'],
        },
      );
    });

    for (const [family, name, expected] of FAMILIES)
      await t.test(`${family}: detected, with its totals`, async (t) => {
        const r = await importFile(h, name, await fixture(name));
        t.equal(r.status, 201, 'created', { body: r.text.slice(0, 1500) });
        t.same(
          r.json.report.files.map((f: any) => f.formatter),
          ['xctest'],
          'detected as xctest',
        );
        t.same(totals(r), expected);
      });

    await t.test('a counts-only file is refused, saying what to send', async (t) => {
      const name = 'xcresulttool-test-results-summary-xcode16-only-counts.json';
      const r = await importFile(h, name, await fixture(name));
      t.equal(r.status, 422);
      const error = r.json.messages.find((m: any) => m.severity === 'error');
      t.equal(error.code, 'report_validation_error');
      t.match(error.message + JSON.stringify(error), /xcrun xcresulttool get test-results tests/);
    });
  });
