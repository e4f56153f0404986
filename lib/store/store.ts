/**
 * `Store`: the only door to persistence, one small interface per noun (`store.reports.complete()`,
 * `store.blobs.put()`, ...) plus the store's lifecycle. Both adapters (embedded SQLite + blob
 * folder, and MongoDB) pass the conformance suite in `test/store/`. A consumer that needs only
 * some nouns is typed by those: `Pick<Store, 'reports' | 'history'>`.
 */
import type { AccountStore, ApiKeyStore } from './accounts.js';
import type { BlobStore } from './blobs.js';
import { containerStore, type ContainerRecords, type ContainerStore } from './containers.js';
import { historyStore, type HistoryStore } from './history.js';
import { HistoryDrafts, type HistoryRecords } from './history-drafts.js';
import { importStore, type ImportRecords, type ImportStore } from './imports.js';
import type { ProfileStore } from './profiles.js';
import { reportStore, type ReportRecords, type ReportStore } from './reports.js';
import type { SessionStore, UserStore } from './users.js';

export interface Store {
  readonly kind: 'embedded' | 'mongo';
  readonly accounts: AccountStore;
  readonly keys: ApiKeyStore;
  readonly users: UserStore;
  readonly sessions: SessionStore;
  readonly profiles: ProfileStore;
  readonly imports: ImportStore;
  readonly reports: ReportStore;
  readonly containers: ContainerStore;
  readonly history: HistoryStore;
  readonly blobs: BlobStore;

  /** Opens the store (idempotent; concurrent calls share one opening). */
  init(): Promise<void>;
  /** Closes the store (idempotent); `init()` opens it again. */
  close(): Promise<void>;
  /** Resolves when the store answers; rejects otherwise. */
  ping(): Promise<void>;
  /**
   * Frees space kept back for cleaning up, when an import failed for a full disk (the embedded
   * store's reserve); true when there was some to free.
   */
  releaseReserve(): Promise<boolean>;
}

/** The nouns whose logic is written once, over an adapter's records. */
export interface SharedNouns {
  imports: ImportStore;
  reports: ReportStore;
  containers: ContainerStore;
  history: HistoryStore;
  /** For the adapter's close(): the drafts of reports being built go with the connection. */
  drafts: HistoryDrafts;
}

export function sharedNouns(
  records: { imports: ImportRecords; reports: ReportRecords; containers: ContainerRecords; history: HistoryRecords },
  blobs: BlobStore,
  o: { keepRowDrafts: boolean },
): SharedNouns {
  const drafts = new HistoryDrafts(records.history, o.keepRowDrafts);
  const reports = reportStore(records.reports, drafts);
  return {
    imports: importStore(records.imports, reports, blobs),
    reports,
    containers: containerStore(records.containers, drafts),
    history: historyStore(records.history, drafts),
    drafts,
  };
}
