/**
 * The store's domain types: what Tally keeps (accounts, keys, users, sessions, profiles, imports,
 * reports, containers, blobs) and the queries over it, apart from any adapter. The per-noun
 * interfaces (`accounts.ts`, `reports.ts`, ...) and `Store` (`store.ts`) are written in them.
 */
import type { Attempt, ContainerStatus, ContainerType, FailureInfo, Property } from '../formatter/api.js';

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
  /** The internal key (a UUID) that imports and reports point to. */
  id: string;
  /** The public id: an integer unique among profiles (numbers.ts). */
  number: number;
  accountId: string;
  name: string;
  createdAt: string;
}

export interface BlobRef {
  id: string;
  size: number;
  sha256: string;
}

export interface BlobMeta {
  name: string;
  contentType: string | null;
  /** The import that wrote the blob, so a sweep can remove it if that import dies. */
  importId?: string;
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

/** `queued`: stored whole for the queue (process_async); `receiving`: the request is being read. */
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

/** `deleting`: marked for deletion (deletions.ts); no reader sees it, the deletion removes it. */
export type ReportStatus = 'building' | 'completed' | 'failed' | 'deleting';

export interface ReportFile {
  name: string;
  formatter: string;
  producer: string | null;
  tests: number;
}

export interface Report {
  /** The internal key (a UUID) that containers, history and the import record point to. */
  id: string;
  /** The public id: an integer unique among reports (numbers.ts). */
  number: number;
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
  /** The CI build that produced the report, as its upload said; null when it said nothing. */
  ci: ReportCi | null;
  /** Kept whatever the profile's retention policy says (lib/store/retention.ts); false for a new report. */
  pinned: boolean;
}

/** A report's CI context (the `ci_*` import fields); each field null when the upload did not say. */
export interface ReportCi {
  /** `github`, `gitea`, `forgejo`, `gitlab`, `jenkins`, `buildkite`, `circleci`, `azure`. */
  provider: string | null;
  buildNumber: string | null;
  /** An http(s) URL of the build's page. */
  buildUrl: string | null;
  branch: string | null;
  commit: string | null;
  job: string | null;
  /** The pull or merge request the build tested (its number), when it was one. */
  pullRequest: number | null;
}

/**
 * What a deletion did (deletions.ts): what went (completed reports and their tests), or why nothing did.
 * `pinned` only answers a deletion asked to keep pinned reports (retention).
 */
export type Deletion =
  | { status: 'deleted'; reports: number; tests: number }
  | { status: 'not_found' }
  | { status: 'import_running' }
  | { status: 'pinned' };

export interface DeleteReportOptions {
  /** Leave a pinned report alone (answers `pinned`): what retention asks; a person's deletion does not. */
  keepPinned?: boolean;
  /** Give the space back at once (the default); false when the caller deletes many and reclaims once. */
  reclaim?: boolean;
}

/** What deleting a profile removes, counted: its completed reports and their tests. */
export interface ProfileContents {
  reports: number;
  tests: number;
}

/** What a new report starts from: `building`, zero totals (records.ts). */
export type NewReport = Pick<Report, 'profileId' | 'importId' | 'tags' | 'date'>;

/** A report's final facts, written when it completes. */
export type ReportOutcome = Pick<Report, 'date' | 'totals' | 'files' | 'messages' | 'tags'> & {
  /** Absent: none (callers that know of no CI context need not say so). */
  ci?: ReportCi | null;
};

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

/** The fields of a stored container that may change after its insert (finalize: merges, attachments). */
export type ContainerPatch = Partial<Pick<StoredContainer, 'attachments' | 'durationMs' | 'status'>>;

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
  /** Only reports whose CI context names this branch. */
  branch?: string;
  /** Only reports created at or after this ISO time (the date filter of the reports page). */
  since?: string;
  /** Only reports created strictly before this ISO time (paging, newest first). */
  before?: string;
  /** With `before`: also reports created at exactly `before` whose id sorts below this (keyset paging). */
  beforeId?: string;
  limit: number;
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

export type NewUser = Pick<User, 'accountId' | 'email' | 'passwordHash' | 'mustChangePassword'>;

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
