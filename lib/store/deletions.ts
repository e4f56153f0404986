/**
 * Deleting a report, or a profile with its reports, and everything they own: a report's containers,
 * its history column (and whatever else REPORT_OWNED names), the blobs its import wrote (raw uploads,
 * zips, attachments) and its import record; a profile's import records and what PROFILE_OWNED names.
 * The order is written once here, over the adapters' primitives (DeletionRecords):
 *
 * 1. Mark first, in one atomic step: a report becomes `deleting` (every reader asks for `completed`
 *    and stops seeing it); a profile is marked, so `profiles.get` and `list` stop finding it and no
 *    import can start in it.
 * 2. Then remove, biggest first: what the report owns, kind by kind, its blobs, and last the report
 *    with its import record (the mark goes with them), then the profile.
 * 3. Then the space comes back where the store can give it (`reclaim`: the embedded store's
 *    incremental vacuum), unless the caller deletes many and reclaims once at the end (retention).
 *
 * A deletion cut short (the process died, the store went away) leaves only marked, invisible
 * records; `resume()` finishes them (the server's sweep calls it at start and every 10 minutes).
 * Every step can be done twice, so two Tally instances finishing one deletion do no harm.
 *
 * A report whose import still runs (`building`, or its import record still queued, receiving or
 * processing) is not deleted, nor a profile with such an import: the import would write into what is
 * being removed. The caller answers `import_in_progress`.
 */
import type { BlobStore } from './blobs.js';
import type { HistoryDrafts } from './history-drafts.js';
import type { ImportRecords } from './imports.js';
import type { ReportRecords } from './reports.js';
import type { DeleteReportOptions, Deletion, ImportStatus, ProfileContents } from './types.js';

/**
 * What a report owns besides its own record, its import record and the blobs its import wrote, by
 * kind, removed in this order (biggest first) before the report. A noun that keeps data per report
 * adds its kind here, and only here: `DeletionRecords.removeOfReport` then has both adapters say how
 * that data goes (neither compiles until it does), and the conformance cases, which count every
 * table, collection and blob file before a report came and after it went, find what is left behind.
 */
export const REPORT_OWNED = ['historyColumn', 'containers'] as const;
export type ReportOwned = (typeof REPORT_OWNED)[number];

/** The same for a profile: what it owns besides its reports and import records, removed before it. */
export const PROFILE_OWNED = ['ciLink', 'retentionPolicy', 'notifications'] as const;
export type ProfileOwned = (typeof PROFILE_OWNED)[number];

/** A report as a deletion needs it. */
export interface DoomedReport {
  id: string;
  importId: string;
}

/** What an adapter does for deletions; the order is deletionsOf(). */
export interface DeletionRecords {
  /**
   * Sets the report `deleting` if it is `completed` or `failed` (and, with `keepPinned`, not pinned), in
   * one atomic step; false otherwise.
   */
  markReport(id: string, keepPinned: boolean): Promise<boolean>;
  /** Sets every report of the profile `deleting`, whatever its status. */
  markReportsOfProfile(profileId: string): Promise<void>;
  /** Reports marked `deleting`. */
  markedReports(): Promise<DoomedReport[]>;
  /** Up to `limit` reports of the profile, any status. */
  reportsOfProfile(profileId: string, limit: number): Promise<DoomedReport[]>;
  /** What the report owns, kind by kind (REPORT_OWNED); each may run twice, and long work yields between chunks. */
  removeOfReport: Record<ReportOwned, (reportId: string) => Promise<void>>;
  /** The last step of a report: removes it (what still hangs on it too) and its import record. */
  removeReport(report: DoomedReport): Promise<void>;

  /** Marks the profile being deleted, in one atomic step; false when there is no such unmarked profile. */
  markProfile(id: string): Promise<boolean>;
  unmarkProfile(id: string): Promise<void>;
  /** Profiles marked being deleted. */
  markedProfiles(): Promise<string[]>;
  /** How many imports of the profile are still queued, receiving or processing. */
  liveImports(profileId: string): Promise<number>;
  /** Up to `limit` import records of the profile. */
  importsOfProfile(profileId: string, limit: number): Promise<string[]>;
  removeImport(id: string): Promise<void>;
  /** What the profile owns, kind by kind (PROFILE_OWNED); each may run twice. */
  removeOfProfile: Record<ProfileOwned, (profileId: string) => Promise<void>>;
  /** The last step of a profile: removes its record (and its mark). */
  removeProfile(id: string): Promise<void>;
}

export interface Deletions {
  deleteReport(id: string, options?: DeleteReportOptions): Promise<Deletion>;
  deleteProfile(id: string, contents: (id: string) => Promise<ProfileContents>): Promise<Deletion>;
  /** Finishes deletions a crash or a store fault cut short; resolves to how many it finished. */
  resume(): Promise<number>;
}

