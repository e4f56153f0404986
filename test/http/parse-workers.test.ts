/**
 * Parse workers: an archive parsed on workers gives the same report, container for container
 * (ids, order, files), as one parsed on the request thread; a bad file among others in flight
 * fails the import and leaves no rows, spool files or blobs.
 */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTally, storeKinds, type Harness } from '../helpers/tally.js';
import { file, multipart } from '../helpers/multipart.js';
import { junitXml } from '../helpers/junit.js';
import { zipOf } from '../helpers/zip.js';
import type { HistoryColumn } from '../../lib/history/column.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Real result files of several formats (see each formatter's fixtures/MANIFEST.json for provenance). */
async function mixedEntries(o: { bigSuite?: boolean } = {}): Promise<{ name: string; data: Buffer }[]> {
  const entries: { name: string; data: Buffer }[] = [];
  for (const [dir, count] of [
    ['junit', 9],
    ['jest', 3],
    ['nunit', 2],
    ['trx', 2],
  ] as const) {
    const folder = path.join(root, 'formatters', dir, 'fixtures');
    const manifest = JSON.parse(await readFile(path.join(folder, 'MANIFEST.json'), 'utf8')) as {
      files: { path: string; parse_error_expected?: boolean; expected: unknown }[];
    };
    const names = manifest.files
      .filter((f) => !f.parse_error_expected && f.expected)
      .map((f) => f.path)
      .sort()
      .slice(0, count);
    for (const n of names) entries.push({ name: `results/${dir}/${n}`, data: await readFile(path.join(folder, n)) });
  }
  entries.push({ name: 'results/notes.txt', data: Buffer.from('not a result file\n') });
  // One suite larger than a history part (PART_TESTS): its column goes over in parts while it is open
  // (embedded store only: with MongoDB the containers, and the column, stay on the request thread,
  // and the suite's 25,000 children would only slow FerretDB's unindexed listing down).
  if (!o.bigSuite) return entries;
  const cases = (n: number, prefix: string) =>
    Array.from(
      { length: n },
      (_, i) =>
        `<testcase classname="big.${prefix}" name="case ${i}" ` +
        `time="0.00${i % 10}">${i % 97 === 0 ? '<failure message="no">at x</failure>' : ''}</testcase>`,
    ).join('');
  entries.push({
    name: 'results/junit/TEST-big.xml',
    data: Buffer.from(
      `<?xml version="1.0"?><testsuites><testsuite name="Big"><testsuite ` +
        `name="inner">${cases(12_000, 'in')}</testsuite>${cases(13_000, 'out')}</testsuite></testsuites>`,
    ),
  });
  return entries;
}

async function importZip(h: Harness, zip: Buffer) {
  const m = multipart([file('file[]', 'results.zip', zip, 'application/zip')]);
  return h.send({
    path: `/api/v2/profile/${h.profileId}/import`,
    headers: { 'content-type': m.contentType },
    body: m.body,
  });
}

/**
 * Every container of a report, whole, in `seq` order, a page of 1,000 at a time: one query a page.
 * The read API's walk costs a query a suite, and the tests' MongoDB-wire server reads the whole
 * collection for each.
 */
async function tree(h: Harness, reportNumber: number): Promise<unknown[]> {
  const id = (await h.store.reports.get(reportNumber))!.id;
  const out: unknown[] = [];
  for (let after: number | undefined; ;) {
    const page = await h.store.containers.find(id, {
      limit: 1000,
      ...(after === undefined ? {} : { afterSeq: after }),
    });
    for (const { reportId: _report, ...c } of page) out.push(c);
    if (page.length < 1000) return out;
    after = page[page.length - 1]!.seq;
  }
}

function column(c: HistoryColumn): Record<string, unknown[]> {
  return {
    keys: [...c.keys],
    seqs: [...c.seqs],
    durations: [...c.durations],
    flags: [...c.flags],
    paths: [...c.keys].map((_, i) => c.pathOf(i).join(' › ')),
  };
}

