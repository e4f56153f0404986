/**
 * Conformance cases for renaming and deleting: a deleted report or profile leaves nothing behind
 * (every table or collection and the blob storage are counted before and after), what is kept
 * stays whole, and a report or profile whose import still runs is not touched.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Test } from 'tap';
import type { Store } from '../../../lib/store/store.js';
import { link } from './ci-links.js';
import { KEEP_EVERYTHING } from '../../../lib/store/retention.js';
import type { Profile, Report, StoredContainer, StoredFile } from '../../../lib/store/types.js';
import {
  byId,
  readAll,
  richContainers,
  sampleMessages,
  zeroTotals,
  type Cases,
  type StoreHarness,
} from './fixtures.js';

/** The counts without empty tables: a collection that did not exist before may be left empty after. */
/**
 * What each table or collection holds. The public numbers given (`numbers`) and the counters stay by
 * design: a number is never handed out again, even once its report or profile is deleted.
 */
export async function counts(h: StoreHarness): Promise<Record<string, number>> {
  const kept = new Set(['numbers', 'counters']);
  return Object.fromEntries(Object.entries(await h.countRecords()).filter(([name, n]) => n > 0 && !kept.has(name)));
}

async function blobOf(store: Store, importId: string, name: string): Promise<StoredFile> {
  const bytes = randomBytes(3000);
  const ref = await store.blobs.put(Readable.from([bytes]), { name, contentType: 'application/xml', importId });
  return { name, blobId: ref.id, size: ref.size, sha256: ref.sha256, contentType: 'application/xml', formatter: null };
}

/**
 * A report as an import leaves it: its own import record (completed, with a raw upload and an
 * attachment stored as blobs), containers, a history column, tags, a CI context.
 */
export async function importedReport(
  store: Store,
  profile: Profile,
  tests = 1,
): Promise<{ report: Report; blobs: string[]; containers: StoredContainer[] }> {
  const imp = await store.imports.create({
    profileId: profile.id,
    accountId: profile.accountId,
    endpoint: 'import',
    formatter: 'junit',
  });
  const upload = await blobOf(store, imp.id, 'TEST-a.xml');
  const attachment = await blobOf(store, imp.id, 'shot.png');
  const report = await store.reports.create({
    profileId: profile.id,
    importId: imp.id,
    tags: ['branch:main'],
    date: new Date().toISOString(),
  });
  await store.imports.update(imp.id, { reportId: report.id });
  const containers = richContainers(report.id);
  await store.containers.insert(containers);
  await store.reports.complete(report.id, {
    date: report.date,
    totals: { ...zeroTotals(), containers: 4, tests, failed: tests },
    files: [{ name: 'TEST-a.xml', formatter: 'junit', producer: null, tests }],
    messages: sampleMessages(),
    tags: ['branch:main', 'os:linux'],
    ci: {
      provider: 'gitea',
      buildNumber: '41',
      buildUrl: 'https://ci.example.org/acme/web/actions/runs/41',
      branch: 'main',
      commit: 'c0ffee42',
      job: 'tests',
      pullRequest: 7,
    },
  });
  await store.imports.update(imp.id, {
    status: 'completed',
    finishedAt: new Date().toISOString(),
    files: [{ ...upload, formatter: 'junit' }],
    attachments: [attachment],
  });
  return { report: (await store.reports.get(report.id))!, blobs: [upload.blobId, attachment.blobId], containers };
}

/** What is kept must read back whole. */
async function intact(
  t: Test,
  store: Store,
  kept: { report: Report; blobs: string[]; containers: StoredContainer[] },
): Promise<void> {
  const { report } = kept;
  t.strictSame(await store.reports.get(report.id), report, 'the other report is whole');
  t.strictSame(
    await store.containers.list(report.id, { parentSeq: 1, limit: 10 }),
    kept.containers.filter((c) => c.parentSeq === 1),
    'with its containers',
  );
  t.equal((await store.history.columns([report.id])).length, 1, 'its history column');
  t.equal((await store.imports.get(report.importId))?.reportId, report.id, 'its import record');
  for (const id of kept.blobs) t.ok(await readAll(await store.blobs.open(id)), 'its blobs');
}

