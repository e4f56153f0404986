/**
 * The embedded store: one SQLite file (`<dataDir>/tally.sqlite`) plus a blob folder
 * (`<dataDir>/blobs/`). better-sqlite3 is synchronous; every call here is one short statement or one
 * transaction over a caller-sized batch, and long work (purging a failed report) runs in chunks that
 * yield to the event loop between them.
 */
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import Database from 'better-sqlite3';
import type {
  Account,
  Message,
  ApiKeyRecord,
  BlobRef,
  ContainerQuery,
  ImportPatch,
  ImportRecord,
  NewImport,
  Profile,
  Report,
  ReportQuery,
  Store,
  StoredContainer,
  WorkerContainerSink,
  ContainerSearch,
  Session,
  User,
} from '../store.js';
import {
  HistoryColumnBuilder,
  decodeColumn,
  type FileHistory,
  type HistoryColumn,
  type HistoryPart,
  type ParentTitle,
} from '../../history/column.js';
import type { ContainerStatus } from '../../formatter/api.js';
import { SpaceReserve } from './reserve.js';
import { WalCheckpointer } from './checkpointer.js';
import { BUSY_TIMEOUT_MS, tuneConnection } from './connection.js';
import { BlobFolder } from './blobs.js';
import {
  CONTAINER_COLUMNS,
  containerValues,
  listJson,
  toAccount,
  toApiKey,
  toContainer,
  toImport,
  toProfile,
  toReport,
  toSession,
  toUser,
  type ContainerRow,
  type ReportRow,
} from './rows.js';
import { migrate } from './schema.js';
import { PURGE_CHUNK, prepareStatements, type Statements } from './statements.js';
import { newImportRecord, newReportRecord } from '../records.js';

export interface EmbeddedStoreOptions {
  dataDir: string;
  /** Bytes kept back on the disk for cleaning up after a full disk (`reserve.bin`); 0 for none. */
  reserveBytes?: number;
}

export const RESERVE_FILE = 'reserve.bin';
export const DEFAULT_RESERVE_BYTES = 64 * 1024 * 1024;

export const DATABASE_FILE = 'tally.sqlite';
export const BLOB_DIR = 'blobs';

/** Tests read per statement while a history column is built. */
const HISTORY_READ_PAGE = 10_000;

/** Page size of a new database file. */
export const PAGE_SIZE = 16384;

// Patchable fields → column and how the value is stored. Only keys present in a patch are written.
const IMPORT_COLUMNS: Record<string, { column: string; json: boolean }> = {
  status: { column: 'status', json: false },
  finishedAt: { column: 'finished_at', json: false },
  formatter: { column: 'formatter', json: false },
  contentType: { column: 'content_type', json: false },
  params: { column: 'params', json: true },
  tags: { column: 'tags', json: true },
  files: { column: 'files', json: true },
  attachments: { column: 'attachments', json: true },
  messages: { column: 'messages', json: true },
  reportId: { column: 'report_id', json: false },
  progress: { column: 'progress', json: true },
};

const CONTAINER_PATCH_COLUMNS: Record<string, { column: string; encode: (v: never) => unknown }> = {
  attachments: { column: 'attachments', encode: (v: unknown[]) => listJson(v) },
  durationMs: { column: 'duration_ms', encode: (v: number | null) => v },
  status: { column: 'status', encode: (v: string) => v },
};

export function createEmbeddedStore(options: EmbeddedStoreOptions): EmbeddedStore {
  return new EmbeddedStore(options);
}

export class EmbeddedStore implements Store {
  readonly kind = 'embedded' as const;
  readonly dataDir: string;
  readonly databasePath: string;
  readonly blobs: BlobFolder;
  readonly reserve: SpaceReserve;

  #db: Database.Database | null = null;
  #statements: Statements | null = null;
  #opening: Promise<void> | null = null;
  #insertBatch: ((batch: readonly StoredContainer[]) => void) | null = null;
  #checkpointer: WalCheckpointer | null = null;
  // Statements whose text depends on the call's shape, prepared once per shape.
  #shaped = new Map<string, Database.Statement<unknown[]>>();
  /**
   * History columns of reports being imported, built from what the parse workers gathered as they
   * wrote (addWorkerHistory), so completing a report reads nothing back. 'read-back' once any of a
   * report's rows came another way (or a worker gave up gathering a file's): completion then reads the
   * column from the rows, as without workers.
   */
  #drafts = new Map<string, HistoryColumnBuilder | 'read-back'>();

