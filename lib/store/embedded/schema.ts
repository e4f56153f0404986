/**
 * The embedded store's DDL and its migration step. Each migration runs once, in order, inside one
 * transaction with the version bump, so a crash mid-migration leaves the previous version intact.
 * Append new steps; never edit a shipped one (a data dir created by an older Tally replays only
 * the steps it has not seen).
 */
import type Database from 'better-sqlite3';

const migrations: readonly string[] = [
  `
  create table accounts (
    id text primary key,
    name text not null,
    created_at text not null
  );

  create table api_keys (
    key_id text primary key,
    account_id text not null references accounts(id),
    secret_hash text not null,
    created_at text not null,
    revoked_at text
  );
  create index api_keys_by_account on api_keys (account_id);

  create table profiles (
    id text primary key,
    account_id text not null references accounts(id),
    name text not null,
    created_at text not null
  );
  create index profiles_by_account on profiles (account_id, created_at, id);

  create table imports (
    id text primary key,
    profile_id text not null references profiles(id),
    account_id text not null references accounts(id),
    status text not null,
    created_at text not null,
    finished_at text,
    endpoint text not null,
    formatter text,
    params text not null,
    tags text not null,
    files text not null,
    attachments text not null,
    messages text not null,
    report_id text,
    progress text not null
  );
  create index imports_by_profile on imports (profile_id, created_at);

  create table reports (
    id text primary key,
    profile_id text not null references profiles(id),
    import_id text not null references imports(id),
    status text not null,
    created_at text not null,
    date text not null,
    tags text not null,
    totals text not null,
    files text not null,
    messages text not null
  );
  -- id ends the key so "newest first, ties by id" is read straight off the index.
  create index reports_by_profile on reports (profile_id, status, created_at, id);

  -- The JSON copy in reports.tags keeps order as given; this table answers "has every tag".
  create table report_tags (
    report_id text not null references reports(id) on delete cascade,
    tag text not null,
    primary key (report_id, tag)
  ) without rowid;
  create index report_tags_by_tag on report_tags (tag, report_id);

  -- Empty lists, empty meta and absent failure/output are stored as NULL: most rows have them, and
  -- skipping JSON.stringify for them is measurable on the insert hot path.
  create table containers (
    report_id text not null references reports(id) on delete cascade,
    seq integer not null,
    parent_seq integer,
    file_index integer not null,
    type text not null,
    title text not null,
    status text not null,
    duration_ms real,
    started_at text,
    failure text,
    output text,
    properties text,
    attachment_refs text,
    attachments text,
    flaky integer not null,
    attempts text,
    meta text,
    primary key (report_id, seq)
  );
  create index containers_by_parent on containers (report_id, parent_seq, seq);

  -- Name and type as uploaded, for audits and orphan sweeps; the bytes live in the blob folder.
  create table blobs (
    id text primary key,
    name text not null,
    content_type text,
    size integer not null,
    sha256 text not null,
    created_at text not null
  );
  `,
  // 2: blobs remember the import that wrote them, so the stale-import sweep can remove them.
  `
  alter table blobs add column import_id text;
  create index blobs_by_import on blobs (import_id);
  create index imports_unfinished on imports (status, created_at);
  `,
  // 3: the request's media type, so a queued import can be replayed as it came.
  `
  alter table imports add column content_type text;
  `,
  // 4: people who sign in to the web interface, their sessions, and the history columns the
  // comparison reads (lib/history/column.ts). Reports completed before this step have no column.
  `
  create table users (
    id text primary key,
    account_id text not null references accounts(id),
    email text not null unique,
    password_hash text not null,
    must_change_password integer not null,
    created_at text not null
  );
  create index users_by_account on users (account_id, created_at, id);

  create table sessions (
    id_hash text primary key,
    user_id text not null references users(id) on delete cascade,
    account_id text not null,
    csrf_token text not null,
    created_at text not null,
    expires_at text not null
  ) without rowid;
  create index sessions_by_user on sessions (user_id);
  create index sessions_by_expiry on sessions (expires_at);

  create table history_columns (
    report_id text not null references reports(id) on delete cascade,
    part integer not null,
    data blob not null,
    primary key (report_id, part)
  ) without rowid;
  `,
  // 5: a profile being deleted is marked first (lib/store/deletions.ts): readers stop finding it,
  // and a deletion cut short is finished from the mark. The sweep looks for reports marked
  // `deleting` every 10 minutes: a partial index holds only those, so it never reads the table.
  `
  alter table profiles add column deleting integer;
  create index reports_deleting on reports (id) where status = 'deleting';
  `,
  // 6: the public integer ids of profiles and reports (lib/store/numbers.ts). Existing rows are
  // numbered in creation order (rowid, the insert order, breaks ties within a millisecond); each
  // noun's counter starts after the numbers given and only ever goes up; `numbers` keeps every
  // number given or chosen, so the counter never hands one out again, even once its row is deleted.
  `
  alter table profiles add column number integer;
  alter table reports add column number integer;
  update profiles set number = o.n
    from (select id, row_number() over (order by created_at, rowid) as n from profiles) as o
    where profiles.id = o.id;
  update reports set number = o.n
    from (select id, row_number() over (order by created_at, rowid) as n from reports) as o
    where reports.id = o.id;
  create unique index profiles_by_number on profiles (number);
  create unique index reports_by_number on reports (number);

  create table counters (
    noun text primary key,
    value integer not null
  ) without rowid;
  insert into counters (noun, value) select 'profile', coalesce(max(number), 0) from profiles;
  insert into counters (noun, value) select 'report', coalesce(max(number), 0) from reports;

  create table numbers (
    noun text not null,
    number integer not null,
    primary key (noun, number)
  ) without rowid;
  insert into numbers (noun, number) select 'profile', number from profiles;
  insert into numbers (noun, number) select 'report', number from reports;
  `,
  // 7: a report's CI context (the import's ci_* fields) as JSON; its branch also in a column of its
  // own, indexed, for the reports list's branch filter.
  `
  alter table reports add column ci text;
  alter table reports add column ci_branch text;
  create index reports_by_branch on reports (profile_id, ci_branch, created_at, id) where ci_branch is not null;
  `,
  // 8: CI links, one per profile (lib/store/ci-links.ts). The token is kept only sealed by the
  // secret box; the link goes with its profile.
  `
  create table ci_links (
    profile_id text primary key references profiles(id) on delete cascade,
    provider text not null,
    url text not null,
    repository text not null,
    branch text not null,
    job text not null,
    sealed_token text not null,
    updated_at text not null
  ) without rowid;
  `,
  // 9: whether a link sends the verdict back (a commit status and a pull-request comment); links
  // saved before were made without it, so they keep it off.
  `
  alter table ci_links add column verdict integer not null default 0;
  `,
  // 10: retention (lib/store/retention.ts): a report may be pinned (retention never deletes it), and
  // a profile has at most one policy, which goes with it. A limit left null is not set.
  `
  alter table reports add column pinned integer not null default 0;
  create table retention_policies (
    profile_id text primary key references profiles(id) on delete cascade,
    keep_reports integer,
    keep_days integer,
    updated_at text not null
  ) without rowid;
  `,
  // 11: notifications (lib/store/notifications.ts): a profile's rules, a webhook's URL only sealed,
  // and the deliveries, which are the queue and the log at once; both go with their profile. Due
  // deliveries are found by a partial index holding only those waiting or claimed.
  `
  create table notification_rules (
    id text primary key,
    profile_id text not null references profiles(id) on delete cascade,
    events text not null,
    kind text not null,
    format text,
    sealed_url text,
    hint text,
    recipients text,
    created_at text not null
  );
  create index notification_rules_by_profile on notification_rules (profile_id, created_at);

  create table notification_deliveries (
    id text primary key,
    profile_id text not null references profiles(id) on delete cascade,
    rule_id text not null,
    trigger text not null,
    import_id text,
    report_id text,
    target text not null,
    events text not null,
    payload text,
    status text not null,
    attempts integer not null,
    claim integer not null,
    next_attempt_at text not null,
    last_error text,
    response_status integer,
    created_at text not null,
    finished_at text
  );
  create index notification_deliveries_due on notification_deliveries (next_attempt_at, id)
    where status in ('pending', 'sending');
  create index notification_deliveries_by_profile on notification_deliveries (profile_id, created_at, id);
  create index notification_deliveries_ended on notification_deliveries (finished_at)
    where finished_at is not null;
  `,
];

/** The steps, for tests that build a data dir as an older Tally left it. */
export const MIGRATIONS = migrations;

export const SCHEMA_VERSION = migrations.length;

/** Brings the database to SCHEMA_VERSION; safe to call on every start. */
export function migrate(db: Database.Database): void {
  db.exec('create table if not exists schema_version (version integer not null)');
  const step = db.transaction(() => {
    const row = db.prepare('select version from schema_version').get() as { version: number } | undefined;
    const current = row?.version ?? 0;
    if (current > SCHEMA_VERSION) {
      throw new Error(
        `The data dir was written by a newer Tally (schema ${current}, this build knows ${SCHEMA_VERSION}); ` +
          'upgrade Tally or point it at another data dir.',
      );
    }
    for (let v = current; v < SCHEMA_VERSION; v++) db.exec(migrations[v]!);
    if (row) db.prepare('update schema_version set version = ?').run(SCHEMA_VERSION);
    else db.prepare('insert into schema_version (version) values (?)').run(SCHEMA_VERSION);
  });
  // Immediate: two processes starting on one data dir must not both see version 0.
  step.immediate();
}