export const deletionCases: Cases = {
  'profiles: rename': async (t, _h, store) => {
    const account = await store.accounts.create('A');
    const p = await store.profiles.create(account.id, 'web');
    const other = await store.profiles.create(account.id, 'api');
    const renamed = await store.profiles.rename(p.id, 'web — ✓ nightly');
    t.strictSame(renamed, { ...p, name: 'web — ✓ nightly' }, 'the profile with its new name');
    t.strictSame(await store.profiles.get(p.id), renamed);
    t.strictSame(byId(await store.profiles.list(account.id)), byId([renamed!, other]));
    t.strictSame(await store.profiles.rename(p.id, 'web — ✓ nightly'), renamed, 'the same name again');
    t.equal(await store.profiles.rename(randomUUID(), 'x'), null, 'an unknown profile');
    t.equal((await store.profiles.get(other.id))?.name, 'api', 'others keep their names');
  },

  'reports: a deleted report leaves nothing behind': async (t, h, store) => {
    const account = await store.accounts.create('A');
    const profile = await store.profiles.create(account.id, 'main');
    const kept = await importedReport(store, profile);
    const before = await counts(h);
    const doomed = await importedReport(store, profile, 3);
    t.notSame(await counts(h), before, 'the doomed report added records');

    t.ok(await store.reports.pin(doomed.report.id, true));
    const pinnedBefore = await counts(h);
    t.strictSame(
      await store.reports.delete(doomed.report.id, { keepPinned: true }),
      { status: 'pinned' },
      'retention leaves a pinned report alone',
    );
    t.strictSame(await counts(h), pinnedBefore, 'nothing of it was touched');
    t.equal((await store.reports.get(doomed.report.id))?.status, 'completed');
    t.strictSame(
      await store.reports.delete(doomed.report.id),
      { status: 'deleted', reports: 1, tests: 3 },
      'a person deletes a pinned report all the same',
    );
    t.strictSame(await counts(h), before, 'every table, collection and blob file is as before the report came');
    t.equal(await store.reports.get(doomed.report.id), null, 'the report is gone');
    t.equal(await store.imports.get(doomed.report.importId), null, 'its import record');
    t.strictSame(await store.containers.list(doomed.report.id, { parentSeq: null, limit: 10 }), [], 'its containers');
    t.strictSame(await store.history.columns([doomed.report.id]), [], 'its history column');
    for (const id of doomed.blobs) t.equal(await store.blobs.open(id), null, 'its blobs');
    t.strictSame(
      (await store.reports.list(profile.id, { limit: 10 })).map((r) => r.id),
      [kept.report.id],
      'the profile lists the other report only',
    );
    await intact(t, store, kept);
    t.strictSame(await store.reports.delete(doomed.report.id), { status: 'not_found' }, 'deleting it again');
    t.strictSame(await store.reports.delete(randomUUID()), { status: 'not_found' }, 'an unknown report');
  },

  'reports: a report whose import runs is not deleted': async (t, h, store) => {
    const account = await store.accounts.create('A');
    const profile = await store.profiles.create(account.id, 'main');
    const imp = await store.imports.create({
      profileId: profile.id,
      accountId: account.id,
      endpoint: 'import',
      formatter: null,
    });
    const building = await store.reports.create({
      profileId: profile.id,
      importId: imp.id,
      tags: [],
      date: imp.createdAt,
    });
    await store.containers.insert(richContainers(building.id));
    const before = await counts(h);
    t.strictSame(await store.reports.delete(building.id), { status: 'import_running' }, 'a report being built');
    t.strictSame(await counts(h), before, 'nothing was touched');
    t.equal((await store.reports.get(building.id))?.status, 'building', 'it is still being built');
    t.equal((await store.containers.list(building.id, { parentSeq: 1, limit: 10 })).length, 3);

    // Completed, but its import record is not finished yet (the import is writing its answer).
    await store.reports.complete(building.id, {
      date: building.date,
      totals: zeroTotals(),
      files: [],
      messages: [],
      tags: [],
    });
    t.strictSame(await store.reports.delete(building.id), { status: 'import_running' }, 'its import still runs');
    await store.imports.update(imp.id, { status: 'completed', finishedAt: new Date().toISOString() });
    t.strictSame(await store.reports.delete(building.id), { status: 'deleted', reports: 1, tests: 0 }, 'then it goes');

    // A failed import's report is invisible already; deleting it removes what is left.
    const failedImport = await store.imports.create({
      profileId: profile.id,
      accountId: account.id,
      endpoint: 'import',
      formatter: null,
    });
    const failed = await store.reports.create({
      profileId: profile.id,
      importId: failedImport.id,
      tags: [],
      date: failedImport.createdAt,
    });
    await store.imports.fail(failedImport.id, { messages: [], params: {}, tags: [] }, failed.id);
    t.strictSame(await store.reports.delete(failed.id), { status: 'deleted', reports: 0, tests: 0 }, 'a failed report');
    t.equal(await store.reports.get(failed.id), null);
    t.equal(await store.imports.get(failedImport.id), null);
  },

  'profiles: a deleted profile takes its reports, imports and blobs': async (t, h, store) => {
    const account = await store.accounts.create('A');
    const keep = await store.profiles.create(account.id, 'keep');
    const kept = await importedReport(store, keep);
    const before = await counts(h);

    const doomed = await store.profiles.create(account.id, 'doomed');
    await importedReport(store, doomed, 2);
    const pinned = await importedReport(store, doomed, 5);
    t.ok(await store.reports.pin(pinned.report.id, true), 'a pinned report goes with its profile too');
    await store.retention.put(doomed.id, { keepReports: 10, keepDays: 30 });
    await store.ciLinks.put(link(doomed.id));
    // A failed import (its report failed, a blob it wrote), and a queued import's record that ended.
    const failedImport = await store.imports.create({
      profileId: doomed.id,
      accountId: account.id,
      endpoint: 'import',
      formatter: null,
    });
    const failed = await store.reports.create({
      profileId: doomed.id,
      importId: failedImport.id,
      tags: [],
      date: failedImport.createdAt,
    });
    await blobOf(store, failedImport.id, 'left.xml');
    await store.reports.fail(failed.id);
    await store.imports.update(failedImport.id, { status: 'failed', finishedAt: new Date().toISOString() });
    const noReport = await store.imports.create({
      profileId: doomed.id,
      accountId: account.id,
      endpoint: 'import',
      formatter: null,
    });
    await blobOf(store, noReport.id, 'queued.xml');
    await store.imports.update(noReport.id, { status: 'failed', finishedAt: new Date().toISOString() });

    t.strictSame(await store.profiles.contents(doomed.id), { reports: 2, tests: 7 }, 'what it holds');
    t.strictSame(await store.profiles.delete(doomed.id), { status: 'deleted', reports: 2, tests: 7 });
    t.strictSame(await counts(h), before, 'every table, collection and blob file is as before the profile came');
    t.equal(await store.profiles.get(doomed.id), null, 'the profile is gone');
    t.strictSame(await store.retention.get(doomed.id), KEEP_EVERYTHING, 'with its retention policy');
    t.strictSame(await store.retention.profiles(), [], 'no longer applied');
    t.strictSame(await store.profiles.list(account.id), [keep], 'and no longer listed');
    await intact(t, store, kept);
    t.strictSame(await store.profiles.delete(doomed.id), { status: 'not_found' }, 'deleting it again');
    t.strictSame(await store.profiles.delete(randomUUID()), { status: 'not_found' }, 'an unknown profile');
    t.equal(await store.profiles.rename(doomed.id, 'back'), null, 'a deleted profile cannot be renamed');
    t.strictSame(await store.profiles.contents(randomUUID()), { reports: 0, tests: 0 });
  },

  'profiles: a profile with a running import is not deleted': async (t, h, store) => {
    const account = await store.accounts.create('A');
    const profile = await store.profiles.create(account.id, 'busy');
    const done = await importedReport(store, profile);
    for (const status of ['receiving', 'queued', 'processing'] as const) {
      const running = await store.imports.create({
        profileId: profile.id,
        accountId: account.id,
        endpoint: 'import',
        formatter: null,
      });
      await store.imports.update(running.id, { status });
      const before = await counts(h);
      t.strictSame(await store.profiles.delete(profile.id), { status: 'import_running' }, `an import ${status}`);
      t.strictSame(await counts(h), before, 'nothing was touched');
      t.strictSame(await store.profiles.get(profile.id), profile, 'the profile is still there');
      t.strictSame(await store.profiles.list(account.id), [profile], 'and listed');
      await intact(t, store, done);
      await store.imports.update(running.id, { status: 'failed', finishedAt: new Date().toISOString() });
    }
    t.strictSame(await store.profiles.delete(profile.id), { status: 'deleted', reports: 1, tests: 1 }, 'once it ended');
  },

  'deletions: nothing to resume in a store without cut deletions': async (t, h, store) => {
    const account = await store.accounts.create('A');
    const profile = await store.profiles.create(account.id, 'main');
    const kept = await importedReport(store, profile);
    const before = await counts(h);
    t.equal(await store.resumeDeletions(), 0);
    t.strictSame(await counts(h), before);
    await intact(t, store, kept);
  },
};

