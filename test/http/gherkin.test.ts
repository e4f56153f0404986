/**
 * A Gherkin `.feature` file imported as Calliope imports it: detected on `/import` and named on
 * `/import/gherkin`, its scenarios (one per Examples row) counted as tests of unknown status.
 */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import { startTally, storeKinds, type Harness } from '../helpers/tally.js';
import { file, multipart } from '../helpers/multipart.js';

const FEATURE = new URL('../../formatters/gherkin/fixtures/rule-backgrounds-and-examples.feature', import.meta.url);

async function post(h: Harness, suffix: string, bytes: Buffer) {
  const m = multipart([file('file[]', 'features/complex.feature', bytes, 'application/octet-stream')]);
  return h.send({
    path: `/api/v2/profile/${h.profileId}${suffix}`,
    headers: { 'content-type': m.contentType },
    body: m.body,
  });
}

for (const kind of storeKinds(t)) {
  t.test(`a .feature file (${kind} store)`, async (t) => {
    const h = await startTally(t, { store: kind });
    const bytes = await readFile(FEATURE);

    await t.test('gherkin is listed among the formatters', async (t) => {
      const r = await h.send({ method: 'GET', path: '/api/v2/formatters', noKey: true });
      t.match(
        r.json.formatters.find((f: any) => f.key === 'gherkin'),
        { key: 'gherkin', extensions: ['.feature'] },
      );
    });

    for (const suffix of ['/import', '/import/gherkin']) {
      await t.test(`posted to ${suffix}: every scenario a test of unknown status`, async (t) => {
        const r = await post(h, suffix, bytes);
        t.equal(r.status, 201, r.text.slice(0, 1000));
        t.match(r.json.report.totals, { tests: 4, passed: 0, failed: 0, errored: 0, unknown: 4 });
        t.match(r.json.report.files, [{ formatter: 'gherkin', tests: 4 }]);
        t.notOk(
          r.json.messages.some((m: any) => m.code === 'duplicate_field_titles'),
          'outline rows have titles of their own',
        );
      });
    }
  });
}
