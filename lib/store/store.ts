/**
 * The `Store` interface: the only door to persistence. Both adapters (embedded SQLite + blob folder,
 * and MongoDB) pass the conformance suite in `test/store/`.
 *
 * Readers see a report only once it is `completed`: containers of a report that is still `building`
 * or ended `failed` are never listed as a finished report.
 */
import type { Readable } from 'node:stream';
import type { Attempt, ContainerStatus, ContainerType, FailureInfo, Property } from '../formatter/api.js';
import type { FileHistory, HistoryColumn } from '../history/column.js';

export type Severity = 'error' | 'warning' | 'notice';

export interface Message {
  severity: Severity;
  /** `null` only for the uncoded unused-parameters warning of SPEC 4.5 rule 11. */
  code: string | null;
  message: string;
  /** The file (or zip entry) the message is about. */
  file?: string;
  /** ISO timestamp, on messages about unexpected faults. */
  at?: string;
  /** Where and what: line, column, entry, limit, names, ... */
  details?: Record<string, unknown>;
}

export interface Account {
  id: string;
  name: string;
  createdAt: string;
}

export interface ApiKeyRecord {
  /** Public part of the key, used to look it up. */
  keyId: string;
  accountId: string;
  /** Hex SHA-256 of the secret part; the secret itself is never stored. */
  secretHash: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface Profile {
  id: string;
  accountId: string;
  name: string;
  createdAt: string;
}

export interface BlobRef {
  id: string;
  size: number;
  sha256: string;
}

export interface StoredFile {
  /** Base name as uploaded; for zip entries the entry path. */
  name: string;
  blobId: string;
  size: number;
  sha256: string;
  contentType: string | null;
  /** Formatter key that parsed it; null for attachments and unmatched files. */
  formatter: string | null;
  /** The zip this entry came from, when it did. */
  archive?: string;
}

/** `queued`: stored whole for a worker (process_async); `receiving`: the request is being read. */
export type ImportStatus = 'queued' | 'receiving' | 'processing' | 'completed' | 'failed';

export interface ImportProgress {
  bytes: number;
  files: number;
  containers: number;
  /** The request's Content-Length, when it had one. */
  totalBytes?: number | null;
}

export interface ImportRecord {
  id: string;
  profileId: string;
  accountId: string;
  status: ImportStatus;
  createdAt: string;
  finishedAt: string | null;
  /** Route used: 'import', 'import/{formatter}', 'report/import', 'body'. */
  endpoint: string;
  formatter: string | null;
  /** Media type of the request: multipart/form-data, or the raw body's type. */
  contentType: string | null;
  /** Every parameter as received: flags, tags, aliases, unknown names. */
  params: Record<string, unknown>;
  tags: string[];
  /** Result files as uploaded (a zip is one file here). */
  files: StoredFile[];
  /** `attachment[]` parts, zip entries moved to attachments, unmatched files moved to attachments. */
  attachments: StoredFile[];
  messages: Message[];
  reportId: string | null;
  progress: ImportProgress;
}

export type NewImport = Pick<ImportRecord, 'profileId' | 'accountId' | 'endpoint' | 'formatter'>;

export type ImportPatch = Partial<
  Pick<
    ImportRecord,
    | 'status'
    | 'finishedAt'
    | 'formatter'
    | 'contentType'
    | 'params'
    | 'tags'
    | 'files'
    | 'attachments'
    | 'messages'
    | 'reportId'
    | 'progress'
  >
>;

export interface Totals {
  containers: number;
  tests: number;
  passed: number;
  failed: number;
  errored: number;
  skipped: number;
  pending: number;
  unknown: number;
  flaky: number;
}

export type ReportStatus = 'building' | 'completed' | 'failed';

export interface ReportFile {
  name: string;
  formatter: string;
  producer: string | null;
  tests: number;
}

export interface Report {
  id: string;
  profileId: string;
  importId: string;
  status: ReportStatus;
  createdAt: string;
  /** Earliest time found in the files, else the import time. */
  date: string;
  tags: string[];
  totals: Totals;
  files: ReportFile[];
  messages: Message[];
}

export interface AttachmentLink {
  name: string;
  blobId: string;
  contentType: string | null;
  size: number;
}

/** A container as stored: `seq` numbers containers within one report, starting at 1. */
export interface StoredContainer {
  reportId: string;
  seq: number;
  parentSeq: number | null;
  /** Index of the result file (in report.files) it came from. */
  fileIndex: number;
  type: ContainerType;
  title: string;
  status: ContainerStatus;
  durationMs: number | null;
  startedAt: string | null;
  failure: FailureInfo | null;
  output: { stdout: string | null; stderr: string | null } | null;
  properties: Property[];
  attachmentRefs: string[];
  attachments: AttachmentLink[];
  flaky: boolean;
  attempts: Attempt[];
  meta: Record<string, string>;
}

export interface ContainerQuery {
  /** `null` lists the top level. */
  parentSeq: number | null;
  /** List containers with seq greater than this (keyset paging). */
  afterSeq?: number;
  limit: number;
}

export interface ReportQuery {
  /** Every tag listed must be on the report. */
  tags?: string[];
  /** Only reports created at or after this ISO time (the date filter of the reports page). */
  since?: string;
  /** Only reports created strictly before this ISO time (paging, newest first). */
  before?: string;
  /** With `before`: also reports created at exactly `before` whose id sorts below this (keyset paging). */
  beforeId?: string;
  limit: number;
}

/** How a parse worker writes containers to this store itself: a path to open a connection to. */
export interface WorkerContainerSink {
  kind: 'sqlite';
  path: string;
}

/** A person who signs in to the web interface; belongs to one account. */
export interface User {
  id: string;
  accountId: string;
  /** Lower-cased; unique across Tally (it is what people sign in with). */
  email: string;
  /** `scrypt$…` (lib/passwords.ts); the password itself is never stored. */
  passwordHash: string;
  /** Set for a one-time password: the next sign-in must choose a new one. */
  mustChangePassword: boolean;
  createdAt: string;
}

/** A signed-in browser. The cookie holds a random token; only its SHA-256 is stored. */
export interface Session {
  idHash: string;
  userId: string;
  accountId: string;
  /** Every form and XHR of this session must send it back (CSRF). */
  csrfToken: string;
  createdAt: string;
  expiresAt: string;
}

/** A container search inside one report: any depth, ordered by seq, keyset-paged. */
export interface ContainerSearch {
  /** Only containers with one of these statuses. */
  statuses?: ContainerStatus[];
  /** Only containers whose title contains this text (case-insensitive for ASCII). */
  text?: string;
  /** Only tests and scenarios (what the report counts as tests). */
  testsOnly?: boolean;
  afterSeq?: number;
  limit: number;
}

export interface Store {
  readonly kind: 'embedded' | 'mongo';
  /**
   * Where parse workers may write containers directly (insertContainers' rows, from their own
   * connection); null when containers go back to the import thread to be written.
   */
  workerSink(): WorkerContainerSink | null;
  /**
   * With a worker sink: a part of the history column of a file a worker wrote (ids shifted by
   * `base`), in id order; null when the worker gave up gathering it, and the column is then read back.
   */
  addWorkerHistory?(reportId: string, history: FileHistory | null, base: number): void;
  init(): Promise<void>;
  close(): Promise<void>;
  /** Resolves when the store answers; rejects otherwise. */
  ping(): Promise<void>;