/** The first entry where two columns differ (tap's diff of 25,000-entry arrays takes minutes). */
function firstDifference(
  a: Record<string, unknown[]>,
  b: Record<string, unknown[]>,
): { field: string; at: number; got: unknown; wanted: unknown } | null {
  for (const field of Object.keys(b)) {
    const x = a[field]!;
    const y = b[field]!;
    for (let i = 0; i < Math.max(x.length, y.length); i++) {
      if (!Object.is(x[i], y[i])) return { field, at: i, got: x[i], wanted: y[i] };
    }
  }
  return null;
}

for (const kind of storeKinds(t))
  t.test(`parse workers (${kind} store)`, async (t) => {
    const onThread = await startTally(t, { store: kind, parseWorkers: 0 });
    const onWorkers = await startTally(t, { store: kind, parseWorkers: 2 });
    const zip = await zipOf(await mixedEntries({ bigSuite: kind === 'embedded' }));

    await t.test('an archive parsed on workers equals one parsed on the request thread', async (t) => {
      const a = await importZip(onThread, zip);
      const b = await importZip(onWorkers, zip);
      t.equal(a.status, 201, 'request thread: 201', { body: a.text });
      t.equal(b.status, 201, 'workers: 201', { body: b.text });
      t.equal(onThread.tally.pool.jobsStarted, 0, 'no worker used with TALLY_PARSE_WORKERS=0');
      t.ok(
        onWorkers.tally.pool.jobsStarted >= 16,
        `the workers parsed the files (${onWorkers.tally.pool.jobsStarted})`,
      );
      t.same(b.json.report.totals, a.json.report.totals, 'same totals');
      t.same(b.json.report.files, a.json.report.files, 'same files, in entry order');
      t.same(
        b.json.messages.map((m: any) => m.code),
        a.json.messages.map((m: any) => m.code),
        'same messages',
      );
      const ta = await tree(onThread, a.json.report_id);
      const tb = await tree(onWorkers, b.json.report_id);
      t.ok(ta.length > 100, `${ta.length} containers`);
      t.same(tb, ta, 'same containers: ids, parents, file indexes, order and content');
      // On workers the column is built from what they gathered while writing; without, read back.
      const uuidOf = async (h: Harness, n: number) => (await h.store.reports.get(n))!.id;
      const [ca] = await onThread.store.history.columns([await uuidOf(onThread, a.json.report_id)]);
      const [cb] = await onWorkers.store.history.columns([await uuidOf(onWorkers, b.json.report_id)]);
      t.ok(ca && ca.keys.length > 100, `history column of ${ca?.keys.length} tests`);
      const mismatch = firstDifference(column(cb!), column(ca!));
      t.equal(mismatch, null, 'same history column: keys, ids, durations, statuses and title paths', { mismatch });
    });

    await t.test('a broken file among files in flight fails the import and leaves nothing', async (t) => {
      const entries = (await mixedEntries()).slice(0, 8);
      entries.splice(3, 0, {
        name: 'results/broken.xml',
        data: Buffer.from(junitXml().replace('</testsuite>', '<testcase name="cut')),
      });
      const before = await onWorkers.leftovers();
      const reply = await importZip(onWorkers, await zipOf(entries));
      t.equal(reply.status, 422, 'status 422', { body: reply.text });
      t.equal(reply.json.messages.find((m: any) => m.severity === 'error')?.code, 'report_validation_error');
      t.match(
        reply.json.messages.find((m: any) => m.severity === 'error')?.message,
        /broken\.xml/,
        'names the broken file',
      );
      const record = await onWorkers.store.imports.get(reply.json.import_id);
      t.equal(record?.status, 'failed', 'import record failed');
      const reportId = record?.reportId;
      t.ok(reportId, 'the import had a report');
      t.same(
        await onWorkers.store.containers.list(reportId!, { parentSeq: null, limit: 10 }),
        [],
        'no container rows left',
      );
      const after = await onWorkers.leftovers();
      t.same(after.tmp, [], 'no spool file');
      t.equal(after.blobs, before.blobs, 'no blob left');
      const ok = await importZip(onWorkers, zip);
      t.equal(ok.status, 201, 'the workers take the next import');
    });
  });
