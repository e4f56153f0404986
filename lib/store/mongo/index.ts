/**
 * The MongoDB store: the collections of `collections.ts`, the indexes of `indexes.ts`, blobs in GridFS
 * (`blobs.ts`). Written against the plain driver API (no transactions, no aggregation), so it runs on
 * a standalone server, a replica set, a sharded cluster and MongoDB-wire servers such as FerretDB.
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Binary, MongoClient, type Collection, type Db, type Filter, type MongoClientOptions } from 'mongodb';
import type { ContainerStatus } from '../../formatter/api.js';
import {
  HistoryColumnBuilder,
  decodeColumn,
  type HistoryColumn,
  type HistoryPart,
  type ParentTitle,
} from '../../history/column.js';
import type {
  Account,
  ApiKeyRecord,
  BlobRef,
  ContainerQuery,
  ImportPatch,
  ImportRecord,
  ImportStatus,
  Message,
  NewImport,
  Profile,
  Report,
  ReportQuery,
  Store,
  StoredContainer,
  ContainerSearch,
  Session,
  User,
} from '../store.js';
import { BlobBucket } from './blobs.js';
import {
  COLLECTIONS,
  containerDoc,
  importDoc,
  importPatchDoc,
  messageDoc,
  reportDoc,
  toAccount,
  toApiKey,
  toContainer,
  toImport,
  toProfile,
  toReport,
  toSession,
  toUser,
  type HistoryColumnDoc,
  type SessionDoc,
  type UserDoc,
  type AccountDoc,
  type ApiKeyDoc,
  type ContainerDoc,
  type ImportDoc,
  type ProfileDoc,
  type ReportDoc,
} from './collections.js';
import { ensureIndexes } from './indexes.js';
import { HistoryDraft } from './history-draft.js';
import { newImportRecord, newReportRecord } from '../records.js';

export interface MongoStoreOptions {
  /** A `mongodb://` or `mongodb+srv://` connection string. */
  url: string;
  /** Defaults to the database named in the URL path, else `tally`. */
  dbName?: string;
}

export const DEFAULT_DB_NAME = 'tally';

/** How long an operation waits for a usable server; short, so a dead server fails fast. */
const SERVER_SELECTION_TIMEOUT_MS = 5_000;

/** Reports whose profileId/createdAt insertContainers remembers; a batch run touches one report at a time. */
const REPORT_CACHE_SIZE = 256;

const LIVE_IMPORT: ImportStatus[] = ['receiving', 'processing'];

interface Collections {
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
}

/** Ids per `$in` query: bounded so one query never carries a huge array. */
const IN_CHUNK = 5_000;

interface Open {
  client: MongoClient;
  db: Db;
  c: Collections;
  blobs: BlobBucket;
}

export function createMongoStore(options: MongoStoreOptions): MongoStore {
  return new MongoStore(options);
}

export class MongoStore implements Store {
  readonly kind = 'mongo' as const;

  /** Containers come back to the import thread: BSON and the driver's pool stay in one place. */
  workerSink(): null {
    return null;
  }
  readonly url: string;
  readonly dbName: string;

  #open: Open | null = null;
  #opening: Promise<void> | null = null;
  // profileId and createdAt never change after createReport, so cached copies cannot go stale.
  #reportFacts = new Map<string, { profileId: string; createdAt: string }>();
  // Reports being built by this instance; null once one outgrew its draft (see history-draft.ts).
  #drafts = new Map<string, HistoryDraft | null>();

  constructor(options: MongoStoreOptions) {
    this.url = options.url;
    this.dbName = options.dbName ?? databaseInUrl(options.url) ?? DEFAULT_DB_NAME;
  }