  constructor(options: EmbeddedStoreOptions) {
    this.dataDir = options.dataDir;
    this.databasePath = join(options.dataDir, DATABASE_FILE);
    this.blobs = new BlobFolder(join(options.dataDir, BLOB_DIR));
    this.reserve = new SpaceReserve(join(options.dataDir, RESERVE_FILE), options.reserveBytes ?? DEFAULT_RESERVE_BYTES);
  }

  /** A full disk stopped an import: free the reserve so its clean-up can run. */
  releaseReserve(): Promise<boolean> {
    return this.reserve.release();
  }

  workerSink(): WorkerContainerSink {
    this.#startCheckpointer();
    return { kind: 'sqlite', path: this.databasePath };
  }

  /** The thread that checkpoints the log, once bulk writes have begun (for tests and operators). */
  get checkpointer(): WalCheckpointer | null {
    return this.#checkpointer;
  }

  /** Started with the first bulk write, so commands and idle stores run no extra thread. */
  #startCheckpointer(): void {
    if (!this.#checkpointer && this.#db) this.#checkpointer = new WalCheckpointer(this.databasePath);
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
    const checkpointer = this.#checkpointer;
    this.#checkpointer = null;
    await checkpointer?.stop();
    this.#db?.close();
    this.#db = null;
    this.#statements = null;
    this.#insertBatch = null;
    this.#drafts.clear();
    this.#shaped.clear();
    this.#opening = null;
  }

  async ping(): Promise<void> {
    this.#s.ping.get();
  }

  async createAccount(name: string): Promise<Account> {
    const account: Account = { id: randomUUID(), name, createdAt: now() };
    this.#s.insertAccount.run(account.id, account.name, account.createdAt);
    return account;
  }

  async getAccount(id: string): Promise<Account | null> {
    const row = this.#s.getAccount.get(id);
    return row ? toAccount(row) : null;
  }

  async countAccounts(): Promise<number> {
    return this.#s.countAccounts.get()!.n;
  }

  async addApiKey(key: ApiKeyRecord): Promise<void> {
    this.#s.insertApiKey.run(key.keyId, key.accountId, key.secretHash, key.createdAt, key.revokedAt);
  }

  async findApiKey(keyId: string): Promise<ApiKeyRecord | null> {
    const row = this.#s.findApiKey.get(keyId);
    return row ? toApiKey(row) : null;
  }

  async listApiKeys(accountId: string): Promise<ApiKeyRecord[]> {
    return this.#s.listApiKeys.all(accountId).map(toApiKey);
  }

  async revokeApiKeys(accountId: string, keepKeyId?: string): Promise<number> {
    const keep = keepKeyId ?? null;
    return this.#s.revokeApiKeys.run(now(), accountId, keep, keep).changes;
  }

