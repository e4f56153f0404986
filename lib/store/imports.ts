/**
 * Import records: one per request, from `receiving` (or `queued`) to `completed` or `failed`, with
 * everything the request carried. The queue's claim and the stale-import sweep are here; the
 * sweep's order is written once (importStore).
 */
import type { BlobStore } from './blobs.js';
import { newImportRecord } from './records.js';
import type { ReportStore } from './reports.js';
import { isoTime, now } from './time.js';
import type { ImportPatch, ImportRecord, Message, NewImport } from './types.js';

export interface ImportStore {
  /** A new record: `receiving`, nothing received yet. */
  create(input: NewImport): Promise<ImportRecord>;
  get(id: string): Promise<ImportRecord | null>;
  /** Writes the fields present in the patch; the others keep their values. */
  update(id: string, patch: ImportPatch): Promise<void>;
  /** Takes the oldest `queued` import for the queue: atomically sets it `processing` and returns it. */
  claimQueued(): Promise<ImportRecord | null>;
  /**
   * Ends imports still `receiving` or `processing` that were created before `olderThan` (their
   * process died, or the store went away under them): each is marked `failed` with `message`
   * appended, its report is failed (containers deleted) and the blobs written for it are deleted.
   * Returns how many imports were ended.
   */
  failStale(olderThan: string, message: Message): Promise<number>;
  /**
   * Ends an import that failed while it ran: cleaned up in the order failStale keeps (its report
   * failed, containers deleted, then the blobs written for it), then marked `failed` with `patch`
   * (its messages and what it received; its files are gone). Every step is tried even when one
   * before it failed; resolves to how many steps failed.
   */
  fail(id: string, patch: Pick<ImportPatch, 'messages' | 'params' | 'tags'>, reportId: string | null): Promise<number>;
}

export const IMPORT_PATCH_FIELDS = [
  'status',
  'finishedAt',
  'formatter',
  'contentType',
  'params',
  'tags',
  'files',
  'attachments',
  'messages',
  'reportId',
  'progress',
] as const satisfies readonly (keyof ImportPatch)[];
export type ImportField = (typeof IMPORT_PATCH_FIELDS)[number];

/** What an adapter does for imports; the rest is importStore(). */
export interface ImportRecords {
  insert(record: ImportRecord): Promise<void>;
  get(id: string): Promise<ImportRecord | null>;
  /** `fields`: the patch's keys that carry a value, never none. */
  update(id: string, patch: ImportPatch, fields: readonly ImportField[]): Promise<void>;
  claimQueued(): Promise<ImportRecord | null>;
  /** Imports still `receiving` or `processing` created before `olderThan` (a stored time). */
  stale(olderThan: string): Promise<string[]>;
  /**
   * Ends the import if it is still live, in one atomic step: `failed`, `finishedAt`, `message`
   * appended. Null when it was not live any more (it finished meanwhile, or another sweep ended it).
   */
  end(id: string, message: Message, finishedAt: string): Promise<{ reportId: string | null } | null>;
}

export function importStore(
  records: ImportRecords,
  reports: Pick<ReportStore, 'fail'>,
  blobs: Pick<BlobStore, 'idsOfImport' | 'delete'>,
): ImportStore {
  /**
   * The order of every clean-up of a failed import: its report is failed first (readers stop seeing
   * it) and its containers go with it, then the blobs written for it. `step` runs each step, and
   * decides what a failed one does.
   */
  const cleanUp = async (
    importId: string,
    reportId: string | null,
    step: (work: () => Promise<void>) => Promise<void>,
  ): Promise<void> => {
    if (reportId) await step(() => reports.fail(reportId));
    let blobIds: string[] = [];
    await step(async () => {
      blobIds = await blobs.idsOfImport(importId);
    });
    for (const blobId of blobIds) await step(() => blobs.delete(blobId));
  };
  const update = async (id: string, patch: ImportPatch): Promise<void> => {
    const fields = IMPORT_PATCH_FIELDS.filter((f) => patch[f] !== undefined);
    if (fields.length > 0) await records.update(id, patch, fields);
  };
  return {
    async create(input) {
      const record = newImportRecord(input);
      await records.insert(record);
      return record;
    },
    get: (id) => records.get(id),
    update,
    claimQueued: () => records.claimQueued(),
    async failStale(olderThan, message) {
      let ended = 0;
      for (const id of await records.stale(isoTime(olderThan, 'failStale: olderThan'))) {
        const end = await records.end(id, message, now());
        if (!end) continue;
        ended++;
        await cleanUp(id, end.reportId, (work) => work());
      }
      return ended;
    },
    async fail(id, patch, reportId) {
      let failed = 0;
      const step = (work: () => Promise<void>): Promise<void> =>
        work().catch(() => {
          failed++;
        });
      // Cleaned up before the record says `failed`: whoever sees `failed` finds nothing left behind. Should the
      // process die in between, the record is still live and the sweep ends it and cleans up again.
      await cleanUp(id, reportId, step);
      await step(() => update(id, { ...patch, status: 'failed', finishedAt: now(), files: [], attachments: [] }));
      return failed;
    },
  };
}
