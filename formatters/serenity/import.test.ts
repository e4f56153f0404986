/**
 * The serenity formatter in a started Tally: listed by `/api/v2/formatters`; outcomes posted to
 * `/import` without a key are detected as serenity, a data-driven one counts its rows, and the
 * outcomes of one story sent together with `merge_containers` end under one story suite.
 */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import { startTally, storeKinds, type Harness } from '../../test/helpers/tally.js';
import { field, file, multipart, type Part } from '../../test/helpers/multipart.js';

const fixture = (name: string): Promise<Buffer> => readFile(new URL(`fixtures/${name}`, import.meta.url));

async function importFiles(h: Harness, files: [name: string, bytes: Buffer][], fields: Part[] = []) {
  const parts: Part[] = files.map(([name, bytes]) => file('file[]', name, bytes, 'application/json'));
  const m = multipart([...parts, field('ignore_empty_import', 'true'), ...fields]);
  return h.send({
    path: `/api/v2/profile/${h.profileId}/import`,
    headers: { 'content-type': m.contentType },
    body: m.body,
  });
}

const totals = (r: { json: any }) => {
  const x = r.json.report.totals;
  return {
    tests: x.tests,
    passed: x.passed,
    failed: x.failed,
    errored: x.errored,
    skipped: x.skipped,
    pending: x.pending,
  };
};

for (const kind of storeKinds(t))
  t.test(`serenity over HTTP (${kind} store)`, async (t) => {
    const h = await startTally(t, { store: kind });

    await t.test('GET /api/v2/formatters lists it', async (t) => {
      const r = await h.send({ method: 'GET', path: '/api/v2/formatters', noKey: true });
      t.match(
        r.json.formatters.find((f: any) => f.key === 'serenity'),
        {
          key: 'serenity',
          extensions: ['.json'],
          merge_containers_by_default: false,
        },
      );
    });

    await t.test('a data-driven outcome: detected, one test per row', async (t) => {
      const name = 'serenity-2022-cucumber-data-driven-failure-large.json';
      const r = await importFiles(h, [[name, await fixture(name)]]);
      t.equal(r.status, 201, 'created', { body: r.text.slice(0, 1500) });
      t.same(
        r.json.report.files.map((f: any) => f.formatter),
        ['serenity'],
      );
      t.same(totals(r), { tests: 9, passed: 6, failed: 3, errored: 0, skipped: 0, pending: 0 });
    });

    await t.test('Thucydides examples: pending rows', async (t) => {
      const name = 'thucydides-2013-jbehave-examples-pending-big.json';
      const r = await importFiles(h, [[name, await fixture(name)]]);
      t.equal(r.status, 201, 'created', { body: r.text.slice(0, 1500) });
      t.same(totals(r), { tests: 23, passed: 0, failed: 0, errored: 0, skipped: 0, pending: 23 });
    });

    await t.test('outcomes of one story: a story suite each, one with merge_containers', async (t) => {
      const names = ['serenity-2021-cucumber-compromised-rule-actors.json', 'serenity-2021-cucumber-skipped.json'];
      const files = await Promise.all(names.map(async (n) => [n, await fixture(n)] as [string, Buffer]));
      for (const [merge, stories] of [
        [false, ['Managing the cart', 'Managing the cart']],
        [true, ['Managing the cart']],
      ] as const) {
        const r = await importFiles(h, files, merge ? [field('merge_containers', 'true')] : []);
        t.equal(r.status, 201, 'created', { body: r.text.slice(0, 1500) });
        t.same(
          r.json.report.files.map((f: any) => f.formatter),
          ['serenity', 'serenity'],
        );
        t.same(totals(r), { tests: 2, passed: 0, failed: 0, errored: 1, skipped: 1, pending: 0 });
        const top = await h.send({ method: 'GET', path: `/api/v2/reports/${r.json.report_id}/containers` });
        t.same(
          top.json.containers.map((c: any) => c.title),
          stories,
          merge ? 'combined on request' : 'one story suite per outcome file',
        );
      }
    });
  });
