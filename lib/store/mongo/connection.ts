/**
 * The MongoDB store's client and collections: one client per open store, the indexes ensured at
 * each open (indexes.ts), blobs in GridFS (blob-bucket.ts). Written against the plain driver API
 * (no transactions, no aggregation), so it runs on a standalone server, a replica set, a sharded
 * cluster and MongoDB-wire servers such as FerretDB.
 */
import { MongoClient, type Collection, type Db, type MongoClientOptions } from 'mongodb';
import { BlobBucket } from './blob-bucket.js';
import {
  COLLECTIONS,
  type AccountDoc,
  type ApiKeyDoc,
  type CiLinkDoc,
  type ContainerDoc,
  type CounterDoc,
  type DeliveryClaimDoc,
  type DeliveryDoc,
  type HistoryColumnDoc,
  type ImportDoc,
  type NotificationRuleDoc,
  type ProfileDoc,
  type ReportDoc,
  type RetentionPolicyDoc,
  type SessionDoc,
  type UserDoc,
} from './collections.js';
import { ensureIndexes } from './indexes.js';

export const DEFAULT_DB_NAME = 'tally';

/** How long an operation waits for a usable server; short, so a dead server fails fast. */
const SERVER_SELECTION_TIMEOUT_MS = 5_000;

/** Ids per `$in` query: bounded so one query never carries a huge array. */
export const IN_CHUNK = 5_000;

export interface Collections {
  accounts: Collection<AccountDoc>;
  apiKeys: Collection<ApiKeyDoc>;
  profiles: Collection<ProfileDoc>;
  imports: Collection<ImportDoc>;
  reports: Collection<ReportDoc>;
  containers: Collection<ContainerDoc>;
  importClaims: Collection<{ _id: string; claimedAt: string }>;
  users: Collection<UserDoc>;
  sessions: Collection<SessionDoc>;
  historyColumns: Collection<HistoryColumnDoc>;
  counters: Collection<CounterDoc>;
  numbers: Collection<{ _id: string }>;
  ciLinks: Collection<CiLinkDoc>;
  retentionPolicies: Collection<RetentionPolicyDoc>;
  notificationRules: Collection<NotificationRuleDoc>;
  notificationDeliveries: Collection<DeliveryDoc>;
  notificationClaims: Collection<DeliveryClaimDoc>;
}

interface Open {
  client: MongoClient;
  db: Db;
  c: Collections;
  blobs: BlobBucket;
}

export class MongoConnection {
  #open: Open | null = null;

  constructor(
    readonly url: string,
    readonly dbName: string,
  ) {}

  async connect(): Promise<void> {
    const client = new MongoClient(this.url, clientOptions(this.url));
    try {
      await client.connect();
      const db = client.db(this.dbName);
      await ensureIndexes(db);
      const c: Collections = {
        accounts: db.collection(COLLECTIONS.accounts),
        apiKeys: db.collection(COLLECTIONS.apiKeys),
        profiles: db.collection(COLLECTIONS.profiles),
        imports: db.collection(COLLECTIONS.imports),
        reports: db.collection(COLLECTIONS.reports),
        containers: db.collection(COLLECTIONS.containers),
        importClaims: db.collection(COLLECTIONS.importClaims),
        users: db.collection(COLLECTIONS.users),
        sessions: db.collection(COLLECTIONS.sessions),
        historyColumns: db.collection(COLLECTIONS.historyColumns),
        counters: db.collection(COLLECTIONS.counters),
        numbers: db.collection(COLLECTIONS.numbers),
        ciLinks: db.collection(COLLECTIONS.ciLinks),
        retentionPolicies: db.collection(COLLECTIONS.retentionPolicies),
        notificationRules: db.collection(COLLECTIONS.notificationRules),
        notificationDeliveries: db.collection(COLLECTIONS.notificationDeliveries),
        notificationClaims: db.collection(COLLECTIONS.notificationClaims),
      };
      this.#open = { client, db, c, blobs: new BlobBucket(db) };
    } catch (err) {
      this.#open = null;
      await client.close().catch(() => undefined);
      throw err;
    }
  }

  async close(): Promise<void> {
    const open = this.#open;
    this.#open = null;
    await open?.client.close();
  }

  get db(): Db {
    return this.#o.db;
  }

  /** The collections; throws when the store is closed. */
  get c(): Collections {
    return this.#o.c;
  }

  get blobs(): BlobBucket {
    return this.#o.blobs;
  }

  get #o(): Open {
    if (!this.#open) throw new Error('MongoStore is not open: call init() first (and not after close()).');
    return this.#open;
  }
}

function clientOptions(url: string): MongoClientOptions {
  // An optional field left undefined (StoredFile.archive, Message.file) must stay absent, not come back as null.
  const options: MongoClientOptions = { ignoreUndefined: true };
  // Options given here override the URL's; these are defaults only, so the URL's own values win.
  if (!urlHasOption(url, 'serverSelectionTimeoutMS')) options.serverSelectionTimeoutMS = SERVER_SELECTION_TIMEOUT_MS;
  if (!urlHasOption(url, 'appName')) options.appName = 'tally';
  return options;
}

function urlHasOption(url: string, name: string): boolean {
  const query = url.split('?')[1] ?? '';
  return query.split('&').some((pair) => pair.split('=')[0]!.toLowerCase() === name.toLowerCase());
}

/** The database of `mongodb://user:pw@host1,host2/<db>?opts`, if the URL names one. */
export function databaseInUrl(url: string): string | null {
  const match = /^mongodb(?:\+srv)?:\/\/[^/?]*\/([^?]*)/.exec(url);
  const name = match?.[1] ? decodeURIComponent(match[1]) : '';
  return name === '' ? null : name;
}
