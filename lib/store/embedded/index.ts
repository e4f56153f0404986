/**
 * The embedded store: one SQLite file (`<dataDir>/tally.sqlite`) plus a blob folder
 * (`<dataDir>/blobs/`), assembled from its per-noun modules. What both stores do alike (history
 * columns, the sweep, the order of completing and failing a report) comes from lib/store/.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
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
import { BlobFolder } from './blob-folder.js';
import { blobStore } from './blobs.js';
import type { WalCheckpointer } from './checkpointer.js';
import { containerRecords } from './containers.js';
import { EmbeddedDatabase } from './database.js';
import { historyRecords } from './history.js';
import { importRecords } from './imports.js';
import { profileStore } from './profiles.js';
import { reportRecords } from './reports.js';
import { SpaceReserve } from './reserve.js';
import { sessionStore, userStore } from './users.js';

export { PAGE_SIZE } from './database.js';

export interface EmbeddedStoreOptions {
  dataDir: string;
  /** Bytes kept back on the disk for cleaning up after a full disk (`reserve.bin`); 0 for none. */
  reserveBytes?: number;
}

export const RESERVE_FILE = 'reserve.bin';
export const DEFAULT_RESERVE_BYTES = 64 * 1024 * 1024;

export const DATABASE_FILE = 'tally.sqlite';
export const BLOB_DIR = 'blobs';

export function createEmbeddedStore(options: EmbeddedStoreOptions): EmbeddedStore {
  return new EmbeddedStore(options);
}

export class EmbeddedStore implements Store {
  readonly kind = 'embedded' as const;
  readonly dataDir: string;
  readonly databasePath: string;
  readonly blobFolder: BlobFolder;
  readonly reserve: SpaceReserve;

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

  readonly #database: EmbeddedDatabase;
  readonly #reportRecords: ReportRecords;
  readonly #drafts: HistoryDrafts;
  #opening: Promise<void> | null = null;

  constructor(options: EmbeddedStoreOptions) {
    this.dataDir = options.dataDir;
    this.databasePath = join(options.dataDir, DATABASE_FILE);
    this.blobFolder = new BlobFolder(join(options.dataDir, BLOB_DIR));
    this.reserve = new SpaceReserve(join(options.dataDir, RESERVE_FILE), options.reserveBytes ?? DEFAULT_RESERVE_BYTES);
    const d = (this.#database = new EmbeddedDatabase(this.databasePath));
    this.accounts = accountStore(d);
    this.keys = apiKeyStore(d);
    this.users = userStore(d);
    this.sessions = sessionStore(d);
    this.profiles = profileStore(d);
    this.blobs = blobStore(d, this.blobFolder);
    this.#reportRecords = reportRecords(d, this.reserve);
    const shared = sharedNouns(
      {
        imports: importRecords(d),
        reports: this.#reportRecords,
        containers: containerRecords(d),
        history: historyRecords(d),
      },
      this.blobs,
      // SQLite reads a report's tests back from its index quickly: no draft of the import thread's rows.
      { keepRowDrafts: false },
    );
    this.imports = shared.imports;
    this.reports = shared.reports;
    this.containers = shared.containers;
    this.history = shared.history;
    this.#drafts = shared.drafts;
  }

  /** The thread that checkpoints the log, once bulk writes have begun (for tests and operators). */
  get checkpointer(): WalCheckpointer | null {
    return this.#database.checkpointer;
  }

  init(): Promise<void> {
    // Shared promise: two concurrent init() calls must not open the file twice.
    this.#opening ??= this.#open().catch((err: unknown) => {
      this.#opening = null;
      throw err;
    });
    return this.#opening;
  }

  async close(): Promise<void> {
    await this.#opening?.catch(() => undefined);
    await this.#database.close();
    this.#drafts.clear();
    this.#opening = null;
  }

  async ping(): Promise<void> {
    this.#database.s.ping.get();
  }

  /** A full disk stopped an import: free the reserve so its clean-up can run. */
  releaseReserve(): Promise<boolean> {
    return this.reserve.release();
  }

  async #open(): Promise<void> {
    await mkdir(this.dataDir, { recursive: true });
    await this.reserve.ensure();
    await this.blobFolder.init();
    this.#database.open();
    await finishCutPurges(this.#reportRecords);
  }
}
