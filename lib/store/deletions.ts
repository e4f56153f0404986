/**
 * Deleting a report, or a profile with its reports, and everything they own: a report's containers,
 * its history column, the blobs its import wrote (raw uploads, zips, attachments) and its import
 * record; a profile's import records too. The order is written once here, over the adapters'
 * primitives (DeletionRecords):
 *
 * 1. Mark first, in one atomic step: a report becomes `deleting` (every reader asks for `completed`
 *    and stops seeing it); a profile is marked, so `profiles.get` and `list` stop finding it and no
 *    import can start in it.
 * 2. Then remove, biggest first: history column, containers (in chunks), blobs, and last the report
 *    with its import record (the mark goes with them), then the profile.
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
import type { Deletion, ImportStatus, ProfileContents } from './types.js';

/** A report as a deletion needs it. */
export interface DoomedReport {
  id: string;
  importId: string;
}

/** What an adapter does for deletions; the order is deletionsOf(). */
export interface DeletionRecords {
  /** Sets the report `deleting` if it is `completed` or `failed`, in one atomic step; false otherwise. */
  markReport(id: string): Promise<boolean>;
  /** Sets every report of the profile `deleting`, whatever its status. */
  markReportsOfProfile(profileId: string): Promise<void>;
  /** Reports marked `deleting`. */
  markedReports(): Promise<DoomedReport[]>;
  /** Up to `limit` reports of the profile, any status. */
  reportsOfProfile(profileId: string, limit: number): Promise<DoomedReport[]>;
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
  /** The last step of a profile: removes its record (and its mark). */
  removeProfile(id: string): Promise<void>;
}

export interface Deletions {
  deleteReport(id: string): Promise<Deletion>;
  deleteProfile(id: string, contents: (id: string) => Promise<ProfileContents>): Promise<Deletion>;
  /** Finishes deletions a crash or a store fault cut short; resolves to how many it finished. */
  resume(): Promise<number>;
}

const LIVE: readonly ImportStatus[] = ['queued', 'receiving', 'processing'];
/** Reports and imports handled per round of a profile's deletion. */
const BATCH = 100;

export function deletionsOf(o: {
  records: DeletionRecords;
  reports: Pick<ReportRecords, 'get' | 'purgeContainers'>;
  imports: Pick<ImportRecords, 'get'>;
  drafts: Pick<HistoryDrafts, 'discard'>;
  blobs: Pick<BlobStore, 'idsOfImport' | 'delete'>;
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
    await o.drafts.discard(report.id);
    await o.reports.purgeContainers(report.id);
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
    await records.removeProfile(id);
  };

  const importLive = async (importId: string): Promise<boolean> => {
    const record = await o.imports.get(importId);
    return record !== null && LIVE.includes(record.status);
  };

  return {
    async deleteReport(id) {
      const report = await o.reports.get(id);
      if (!report || report.status === 'deleting') return { status: 'not_found' };
      if (report.status === 'building' || (await importLive(report.importId))) return { status: 'import_running' };
      if (!(await records.markReport(id))) {
        // Lost a race: another deletion marked it, or it is gone.
        const now = await o.reports.get(id);
        return now?.status === 'building' ? { status: 'import_running' } : { status: 'not_found' };
      }
      await once(`report:${id}`, () => finishReport(report));
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
      return finished;
    },
  };
}