/**
 * What a crash inside a deletion leaves: a report marked `deleting` with all it owns still there,
 * and a marked profile whose reports were not marked yet. `crash` closes the store and writes those
 * marks behind its back (each adapter knows its own records); the reopened store must hide them at
 * once and `resumeDeletions` remove them whole.
 */
export async function cutDeletionCase(
  t: Test,
  h: StoreHarness,
  crash: (marks: { reportId: string; profileId: string }) => Promise<void>,
): Promise<void> {
  const store = h.store;
  await store.init();
  const account = await store.accounts.create('A');
  const keep = await store.profiles.create(account.id, 'keep');
  const kept = await importedReport(store, keep);
  const before = await counts(h);
  const doomedReport = await importedReport(store, keep, 2);
  const doomedProfile = await store.profiles.create(account.id, 'doomed');
  await importedReport(store, doomedProfile, 3);
  await store.ciLinks.put(link(doomedProfile.id));
  await crash({ reportId: doomedReport.report.id, profileId: doomedProfile.id });

  const again = await h.reopen!();
  await again.init();
  t.strictSame(
    (await again.reports.list(keep.id, { limit: 10 })).map((r) => r.id),
    [kept.report.id],
    'a marked report is invisible at once',
  );
  t.equal(await again.profiles.get(doomedProfile.id), null, 'a marked profile too');
  t.strictSame(await again.profiles.list(account.id), [keep]);
  t.equal(await again.resumeDeletions(), 2, 'both deletions are finished');
  t.strictSame(await counts(h), before, 'and nothing of them is left');
  t.equal(await again.ciLinks.get(doomedProfile.id), null, "the profile's CI link went with it");
  await intact(t, again, kept);
  t.equal(await again.resumeDeletions(), 0, 'nothing is left to finish');
}
