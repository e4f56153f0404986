/**
 * One import's uploads (lib/import/uploads.ts, with result-files.ts) against a real embedded store
 * in a temp folder: a result file is parsed and stored as a blob on the way; a file no formatter
 * claims is kept; a zip is stored whole and its entries are committed in entry order, with ids
 * running on across them, the same with parse threads as without; the first file that fails stops
 * the ones after it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import t, { type Test } from 'tap';
import { builtinFormatters } from '../../formatters/index.js';
import { DEFAULT_LIMITS } from '../../lib/config.js';
import { ParsePool } from '../../lib/import/parse/pool.js';
import { Uploads } from '../../lib/import/uploads.js';
import type { StoredContainer } from '../../lib/store/types.js';
import { junitXml } from '../helpers/junit.js';
import { reportStore } from '../helpers/report-store.js';
import { zipOf } from '../helpers/zip.js';

const BUILTIN = { url: import.meta.resolve('../../formatters/index.js'), exportName: 'builtinFormatters' };

async function uploads(t: Test, o: { threads?: number } = {}) {
  const { store, reportId } = await reportStore(t);
  const tmpDir = await mkdtemp(join(tmpdir(), 'tally-uploads-test-'));
  t.teardown(() => rm(tmpDir, { recursive: true, force: true }));
  const pool = o.threads ? await ParsePool.create(o.threads, [BUILTIN]) : null;
  if (pool) t.teardown(() => pool.close());
  const u = new Uploads({
    store,
    limits: DEFAULT_LIMITS,
    tmpDir,
    reportId,
    importId: 'import-1',
    formatter: null,
    candidates: builtinFormatters,
    smart: true,
    onProgress: () => undefined,
    pool,
  });
  const containers = async (): Promise<StoredContainer[]> =>
    (await store.containers.find(reportId, { limit: 100_000 })).sort((a, b) => a.seq - b.seq);
  const blob = async (id: string): Promise<string> => {
    const chunks: Buffer[] = [];
    for await (const c of (await store.blobs.open(id))!) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };
  return { u, store, containers, blob, pool };
}

const source = (text: string | Buffer): Readable => Readable.from([Buffer.from(text)]);
const xml = (suite: string, n: number): string =>
  junitXml({
    suite,
    timestamp: '2025-06-01T12:00:00',
    cases: Array.from({ length: n }, (_, i) => ({ name: `${suite} ${i}` })),
  });

t.test('a result file: parsed, and stored as it came', async (t) => {
  const { u, containers, blob } = await uploads(t);
  t.equal(await u.addUpload(source(xml('s', 3)), 'dir/results.xml', 'application/xml'), true);
  await u.finish();
  t.match(u.uploads, [{ name: 'results.xml', formatter: 'junit', contentType: 'application/xml' }]);
  t.equal(await blob(u.uploads[0]!.blobId), xml('s', 3), 'the blob holds the upload');
  t.match(u.processed, { fileCount: 1, totals: { tests: 3, passed: 3 }, unmatched: [] });
  t.strictSame(
    (await containers()).map((c) => [c.seq, c.parentSeq, c.type, c.fileIndex]),
    [
      [1, null, 'suite', 0],
      [2, 1, 'test', 0],
      [3, 1, 'test', 0],
      [4, 1, 'test', 0],
    ],
  );
});

t.test('a file no formatter claims is kept; an empty one is not', async (t) => {
  const { u, containers } = await uploads(t);
  t.equal(await u.addUpload(source('just some words'), 'notes.txt', null), true);
  t.equal(await u.addUpload(Readable.from([]), 'empty.xml', null), false, 'an empty part keeps nothing');
  await u.finish();
  t.match(u.uploads, [{ name: 'notes.txt', formatter: null }]);
  t.match(u.unmatched, [{ name: 'notes.txt' }]);
  t.equal(u.fileCount, 1);
  t.strictSame(await containers(), []);
});

/** The containers of a zip's import, as the comparison of both ways of parsing reads them. */
async function importZip(t: Test, threads: number) {
  const { u, containers, blob } = await uploads(t, { threads });
  const zip = await zipOf([
    { name: 'a.xml', data: xml('a', 2) },
    { name: 'notes/b.txt', data: 'not a result' },
    { name: '__MACOSX/._a.xml', data: 'hidden' },
    { name: 'c.xml', data: xml('c', 3) },
  ]);
  t.equal(await u.addUpload(source(zip), 'results.zip', null), true);
  await u.finish();
  return { u, all: await containers(), blob };
}

t.test('a zip: stored whole, entries in order, ids running on', async (t) => {
  const { u, all, blob } = await importZip(t, 0);
  t.match(u.uploads, [{ name: 'results.zip', contentType: 'application/zip', formatter: 'junit' }]);
  t.match(u.unmatched, [{ name: 'notes/b.txt', archive: 'results.zip' }]);
  t.equal(await blob(u.unmatched[0]!.blobId), 'not a result', 'an unclaimed entry is a blob of its own');
  t.equal(u.fileCount, 3, 'entries count one by one, hidden ones not at all');
  t.strictSame(
    u.assembly.parsed.map((f) => [f.index, f.name]),
    [
      [0, 'a.xml'],
      [1, 'c.xml'],
    ],
  );
  t.strictSame(
    all.map((c) => [c.seq, c.fileIndex, c.title]),
    [
      [1, 0, 'a'],
      [2, 0, 'a 0'],
      [3, 0, 'a 1'],
      [4, 1, 'c'],
      [5, 1, 'c 0'],
      [6, 1, 'c 1'],
      [7, 1, 'c 2'],
    ],
    "the second file's ids follow the first's",
  );
  t.match(u.messages, [{ code: 'mac_os_hidden_files', details: { count: 1, entries: ['__MACOSX/._a.xml'] } }]);
});

t.test('the same zip on parse threads: the same containers', async (t) => {
  const here = await importZip(t, 0);
  const threads = await importZip(t, 2);
  const strip = (cs: StoredContainer[]) => cs.map(({ reportId: _r, ...c }) => c);
  t.strictSame(strip(threads.all), strip(here.all));
  t.strictSame(threads.u.assembly.parsed, here.u.assembly.parsed);
});

t.test('the first file that fails stops the ones after it', async (t) => {
  for (const threads of [0, 2]) {
    const { u, containers } = await uploads(t, { threads });
    const broken = xml('b', 2).slice(0, -40);
    const zip = await zipOf([
      { name: 'a.xml', data: xml('a', 1) },
      { name: 'b.xml', data: broken },
      { name: 'c.xml', data: xml('c', 1) },
    ]);
    await t.rejects(
      u.addUpload(source(zip), 'results.zip', null),
      {
        code: 'report_validation_error',
        msg: { file: 'b.xml' },
      },
      `${threads} threads`,
    );
    await u.abandon();
    t.strictSame(
      u.assembly.parsed.map((f) => f.name),
      ['a.xml'],
      'a.xml was taken, c.xml never was',
    );
    t.notOk(
      (await containers()).some((c) => c.title.startsWith('c')),
      'nothing of the file after it was written',
    );
  }
});
