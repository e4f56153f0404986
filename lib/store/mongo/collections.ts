/**
 * Collection names, the documents stored in them, and the mapping between documents and the
 * `Store` types. Mapping back copies the contract's fields one by one, so `_id` and the fields that
 * exist only for indexes (a container's `profileId`, `reportCreatedAt`) never leak to callers.
 */
import type { Binary, ObjectId } from 'mongodb';
import type {
  Account,
  ApiKeyRecord,
  ImportPatch,
  ImportRecord,
  Message,
  Profile,
  Report,
  Session,
  StoredContainer,
  User,
} from '../types.js';
import type { ImportField } from '../imports.js';
import type { Delivery, NotificationRule } from '../notifications.js';
import type { NumberedNoun } from '../numbers.js';
import { escapeKeys, unescapeKeys } from './keys.js';

export const COLLECTIONS = {
  accounts: 'accounts',
  apiKeys: 'api_keys',
  profiles: 'profiles',
  imports: 'imports',
  reports: 'reports',
  containers: 'containers',
  /** One document per claimed queued import: its unique `_id` is the claim (see imports.ts). */
  importClaims: 'import_claims',
  users: 'users',
  sessions: 'sessions',
  /** One document per part of a report's history column (lib/history/column.ts). */
  historyColumns: 'history_columns',
  /** One document per numbered noun: where its counter stands (numbers.ts). */
  counters: 'counters',
  /** One document per public number given or chosen, `_id` `<noun>:<number>` (numbers.ts). */
  numbers: 'numbers',
  /** One document per linked profile, `_id` the profile's UUID; the token only sealed (ci-links.ts). */
  ciLinks: 'ci_links',
  /** One document per profile with a retention policy, `_id` the profile's UUID (retention.ts). */
  retentionPolicies: 'retention_policies',
  /** Notification rules, `_id` the rule's id; a webhook's URL only sealed (notifications.ts). */
  notificationRules: 'notification_rules',
  /** The deliveries of notifications: the queue and the log at once. */
  notificationDeliveries: 'notification_deliveries',
  /** One document per claim of a delivery, `_id` `<delivery id>:<claim>`: its unique `_id` is the claim. */
  notificationClaims: 'notification_claims',
} as const;

export interface RetentionPolicyDoc {
  _id: string;
  keepReports: number | null;
  keepDays: number | null;
  updatedAt: string;
}

/** GridFS bucket: documents live in `blobs.files` and `blobs.chunks`. */
export const BLOB_BUCKET = 'blobs';

export interface CiLinkDoc {
  _id: string;
  provider: string;
  url: string;
  repository: string;
  branch: string;
  job: string;
  sealedToken: string;
  updatedAt: string;
  /** Absent on links saved before the verdict could be asked for: off. */
  verdict?: boolean;
}

export interface NotificationRuleDoc extends Omit<NotificationRule, 'id'> {
  _id: string;
}

export interface DeliveryDoc extends Omit<Delivery, 'id'> {
  _id: string;
}

export interface DeliveryClaimDoc {
  _id: string;
  deliveryId: string;
  profileId: string;
  claimedAt: string;
}

export interface AccountDoc {
  _id: string;
  name: string;
  createdAt: string;
}

/** `_id` is a random id of its own: the public keyId is looked up through a unique index. */
export interface ApiKeyDoc extends ApiKeyRecord {
  _id: string;
}

export interface ProfileDoc {
  _id: string;
  number: number;
  accountId: string;
  name: string;
  createdAt: string;
  /** Set while the profile is deleted (lib/store/deletions.ts): readers no longer find it. */
  deleting?: true;
}

export interface ImportDoc extends Omit<ImportRecord, 'id'> {
  _id: string;
}

export interface ReportDoc extends Omit<Report, 'id' | 'pinned'> {
  _id: string;
  /** Absent on reports written before pins existed: not pinned. */
  pinned?: boolean;
  /** Set while a failed report's containers are deleted; init() finishes a purge a crash cut short. */
  purging?: true;
}

/**
 * `_id` is a driver-made ObjectId: 12 bytes and ascending, so the `_id` index stays small and
 * appends at its right edge; (reportId, seq) is the identity, held unique by its own index.
 * `profileId` and `reportCreatedAt` are copies from the report, for the history-of-a-title index.
 */
export interface ContainerDoc extends StoredContainer {
  _id?: ObjectId;
  profileId: string;
  reportCreatedAt: string;
}

export interface UserDoc extends Omit<User, 'id'> {
  _id: string;
}

export interface SessionDoc extends Omit<Session, 'idHash'> {
  _id: string;
}

