/**
 * The MongoDB store: the collections of `collections.ts`, the indexes of `indexes.ts`, blobs in
 * GridFS, assembled from its per-noun modules. What both stores do alike (history columns, the
 * sweep, the order of completing and failing a report) comes from lib/store/.
 */
import type { AccountStore, ApiKeyStore } from '../accounts.js';
import type { BlobStore } from '../blobs.js';
import type { ContainerStore } from '../containers.js';
import type { HistoryStore } from '../history.js';
import type { HistoryDrafts } from '../history-drafts.js';
import type { ImportStore } from '../imports.js';
import type { ProfileStore } from '../profiles.js';
import { finishCutPurges, type ReportRecords, type ReportStore } from '../reports.js';
import { sharedNouns, type Store } from '../store.js';
import type { SessionStore, UserStore } from '../users.js';
import { accountStore, apiKeyStore } from './accounts.js';
import { blobStore } from './blobs.js';
import { DEFAULT_DB_NAME, MongoConnection, databaseInUrl } from './connection.js';
import { containerRecords } from './containers.js';
import { historyRecords } from './history.js';
import { importRecords } from './imports.js';
import { profileStore } from './profiles.js';
import { ReportFactsCache } from './report-facts.js';
import { reportRecords } from './reports.js';
import { sessionStore, userStore } from './users.js';

export { DEFAULT_DB_NAME, databaseInUrl } from './connection.js';

export interface MongoStoreOptions {
  /** A `mongodb://` or `mongodb+srv://` connection string. */
  url: string;
  /** Defaults to the database named in the URL path, else `tally`. */
  dbName?: string;
}

export function createMongoStore(options: MongoStoreOptions): MongoStore {
  return new MongoStore(options);
}

export class MongoStore implements Store {
  readonly kind = 'mongo' as const;
  readonly url: string;
  readonly dbName: string;

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

  readonly #conn: MongoConnection;
  readonly #facts: ReportFactsCache;
  readonly #reportRecords: ReportRecords;
  readonly #drafts: HistoryDrafts;
  #opening: Promise<void> | null = null;

  constructor(options: MongoStoreOptions) {
    this.url = options.url;
    this.dbName = options.dbName ?? databaseInUrl(options.url) ?? DEFAULT_DB_NAME;
    const conn = (this.#conn = new MongoConnection(this.url, this.dbName));
    this.#facts = new ReportFactsCache(conn);
    this.accounts = accountStore(conn);
    this.keys = apiKeyStore(conn);
    this.users = userStore(conn);
    this.sessions = sessionStore(conn);
    this.profiles = profileStore(conn);
    this.blobs = blobStore(conn);
    this.#reportRecords = reportRecords(conn, this.#facts);
    const shared = sharedNouns(
      {
        imports: importRecords(conn),
        reports: this.#reportRecords,
        containers: containerRecords(conn, this.#facts),
        history: historyRecords(conn),
      },
      this.blobs,
      // Reading a report's tests back is three queries over every report's containers on servers
      // without secondary indexes (FerretDB): keep a draft of them instead (history-draft.ts).
      { keepRowDrafts: true },
    );
    this.imports = shared.imports;
    this.reports = shared.reports;
    this.containers = shared.containers;
    this.history = shared.history;
    this.#drafts = shared.drafts;
  }

  init(): Promise<void> {
    // Shared promise: two concurrent init() calls must not open two clients.
    this.#opening ??= this.#open().catch((err: unknown) => {
      this.#opening = null;
      throw err;
    });
    return this.#opening;
  }

  async close(): Promise<void> {
    await this.#opening?.catch(() => undefined);
    this.#opening = null;
    this.#facts.clear();
    this.#drafts.clear();
    await this.#conn.close();
  }

  async ping(): Promise<void> {
    await this.#conn.db.command({ ping: 1 });
  }

  /** MongoDB keeps no reserve: nothing to free. */
  async releaseReserve(): Promise<boolean> {
    return false;
  }

  async #open(): Promise<void> {
    await this.#conn.connect();
    try {
      await finishCutPurges(this.#reportRecords);
    } catch (err) {
      await this.#conn.close().catch(() => undefined);
      throw err;
    }
  }
}
