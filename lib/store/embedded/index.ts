/**
 * The embedded store: one SQLite file (`<dataDir>/tally.sqlite`) plus a blob folder
 * (`<dataDir>/blobs/`), assembled from its per-noun modules. What both stores do alike (history
 * columns, the sweep, the order of completing and failing a report, the lifecycle) comes from
 * lib/store/.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { assembleStore, type Store } from '../store.js';
import { accountStore, apiKeyStore } from './accounts.js';
import { BlobFolder } from './blob-folder.js';
import { ciLinkStore } from './ci-links.js';
import { blobStore } from './blobs.js';
import type { WalCheckpointer } from './checkpointer.js';
import { containerRecords } from './containers.js';
import { EmbeddedDatabase } from './database.js';
import { deletionRecords } from './deletions.js';
import { historyRecords } from './history.js';
import { importRecords } from './imports.js';
import { deliveryStore, notificationRuleStore } from './notifications.js';
import { profileStore } from './profiles.js';
import { reportRecords } from './reports.js';
import { SpaceReserve } from './reserve.js';
import { retentionRecords } from './retention.js';
import { reclaim, vacuumWhole } from './space.js';
import { AUTO_SWITCH_BYTES } from './vacuum-mode.js';
import { sessionStore, userStore } from './users.js';

export { PAGE_SIZE } from './database.js';

export interface EmbeddedStoreOptions {
  dataDir: string;
  /** Bytes kept back on the disk for cleaning up after a full disk (`reserve.bin`); 0 for none. */
  reserveBytes?: number;
  /**
   * A database made before incremental vacuum is switched over at open up to this size (space.ts,
   * AUTO_SWITCH_BYTES by default); a larger one waits for `tally vacuum`.
   */
  switchAtOpenBytes?: number;
}

export const RESERVE_FILE = 'reserve.bin';
export const DEFAULT_RESERVE_BYTES = 64 * 1024 * 1024;

export const DATABASE_FILE = 'tally.sqlite';
export const BLOB_DIR = 'blobs';

/** The store, and where it keeps things (for tests and operators). */
export interface EmbeddedStore extends Store {
  readonly kind: 'embedded';
  readonly dataDir: string;
  readonly databasePath: string;
  readonly blobFolder: BlobFolder;
  readonly reserve: SpaceReserve;
  /** The thread that checkpoints the log, once bulk writes have begun. */
  readonly checkpointer: WalCheckpointer | null;
}

export function createEmbeddedStore(options: EmbeddedStoreOptions): EmbeddedStore {
  const { dataDir } = options;
  const databasePath = join(dataDir, DATABASE_FILE);
  const blobFolder = new BlobFolder(join(dataDir, BLOB_DIR));
  const reserve = new SpaceReserve(join(dataDir, RESERVE_FILE), options.reserveBytes ?? DEFAULT_RESERVE_BYTES);
  const d = new EmbeddedDatabase(databasePath, options.switchAtOpenBytes ?? AUTO_SWITCH_BYTES);
  const store = assembleStore({
    kind: 'embedded',
    accounts: accountStore(d),
    keys: apiKeyStore(d),
    users: userStore(d),
    sessions: sessionStore(d),
    profiles: profileStore(d),
    blobs: blobStore(d, blobFolder),
    ciLinks: ciLinkStore(d),
    notificationRules: notificationRuleStore(d),
    deliveries: deliveryStore(d),
    records: {
      imports: importRecords(d),
      reports: reportRecords(d, reserve),
      containers: containerRecords(d),
      history: historyRecords(d),
      deletions: deletionRecords(d),
      retention: retentionRecords(d),
    },
    // SQLite reads a report's tests back from its index quickly: no draft of the import thread's rows.
    keepRowDrafts: false,
    async open() {
      await mkdir(dataDir, { recursive: true });
      await reserve.ensure();
      await blobFolder.init();
      d.open();
    },
    close: () => d.close(),
    async ping() {
      d.s.ping.get();
    },
    // A full disk stopped an import: free the reserve so its clean-up can run.
    releaseReserve: () => reserve.release(),
    reclaimSpace: () => reclaim(d),
    vacuum: () => vacuumWhole(d),
  });
  return {
    ...store,
    kind: 'embedded',
    dataDir,
    databasePath,
    blobFolder,
    reserve,
    get checkpointer() {
      return d.checkpointer;
    },
  };
}