export interface CounterDoc {
  _id: NumberedNoun;
  value: number;
}

export interface HistoryColumnDoc {
  _id: string;
  reportId: string;
  part: number;
  data: Binary | Buffer;
}

export function toUser(d: UserDoc): User {
  return {
    id: d._id,
    accountId: d.accountId,
    email: d.email,
    passwordHash: d.passwordHash,
    mustChangePassword: d.mustChangePassword,
    createdAt: d.createdAt,
  };
}

export function toSession(d: SessionDoc): Session {
  return {
    idHash: d._id,
    userId: d.userId,
    accountId: d.accountId,
    csrfToken: d.csrfToken,
    createdAt: d.createdAt,
    expiresAt: d.expiresAt,
  };
}

export function toAccount(d: AccountDoc): Account {
  return { id: d._id, name: d.name, createdAt: d.createdAt };
}

export function toApiKey(d: ApiKeyDoc): ApiKeyRecord {
  return {
    keyId: d.keyId,
    accountId: d.accountId,
    secretHash: d.secretHash,
    createdAt: d.createdAt,
    revokedAt: d.revokedAt,
  };
}

export function toProfile(d: ProfileDoc): Profile {
  return { id: d._id, number: d.number, accountId: d.accountId, name: d.name, createdAt: d.createdAt };
}

export function importDoc(r: ImportRecord): ImportDoc {
  const { id, ...rest } = r;
  return {
    _id: id,
    ...rest,
    params: escapeKeys(r.params) as ImportRecord['params'],
    messages: r.messages.map(messageDoc),
  };
}

/** The `$set` of an import patch: its fields that carry a value, free-form keys escaped. */
export function importPatchDoc(patch: ImportPatch, fields: readonly ImportField[]): Partial<ImportDoc> {
  const set: Record<string, unknown> = {};
  for (const key of fields) {
    const value = patch[key];
    set[key] = key === 'params' ? escapeKeys(value) : key === 'messages' ? (value as Message[]).map(messageDoc) : value;
  }
  return set as Partial<ImportDoc>;
}

export function toImport(d: ImportDoc): ImportRecord {
  return {
    id: d._id,
    profileId: d.profileId,
    accountId: d.accountId,
    status: d.status,
    createdAt: d.createdAt,
    finishedAt: d.finishedAt,
    endpoint: d.endpoint,
    formatter: d.formatter,
    contentType: d.contentType ?? null,
    params: unescapeKeys(d.params) as ImportRecord['params'],
    tags: d.tags,
    files: d.files,
    attachments: d.attachments,
    messages: d.messages.map(toMessage),
    reportId: d.reportId,
    progress: d.progress,
  };
}

export function reportDoc(r: Report): ReportDoc {
  const { id, ...rest } = r;
  return { _id: id, ...rest, messages: r.messages.map(messageDoc) };
}

export function toReport(d: ReportDoc): Report {
  return {
    id: d._id,
    number: d.number,
    profileId: d.profileId,
    importId: d.importId,
    status: d.status,
    createdAt: d.createdAt,
    date: d.date,
    tags: d.tags,
    totals: d.totals,
    files: d.files,
    messages: d.messages.map(toMessage),
    // Documents written before reports had a CI context have no field; those kept before
    // `pullRequest` existed read with it null, as every later one has it.
    ci: d.ci ? { ...d.ci, pullRequest: d.ci.pullRequest ?? null } : null,
    pinned: d.pinned === true,
  };
}

export function containerDoc(c: StoredContainer, report: { profileId: string; createdAt: string }): ContainerDoc {
  return {
    ...c,
    meta: escapeKeys(c.meta) as StoredContainer['meta'],
    profileId: report.profileId,
    reportCreatedAt: report.createdAt,
  };
}

export function toContainer(d: ContainerDoc): StoredContainer {
  return {
    reportId: d.reportId,
    seq: d.seq,
    parentSeq: d.parentSeq,
    fileIndex: d.fileIndex,
    type: d.type,
    title: d.title,
    status: d.status,
    durationMs: d.durationMs,
    startedAt: d.startedAt,
    failure: d.failure,
    output: d.output,
    properties: d.properties,
    attachmentRefs: d.attachmentRefs,
    attachments: d.attachments,
    flaky: d.flaky,
    attempts: d.attempts,
    meta: unescapeKeys(d.meta) as StoredContainer['meta'],
  };
}

export function messageDoc(m: Message): Message {
  return m.details === undefined ? m : { ...m, details: escapeKeys(m.details) as Message['details'] };
}

function toMessage(m: Message): Message {
  return m.details === undefined ? m : { ...m, details: unescapeKeys(m.details) as Message['details'] };
}
