/**
 * Every fixed statement of the embedded store, prepared once per open database. Statements whose
 * shape depends on the call (patches, tag filters) are built and cached by the store itself.
 */
import type Database from 'better-sqlite3';
import {
  CONTAINER_COLUMNS,
  INSERT_CONTAINER_SQL,
  type AccountRow,
  type ApiKeyRow,
  type CiLinkRow,
  type ContainerRow,
  type ImportRow,
  type ProfileRow,
  type ReportRow,
  type SessionRow,
  type UserRow,
} from './rows.js';

/** Rows deleted per statement when a failed report's containers are purged; keeps each call short. */
export const PURGE_CHUNK = 5_000;

export type Statements = ReturnType<typeof prepareStatements>;

export function prepareStatements(db: Database.Database) {
  const s = <P extends unknown[], R = unknown>(sql: string) => db.prepare<P, R>(sql);
  return {
    ping: s<[], unknown>('select 1'),

    insertAccount: s<[string, string, string]>('insert into accounts (id, name, created_at) values (?, ?, ?)'),
    getAccount: s<[string], AccountRow>('select * from accounts where id = ?'),
    countAccounts: s<[], { n: number }>('select count(*) as n from accounts'),

    insertApiKey: s<[string, string, string, string, string | null]>(
      'insert into api_keys (key_id, account_id, secret_hash, created_at, revoked_at) values (?, ?, ?, ?, ?)',
    ),
    findApiKey: s<[string], ApiKeyRow>('select * from api_keys where key_id = ?'),
    listApiKeys: s<[string], ApiKeyRow>('select * from api_keys where account_id = ? order by created_at, key_id'),
    // `key_id <> null` is never true, so an absent keep-key needs its own test.
    revokeApiKeys: s<[string, string, string | null, string | null]>(
      'update api_keys set revoked_at = ? where account_id = ? and revoked_at is null ' +
        'and (? is null or key_id <> ?)',
    ),

    insertUser: s<[string, string, string, string, number, string]>(
      'insert into users (id, account_id, email, password_hash, must_change_password, created_at) ' +
        'values (?, ?, ?, ?, ?, ?)',
    ),
    getUser: s<[string], UserRow>('select * from users where id = ?'),
    findUserByEmail: s<[string], UserRow>('select * from users where email = ?'),
    listUsers: s<[string], UserRow>('select * from users where account_id = ? order by created_at, id'),
    setUserPassword: s<[string, number, string]>(
      'update users set password_hash = ?, must_change_password = ? where id = ?',
    ),
    insertSession: s<[string, string, string, string, string, string]>(
      'insert into sessions (id_hash, user_id, account_id, csrf_token, created_at, expires_at) ' +
        'values (?, ?, ?, ?, ?, ?)',
    ),
    findSession: s<[string], SessionRow>('select * from sessions where id_hash = ?'),
    deleteSession: s<[string]>('delete from sessions where id_hash = ?'),
    deleteUserSessions: s<[string, string | null, string | null]>(
      'delete from sessions where user_id = ? and (? is null or id_hash <> ?)',
    ),
    deleteExpiredSessions: s<[string]>('delete from sessions where expires_at < ?'),

    getCiLink: s<[string], CiLinkRow>('select * from ci_links where profile_id = ?'),
    putCiLink: s<[string, string, string, string, string, string, string, string, number]>(
      'insert or replace into ci_links (profile_id, provider, url, repository, branch, job, sealed_token, ' +
        'updated_at, verdict) values (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    deleteCiLink: s<[string]>('delete from ci_links where profile_id = ?'),
    countCiLinks: s<[], { n: number }>('select count(*) as n from ci_links'),

    // The history column of a report: which containers have children, their titles, then the tests.
    parentSeqs: s<[string], number>(
      'select distinct parent_seq from containers where report_id = ? and parent_seq is not null',
    ),
    parentTitles: s<[string, string], { seq: number; parent_seq: number | null; title: string }>(
      'select seq, parent_seq, title from containers ' +
        'where report_id = ? and seq in (select value from json_each(?))',
    ),
    historyTests: s<
      [string, number, number],
      {
        seq: number;
        parent_seq: number | null;
        title: string;
        status: string;
        duration_ms: number | null;
        flaky: number;
      }
    >(
      'select seq, parent_seq, title, status, duration_ms, flaky from containers ' +
        "where report_id = ? and seq > ? and type in ('test', 'scenario') order by seq limit ?",
    ),
    clearHistoryColumn: s<[string]>('delete from history_columns where report_id = ?'),
    insertHistoryPart: s<[string, number, Buffer]>(
      'insert into history_columns (report_id, part, data) values (?, ?, ?)',
    ),
    historyParts: s<[string], { part: number; data: Buffer }>(
      'select h.part, h.data from history_columns h join reports r on r.id = h.report_id ' +
        "where h.report_id = ? and r.status = 'completed' order by h.part",
    ),

    // The public numbers (numbers.ts): the counter, and the claim that a number was given or chosen.
    nextNumber: s<[string], { value: number }>('update counters set value = value + 1 where noun = ? returning value'),
    claimNumber: s<[string, number]>('insert or ignore into numbers (noun, number) values (?, ?)'),
    profileNumberTaken: s<[number], unknown>('select 1 from profiles where number = ?'),

    insertProfile: s<[string, number, string, string, string]>(
      'insert into profiles (id, number, account_id, name, created_at) values (?, ?, ?, ?, ?)',
    ),
    // A profile marked `deleting` is gone for every reader (lib/store/deletions.ts).
    getProfile: s<[string], ProfileRow>('select * from profiles where id = ? and deleting is null'),
    getProfileByNumber: s<[number], ProfileRow>('select * from profiles where number = ? and deleting is null'),
    listProfiles: s<[string], ProfileRow>(
      'select * from profiles where account_id = ? and deleting is null order by created_at, id',
    ),
    renameProfile: s<[string, string]>('update profiles set name = ? where id = ? and deleting is null'),
    profileContents: s<[string], { reports: number; tests: number }>(
      "select count(*) as reports, coalesce(sum(json_extract(totals, '$.tests')), 0) as tests from reports " +
        "where profile_id = ? and status = 'completed'",
    ),

    // Deletions (lib/store/deletions.ts): marks, what they still hold, and the last steps.
    markProfile: s<[string]>('update profiles set deleting = 1 where id = ? and deleting is null'),
    unmarkProfile: s<[string]>('update profiles set deleting = null where id = ?'),
    markedProfiles: s<[], string>('select id from profiles where deleting is not null'),
    liveImportsOfProfile: s<[string], { n: number }>(
      "select count(*) as n from imports where profile_id = ? and status in ('queued', 'receiving', 'processing')",
    ),
    importsOfProfile: s<[string, number], string>('select id from imports where profile_id = ? limit ?'),
    // The second value is 1 to leave a pinned report alone (retention).
    markReport: s<[string, number]>(
      "update reports set status = 'deleting' where id = ? and status in ('completed', 'failed') " +
        'and (? = 0 or pinned = 0)',
    ),
    markReportsOfProfile: s<[string]>("update reports set status = 'deleting' where profile_id = ?"),
    markedReports: s<[], { id: string; import_id: string }>(
      "select id, import_id from reports where status = 'deleting'",
    ),
    reportsOfProfile: s<[string, number], { id: string; import_id: string }>(
      'select id, import_id from reports where profile_id = ? limit ?',
    ),
    // Tags go with the report (on delete cascade); what it owns was removed before (REPORT_OWNED).
    deleteReport: s<[string]>('delete from reports where id = ?'),
    deleteRetentionPolicy: s<[string]>('delete from retention_policies where profile_id = ?'),
    deleteNotificationDeliveries: s<[string]>('delete from notification_deliveries where profile_id = ?'),
    deleteNotificationRules: s<[string]>('delete from notification_rules where profile_id = ?'),

    // Retention (lib/store/retention.ts): pins, policies, and the completed reports in import order.
    setPinned: s<[number, string]>("update reports set pinned = ? where id = ? and status = 'completed'"),
    getRetentionPolicy: s<[string], { keep_reports: number | null; keep_days: number | null }>(
      'select keep_reports, keep_days from retention_policies where profile_id = ?',
    ),
    putRetentionPolicy: s<[string, number | null, number | null, string]>(
      'insert or replace into retention_policies (profile_id, keep_reports, keep_days, updated_at) values (?, ?, ?, ?)',
    ),
    retentionProfiles: s<[], string>(
      'select r.profile_id from retention_policies r join profiles p on p.id = r.profile_id where p.deleting is null',
    ),
    nthCompleted: s<[string, number], { created_at: string; id: string }>(
      "select created_at, id from reports where profile_id = ? and status = 'completed' " +
        'order by created_at desc, id desc limit 1 offset ?',
    ),
    // Row values: both bounds on (created_at, id) read straight off reports_by_profile.
    completedBetween: s<[string, string, string, string, string, number], ReportRow>(
      "select * from reports where profile_id = ? and status = 'completed' " +
        'and (created_at, id) > (?, ?) and (created_at, id) < (?, ?) order by created_at, id limit ?',
    ),
    blobBytesOfImports: s<[string], { n: number }>(
      'select coalesce(sum(size), 0) as n from blobs where import_id in (select value from json_each(?))',
    ),
    storedContainers: s<[], { n: number }>(
      "select coalesce(sum(json_extract(totals, '$.containers')), 0) as n from reports where status = 'completed'",
    ),
    deleteImport: s<[string]>('delete from imports where id = ?'),
    deleteProfile: s<[string]>('delete from profiles where id = ?'),

    insertImport: s<unknown[]>(
      'insert into imports (id, profile_id, account_id, status, created_at, finished_at, endpoint, formatter, ' +
        'params, tags, files, attachments, messages, report_id, progress, content_type) ' +
        'values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    claimQueued: s<[], ImportRow>(
      "update imports set status = 'processing' where id = " +
        "(select id from imports where status = 'queued' order by created_at, id limit 1) returning *",
    ),
    getImport: s<[string], ImportRow>('select * from imports where id = ?'),

    insertReport: s<unknown[]>(
      'insert into reports (id, number, profile_id, import_id, status, created_at, date, tags, totals, files, ' +
        'messages) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    completeReport: s<[string, string, string, string, string, string | null, string | null, string]>(
      "update reports set status = 'completed', date = ?, totals = ?, files = ?, messages = ?, tags = ?, ci = ?, " +
        'ci_branch = ? where id = ?',
    ),
    failReport: s<[string]>("update reports set status = 'failed' where id = ?"),
    getReport: s<[string], ReportRow>('select * from reports where id = ?'),
    getReportByNumber: s<[number], ReportRow>('select * from reports where number = ?'),
    clearReportTags: s<[string]>('delete from report_tags where report_id = ?'),
    // Ignore: a tag given twice is one row here; the JSON copy keeps what was given.
    addReportTag: s<[string, string]>('insert or ignore into report_tags (report_id, tag) values (?, ?)'),
    failedWithContainers: s<[], { id: string }>(
      "select id from reports r where status = 'failed' " +
        'and exists (select 1 from containers c where c.report_id = r.id)',
    ),
    // Seq order walks the table in insertion order; picking rows by the parent index instead
    // scatters the deletes and is ~5x slower on a million rows.
    purgeContainers: s<[string, string, number]>(
      'delete from containers where report_id = ? ' +
        'and seq in (select seq from containers where report_id = ? order by seq limit ?)',
    ),

    insertContainer: s<unknown[]>(INSERT_CONTAINER_SQL),
    getContainer: s<[string, number], ContainerRow>(
      `select ${CONTAINER_COLUMNS} from containers where report_id = ? and seq = ?`,
    ),
    listTopContainers: s<[string, number, number], ContainerRow>(
      `select ${CONTAINER_COLUMNS} from containers ` +
        'where report_id = ? and parent_seq is null and seq > ? order by seq limit ?',
    ),
    listChildContainers: s<[string, number, number, number], ContainerRow>(
      `select ${CONTAINER_COLUMNS} from containers ` +
        'where report_id = ? and parent_seq = ? and seq > ? order by seq limit ?',
    ),
    // json_each: one statement for any number of seqs, and the (report_id, parent_seq) index still serves.
    reparentContainers: s<[number, string, string]>(
      'update containers set parent_seq = ? ' +
        'where report_id = ? and parent_seq in (select value from json_each(?))',
    ),
    deleteContainers: s<[string, string]>(
      'delete from containers where report_id = ? and seq in (select value from json_each(?))',
    ),

    insertBlob: s<[string, string, string | null, number, string, string, string | null]>(
      'insert into blobs (id, name, content_type, size, sha256, created_at, import_id) ' +
        'values (?, ?, ?, ?, ?, ?, ?)',
    ),
    // The stale-import sweep: live imports created before a time, then each ended if still live.
    staleImports: s<[string], string>(
      "select id from imports where status in ('receiving', 'processing') and created_at < ?",
    ),
    liveImport: s<[string], { messages: string; report_id: string | null }>(
      "select messages, report_id from imports where id = ? and status in ('receiving', 'processing')",
    ),
    endImport: s<[string, string, string]>(
      "update imports set status = 'failed', finished_at = ?, messages = ? where id = ?",
    ),
    blobsOfImport: s<[string], string>('select id from blobs where import_id = ?'),
    deleteBlob: s<[string]>('delete from blobs where id = ?'),
  };
}