  async createUser(
    input: Pick<User, 'accountId' | 'email' | 'passwordHash' | 'mustChangePassword'>,
  ): Promise<User | null> {
    const user: User = { id: randomUUID(), ...input, email: input.email.toLowerCase(), createdAt: now() };
    try {
      this.#s.insertUser.run(
        user.id,
        user.accountId,
        user.email,
        user.passwordHash,
        user.mustChangePassword ? 1 : 0,
        user.createdAt,
      );
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') return null;
      throw err;
    }
    return user;
  }

  async getUser(id: string): Promise<User | null> {
    const row = this.#s.getUser.get(id);
    return row ? toUser(row) : null;
  }

  async findUserByEmail(email: string): Promise<User | null> {
    const row = this.#s.findUserByEmail.get(email.toLowerCase());
    return row ? toUser(row) : null;
  }

  async listUsers(accountId: string): Promise<User[]> {
    return this.#s.listUsers.all(accountId).map(toUser);
  }

  async setUserPassword(id: string, passwordHash: string, mustChangePassword: boolean): Promise<void> {
    this.#s.setUserPassword.run(passwordHash, mustChangePassword ? 1 : 0, id);
  }

  async createSession(x: Session): Promise<void> {
    this.#s.insertSession.run(x.idHash, x.userId, x.accountId, x.csrfToken, x.createdAt, x.expiresAt);
  }

  async findSession(idHash: string): Promise<Session | null> {
    const row = this.#s.findSession.get(idHash);
    return row ? toSession(row) : null;
  }

  async deleteSession(idHash: string): Promise<void> {
    this.#s.deleteSession.run(idHash);
  }

  async deleteUserSessions(userId: string, keepIdHash?: string): Promise<number> {
    const keep = keepIdHash ?? null;
    return this.#s.deleteUserSessions.run(userId, keep, keep).changes;
  }

  async deleteExpiredSessions(at: string): Promise<number> {
    return this.#s.deleteExpiredSessions.run(isoTime(at)).changes;
  }

  async createProfile(accountId: string, name: string): Promise<Profile> {
    const profile: Profile = { id: randomUUID(), accountId, name, createdAt: now() };
    this.#s.insertProfile.run(profile.id, profile.accountId, profile.name, profile.createdAt);
    return profile;
  }

  async getProfile(id: string): Promise<Profile | null> {
    const row = this.#s.getProfile.get(id);
    return row ? toProfile(row) : null;
  }

  async listProfiles(accountId: string): Promise<Profile[]> {
    return this.#s.listProfiles.all(accountId).map(toProfile);
  }

  async createImport(input: NewImport): Promise<ImportRecord> {
    const record = newImportRecord(input, now());
    const r = record;
    this.#s.insertImport.run(
      r.id,
      r.profileId,
      r.accountId,
      r.status,
      r.createdAt,
      r.finishedAt,
      r.endpoint,
      r.formatter,
      JSON.stringify(r.params),
      JSON.stringify(r.tags),
      JSON.stringify(r.files),
      JSON.stringify(r.attachments),
      JSON.stringify(r.messages),
      r.reportId,
      JSON.stringify(r.progress),
      r.contentType,
    );
    return record;
  }

  async updateImport(id: string, patch: ImportPatch): Promise<void> {
    const keys = Object.keys(patch).filter(
      (k) => IMPORT_COLUMNS[k] && (patch as Record<string, unknown>)[k] !== undefined,
    );
    if (keys.length === 0) return;
    const values = keys.map((k) => {
      const value = (patch as Record<string, unknown>)[k];
      return IMPORT_COLUMNS[k]!.json ? JSON.stringify(value) : value;
    });
    const sql = `update imports set ${keys.map((k) => `${IMPORT_COLUMNS[k]!.column} = ?`).join(', ')} where id = ?`;
    this.#shapedStatement(sql).run(...values, id);
  }

  async claimQueuedImport(): Promise<ImportRecord | null> {
    // One statement: two workers (or processes on one data dir) never take the same import.
    const row = this.#s.claimQueued.get();
    return row ? toImport(row) : null;
  }

  async getImport(id: string): Promise<ImportRecord | null> {
    const row = this.#s.getImport.get(id);
    return row ? toImport(row) : null;
  }

  async createReport(input: Pick<Report, 'profileId' | 'importId' | 'tags' | 'date'>): Promise<Report> {
    const report = newReportRecord(input, now());
    const s = this.#s;
    this.#db!.transaction(() => {
      const r = report;
      s.insertReport.run(
        r.id,
        r.profileId,
        r.importId,
        r.status,
        r.createdAt,
        r.date,
        JSON.stringify(r.tags),
        JSON.stringify(r.totals),
        JSON.stringify(r.files),
        JSON.stringify(r.messages),
      );
      for (const tag of r.tags) s.addReportTag.run(r.id, tag);
    })();
    return report;
  }

  async insertContainers(batch: StoredContainer[]): Promise<void> {
    if (batch.length === 0) return;
    if (!this.#insertBatch) throw notOpen();
    this.#startCheckpointer();
    this.#insertBatch(batch);
    for (const c of batch) if (this.#drafts.get(c.reportId) !== 'read-back') this.#drafts.set(c.reportId, 'read-back');
  }

  addWorkerHistory(reportId: string, history: FileHistory | null, base: number): void {
    let draft = this.#drafts.get(reportId);
    if (draft === 'read-back') return;
    if (!history) {
      this.#drafts.set(reportId, 'read-back');
      return;
    }
    if (!draft) this.#drafts.set(reportId, (draft = new HistoryColumnBuilder(new Map())));
    for (const part of draft.addPart(history, base)) this.#writeHistoryPart(reportId, part);
  }

  async completeReport(
    id: string,
    patch: Pick<Report, 'date' | 'totals' | 'files' | 'messages' | 'tags'>,
  ): Promise<void> {
    const s = this.#s;
    const report = s.getReport.get(id);
    const draft = this.#drafts.get(id);
    this.#drafts.delete(id);
    if (report && draft instanceof HistoryColumnBuilder) {
      const last = draft.finish();
      if (last) this.#writeHistoryPart(id, last);
    } else if (report) await this.#writeHistory(id);
    this.#db!.transaction(() => {
      s.completeReport.run(
        patch.date,
        JSON.stringify(patch.totals),
        JSON.stringify(patch.files),
        JSON.stringify(patch.messages),
        JSON.stringify(patch.tags),
        id,
      );
      s.clearReportTags.run(id);
      for (const tag of patch.tags) s.addReportTag.run(id, tag);
    })();
    // A reserve given up for a full disk comes back once imports complete again (a no-op when it is there).
    void this.reserve.ensure();
  }

  async failReport(id: string): Promise<void> {
    // The status flips first, so readers stop seeing the report before its rows are gone.
    this.#s.failReport.run(id);
    this.#drafts.delete(id);
    // Parts written while its files came in: no reader sees them (only completed reports have a column).
    this.#s.clearHistoryColumn.run(id);
    await this.#purgeContainers(id);
  }

  async getReport(id: string): Promise<Report | null> {
    const row = this.#s.getReport.get(id);
    return row ? toReport(row) : null;
  }

  async listReports(profileId: string, query: ReportQuery): Promise<Report[]> {
    const tags = [...new Set(query.tags ?? [])];
    const before = query.before === undefined ? null : isoTime(query.before);
    let sql = "select * from reports r where r.profile_id = ? and r.status = 'completed'";
    // With beforeId the cursor is (created_at, id): reports of the same millisecond are not skipped.
    if (before !== null)
      sql +=
        query.beforeId !== undefined
          ? ' and (r.created_at < ? or (r.created_at = ? and r.id < ?))'
          : ' and r.created_at < ?';
    const since = query.since === undefined ? null : isoTime(query.since);
    if (since !== null) sql += ' and r.created_at >= ?';
    for (let i = 0; i < tags.length; i++) {
      sql += ' and exists (select 1 from report_tags t where t.report_id = r.id and t.tag = ?)';
    }
    sql += ' order by r.created_at desc, r.id desc limit ?';
    const cursor = before === null ? [] : query.beforeId !== undefined ? [before, before, query.beforeId] : [before];
    const values: unknown[] = [profileId, ...cursor, ...(since === null ? [] : [since]), ...tags, query.limit];
    return (this.#shapedStatement(sql).all(...values) as ReportRow[]).map(toReport);
  }

  async listContainers(reportId: string, query: ContainerQuery): Promise<StoredContainer[]> {
    const after = query.afterSeq ?? Number.MIN_SAFE_INTEGER;
    const rows =
      query.parentSeq === null
        ? this.#s.listTopContainers.all(reportId, after, query.limit)
        : this.#s.listChildContainers.all(reportId, query.parentSeq, after, query.limit);
    return rows.map(toContainer);
  }

  async findContainers(reportId: string, search: ContainerSearch): Promise<StoredContainer[]> {
    if (search.limit <= 0) return [];
    const statuses = [...new Set(search.statuses ?? [])];
    let sql = `select ${CONTAINER_COLUMNS} from containers where report_id = ? and seq > ?`;
    const values: unknown[] = [reportId, search.afterSeq ?? Number.MIN_SAFE_INTEGER];
    if (statuses.length > 0) {
      sql += ` and status in (${statuses.map(() => '?').join(', ')})`;
      values.push(...statuses);
    }
    if (search.testsOnly) sql += " and type in ('test', 'scenario')";
    if (search.text) {
      // instr on lower(): no LIKE wildcards to escape; lower() folds ASCII only, as the contract says.
      sql += ' and instr(lower(title), ?) > 0';
      values.push(asciiLower(search.text));
    }
    sql += ' order by seq limit ?';
    values.push(search.limit);
    return (this.#shapedStatement(sql).all(...values) as ContainerRow[]).map(toContainer);
  }

  async historyColumns(reportIds: string[]): Promise<HistoryColumn[]> {
    const columns: HistoryColumn[] = [];
    for (const id of reportIds) {
      const parts = this.#s.historyParts.all(id);
      if (parts.length > 0)
        columns.push(
          decodeColumn(
            id,
            parts.map((p) => p.data),
          ),
        );
    }
    return columns;
  }

  async getContainer(reportId: string, seq: number): Promise<StoredContainer | null> {
    const row = this.#s.getContainer.get(reportId, seq);
    return row ? toContainer(row) : null;
  }

  async reparentContainers(reportId: string, fromParents: number[], toParent: number): Promise<void> {
    if (fromParents.length === 0) return;
    this.#s.reparentContainers.run(toParent, reportId, JSON.stringify(fromParents));
  }

  async deleteContainers(reportId: string, seqs: number[]): Promise<void> {
    if (seqs.length === 0) return;
    this.#s.deleteContainers.run(reportId, JSON.stringify(seqs));
  }

  async updateContainer(
    reportId: string,
    seq: number,
    patch: Partial<Pick<StoredContainer, 'attachments' | 'durationMs' | 'status'>>,
  ): Promise<void> {
    const entries = Object.entries(patch).filter(([k, v]) => CONTAINER_PATCH_COLUMNS[k] && v !== undefined);
    if (entries.length === 0) return;
    // A test's status is in its history entry; durations are only changed for merged suites
    // (merge.ts never merges tests), and attachments are not in the column.
    if (patch.status !== undefined && this.#drafts.has(reportId)) this.#drafts.set(reportId, 'read-back');
    const sql = `update containers set ${entries.map(([k]) => `${CONTAINER_PATCH_COLUMNS[k]!.column} = ?`).join(', ')} where report_id = ? and seq = ?`;
    const values = entries.map(([k, v]) => CONTAINER_PATCH_COLUMNS[k]!.encode(v as never));
    this.#shapedStatement(sql).run(...values, reportId, seq);
  }

  async putBlob(
    source: Readable,
    meta: { name: string; contentType: string | null; importId?: string },
  ): Promise<BlobRef> {
    const s = this.#s;
    const ref = await this.blobs.write(source);
    try {
      s.insertBlob.run(ref.id, meta.name, meta.contentType, ref.size, ref.sha256, now(), meta.importId ?? null);
    } catch (err) {
      // "Keeps nothing": a blob without its row would be an orphan no sweep knows the name of.
      await this.blobs.remove(ref.id);
      throw err;
    }
    return ref;
  }

  async openBlob(id: string): Promise<Readable | null> {
    return this.blobs.read(id);
  }

  async deleteBlob(id: string): Promise<void> {
    await this.blobs.remove(id);
    this.#s.deleteBlob.run(id);
  }

  async failStaleImports(olderThan: string, message: Message): Promise<number> {
    const rows = this.#s.staleImports.all(isoTime(olderThan)) as {
      id: string;
      messages: string;
      report_id: string | null;
    }[];
    for (const r of rows) {
      await this.updateImport(r.id, {
        status: 'failed',
        finishedAt: now(),
        messages: [...(JSON.parse(r.messages) as Message[]), message],
      });
      if (r.report_id) await this.failReport(r.report_id);
      for (const b of this.#s.blobsOfImport.all(r.id) as { id: string }[]) await this.deleteBlob(b.id);
    }
    return rows.length;
  }

  /**
   * Writes the report's history column from its containers as they stand now (after merges), part
   * by part. Before the report completes, so no
   * reader sees a completed report without it; a report that fails later never shows its column.
   */
  async #writeHistory(reportId: string): Promise<void> {
    const s = this.#s;
    const parentSeqs = s.parentSeqs.pluck().all(reportId) as unknown as number[];
    const parents = new Map<number, ParentTitle>();
    for (let i = 0; i < parentSeqs.length; i += 10_000) {
      for (const r of s.parentTitles.all(reportId, JSON.stringify(parentSeqs.slice(i, i + 10_000))))
        parents.set(r.seq, { parentSeq: r.parent_seq, title: r.title });
    }
    const builder = new HistoryColumnBuilder(parents);
    const write = (part: HistoryPart): void => this.#writeHistoryPart(reportId, part);
    // Read in pages, not one iterate(): a connection cannot write while one of its statements iterates.
    for (let after = Number.MIN_SAFE_INTEGER; ;) {
      // Arrays, not objects: a million tests read back is a measurable share of completing a report.
      const rows = s.historyTests.raw(true).all(reportId, after, HISTORY_READ_PAGE) as unknown as [
        number,
        number | null,
        string,
        ContainerStatus,
        number | null,
        number,
      ][];
      for (const [seq, parentSeq, title, status, durationMs, flaky] of rows) {
        const part = builder.add({ seq, parentSeq, title, status, durationMs, flaky: flaky === 1 });
        if (part) write(part);
      }
      if (rows.length < HISTORY_READ_PAGE) break;
      after = rows[rows.length - 1]![0];
      await yieldToLoop();
    }
    const last = builder.finish();
    if (last) write(last);
  }

  /** One part of a report's column; the first replaces whatever an earlier attempt wrote. */
  #writeHistoryPart(reportId: string, part: HistoryPart): void {
    const s = this.#s;
    this.#db!.transaction(() => {
      if (part.index === 0) s.clearHistoryColumn.run(reportId);
      s.insertHistoryPart.run(reportId, part.index, part.data);
    })();
  }

  get #s(): Statements {
    if (!this.#statements) throw notOpen();
    return this.#statements;
  }

  async #open(): Promise<void> {
    await mkdir(this.dataDir, { recursive: true });
    await this.reserve.ensure();
    await this.blobs.init();
    const db = new Database(this.databasePath, { timeout: BUSY_TIMEOUT_MS });
    try {
      // Only a new, empty file takes it (an existing one keeps the size it was made with). Imports
      // write hundreds of bytes a row; 16 KiB pages quarter the log's frames and write calls: a
      // 50 MiB file's rows went from 5.2 to 3.6 µs a row (bench/RESULTS.md, 2026-11-24).
      db.pragma(`page_size = ${PAGE_SIZE}`);
      // WAL: readers never block the writer.
      db.pragma('journal_mode = WAL');
      tuneConnection(db);
      migrate(db);
      const statements = prepareStatements(db);
      this.#insertBatch = db.transaction((batch: readonly StoredContainer[]) => {
        for (const c of batch) statements.insertContainer.run(...containerValues(c));
      });
      this.#db = db;
      this.#statements = statements;
    } catch (err) {
      db.close();
      throw err;
    }
    // A crash during failReport leaves rows behind; finish the job so the contract holds.
    for (const { id } of this.#s.failedWithContainers.all()) await this.#purgeContainers(id);
  }

  async #purgeContainers(reportId: string): Promise<void> {
    const db = this.#db;
    const purge = this.#s.purgeContainers;
    // Stops if the store is closed meanwhile; the next init() finishes the purge.
    while (this.#db === db && purge.run(reportId, reportId, PURGE_CHUNK).changes > 0) await yieldToLoop();
  }

  #shapedStatement(sql: string): Database.Statement<unknown[]> {
    let statement = this.#shaped.get(sql);
    if (!statement) {
      if (!this.#db) throw notOpen();
      statement = this.#db.prepare<unknown[]>(sql);
      this.#shaped.set(sql, statement);
    }
    return statement;
  }
}

function notOpen(): Error {
  return new Error('EmbeddedStore is not open: call init() first (and not after close()).');
}

function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

function now(): string {
  return new Date().toISOString();
}

// Stored times are all toISOString() output, so string order is time order only if `before` has that form too.
function isoTime(value: string): string {
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) throw new TypeError(`ReportQuery.before is not a time: ${JSON.stringify(value)}`);
  return time.toISOString();
}
