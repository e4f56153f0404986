/**
 * The embedded store gives the space of deleted reports back (lib/store/embedded/space.ts): new
 * databases take incremental vacuum, older small ones switch at open, a deletion shrinks the file and
 * empties the log, and `vacuum()` rewrites the whole file.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import t, { type Test } from 'tap';
import { createEmbeddedStore, type EmbeddedStore } from '../../lib/store/embedded/index.js';
import { databaseBytes } from '../../lib/store/embedded/space.js';
import { container, seed } from './conformance/index.js';
import { zeroTotals } from './conformance/fixtures.js';

const MiB = 1024 * 1024;

async function dataDir(t: Test): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tally-space-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function peek<T>(store: EmbeddedStore, read: (db: Database.Database) => T): T {
  const db = new Database(store.databasePath, { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** A completed report of `tests` tests, each with ~1 KiB of output, in one profile of the store. */
async function bigReport(store: EmbeddedStore, profileId: string, accountId: string, tests: number) {
  const imp = await store.imports.create({ profileId, accountId, endpoint: 'import', formatter: 'junit' });
  const report = await store.reports.create({ profileId, importId: imp.id, tags: [], date: imp.createdAt });
  for (let from = 0; from < tests; from += 1000) {
    const batch = Array.from({ length: Math.min(1000, tests - from) }, (_, i) =>
      container(report.id, from + i + 1, null, {
        title: `test ${from + i}`,
        output: { stdout: `line ${from + i} `.repeat(80), stderr: null },
      }),
    );
    await store.containers.insert(batch);
  }
  await store.reports.complete(report.id, {
    date: report.date,
    totals: { ...zeroTotals(), containers: tests, tests, passed: tests },
    files: [],
    messages: [],
    tags: [],
  });
  await store.imports.update(imp.id, { status: 'completed', finishedAt: new Date().toISOString() });
  return report;
}

t.test('a new database is made for incremental vacuum', async (t) => {
  const store = createEmbeddedStore({ dataDir: await dataDir(t), reserveBytes: 0 });
  t.teardown(() => store.close());
  await store.init();
  t.equal(
    peek(store, (db) => db.pragma('auto_vacuum', { simple: true })),
    2,
    'auto_vacuum = INCREMENTAL',
  );
});

t.test('a deleted report shrinks the database file and empties the log', async (t) => {
  const store = createEmbeddedStore({ dataDir: await dataDir(t), reserveBytes: 0 });
  t.teardown(() => store.close());
  await store.init();
  const { account, profile } = await seed(store);
  const kept = await bigReport(store, profile.id, account.id, 2_000);
  const doomed = await bigReport(store, profile.id, account.id, 20_000);
  // What the rows take once the log is copied: the measure before the deletion.
  await store.reclaimSpace();
  const before = await databaseBytes(store.databasePath);
  t.ok(before > 20 * MiB, `the database holds ${(before / MiB).toFixed(1)} MiB`);

  t.equal((await store.reports.delete(doomed.id)).status, 'deleted');
  const after = await databaseBytes(store.databasePath);
  t.ok(after < before / 4, `${(before / MiB).toFixed(1)} MiB before, ${(after / MiB).toFixed(1)} MiB after`);
  t.equal((await stat(`${store.databasePath}-wal`)).size, 0, 'the log is empty');
  t.equal(
    peek(store, (db) => db.pragma('freelist_count', { simple: true })),
    0,
    'no free page is left in the file',
  );
  t.equal((await store.containers.list(kept.id, { parentSeq: null, limit: 5 })).length, 5, 'the other report reads');
});

t.test('a small database made before incremental vacuum switches at open; vacuum() rewrites it', async (t) => {
  const dir = await dataDir(t);
  const first = createEmbeddedStore({ dataDir: dir, reserveBytes: 0 });
  await first.init();
  const { account, profile } = await seed(first);
  const report = await bigReport(first, profile.id, account.id, 500);
  await first.close();
  // As an older Tally made it: no incremental vacuum.
  const raw = new Database(join(dir, 'tally.sqlite'));
  raw.pragma('auto_vacuum = NONE');
  raw.exec('vacuum');
  t.equal(raw.pragma('auto_vacuum', { simple: true }), 0, 'an older database');
  raw.close();

  const again = createEmbeddedStore({ dataDir: dir, reserveBytes: 0 });
  t.teardown(() => again.close());
  await again.init();
  t.equal(
    peek(again, (db) => db.pragma('auto_vacuum', { simple: true })),
    2,
    'switched over at open',
  );
  t.equal(
    peek(again, (db) => db.pragma('page_size', { simple: true })),
    16384,
    'its page size kept',
  );
  t.equal((await again.reports.get(report.id))?.totals.tests, 500, 'its data whole');
  t.equal((await again.reclaimSpace()).incremental, true);

  const vacuumed = await again.vacuum();
  t.ok(vacuumed, 'the embedded store can be vacuumed');
  t.ok(vacuumed!.bytesAfter <= vacuumed!.bytesBefore, `${vacuumed!.bytesBefore} → ${vacuumed!.bytesAfter} bytes`);
  t.equal((await again.containers.list(report.id, { parentSeq: null, limit: 3 })).length, 3, 'and still reads');
});

t.test('a larger database made before incremental vacuum waits for vacuum(), and says so', async (t) => {
  const dir = await dataDir(t);
  // As a Tally before incremental vacuum made it.
  const raw = new Database(join(dir, 'tally.sqlite'));
  raw.pragma('page_size = 16384');
  raw.pragma('journal_mode = WAL');
  raw.close();
  // Bound 0: any such database counts as too large to switch at open.
  const store = createEmbeddedStore({ dataDir: dir, reserveBytes: 0, switchAtOpenBytes: 0 });
  t.teardown(() => store.close());
  await store.init();
  t.equal(
    peek(store, (db) => db.pragma('auto_vacuum', { simple: true })),
    0,
    'not switched at open',
  );
  const { account, profile } = await seed(store);
  const doomed = await bigReport(store, profile.id, account.id, 3_000);
  await bigReport(store, profile.id, account.id, 100);
  t.equal((await store.reports.delete(doomed.id, { reclaim: false })).status, 'deleted');
  const kept = await store.reclaimSpace();
  t.equal(kept.incremental, false, 'reclaim says the file keeps its free pages');
  t.ok(
    peek(store, (db) => db.pragma('freelist_count', { simple: true }) as number) > 0,
    'they are free pages inside the file, for new rows',
  );
  const vacuumed = (await store.vacuum())!;
  t.ok(vacuumed.bytesAfter < vacuumed.bytesBefore / 2, `vacuum(): ${vacuumed.bytesBefore} → ${vacuumed.bytesAfter}`);
  t.equal(
    peek(store, (db) => db.pragma('auto_vacuum', { simple: true })),
    2,
    'switched over',
  );
  t.equal((await store.reclaimSpace()).incremental, true, 'and from now on gives space back as it goes');
});
