/**
 * Conformance cases for import records: patches, the queue's claim, the stale-import sweep, the
 * failure of a running import.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Store } from '../../../lib/store/store.js';
import type { BlobRef, ImportRecord, StoredFile } from '../../../lib/store/types.js';
import { container, isIsoTime, readAll, sampleMessages, seed, type Cases } from './fixtures.js';

export const importCases: Cases = {
  imports: async (t, _h, store) => {
    const { account, profile } = await seed(store);
    const created = await store.imports.create({
      profileId: profile.id,
      accountId: account.id,
      endpoint: 'import',
      formatter: null,
    });
    t.strictSame(created, {
      id: created.id,
      profileId: profile.id,
      accountId: account.id,
      status: 'receiving',
      createdAt: created.createdAt,
      finishedAt: null,
      endpoint: 'import',
      formatter: null,
      contentType: null,
      params: {},
      tags: [],
      files: [],
      attachments: [],
      messages: [],
      reportId: null,
      progress: { bytes: 0, files: 0, containers: 0 },
    });
    t.ok(isIsoTime(created.createdAt));
    t.strictSame(await store.imports.get(created.id), created);
    t.equal(await store.imports.get(randomUUID()), null);

    await store.imports.update(created.id, {
      status: 'processing',
      progress: { bytes: 1024, files: 1, containers: 7 },
    });
    let expected: ImportRecord = {
      ...created,
      status: 'processing',
      progress: { bytes: 1024, files: 1, containers: 7 },
    };
    t.strictSame(await store.imports.get(created.id), expected, 'a partial update keeps the other fields');

    const files: StoredFile[] = [
      {
        name: 'results.zip',
        blobId: randomUUID(),
        size: 2048,
        sha256: 'ab'.repeat(32),
        contentType: 'application/zip',
        formatter: null,
      },
      {
        name: 'dir/TEST-ü.xml',
        blobId: randomUUID(),
        size: 10,
        sha256: 'cd'.repeat(32),
        contentType: null,
        formatter: 'junit',
        archive: 'results.zip',
      },
    ];
    const attachments: StoredFile[] = [
      {
        name: 'shot.png',
        blobId: randomUUID(),
        size: 3,
        sha256: 'ef'.repeat(32),
        contentType: 'image/png',
        formatter: null,
      },
    ];
    const patch = {
      status: 'completed' as const,
      finishedAt: new Date().toISOString(),
      formatter: 'junit',
      params: { tags: ['a', 'b'], smart: true, depth: 3, nested: { x: null }, unknownName: 'ü' },
      tags: ['a', 'b'],
      files,
      attachments,
      messages: sampleMessages(),
      reportId: randomUUID(),
    };
    await store.imports.update(created.id, patch);
    expected = { ...expected, ...patch };
    t.strictSame(await store.imports.get(created.id), expected, 'every patched field round-trips');

    await store.imports.update(created.id, { finishedAt: null, formatter: null, reportId: null });
    expected = { ...expected, finishedAt: null, formatter: null, reportId: null };
    t.strictSame(await store.imports.get(created.id), expected, 'null is a value a patch can set');

    await store.imports.update(created.id, {});
    t.strictSame(await store.imports.get(created.id), expected, 'an empty patch changes nothing');
  },

  'queued imports are claimed once each, oldest first': async (t, _h, store) => {
    const { account, profile } = await seed(store);
    t.equal(await store.imports.claimQueued(), null, 'nothing queued');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const imp = await store.imports.create({
        profileId: profile.id,
        accountId: account.id,
        endpoint: 'import',
        formatter: null,
      });
      await store.imports.update(imp.id, {
        status: 'queued',
        contentType: 'application/xml',
        params: { 'tag[]': ['a:b'] },
      });
      ids.push(imp.id);
      await sleep(3);
    }
    const claimed = await Promise.all([
      store.imports.claimQueued(),
      store.imports.claimQueued(),
      store.imports.claimQueued(),
      store.imports.claimQueued(),
    ]);
    t.same(
      claimed
        .filter(Boolean)
        .map((r) => r!.id)
        .sort(),
      [...ids].sort(),
      'each queued import is claimed exactly once',
    );
    t.equal(claimed.filter((r) => r === null).length, 1);
    const first = claimed.find((r) => r?.id === ids[0])!;
    t.equal(first.status, 'processing');
    t.equal(first.contentType, 'application/xml', 'the request media type round-trips');
    t.same(first.params, { 'tag[]': ['a:b'] });
    t.equal(await store.imports.claimQueued(), null);
  },

  'stale imports are ended, with their report and blobs': async (t, _h, store) => {
    const { account, profile, imp: stale } = await seed(store);
    const report = await store.reports.create({
      profileId: profile.id,
      importId: stale.id,
      tags: [],
      date: new Date().toISOString(),
    });
    await store.imports.update(stale.id, {
      reportId: report.id,
      status: 'processing',
      messages: [{ severity: 'warning', code: 'specify_formatter', message: 'w' }],
    });
    await store.containers.insert([container(report.id, 1, null), container(report.id, 2, 1)]);
    const blob = await store.blobs.put(Readable.from([Buffer.from('raw upload')]), {
      name: 'a.xml',
      contentType: null,
      importId: stale.id,
    });
    const other = await store.blobs.put(Readable.from([Buffer.from('kept')]), { name: 'b.xml', contentType: null });
    const done = await store.imports.create({
      profileId: profile.id,
      accountId: account.id,
      endpoint: 'import',
      formatter: null,
    });
    await store.imports.update(done.id, { status: 'completed' });
    const fresh = await store.imports.create({
      profileId: profile.id,
      accountId: account.id,
      endpoint: 'import',
      formatter: null,
    });

    const ended = { severity: 'error' as const, code: 'store_unavailable', message: 'ended by the sweep' };
    const cutoff = new Date(Date.parse((await store.imports.get(fresh.id))!.createdAt)).toISOString();
    await sleep(5);
    t.equal(await store.imports.failStale(cutoff, ended), 1, 'only imports older than the cutoff');
    const after = (await store.imports.get(stale.id))!;
    t.equal(after.status, 'failed');
    t.ok(after.finishedAt);
    t.same(
      after.messages.map((m) => m.code),
      ['specify_formatter', 'store_unavailable'],
      'the message is appended',
    );
    t.equal((await store.reports.get(report.id))!.status, 'failed');
    t.strictSame(await store.containers.list(report.id, { parentSeq: null, limit: 10 }), []);
    t.equal(await store.blobs.open(blob.id), null, 'its blob is deleted');
    t.ok(await readAll(await store.blobs.open(other.id)), 'other blobs stay');
    t.equal((await store.imports.get(done.id))!.status, 'completed', 'finished imports are untouched');
    t.equal((await store.imports.get(fresh.id))!.status, 'receiving', 'younger imports are untouched');
    t.equal(
      await store.imports.failStale(new Date(Date.now() + 60_000).toISOString(), ended),
      1,
      'a later cutoff takes the fresh one',
    );
  },

  'stale imports: ended first, then the report, then the blobs; once': async (t, _h, store) => {
    const { imp, report, blobs } = await running(store, ['a.xml', 'b.png']);
    t.same((await store.blobs.idsOfImport(imp.id)).sort(), blobs.map((b) => b.id).sort(), "the import's blobs");

    // Watch the order through the nouns the sweep uses.
    const seen: string[] = [];
    const topLevel = async () => (await store.containers.list(report.id, { parentSeq: null, limit: 10 })).length;
    const { fail } = store.reports;
    store.reports.fail = async (id) => {
      seen.push(`report failed when the import is ${(await store.imports.get(imp.id))!.status}`);
      await fail(id);
      seen.push(`then the report is ${(await store.reports.get(id))!.status} with ${await topLevel()} containers`);
    };
    const remove = store.blobs.delete;
    store.blobs.delete = async (id) => {
      seen.push(`blob deleted when the report is ${(await store.reports.get(report.id))!.status}`);
      await remove(id);
    };
    const message = { severity: 'error' as const, code: 'import_interrupted', message: 'ended by the sweep' };
    const later = new Date(Date.now() + 60_000).toISOString();
    // One after the other: FerretDB 1.24 lets two concurrent conditional updates both match, so
    // sweeps running at the same instant are only told apart on MongoDB and SQLite.
    t.equal(await store.imports.failStale(later, message), 1, 'the sweep ends the import');
    t.equal(await store.imports.failStale(later, message), 0, 'a second sweep finds it ended');
    t.strictSame(seen, [
      'report failed when the import is failed',
      'then the report is failed with 0 containers',
      'blob deleted when the report is failed',
      'blob deleted when the report is failed',
    ]);
    t.strictSame(
      (await store.imports.get(imp.id))!.messages.map((m) => m.code),
      ['import_interrupted'],
      'the message is appended once',
    );
    for (const b of blobs) t.equal(await store.blobs.open(b.id), null, `blob ${b.id} is gone`);
    t.strictSame(await store.blobs.idsOfImport(imp.id), []);
    await t.rejects(store.imports.failStale('not a time', message), TypeError, 'a cutoff that is no time is refused');
  },

  'a failed run: the report, then the blobs, then the record ends; every step tried': async (t, _h, store) => {
    const { imp, report, blobs } = await running(store, ['a.xml', 'b.png', 'c.txt']);
    const seen: string[] = [];
    const { fail } = store.reports;
    store.reports.fail = async (id) => {
      seen.push(`report failed when the import is ${(await store.imports.get(imp.id))!.status}`);
      await fail(id);
    };
    const remove = store.blobs.delete;
    store.blobs.delete = async (id) => {
      const importStatus = (await store.imports.get(imp.id))!.status;
      seen.push(
        `blob deleted when the report is ${(await store.reports.get(report.id))!.status}, the import ${importStatus}`,
      );
      if (id === blobs[0]!.id) throw new Error('a blob that will not go');
      await remove(id);
    };
    const messages = sampleMessages();
    const failed = await store.imports.fail(imp.id, { messages, params: { tag: ['a'] }, tags: ['a'] }, report.id);
    t.equal(failed, 1, 'one step failed');
    // Whoever sees the record `failed` finds nothing left behind.
    t.strictSame(seen, [
      'report failed when the import is processing',
      'blob deleted when the report is failed, the import processing',
      'blob deleted when the report is failed, the import processing',
      'blob deleted when the report is failed, the import processing',
    ]);
    const ended = (await store.imports.get(imp.id))!;
    t.match(ended, { status: 'failed', messages, params: { tag: ['a'] }, tags: ['a'], files: [], attachments: [] });
    t.ok(isIsoTime(ended.finishedAt!), 'it has its end time');
    t.equal((await store.reports.get(report.id))!.status, 'failed');
    t.strictSame(await store.containers.list(report.id, { parentSeq: null, limit: 10 }), []);
    t.strictSame(await store.blobs.idsOfImport(imp.id), [blobs[0]!.id], 'the other blobs are gone');
  },
};

/** An import `processing`, with its report (two containers) and a blob per name written for it. */
async function running(store: Store, blobNames: string[]) {
  const { profile, imp } = await seed(store);
  const report = await store.reports.create({
    profileId: profile.id,
    importId: imp.id,
    tags: [],
    date: new Date().toISOString(),
  });
  await store.imports.update(imp.id, { reportId: report.id, status: 'processing' });
  await store.containers.insert([container(report.id, 1, null), container(report.id, 2, 1)]);
  const blobs: BlobRef[] = [];
  for (const name of blobNames)
    blobs.push(
      await store.blobs.put(Readable.from([Buffer.from(name)]), { name, contentType: null, importId: imp.id }),
    );
  return { imp, report, blobs };
}
