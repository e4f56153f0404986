/**
 * Embedded migration step 7 (a report's CI context): a data dir at schema 6 keeps its reports, which
 * read with `ci: null` and are left out of a branch filter; reports completed after it keep theirs.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { createEmbeddedStore } from '../../lib/store/embedded/index.js';
import { MIGRATIONS } from '../../lib/store/embedded/schema.js';

const zero = JSON.stringify({ containers: 0, tests: 0, passed: 0, failed: 0, errored: 0, skipped: 0 });
const TIME = '2024-01-01T00:00:00.000Z';

t.test('embedded: a data dir at schema 6 gains the CI context on start', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'tally-ci-migration-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const raw = new Database(join(dataDir, 'tally.sqlite'));
  raw.exec('create table schema_version (version integer not null)');
  for (const step of MIGRATIONS.slice(0, 6)) raw.exec(step);
  raw.prepare('insert into schema_version (version) values (6)').run();
  raw.prepare("insert into accounts values ('a', 'Acme', ?)").run(TIME);
  const profile = randomUUID();
  const old = randomUUID();
  raw
    .prepare("insert into profiles (id, account_id, name, created_at, number) values (?, 'a', 'p', ?, 1)")
    .run(profile, TIME);
  raw
    .prepare(
      'insert into imports (id, profile_id, account_id, status, created_at, endpoint, params, tags, files, ' +
        "attachments, messages, progress) values ('i', ?, 'a', 'completed', ?, 'import', '{}', '[]', '[]', '[]', " +
        "'[]', '{}')",
    )
    .run(profile, TIME);
  raw
    .prepare(
      'insert into reports (id, profile_id, import_id, status, created_at, date, tags, totals, files, messages, ' +
        "number) values (?, ?, 'i', 'completed', ?, ?, '[]', ?, '[]', '[]', 1)",
    )
    .run(old, profile, TIME, TIME, zero);
  raw.exec("update counters set value = 1 where noun in ('profile', 'report')");
  raw.close();

  const store = createEmbeddedStore({ dataDir });
  t.teardown(() => store.close());
  await store.init();
  t.equal((await store.reports.get(old))!.ci, null, 'a report from before has no CI context');
  t.strictSame(await store.reports.list(profile, { limit: 10, branch: 'main' }), [], 'and no branch');

  const ci = {
    provider: 'jenkins',
    buildNumber: '7',
    buildUrl: null,
    branch: 'main',
    commit: null,
    job: 'app',
    pullRequest: null,
  };
  const next = await store.reports.create({ profileId: profile, importId: 'i', tags: [], date: TIME });
  await store.reports.complete(next.id, {
    date: TIME,
    totals: JSON.parse(zero),
    files: [],
    messages: [],
    tags: [],
    ci,
  });
  t.strictSame((await store.reports.get(next.id))!.ci, ci);
  t.strictSame(
    (await store.reports.list(profile, { limit: 10, branch: 'main' })).map((r) => r.id),
    [next.id],
    'a report completed after the step is found by its branch',
  );
  t.equal((await store.reports.list(profile, { limit: 10 })).length, 2);
});
