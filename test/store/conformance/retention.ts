/**
 * Conformance cases for retention: a profile's policy is kept and removed, a report is pinned and
 * unpinned, and which completed reports a policy lets go (oldest first, never the newest, pinned ones
 * marked for the caller to keep), with what deleting them would give back.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { KEEP_EVERYTHING, type RetentionPolicy } from '../../../lib/store/retention.js';
import type { Store } from '../../../lib/store/store.js';
import type { Profile, Report } from '../../../lib/store/types.js';
import { importedReport } from './deletions.js';
import { seed, type Cases } from './fixtures.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** `n` completed reports, each imported at least a few milliseconds after the one before, oldest first. */
async function reports(store: Store, profile: Profile, n: number): Promise<Report[]> {
  const made: Report[] = [];
  for (let i = 0; i < n; i++) {
    if (i > 0) await sleep(3);
    made.push((await importedReport(store, profile, i + 1)).report);
  }
  return made;
}

const numbers = (list: readonly Report[]) => list.map((r) => r.number);

export const retentionCases: Cases = {
  'retention: a policy is kept, replaced and removed': async (t, _h, store) => {
    const a = await store.accounts.create('A');
    const web = await store.profiles.create(a.id, 'web');
    const api = await store.profiles.create(a.id, 'api');
    t.strictSame(await store.retention.get(web.id), KEEP_EVERYTHING, 'none: everything is kept');
    t.strictSame(await store.retention.profiles(), []);
    await store.retention.put(web.id, { keepReports: 3, keepDays: null });
    t.strictSame(await store.retention.get(web.id), { keepReports: 3, keepDays: null });
    await store.retention.put(web.id, { keepReports: null, keepDays: 30 });
    t.strictSame(await store.retention.get(web.id), { keepReports: null, keepDays: 30 }, 'a second put replaces it');
    await store.retention.put(api.id, { keepReports: 10, keepDays: 7 });
    t.strictSame([...(await store.retention.profiles())].sort(), [web.id, api.id].sort(), 'the profiles with one');
    t.strictSame(await store.retention.get(api.id), { keepReports: 10, keepDays: 7 }, 'each its own');
    await store.retention.put(web.id, KEEP_EVERYTHING);
    t.strictSame(await store.retention.get(web.id), KEEP_EVERYTHING, 'keeping everything removes it');
    t.strictSame(await store.retention.profiles(), [api.id]);
  },

  'reports: pinned and unpinned, completed ones only': async (t, _h, store) => {
    const { profile, imp } = await seed(store);
    const done = (await importedReport(store, profile)).report;
    t.equal(done.pinned, false, 'a report starts unpinned');
    t.equal(await store.reports.pin(done.id, true), true);
    t.equal((await store.reports.get(done.id))?.pinned, true);
    t.equal((await store.reports.list(profile.id, { limit: 5 }))[0]?.pinned, true, 'listed pinned');
    t.equal(await store.reports.pin(done.id, true), true, 'pinning twice is fine');
    t.equal(await store.reports.pin(done.id, false), true);
    t.equal((await store.reports.get(done.id))?.pinned, false, 'unpinned');
    const building = await store.reports.create({ profileId: profile.id, importId: imp.id, tags: [], date: done.date });
    t.equal(await store.reports.pin(building.id, true), false, 'a report still being built is not pinned');
    t.equal((await store.reports.get(building.id))?.pinned, false);
    t.equal(await store.reports.pin('00000000-0000-4000-8000-000000000000', true), false, 'an unknown report');
  },

  'retention: which reports a policy lets go': async (t, _h, store) => {
    const { account, profile } = await seed(store);
    const [r1, r2, r3, r4, r5] = await reports(store, profile, 5);
    const other = await store.profiles.create(account.id, 'other');
    await reports(store, other, 2);
    const now = new Date(Date.parse(r5!.createdAt) + 1000);
    const expired = async (policy: RetentionPolicy, at = now) =>
      numbers(await store.retention.expired(profile.id, policy, at, null, 100));

    t.strictSame(await expired(KEEP_EVERYTHING), [], 'no limit: nothing goes');
    t.strictSame(
      await expired({ keepReports: 3, keepDays: null }),
      numbers([r1!, r2!]),
      'the last 3 of 5: the 2 oldest',
    );
    t.strictSame(await expired({ keepReports: 5, keepDays: null }), [], 'the last 5 of 5');
    t.strictSame(await expired({ keepReports: 50, keepDays: null }), [], 'more than there are');
    t.strictSame(
      await expired({ keepReports: 1, keepDays: null }),
      numbers([r1!, r2!, r3!, r4!]),
      'all but the newest',
    );

    // One day after r3 was imported, a 1-day limit takes what came before r3.
    const dayAfterR3 = new Date(Date.parse(r3!.createdAt) + DAY_MS);
    t.strictSame(
      await expired({ keepReports: null, keepDays: 1 }, dayAfterR3),
      numbers([r1!, r2!]),
      'older than 1 day',
    );
    t.strictSame(
      await expired({ keepReports: null, keepDays: 1 }, new Date(Date.parse(r5!.createdAt) + 2 * DAY_MS)),
      numbers([r1!, r2!, r3!, r4!]),
      'all older than the limit: the newest stays all the same',
    );
    t.strictSame(await expired({ keepReports: null, keepDays: 1 }), [], 'all newer than the limit');
    t.strictSame(
      await expired({ keepReports: 4, keepDays: 1 }, dayAfterR3),
      numbers([r1!, r2!]),
      'both: either limit lets a report go (here the days)',
    );
    t.strictSame(
      await expired({ keepReports: 2, keepDays: 1 }, dayAfterR3),
      numbers([r1!, r2!, r3!]),
      'both: either limit lets a report go (here the count)',
    );

    t.ok(await store.reports.pin(r2!.id, true));
    const withPin = await store.retention.expired(profile.id, { keepReports: 3, keepDays: null }, now, null, 100);
    t.strictSame(
      withPin.map((r) => [r.number, r.pinned]),
      [
        [r1!.number, false],
        [r2!.number, true],
      ],
      'a pinned report is in the list, marked, and counts among the reports kept',
    );

    const page1 = await store.retention.expired(profile.id, { keepReports: 1, keepDays: null }, now, null, 2);
    t.strictSame(numbers(page1), numbers([r1!, r2!]), 'a page');
    const last = page1[page1.length - 1]!;
    const page2 = await store.retention.expired(profile.id, { keepReports: 1, keepDays: null }, now, last, 2);
    t.strictSame(numbers(page2), numbers([r3!, r4!]), 'the next page, after the last one seen');
    t.strictSame(await store.retention.expired(profile.id, { keepReports: 1, keepDays: null }, now, r4!, 2), []);

    // Only completed reports count and go: one being built is neither kept nor counted.
    const imp = await store.imports.create({
      profileId: profile.id,
      accountId: account.id,
      endpoint: 'import',
      formatter: null,
    });
    await store.reports.create({ profileId: profile.id, importId: imp.id, tags: [], date: r5!.date });
    t.strictSame(
      await expired({ keepReports: 3, keepDays: null }),
      numbers([r1!, r2!]),
      'a building report changes nothing',
    );
  },

  'retention: what deleting the reports would give back': async (t, _h, store) => {
    const { profile } = await seed(store);
    const [r1, r2, r3] = await reports(store, profile, 3);
    t.strictSame(await store.retention.footprint([]), { fileBytes: 0, rowBytes: 0 }, 'nothing for nothing');
    const one = await store.retention.footprint([r1!]);
    // importedReport stores two blobs of 3000 bytes for each report.
    t.equal(one.fileBytes, 6000, "the files of the report's import, exactly");
    t.ok(one.rowBytes > 0, `its rows, estimated (${one.rowBytes} bytes)`);
    const two = await store.retention.footprint([r2!, r3!]);
    t.equal(two.fileBytes, 12_000, 'two reports: twice the files');
    t.ok(Math.abs(two.rowBytes - 2 * one.rowBytes) <= 2, 'and twice the rows of reports of the same size');
  },

  'retention: the space of deleted reports is given back where the store can': async (t, _h, store) => {
    const { profile } = await seed(store);
    const [r1] = await reports(store, profile, 2);
    t.equal((await store.reports.delete(r1!.id, { reclaim: false })).status, 'deleted');
    const reclaimed = await store.reclaimSpace();
    t.ok(reclaimed.bytes >= 0, `reclaimed ${reclaimed.bytes} bytes`);
    t.equal(reclaimed.incremental, true, 'a new store gives space back as it goes');
  },
};
