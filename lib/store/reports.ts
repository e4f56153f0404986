/**
 * Reports: what one import made of its files. Readers see a report only once it is `completed`: the
 * containers of a report still `building`, or one that ended `failed`, are never listed as a
 * finished report. The order of completing and failing is written once here.
 */
import type { HistoryDrafts } from './history-drafts.js';
import { checkNumber, type IdOrNumber } from './numbers.js';
import { newReportRecord } from './records.js';
import type { DeleteReportOptions, Deletion, NewReport, Report, ReportOutcome, ReportQuery } from './types.js';

export interface ReportStore {
  /** A new report in status `building`, zero totals, invisible to `list`; it takes the next number. */
  create(input: NewReport): Promise<Report>;
  /** By UUID, or by public number. */
  get(id: IdOrNumber): Promise<Report | null>;
  /** Completed reports of a profile, newest first. */
  list(profileId: string, query: ReportQuery): Promise<Report[]>;
  /**
   * Marks the report `completed` with its final facts. Before the flip it writes the report's
   * history column (every test's title path, status and duration), so the history comparison
   * never sees a completed report without it.
   */
  complete(id: string, outcome: ReportOutcome): Promise<void>;
  /** Marks the report `failed`, then deletes its containers (readers stop seeing it first). */
  fail(id: string): Promise<void>;
  /**
   * Pins a completed report (retention never deletes it) or unpins it; false when there is no such
   * completed report.
   */
  pin(id: string, pinned: boolean): Promise<boolean>;
  /**
   * Deletes a completed or failed report with its containers, history column, the blobs its
   * import wrote and its import record (deletions.ts); refused while its import runs.
   */
  delete(id: string, options?: DeleteReportOptions): Promise<Deletion>;
}

/** What an adapter does for reports; the rest is reportStore(). */
export interface ReportRecords {
  /** Takes the next report number from the deployment's counter (atomic across processes). */
  nextNumber(): Promise<number>;
  insert(report: Report): Promise<void>;
  get(id: IdOrNumber): Promise<Report | null>;
  /** As ReportStore.list, with a positive limit. */
  list(profileId: string, query: ReportQuery): Promise<Report[]>;
  exists(id: string): Promise<boolean>;
  markCompleted(id: string, outcome: ReportOutcome): Promise<void>;
  /** Sets `failed`, and (where a crash could cut the purge short) what tells `cutPurges` to finish it. */
  markFailed(id: string): Promise<void>;
  /** Deletes every container of a failed report, then the mark markFailed left. */
  purgeContainers(id: string): Promise<void>;
  /** Failed reports whose purge a crash cut short. */
  cutPurges(): Promise<string[]>;
  /** Sets `pinned` on a completed report; false when there is no such completed report. */
  setPinned(id: string, pinned: boolean): Promise<boolean>;
}

export function reportStore(records: ReportRecords, drafts: HistoryDrafts): Omit<ReportStore, 'delete'> {
  return {
    async create(input) {
      const report = newReportRecord(input, checkNumber('report', await records.nextNumber()));
      await records.insert(report);
      drafts.created(report.id);
      return report;
    },
    get: (id) => records.get(id),
    async list(profileId, query) {
      return query.limit <= 0 ? [] : records.list(profileId, query);
    },
    async complete(id, outcome) {
      if (await records.exists(id)) await drafts.write(id);
      else drafts.drop(id);
      await records.markCompleted(id, outcome);
    },
    async fail(id) {
      await records.markFailed(id);
      await drafts.discard(id);
      await records.purgeContainers(id);
    },
    pin: (id, pinned) => records.setPinned(id, pinned),
  };
}

/** At open: a crash inside `fail` left containers of a failed report; finish the job so the contract holds. */
export async function finishCutPurges(records: ReportRecords): Promise<void> {
  for (const id of await records.cutPurges()) await records.purgeContainers(id);
}
