/**
 * The MongoDB store: the collections of `collections.ts`, the indexes of `indexes.ts`, blobs in
 * GridFS, assembled from its per-noun modules. What both stores do alike (history columns, the
 * sweep, the order of completing and failing a report, the lifecycle) comes from lib/store/.
 */
import { assembleStore, type Store } from '../store.js';
import { accountStore, apiKeyStore } from './accounts.js';
import { ciLinkStore } from './ci-links.js';
import { blobStore } from './blobs.js';
import { DEFAULT_DB_NAME, MongoConnection, databaseInUrl } from './connection.js';
import { containerRecords } from './containers.js';
import { deletionRecords } from './deletions.js';
import { historyRecords } from './history.js';
import { importRecords } from './imports.js';
import { numberExisting } from './numbers.js';
import { deliveryStore, notificationRuleStore } from './notifications.js';
import { profileStore } from './profiles.js';
import { ReportFactsCache } from './report-facts.js';
import { reportRecords } from './reports.js';
import { retentionRecords } from './retention.js';
import { sessionStore, userStore } from './users.js';

export { DEFAULT_DB_NAME, databaseInUrl } from './connection.js';

export interface MongoStoreOptions {
  /** A `mongodb://` or `mongodb+srv://` connection string. */
  url: string;
  /** Defaults to the database named in the URL path, else `tally`. */
  dbName?: string;
}

/** The store, and where it keeps things. */
export interface MongoStore extends Store {
  readonly kind: 'mongo';
  readonly url: string;
  readonly dbName: string;
}

export function createMongoStore(options: MongoStoreOptions): MongoStore {
  const { url } = options;
  const dbName = options.dbName ?? databaseInUrl(url) ?? DEFAULT_DB_NAME;
  const conn = new MongoConnection(url, dbName);
  const facts = new ReportFactsCache(conn);
  const store = assembleStore({
    kind: 'mongo',
    accounts: accountStore(conn),
    keys: apiKeyStore(conn),
    users: userStore(conn),
    sessions: sessionStore(conn),
    profiles: profileStore(conn),
    blobs: blobStore(conn),
    ciLinks: ciLinkStore(conn),
    notificationRules: notificationRuleStore(conn),
    deliveries: deliveryStore(conn),
    records: {
      imports: importRecords(conn),
      reports: reportRecords(conn, facts),
      containers: containerRecords(conn, facts),
      history: historyRecords(conn),
      deletions: deletionRecords(conn),
      retention: retentionRecords(conn),
    },
    // Reading a report's tests back is three queries over every report's containers on servers
    // without secondary indexes (FerretDB): keep a draft of them instead (history-draft.ts).
    keepRowDrafts: true,
    async open() {
      await conn.connect();
      try {
        await numberExisting(conn.c);
      } catch (err) {
        await conn.close().catch(() => undefined);
        throw err;
      }
    },
    async close() {
      facts.clear();
      await conn.close();
    },
    async ping() {
      await conn.db.command({ ping: 1 });
    },
    // MongoDB keeps no reserve: nothing to free.
    releaseReserve: async () => false,
    // GridFS chunks go with their files (blob-bucket.ts); the server reuses the space of deleted documents
    // and gives it back to the file system only through its own `compact`, an operator's decision.
    reclaimSpace: async () => ({ bytes: 0, incremental: true }),
    vacuum: async () => null,
  });
  return { ...store, kind: 'mongo', url, dbName };
}
