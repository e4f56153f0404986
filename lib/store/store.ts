/**
 * `Store`: the only door to persistence, one small interface per noun (`store.reports.complete()`,
 * `store.blobs.put()`, ...) plus the store's lifecycle. Both adapters (embedded SQLite + blob
 * folder, and MongoDB) pass the conformance suite in `test/store/`. A consumer that needs only
 * some nouns is typed by those: `Pick<Store, 'reports' | 'history'>`.
 */
import type { AccountStore, ApiKeyStore } from './accounts.js';
import type { BlobStore } from './blobs.js';
import type { CiLinkStore } from './ci-links.js';
import { containerStore, type ContainerRecords, type ContainerStore } from './containers.js';
import { deletionsOf, type DeletionRecords } from './deletions.js';
import { historyStore, type HistoryStore } from './history.js';
import { HistoryDrafts, type HistoryRecords } from './history-drafts.js';
import { importStore, type ImportRecords, type ImportStore } from './imports.js';
import type { DeliveryStore, NotificationRuleStore } from './notifications.js';
import type { ProfileStore } from './profiles.js';
import { finishCutPurges, reportStore, type ReportRecords, type ReportStore } from './reports.js';
import { retentionStore, type RetentionRecords, type RetentionStore } from './retention.js';
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
  readonly ciLinks: CiLinkStore;
  readonly retention: RetentionStore;
  readonly notificationRules: NotificationRuleStore;
  readonly deliveries: DeliveryStore;

  /** Opens the store (idempotent; concurrent calls share one opening). */
  init(): Promise<void>;
  /** Closes the store (idempotent); `init()` opens it again. */
  close(): Promise<void>;
  /** Resolves when the store answers; rejects otherwise. */
  ping(): Promise<void>;
  /**
   * Finishes the deletions of reports and profiles that a crash or a store fault cut short (their
   * records are marked and invisible); resolves to how many it finished. The server's sweep runs it.
   */
  resumeDeletions(): Promise<number>;
  /**
   * Frees space kept back for cleaning up, when an import failed for a full disk (the embedded
   * store's reserve); true when there was some to free.
   */
  releaseReserve(): Promise<boolean>;
  /**
   * Gives the space of deleted records back to the file system, where the store can: the embedded
   * store's incremental vacuum, then a checkpoint that empties the write-ahead log. Deletions call it
   * themselves; retention once after each pass.
   */
  reclaimSpace(): Promise<Reclaimed>;
  /**
   * Rewrites the store's files whole, for `tally vacuum`: the embedded store's VACUUM (which also
   * switches a database made before incremental vacuum over to it); null for a store that has none.
   */
  vacuum(): Promise<{ bytesBefore: number; bytesAfter: number } | null>;
}

/** What reclaimSpace did. */
export interface Reclaimed {
  /** Bytes the store's files shrank by (0 where the store cannot tell, as on MongoDB). */
  bytes: number;
  /**
   * False when the store keeps freed space to itself until `tally vacuum` runs once (an embedded
   * database made before incremental vacuum and too large to switch at start-up).
   */
  incremental: boolean;
}

/** What an adapter hands over to be assembled into a Store (assembleStore). */
export interface AdapterParts {
  kind: Store['kind'];
  /** Nouns the adapter implements whole. */
  accounts: AccountStore;
  keys: ApiKeyStore;
  users: UserStore;
  sessions: SessionStore;
  /** Deleting is written once (deletions.ts), over `records.deletions`. */
  profiles: Omit<ProfileStore, 'delete'>;
  blobs: BlobStore;
  ciLinks: CiLinkStore;
  notificationRules: NotificationRuleStore;
  deliveries: DeliveryStore;
  /** Nouns whose logic is written once here, over the adapter's records. */
  records: {
    imports: ImportRecords;
    reports: ReportRecords;
    containers: ContainerRecords;
    history: HistoryRecords;
    deletions: DeletionRecords;
    retention: RetentionRecords;
  };
  /** Keep a draft of the history of what the import thread writes, instead of reading it back (history-drafts.ts). */
  keepRowDrafts: boolean;
  /** Opens the connection (once at a time: assembleStore shares one opening among concurrent callers). */
  open(): Promise<void>;
  /** Closes the connection; called after any opening has settled. */
  close(): Promise<void>;
  ping(): Promise<void>;
  releaseReserve(): Promise<boolean>;
  reclaimSpace(): Promise<Reclaimed>;
  vacuum(): Promise<{ bytesBefore: number; bytesAfter: number } | null>;
}

/**
 * A Store from an adapter's parts: the shared nouns built over its records, and the lifecycle every
 * store has: `init()` is one opening however many call it (a failed one can be tried again), and
 * finishes the purges of failed reports that a crash cut short before anyone reads.
 */
export function assembleStore(parts: AdapterParts): Store {
  const drafts = new HistoryDrafts(parts.records.history, parts.keepRowDrafts);
  const deletions = deletionsOf({
    records: parts.records.deletions,
    reports: parts.records.reports,
    imports: parts.records.imports,
    drafts,
    blobs: parts.blobs,
    reclaim: () => parts.reclaimSpace(),
  });
  const reports = { ...reportStore(parts.records.reports, drafts), delete: deletions.deleteReport };
  let opening: Promise<void> | null = null;
  const open = async (): Promise<void> => {
    await parts.open();
    try {
      await finishCutPurges(parts.records.reports);
    } catch (err) {
      await parts.close().catch(() => undefined);
      throw err;
    }
  };
  return {
    kind: parts.kind,
    accounts: parts.accounts,
    keys: parts.keys,
    users: parts.users,
    sessions: parts.sessions,
    profiles: { ...parts.profiles, delete: (id) => deletions.deleteProfile(id, parts.profiles.contents) },
    imports: importStore(parts.records.imports, reports, parts.blobs),
    reports,
    containers: containerStore(parts.records.containers, drafts),
    history: historyStore(parts.records.history, drafts),
    blobs: parts.blobs,
    ciLinks: parts.ciLinks,
    retention: retentionStore(parts.records.retention),
    notificationRules: parts.notificationRules,
    deliveries: parts.deliveries,
    init() {
      opening ??= open().catch((err: unknown) => {
        opening = null;
        throw err;
      });
      return opening;
    },
    async close() {
      await opening?.catch(() => undefined);
      opening = null;
      // The drafts of reports being built go with the connection.
      drafts.clear();
      await parts.close();
    },
    ping: () => parts.ping(),
    resumeDeletions: () => deletions.resume(),
    releaseReserve: () => parts.releaseReserve(),
    reclaimSpace: () => parts.reclaimSpace(),
    vacuum: () => parts.vacuum(),
  };
}