  createAccount(name: string): Promise<Account>;
  getAccount(id: string): Promise<Account | null>;
  countAccounts(): Promise<number>;
  addApiKey(key: ApiKeyRecord): Promise<void>;
  findApiKey(keyId: string): Promise<ApiKeyRecord | null>;
  /** Every key of the account, revoked ones included, oldest first. */
  listApiKeys(accountId: string): Promise<ApiKeyRecord[]>;
  /** Revokes every live key of the account except `keepKeyId`; returns how many were revoked. */
  revokeApiKeys(accountId: string, keepKeyId?: string): Promise<number>;

  /** Null when the e-mail address is taken. */
  createUser(input: Pick<User, 'accountId' | 'email' | 'passwordHash' | 'mustChangePassword'>): Promise<User | null>;
  getUser(id: string): Promise<User | null>;
  findUserByEmail(email: string): Promise<User | null>;
  /** Users of an account, oldest first. */
  listUsers(accountId: string): Promise<User[]>;
  setUserPassword(id: string, passwordHash: string, mustChangePassword: boolean): Promise<void>;
  createSession(session: Session): Promise<void>;
  /** The session, also when expired (the caller decides); null when unknown. */
  findSession(idHash: string): Promise<Session | null>;
  deleteSession(idHash: string): Promise<void>;
  /** Ends every session of the user except `keepIdHash`; returns how many ended. */
  deleteUserSessions(userId: string, keepIdHash?: string): Promise<number>;
  /** Removes sessions that expired before `now`; returns how many. */
  deleteExpiredSessions(now: string): Promise<number>;