const LIVE: readonly ImportStatus[] = ['queued', 'receiving', 'processing'];
/** Reports and imports handled per round of a profile's deletion. */
const BATCH = 100;

export function deletionsOf(o: {
  records: DeletionRecords;
  reports: Pick<ReportRecords, 'get'>;
  imports: Pick<ImportRecords, 'get'>;
  drafts: Pick<HistoryDrafts, 'drop'>;
  blobs: Pick<BlobStore, 'idsOfImport' | 'delete'>;
  /** Gives the space of what was deleted back (Store.reclaimSpace). */
  reclaim(): Promise<unknown>;
}): Deletions {
  const { records } = o;
  // Deletions this process is running: the sweep leaves them to the request that started them.
  const busy = new Set<string>();
  const once = async (key: string, work: () => Promise<void>): Promise<boolean> => {
    if (busy.has(key)) return false;
    busy.add(key);
    try {
      await work();
      return true;
    } finally {
      busy.delete(key);
    }
  };

  const removeBlobsOf = async (importId: string): Promise<void> => {
    for (const blobId of await o.blobs.idsOfImport(importId)) await o.blobs.delete(blobId);
  };

  /** Everything of a marked report, biggest first; the report and its import record last. */
  const finishReport = async (report: DoomedReport): Promise<void> => {
    o.drafts.drop(report.id);
    for (const kind of REPORT_OWNED) await records.removeOfReport[kind](report.id);
    await removeBlobsOf(report.importId);
    await records.removeReport(report);
  };

  /** Everything of a marked profile: its reports, the imports left without one, then the profile. */
  const finishProfile = async (id: string): Promise<void> => {
    await records.markReportsOfProfile(id);
    for (let batch = await records.reportsOfProfile(id, BATCH); batch.length > 0;) {
      // Not behind `once`: a report deleted by itself meanwhile would come back in every batch.
      for (const report of batch) await finishReport(report);
      batch = await records.reportsOfProfile(id, BATCH);
    }
    for (let batch = await records.importsOfProfile(id, BATCH); batch.length > 0;) {
      for (const importId of batch) {
        await removeBlobsOf(importId);
        await records.removeImport(importId);
      }
      batch = await records.importsOfProfile(id, BATCH);
    }
    for (const kind of PROFILE_OWNED) await records.removeOfProfile[kind](id);
    await records.removeProfile(id);
  };

  const importLive = async (importId: string): Promise<boolean> => {
    const record = await o.imports.get(importId);
    return record !== null && LIVE.includes(record.status);
  };

  return {
    async deleteReport(id, options = {}) {
      const keepPinned = options.keepPinned === true;
      const report = await o.reports.get(id);
      if (!report || report.status === 'deleting') return { status: 'not_found' };
      if (report.status === 'building' || (await importLive(report.importId))) return { status: 'import_running' };
      if (keepPinned && report.pinned) return { status: 'pinned' };
      if (!(await records.markReport(id, keepPinned))) {
        // Lost a race: another deletion marked it, it is gone, or it was pinned meanwhile.
        const now = await o.reports.get(id);
        if (now?.status === 'building') return { status: 'import_running' };
        return keepPinned && now?.pinned && now.status !== 'deleting' ? { status: 'pinned' } : { status: 'not_found' };
      }
      await once(`report:${id}`, () => finishReport(report));
      if (options.reclaim !== false) await o.reclaim();
      const counted = report.status === 'completed';
      return { status: 'deleted', reports: counted ? 1 : 0, tests: counted ? report.totals.tests : 0 };
    },

    async deleteProfile(id, contents) {
      // Checked before the mark and again after it: an import that started in between is waited for.
      if ((await records.liveImports(id)) > 0) return { status: 'import_running' };
      if (!(await records.markProfile(id))) return { status: 'not_found' };
      if ((await records.liveImports(id)) > 0) {
        await records.unmarkProfile(id);
        return { status: 'import_running' };
      }
      const counted = await contents(id);
      await once(`profile:${id}`, () => finishProfile(id));
      await o.reclaim();
      return { status: 'deleted', ...counted };
    },

    async resume() {
      let finished = 0;
      for (const id of await records.markedProfiles()) {
        // An import the sweep has not ended yet: the next sweep finishes the profile.
        if ((await records.liveImports(id)) > 0) continue;
        if (await once(`profile:${id}`, () => finishProfile(id))) finished++;
      }
      for (const report of await records.markedReports())
        if (await once(`report:${report.id}`, () => finishReport(report))) finished++;
      if (finished > 0) await o.reclaim();
      return finished;
    },
  };
}
