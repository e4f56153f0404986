/**
 * Rows as SQLite returns them, and the mapping to and from the Store records. Nested fields are JSON
 * text; the container mapping is on the insert hot path, so it avoids work for the common empty cases.
 */
import type { Account, ApiKeyRecord, ImportRecord, Profile, Report, Session, StoredContainer, User } from '../types.js';

export interface UserRow {
  id: string;
  account_id: string;
  email: string;
  password_hash: string;
  must_change_password: number;
  created_at: string;
}

export interface SessionRow {
  id_hash: string;
  user_id: string;
  account_id: string;
  csrf_token: string;
  created_at: string;
  expires_at: string;
}

export interface CiLinkRow {
  profile_id: string;
  provider: string;
  url: string;
  repository: string;
  branch: string;
  job: string;
  sealed_token: string;
  updated_at: string;
  /** 0 or 1. */
  verdict: number;
}

export function toUser(r: UserRow): User {
  return {
    id: r.id,
    accountId: r.account_id,
    email: r.email,
    passwordHash: r.password_hash,
    mustChangePassword: r.must_change_password === 1,
    createdAt: r.created_at,
  };
}

export function toSession(r: SessionRow): Session {
  return {
    idHash: r.id_hash,
    userId: r.user_id,
    accountId: r.account_id,
    csrfToken: r.csrf_token,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
  };
}

export interface AccountRow {
  id: string;
  name: string;
  created_at: string;
}

export interface ApiKeyRow {
  key_id: string;
  account_id: string;
  secret_hash: string;
  created_at: string;
  revoked_at: string | null;
}

export interface ProfileRow {
  id: string;
  number: number;
  account_id: string;
  name: string;
  created_at: string;
}

export interface ImportRow {
  id: string;
  profile_id: string;
  account_id: string;
  status: string;
  created_at: string;
  finished_at: string | null;
  endpoint: string;
  formatter: string | null;
  params: string;
  tags: string;
  files: string;
  attachments: string;
  messages: string;
  report_id: string | null;
  progress: string;
  content_type: string | null;
}

export interface ReportRow {
  id: string;
  number: number;
  profile_id: string;
  import_id: string;
  status: string;
  created_at: string;
  date: string;
  tags: string;
  totals: string;
  files: string;
  messages: string;
  ci: string | null;
  pinned: number;
}

export interface ContainerRow {
  report_id: string;
  seq: number;
  parent_seq: number | null;
  file_index: number;
  type: string;
  title: string;
  status: string;
  duration_ms: number | null;
  started_at: string | null;
  // JSON columns: text, or its UTF-8 bytes (see row-writer.ts).
  failure: string | Buffer | null;
  output: string | Buffer | null;
  properties: string | Buffer | null;
  attachment_refs: string | Buffer | null;
  attachments: string | Buffer | null;
  flaky: number;
  attempts: string | Buffer | null;
  meta: string | Buffer | null;
}

export const CONTAINER_COLUMNS =
  'report_id, seq, parent_seq, file_index, type, title, status, duration_ms, started_at, failure, output, ' +
  'properties, attachment_refs, attachments, flaky, attempts, meta';

/** Where a column's value sits in containerValues (and a row writer's rows). */
export const columnIndex = (name: string): number => CONTAINER_COLUMNS.split(', ').indexOf(name);

export const INSERT_CONTAINER_SQL = `insert into containers (${CONTAINER_COLUMNS}) values (${CONTAINER_COLUMNS.split(
  ',',
)
  .map(() => '?')
  .join(', ')})`;

export function toAccount(r: AccountRow): Account {
  return { id: r.id, name: r.name, createdAt: r.created_at };
}

export function toApiKey(r: ApiKeyRow): ApiKeyRecord {
  return {
    keyId: r.key_id,
    accountId: r.account_id,
    secretHash: r.secret_hash,
    createdAt: r.created_at,
    revokedAt: r.revoked_at,
  };
}

export function toProfile(r: ProfileRow): Profile {
  return { id: r.id, number: r.number, accountId: r.account_id, name: r.name, createdAt: r.created_at };
}

export function toImport(r: ImportRow): ImportRecord {
  return {
    id: r.id,
    profileId: r.profile_id,
    accountId: r.account_id,
    status: r.status as ImportRecord['status'],
    createdAt: r.created_at,
    finishedAt: r.finished_at,
    endpoint: r.endpoint,
    formatter: r.formatter,
    contentType: r.content_type ?? null,
    params: JSON.parse(r.params),
    tags: JSON.parse(r.tags),
    files: JSON.parse(r.files),
    attachments: JSON.parse(r.attachments),
    messages: JSON.parse(r.messages),
    reportId: r.report_id,
    progress: JSON.parse(r.progress),
  };
}

export function toReport(r: ReportRow): Report {
  return {
    id: r.id,
    number: r.number,
    profileId: r.profile_id,
    importId: r.import_id,
    status: r.status as Report['status'],
    createdAt: r.created_at,
    date: r.date,
    tags: JSON.parse(r.tags),
    totals: JSON.parse(r.totals),
    files: JSON.parse(r.files),
    messages: JSON.parse(r.messages),
    // Reports kept before `pullRequest` existed read with it null, as every later one has it.
    ci: r.ci === null ? null : { pullRequest: null, ...JSON.parse(r.ci) },
    pinned: r.pinned === 1,
  };
}

/** Bind values in CONTAINER_COLUMNS order. */
export function containerValues(c: StoredContainer): unknown[] {
  return [
    c.reportId,
    c.seq,
    c.parentSeq,
    c.fileIndex,
    c.type,
    c.title,
    c.status,
    c.durationMs,
    c.startedAt,
    c.failure === null ? null : JSON.stringify(c.failure),
    c.output === null ? null : JSON.stringify(c.output),
    listJson(c.properties),
    listJson(c.attachmentRefs),
    listJson(c.attachments),
    c.flaky ? 1 : 0,
    listJson(c.attempts),
    metaJson(c.meta),
  ];
}

export function toContainer(r: ContainerRow): StoredContainer {
  return {
    reportId: r.report_id,
    seq: r.seq,
    parentSeq: r.parent_seq,
    fileIndex: r.file_index,
    type: r.type as StoredContainer['type'],
    title: r.title,
    status: r.status as StoredContainer['status'],
    durationMs: r.duration_ms,
    startedAt: r.started_at,
    failure: r.failure === null ? null : parseJson(r.failure),
    output: r.output === null ? null : parseJson(r.output),
    properties: r.properties === null ? [] : parseJson(r.properties),
    attachmentRefs: r.attachment_refs === null ? [] : parseJson(r.attachment_refs),
    attachments: r.attachments === null ? [] : parseJson(r.attachments),
    flaky: r.flaky === 1,
    attempts: r.attempts === null ? [] : parseJson(r.attempts),
    meta: r.meta === null ? {} : parseJson(r.meta),
  };
}

/** A JSON column: text when the store's connection wrote it, UTF-8 bytes when a parse thread did. */
function parseJson<T>(value: string | Buffer): T {
  return JSON.parse(typeof value === 'string' ? value : value.toString('utf8'));
}

// NULL stands for the empty list only, so reading NULL back as [] is exact.
export function listJson(list: readonly unknown[] | undefined): string | null {
  return list === undefined || list.length === 0 ? null : JSON.stringify(list);
}

function metaJson(meta: Record<string, string> | undefined): string | null {
  if (meta === undefined) return null;
  for (const _ in meta) return JSON.stringify(meta);
  return null;
}