  createProfile(accountId: string, name: string): Promise<Profile>;
  getProfile(id: string): Promise<Profile | null>;
  listProfiles(accountId: string): Promise<Profile[]>;

  createImport(input: NewImport): Promise<ImportRecord>;
  updateImport(id: string, patch: ImportPatch): Promise<void>;
  getImport(id: string): Promise<ImportRecord | null>;
  /** Takes the oldest `queued` import for a worker: atomically sets it `processing` and returns it. */
  claimQueuedImport(): Promise<ImportRecord | null>;

  /** A new report in status `building`, zero totals, invisible to listReports. */
  createReport(input: Pick<Report, 'profileId' | 'importId' | 'tags' | 'date'>): Promise<Report>;
  /** Bulk insert; the returned promise is the backpressure. */
  insertContainers(batch: StoredContainer[]): Promise<void>;
  /**
   * Marks the report `completed` with its final facts. Before the flip it writes the report's
   * history column (every test's title path, status and duration), so the history comparison
   * never sees a completed report without it.
   */
  completeReport(id: string, patch: Pick<Report, 'date' | 'totals' | 'files' | 'messages' | 'tags'>): Promise<void>;
  /** Marks the report `failed` and deletes its containers. */
  failReport(id: string): Promise<void>;
  /** Frees space kept back for cleaning up (the embedded store's reserve), when an import failed for a full disk. */
  releaseReserve?(): Promise<boolean>;
  getReport(id: string): Promise<Report | null>;
  /** Completed reports of a profile, newest first. */
  listReports(profileId: string, query: ReportQuery): Promise<Report[]>;

  listContainers(reportId: string, query: ContainerQuery): Promise<StoredContainer[]>;
  /** Containers of a report at any depth matching the search (status filter, title search). */
  findContainers(reportId: string, search: ContainerSearch): Promise<StoredContainer[]>;

  /**
   * The history columns of completed reports (see lib/history/column.ts), in the order of `reportIds`;
   * a report without one (unknown, not completed, or completed before Tally kept them) is left out.
   */
  historyColumns(reportIds: string[]): Promise<HistoryColumn[]>;
  getContainer(reportId: string, seq: number): Promise<StoredContainer | null>;
  /** Moves every child of `fromParents` under `toParent`. */
  reparentContainers(reportId: string, fromParents: number[], toParent: number): Promise<void>;
  deleteContainers(reportId: string, seqs: number[]): Promise<void>;
  /** Replaces selected fields of one container (used by finalize: merged durations, attachments). */
  updateContainer(
    reportId: string,
    seq: number,
    patch: Partial<Pick<StoredContainer, 'attachments' | 'durationMs' | 'status'>>,
  ): Promise<void>;

  /**
   * Streams `source` into a new blob; rejects (and keeps nothing) if the source errors.
   * `importId` ties the blob to the import that wrote it, so a sweep can remove it if that import dies.
   */
  putBlob(source: Readable, meta: { name: string; contentType: string | null; importId?: string }): Promise<BlobRef>;
  /** The blob's bytes, or null when there is no such blob. */
  openBlob(id: string): Promise<Readable | null>;
  deleteBlob(id: string): Promise<void>;

  /**
   * Ends imports still `receiving` or `processing` that were created before `olderThan` (their
   * process died, or the store went away under them): each is marked `failed` with `message`
   * appended, its report is failed (containers deleted) and the blobs written for it are deleted.
   * Returns how many imports were ended.
   */
  failStaleImports(olderThan: string, message: Message): Promise<number>;
}