  init(): Promise<void> {
    // Shared promise: two concurrent init() calls must not open two clients.
    this.#opening ??= this.#connect().catch((err: unknown) => {
      this.#opening = null;
      throw err;
    });
    return this.#opening;
  }

  async close(): Promise<void> {
    await this.#opening?.catch(() => undefined);
    const open = this.#open;
    this.#open = null;
    this.#opening = null;
    this.#reportFacts.clear();
    this.#drafts.clear();
    await open?.client.close();
  }

  async ping(): Promise<void> {
    await this.#o.db.command({ ping: 1 });
  }

  async createAccount(name: string): Promise<Account> {
    const account: Account = { id: randomUUID(), name, createdAt: now() };
    await this.#c.accounts.insertOne({ _id: account.id, name: account.name, createdAt: account.createdAt });
    return account;
  }

  async getAccount(id: string): Promise<Account | null> {
    const doc = await this.#c.accounts.findOne({ _id: id });
    return doc ? toAccount(doc) : null;
  }

  async countAccounts(): Promise<number> {
    return this.#c.accounts.countDocuments();
  }

  async addApiKey(key: ApiKeyRecord): Promise<void> {
    await this.#c.apiKeys.insertOne({ _id: randomUUID(), ...key });
  }

  async findApiKey(keyId: string): Promise<ApiKeyRecord | null> {
    const doc = await this.#c.apiKeys.findOne({ keyId });
    return doc ? toApiKey(doc) : null;
  }

  async listApiKeys(accountId: string): Promise<ApiKeyRecord[]> {
    const docs = await this.#c.apiKeys.find({ accountId }).sort({ createdAt: 1, keyId: 1 }).toArray();
    return docs.map(toApiKey);
  }

  async revokeApiKeys(accountId: string, keepKeyId?: string): Promise<number> {
    const filter: Filter<ApiKeyDoc> = { accountId, revokedAt: null };
    if (keepKeyId !== undefined) filter.keyId = { $ne: keepKeyId };
    const result = await this.#c.apiKeys.updateMany(filter, { $set: { revokedAt: now() } });
    return result.modifiedCount;
  }

  async createUser(
    input: Pick<User, 'accountId' | 'email' | 'passwordHash' | 'mustChangePassword'>,
  ): Promise<User | null> {
    const user: User = { id: randomUUID(), ...input, email: input.email.toLowerCase(), createdAt: now() };
    const { id, ...rest } = user;
    try {
      await this.#c.users.insertOne({ _id: id, ...rest });
    } catch (e) {
      if ((e as { code?: number }).code === 11000) return null;
      throw e;
    }
    return user;
  }

  async getUser(id: string): Promise<User | null> {
    const doc = await this.#c.users.findOne({ _id: id });
    return doc ? toUser(doc) : null;
  }

  async findUserByEmail(email: string): Promise<User | null> {
    const doc = await this.#c.users.findOne({ email: email.toLowerCase() });
    return doc ? toUser(doc) : null;
  }

  async listUsers(accountId: string): Promise<User[]> {
    const docs = await this.#c.users.find({ accountId }).sort({ createdAt: 1, _id: 1 }).toArray();
    return docs.map(toUser);
  }

  async setUserPassword(id: string, passwordHash: string, mustChangePassword: boolean): Promise<void> {
    await this.#c.users.updateOne({ _id: id }, { $set: { passwordHash, mustChangePassword } });
  }

  async createSession(x: Session): Promise<void> {
    const { idHash, ...rest } = x;
    await this.#c.sessions.insertOne({ _id: idHash, ...rest });
  }

  async findSession(idHash: string): Promise<Session | null> {
    const doc = await this.#c.sessions.findOne({ _id: idHash });
    return doc ? toSession(doc) : null;
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.#c.sessions.deleteOne({ _id: idHash });
  }

  async deleteUserSessions(userId: string, keepIdHash?: string): Promise<number> {
    const filter: Filter<SessionDoc> = { userId };
    if (keepIdHash !== undefined) filter._id = { $ne: keepIdHash };
    return (await this.#c.sessions.deleteMany(filter)).deletedCount;
  }

  async deleteExpiredSessions(at: string): Promise<number> {
    return (await this.#c.sessions.deleteMany({ expiresAt: { $lt: isoTime(at) } })).deletedCount;
  }

  async createProfile(accountId: string, name: string): Promise<Profile> {
    const profile: Profile = { id: randomUUID(), accountId, name, createdAt: now() };
    await this.#c.profiles.insertOne({ _id: profile.id, accountId, name, createdAt: profile.createdAt });
    return profile;
  }

  async getProfile(id: string): Promise<Profile | null> {
    const doc = await this.#c.profiles.findOne({ _id: id });
    return doc ? toProfile(doc) : null;
  }

  async listProfiles(accountId: string): Promise<Profile[]> {
    const docs = await this.#c.profiles.find({ accountId }).sort({ createdAt: 1, _id: 1 }).toArray();
    return docs.map(toProfile);
  }

  async createImport(input: NewImport): Promise<ImportRecord> {
    const record = newImportRecord(input, now());
    await this.#c.imports.insertOne(importDoc(record));
    return record;
  }

  async updateImport(id: string, patch: ImportPatch): Promise<void> {
    const set = importPatchDoc(patch);
    if (Object.keys(set).length === 0) return;
    await this.#c.imports.updateOne({ _id: id }, { $set: set });
  }

  async claimQueuedImport(): Promise<ImportRecord | null> {
    // The claim is an insert under a unique _id: exactly one caller can make it, on MongoDB and on
    // FerretDB alike. (A conditional findOneAndUpdate or updateOne let two concurrent callers take
    // the same import on FerretDB 1.24.) Claim documents are kept: a late caller must still lose.
    const candidates = await this.#c.imports
      .find({ status: 'queued' })
      .sort({ createdAt: 1, _id: 1 })
      .limit(8)
      .toArray();
    for (const candidate of candidates) {
      try {
        await this.#c.importClaims.insertOne({ _id: candidate._id, claimedAt: now() });
      } catch (e) {
        if ((e as { code?: number }).code === 11000) continue;
        throw e;
      }
      await this.#c.imports.updateOne({ _id: candidate._id }, { $set: { status: 'processing' } });
      return toImport({ ...candidate, status: 'processing' });
    }
    return null;
  }

  async getImport(id: string): Promise<ImportRecord | null> {
    const doc = await this.#c.imports.findOne({ _id: id });
    return doc ? toImport(doc) : null;
  }

  async createReport(input: Pick<Report, 'profileId' | 'importId' | 'tags' | 'date'>): Promise<Report> {
    const report = newReportRecord(input, now());
    await this.#c.reports.insertOne(reportDoc(report));
    this.#remember(report.id, { profileId: report.profileId, createdAt: report.createdAt });
    this.#drafts.set(report.id, new HistoryDraft());
    return report;
  }

  async insertContainers(batch: StoredContainer[]): Promise<void> {
    if (batch.length === 0) return;
    const c = this.#c;
    const facts = new Map<string, { profileId: string; createdAt: string }>();
    for (const reportId of new Set(batch.map((x) => x.reportId))) {
      facts.set(reportId, await this.#factsOf(reportId));
      const draft = this.#drafts.get(reportId);
      if (draft && !draft.add(batch.filter((x) => x.reportId === reportId))) this.#drafts.set(reportId, null);
    }
    // Unordered: the server may apply the batch in parallel; (reportId, seq) is unique either way.
    await c.containers.insertMany(
      batch.map((x) => containerDoc(x, facts.get(x.reportId)!)),
      { ordered: false },
    );
  }

  async completeReport(
    id: string,
    patch: Pick<Report, 'date' | 'totals' | 'files' | 'messages' | 'tags'>,
  ): Promise<void> {
    const facts = await this.#factsOf(id).catch(() => null);
    const draft = this.#drafts.get(id);
    this.#drafts.delete(id);
    if (facts) await this.#writeHistory(id, draft ?? null);
    await this.#c.reports.updateOne(
      { _id: id },
      {
        $set: {
          status: 'completed',
          date: patch.date,
          totals: patch.totals,
          files: patch.files,
          messages: patch.messages.map(messageDoc),
          tags: patch.tags,
        },
      },
    );
  }

  async failReport(id: string): Promise<void> {
    // The status flips first, so readers stop seeing the report before its containers are gone;
    // `purging` marks the gap, for init() to close if the process dies inside it.
    this.#drafts.delete(id);
    await this.#c.reports.updateOne({ _id: id }, { $set: { status: 'failed', purging: true } });
    await this.#purgeContainers(id);
  }

  async getReport(id: string): Promise<Report | null> {
    const doc = await this.#c.reports.findOne({ _id: id });
    return doc ? toReport(doc) : null;
  }

  async listReports(profileId: string, query: ReportQuery): Promise<Report[]> {
    if (query.limit <= 0) return [];
    const filter: Filter<ReportDoc> = { profileId, status: 'completed' };
    const tags = [...new Set(query.tags ?? [])];
    // `$all: []` matches nothing, while no tags must filter nothing.
    if (tags.length > 0) filter.tags = { $all: tags };
    if (query.before !== undefined) {
      const before = isoTime(query.before);
      // With beforeId the cursor is (createdAt, _id): reports of the same millisecond are not skipped.
      if (query.beforeId !== undefined)
        filter.$or = [{ createdAt: { $lt: before } }, { createdAt: before, _id: { $lt: query.beforeId } }];
      else filter.createdAt = { $lt: before };
    }
    if (query.since !== undefined) {
      const since = isoTime(query.since);
      // Beside a `before` bound the two conditions share one field: combine them with $and.
      if (filter.createdAt) filter.$and = [{ createdAt: filter.createdAt }, { createdAt: { $gte: since } }];
      else filter.createdAt = { $gte: since };
      if (filter.$and) delete filter.createdAt;
    }
    const docs = await this.#c.reports.find(filter).sort({ createdAt: -1, _id: -1 }).limit(query.limit).toArray();
    return docs.map(toReport);
  }

  async listContainers(reportId: string, query: ContainerQuery): Promise<StoredContainer[]> {
    // The driver reads limit 0 as "no limit".
    if (query.limit <= 0) return [];
    const filter: Filter<ContainerDoc> = { reportId, parentSeq: query.parentSeq };
    if (query.afterSeq !== undefined) filter.seq = { $gt: query.afterSeq };
    const docs = await this.#c.containers.find(filter).sort({ seq: 1 }).limit(query.limit).toArray();
    return docs.map(toContainer);
  }

  async findContainers(reportId: string, search: ContainerSearch): Promise<StoredContainer[]> {
    if (search.limit <= 0) return [];
    const filter: Filter<ContainerDoc> = { reportId };
    if (search.afterSeq !== undefined) filter.seq = { $gt: search.afterSeq };
    const statuses = [...new Set(search.statuses ?? [])];
    if (statuses.length > 0) filter.status = { $in: statuses };
    if (search.testsOnly) filter.type = { $in: ['test', 'scenario'] };
    // Escaped: the search text is matched literally, never as a pattern.
    if (search.text) filter.title = { $regex: search.text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'), $options: 'i' };
    const docs = await this.#c.containers.find(filter).sort({ seq: 1 }).limit(search.limit).toArray();
    return docs.map(toContainer);
  }

  async historyColumns(reportIds: string[]): Promise<HistoryColumn[]> {
    const { reports, historyColumns } = this.#c;
    const parts = new Map<string, { part: number; data: Uint8Array }[]>();
    for (let i = 0; i < reportIds.length; i += IN_CHUNK) {
      const ids = reportIds.slice(i, i + IN_CHUNK);
      const completed = new Set(
        (await reports.find({ _id: { $in: ids }, status: 'completed' }, { projection: { _id: 1 } }).toArray()).map(
          (d) => d._id,
        ),
      );
      for (const doc of await historyColumns.find({ reportId: { $in: [...completed] } }).toArray()) {
        const data = doc.data instanceof Binary ? doc.data.buffer.subarray(0, doc.data.length()) : doc.data;
        const list = parts.get(doc.reportId) ?? [];
        list.push({ part: doc.part, data });
        parts.set(doc.reportId, list);
      }
    }
    const columns: HistoryColumn[] = [];
    for (const id of reportIds) {
      const list = parts.get(id);
      if (list)
        columns.push(
          decodeColumn(
            id,
            list.sort((a, b) => a.part - b.part).map((p) => p.data),
          ),
        );
    }
    return columns;
  }

  async getContainer(reportId: string, seq: number): Promise<StoredContainer | null> {
    const doc = await this.#c.containers.findOne({ reportId, seq });
    return doc ? toContainer(doc) : null;
  }

  async reparentContainers(reportId: string, fromParents: number[], toParent: number): Promise<void> {
    if (fromParents.length === 0) return;
    this.#drafts.get(reportId)?.reparent(fromParents, toParent);
    await this.#c.containers.updateMany(
      { reportId, parentSeq: { $in: fromParents } },
      { $set: { parentSeq: toParent } },
    );
  }

  async deleteContainers(reportId: string, seqs: number[]): Promise<void> {
    if (seqs.length === 0) return;
    this.#drafts.get(reportId)?.remove(seqs);
    await this.#c.containers.deleteMany({ reportId, seq: { $in: seqs } });
  }

  async updateContainer(
    reportId: string,
    seq: number,
    patch: Partial<Pick<StoredContainer, 'attachments' | 'durationMs' | 'status'>>,
  ): Promise<void> {
    const set: Partial<ContainerDoc> = {};
    if (patch.attachments !== undefined) set.attachments = patch.attachments;
    if (patch.durationMs !== undefined) set.durationMs = patch.durationMs;
    if (patch.status !== undefined) set.status = patch.status;
    if (Object.keys(set).length === 0) return;
    this.#drafts.get(reportId)?.update(seq, patch);
    await this.#c.containers.updateOne({ reportId, seq }, { $set: set });
  }

  async putBlob(
    source: Readable,
    meta: { name: string; contentType: string | null; importId?: string },
  ): Promise<BlobRef> {
    return this.#o.blobs.put(source, {
      name: meta.name,
      contentType: meta.contentType,
      importId: meta.importId ?? null,
    });
  }

  async openBlob(id: string): Promise<Readable | null> {
    return this.#o.blobs.open(id);
  }

  async deleteBlob(id: string): Promise<void> {
    await this.#o.blobs.remove(id);
  }

  async failStaleImports(olderThan: string, message: Message): Promise<number> {
    const { c, blobs } = this.#o;
    const stale = await c.imports
      .find({ status: { $in: LIVE_IMPORT }, createdAt: { $lt: isoTime(olderThan) } }, { projection: { _id: 1 } })
      .toArray();
    let ended = 0;
    for (const { _id: id } of stale) {
      // Conditional and atomic: an import that finished meanwhile, or that another Tally instance's
      // sweep already ended, is left alone and not counted; the returned reportId is the current one.
      const doc = await c.imports.findOneAndUpdate(
        { _id: id, status: { $in: LIVE_IMPORT } },
        { $set: { status: 'failed', finishedAt: now() }, $push: { messages: messageDoc(message) } },
        // No projection: FerretDB 1.24 answers NotImplemented to findAndModify with `fields`.
        { returnDocument: 'after' },
      );
      if (!doc) continue;
      ended++;
      if (doc.reportId) await this.failReport(doc.reportId);
      for (const blobId of await blobs.idsOfImport(id)) await blobs.remove(blobId);
    }
    return ended;
  }

  get #o(): Open {
    if (!this.#open) throw notOpen();
    return this.#open;
  }

  get #c(): Collections {
    return this.#o.c;
  }

  async #connect(): Promise<void> {
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
      };
      this.#open = { client, db, c, blobs: new BlobBucket(db) };
      // A crash inside failReport leaves containers behind; finish the job so the contract holds.
      for (const { _id } of await c.reports.find({ purging: true }, { projection: { _id: 1 } }).toArray())
        await this.#purgeContainers(_id);
    } catch (err) {
      this.#open = null;
      await client.close().catch(() => undefined);
      throw err;
    }
  }

  /**
   * Writes the report's history column from its containers as they stand now (after merges): from
   * this instance's draft when it has one, else read back from the containers collection.
   */
  async #writeHistory(reportId: string, draft: HistoryDraft | null): Promise<void> {
    const { containers, historyColumns: columns } = this.#c;
    const write = async (part: HistoryPart): Promise<void> => {
      // A retried completeReport rewrites the column whole.
      if (part.index === 0) await columns.deleteMany({ reportId });
      await columns.insertOne({
        _id: `${reportId}:${part.index}`,
        reportId,
        part: part.index,
        data: new Binary(part.data),
      });
    };
    if (draft) {
      for (const part of draft.parts()) await write(part);
      return;
    }
    const parentSeqs = (await containers.distinct('parentSeq', { reportId })).filter(
      (s): s is number => typeof s === 'number',
    );
    const parents = new Map<number, ParentTitle>();
    for (let i = 0; i < parentSeqs.length; i += IN_CHUNK) {
      const found = await containers
        .find(
          { reportId, seq: { $in: parentSeqs.slice(i, i + IN_CHUNK) } },
          { projection: { _id: 0, seq: 1, parentSeq: 1, title: 1 } },
        )
        .toArray();
      for (const d of found) parents.set(d.seq, { parentSeq: d.parentSeq, title: d.title });
    }
    const builder = new HistoryColumnBuilder(parents);
    const tests = containers
      .find(
        { reportId, type: { $in: ['test', 'scenario'] } },
        { projection: { _id: 0, seq: 1, parentSeq: 1, title: 1, status: 1, durationMs: 1, flaky: 1 } },
      )
      .sort({ seq: 1 });
    for await (const d of tests) {
      const part = builder.add({
        seq: d.seq,
        parentSeq: d.parentSeq,
        title: d.title,
        status: d.status as ContainerStatus,
        durationMs: d.durationMs,
        flaky: d.flaky,
      });
      if (part) await write(part);
    }
    const last = builder.finish();
    if (last) await write(last);
  }

  async #purgeContainers(reportId: string): Promise<void> {
    const { reports, containers } = this.#c;
    await containers.deleteMany({ reportId });
    await reports.updateOne({ _id: reportId }, { $unset: { purging: '' } });
  }

  async #factsOf(reportId: string): Promise<{ profileId: string; createdAt: string }> {
    const cached = this.#reportFacts.get(reportId);
    if (cached) return cached;
    const doc = await this.#c.reports.findOne({ _id: reportId }, { projection: { profileId: 1, createdAt: 1 } });
    if (!doc)
      throw new Error(
        `insertContainers: there is no report ${JSON.stringify(reportId)}; create the report before its containers.`,
      );
    const facts = { profileId: doc.profileId, createdAt: doc.createdAt };
    this.#remember(reportId, facts);
    return facts;
  }

  #remember(reportId: string, facts: { profileId: string; createdAt: string }): void {
    this.#reportFacts.set(reportId, facts);
    // Map order is insertion order: dropping the first key drops the oldest entry.
    if (this.#reportFacts.size > REPORT_CACHE_SIZE) this.#reportFacts.delete(this.#reportFacts.keys().next().value!);
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

function notOpen(): Error {
  return new Error('MongoStore is not open: call init() first (and not after close()).');
}

function now(): string {
  return new Date().toISOString();
}

// Stored times are all toISOString() output, so string order is time order only if `before` has that form too.
function isoTime(value: string): string {
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) throw new TypeError(`not an ISO time: ${JSON.stringify(value)}`);
  return time.toISOString();
}
