/**
 * Embedded migration step 9 (a CI link's verdict opt-in): a link saved at schema 8 keeps everything
 * it had and reads with the verdict off; it can be turned on after.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { createEmbeddedStore } from '../../lib/store/embedded/index.js';
import { MIGRATIONS } from '../../lib/store/embedded/schema.js';

const TIME = '2024-01-01T00:00:00.000Z';

t.test('embedded: a link saved at schema 8 reads with the verdict off', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'tally-verdict-migration-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const raw = new Database(join(dataDir, 'tally.sqlite'));
  raw.exec('create table schema_version (version integer not null)');
  for (const step of MIGRATIONS.slice(0, 8)) raw.exec(step);
  raw.prepare('insert into schema_version (version) values (8)').run();
  raw.prepare("insert into accounts values ('a', 'Acme', ?)").run(TIME);
  const profile = randomUUID();
  raw
    .prepare("insert into profiles (id, account_id, name, created_at, number) values (?, 'a', 'p', ?, 1)")
    .run(profile, TIME);
  raw.exec("update counters set value = 1 where noun = 'profile'");
  raw
    .prepare(
      "insert into ci_links values (?, 'github', 'https://gitea.example.org', 'acme/web', 'main', 'tests.yml', " +
        "'v1.k.a.b.c', ?)",
    )
    .run(profile, TIME);
  raw.close();

  const store = createEmbeddedStore({ dataDir });
  t.teardown(() => store.close());
  await store.init();
  const before = await store.ciLinks.get(profile);
  t.strictSame(before, {
    profileId: profile,
    provider: 'github',
    url: 'https://gitea.example.org',
    repository: 'acme/web',
    branch: 'main',
    job: 'tests.yml',
    sealedToken: 'v1.k.a.b.c',
    updatedAt: TIME,
    verdict: false,
  });
  await store.ciLinks.put({ ...before!, verdict: true });
  t.equal((await store.ciLinks.get(profile))?.verdict, true);
});
