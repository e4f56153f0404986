/**
 * The embedded store: the conformance suite over a temp data dir, and what only this store has
 * (its files, page size, schema version, parse-thread rows and the checkpointer thread).
 */
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import Database from 'better-sqlite3';
import t, { type Test } from 'tap';
import { createEmbeddedStore, DATABASE_FILE, PAGE_SIZE, type EmbeddedStore } from '../../lib/store/embedded/index.js';
import { AUTOCHECKPOINT_BYTES } from '../../lib/store/embedded/connection.js';
import { SqliteRowWriter, encodeContainerRow } from '../../lib/store/embedded/row-writer.js';
import {
  container,
  cutDeletionCase,
  richContainers,
  seed,
  storeConformance,
  type StoreHarness,
} from './conformance/index.js';

async function harness(): Promise<StoreHarness & { dataDir: string; store: EmbeddedStore }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tally-store-'));
  const first = createEmbeddedStore({ dataDir });
  const stores = [first];
  return {
    dataDir,
    store: first,
    async reopen() {
      const next = createEmbeddedStore({ dataDir });
      stores.push(next);
      return next;
    },
    listBlobFiles: () => first.blobFolder.list(),
    keepsReserve: true,
    async countRecords() {
      const peek = new Database(first.databasePath, { readonly: true });
      try {
        const tables = peek
          .prepare("select name from sqlite_master where type = 'table' and name <> 'schema_version'")
          .pluck()
          .all() as string[];
        const counts: Record<string, number> = {};
        for (const table of tables)
          counts[table] = (peek.prepare(`select count(*) from "${table}"`).pluck().get() as number) ?? 0;
        counts['blob files'] = (await first.blobFolder.list()).length;
        return counts;
      } finally {
        peek.close();
      }
    },
    async findText(text) {
      // The database file and its write-ahead log: a value may sit in either until a checkpoint.
      const found: string[] = [];
      for (const name of await readdir(dataDir))
        if (name.startsWith(DATABASE_FILE) && (await readFile(join(dataDir, name))).includes(text)) found.push(name);
      return found;
    },
    async cleanup() {
      for (const s of stores) await s.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

storeConformance(t, 'embedded', harness);

/** An open store with one building report, removed when the test ends. */
async function withReport(t: Test) {
  const h = await harness();
  t.teardown(() => h.cleanup());
  await h.store.init();
  const { profile, imp } = await seed(h.store);
  const report = await h.store.reports.create({
    profileId: profile.id,
    importId: imp.id,
    tags: [],
    date: new Date().toISOString(),
  });
  return { h, report };
}

t.test('embedded: files where the design says', async (t) => {
  const h = await harness();
  t.teardown(() => h.cleanup());
  await Promise.all([h.store.init(), h.store.init()]);
  t.equal(h.store.databasePath, join(h.dataDir, 'tally.sqlite'));
  t.ok((await stat(join(h.dataDir, 'tally.sqlite'))).isFile(), 'the SQLite file is at <dataDir>/tally.sqlite');
  t.ok((await stat(join(h.dataDir, 'blobs'))).isDirectory(), 'the blob folder is at <dataDir>/blobs');

  const ref = await h.store.blobs.put(Readable.from([Buffer.from('hello')]), {
    name: 'h.txt',
    contentType: 'text/plain',
  });
  t.strictSame(
    await h.store.blobFolder.list(),
    [join(ref.id.slice(0, 2), ref.id)],
    'one file, in a 2-character fan-out folder',
  );

  const peek = new Database(h.store.databasePath, { readonly: true });
  t.teardown(() => peek.close());
  t.equal(peek.pragma('journal_mode', { simple: true }), 'wal');
  t.strictSame(
    peek.prepare('select name, content_type, size from blobs').all(),
    [{ name: 'h.txt', content_type: 'text/plain', size: 5 }],
    'blob meta recorded',
  );
});

t.test('embedded: a failed blobs.put leaves no temp file', async (t) => {
  const h = await harness();
  t.teardown(() => h.cleanup());
  await h.store.init();
  async function* breaks(): AsyncGenerator<Buffer> {
    yield Buffer.alloc(256 * 1024, 1);
    throw new Error('boom');
  }
  await t.rejects(h.store.blobs.put(Readable.from(breaks()), { name: 'x', contentType: null }), { message: 'boom' });
  const names = await readdir(join(h.dataDir, 'blobs'), { recursive: true });
  t.strictSame(
    names.filter((n) => n.includes('.tmp-')),
    [],
    'no .tmp-* files',
  );
  t.strictSame(names, [], 'nothing at all');
});

t.test('embedded: a purge cut short by a crash is finished on init', async (t) => {
  const h = await harness();
  t.teardown(() => h.cleanup());
  const store = h.store;
  await store.init();
  const { profile, imp } = await seed(store);
  const report = await store.reports.create({
    profileId: profile.id,
    importId: imp.id,
    tags: [],
    date: new Date().toISOString(),
  });
  const rows = Array.from({ length: 12_000 }, (_, i) =>
    container(report.id, i + 1, null, { title: `t${i}`, durationMs: null }),
  );
  await store.containers.insert(rows);
  await store.close();

  // What a crash right after reports.fail's status flip leaves behind.
  const raw = new Database(store.databasePath);
  raw.prepare("update reports set status = 'failed' where id = ?").run(report.id);
  raw.close();

  const again = (await h.reopen!()) as EmbeddedStore;
  await again.init();
  t.strictSame(await again.containers.list(report.id, { parentSeq: null, limit: 5 }), []);
});

t.test('embedded: a deletion cut short by a crash is finished by resumeDeletions', async (t) => {
  const h = await harness();
  t.teardown(() => h.cleanup());
  await cutDeletionCase(t, h, async ({ reportId, profileId }) => {
    await h.store.close();
    // What a crash right after each deletion's mark leaves behind.
    const raw = new Database(h.store.databasePath);
    raw.prepare("update reports set status = 'deleting' where id = ?").run(reportId);
    raw.prepare('update profiles set deleting = 1 where id = ?').run(profileId);
    raw.close();
  });
});

t.test('embedded: the sweep finds reports marked deleting without reading the table', async (t) => {
  const h = await harness();
  t.teardown(() => h.cleanup());
  await h.store.init();
  const peek = new Database(h.store.databasePath, { readonly: true });
  t.teardown(() => peek.close());
  const plan = peek.prepare("explain query plan select id, import_id from reports where status = 'deleting'").all() as {
    detail: string;
  }[];
  t.match(plan.map((p) => p.detail).join('; '), /USING INDEX reports_deleting/);
});

t.test('embedded: a data dir from a newer schema is refused', async (t) => {
  const h = await harness();
  t.teardown(() => h.cleanup());
  await h.store.init();
  await h.store.close();
  const raw = new Database(h.store.databasePath);
  raw.prepare('update schema_version set version = 999').run();
  raw.close();
  const again = await h.reopen!();
  await t.rejects(again.init(), /newer Tally/);
  await t.rejects(again.ping(), /not open/, 'a store that failed to open stays closed');
});

t.test('embedded: a new database has 16 KiB pages; one made with 4 KiB pages keeps working', async (t) => {
  const h = await harness();
  t.teardown(() => h.cleanup());
  await h.store.init();
  const peek = new Database(h.store.databasePath, { readonly: true });
  t.equal(peek.pragma('page_size', { simple: true }), PAGE_SIZE, 'the size for bulk rows');
  peek.close();

  const older = await mkdtemp(join(tmpdir(), 'tally-store-'));
  t.teardown(() => rm(older, { recursive: true, force: true }));
  const raw = new Database(join(older, 'tally.sqlite'));
  raw.pragma('page_size = 4096');
  raw.pragma('journal_mode = WAL');
  raw.close();
  const store = createEmbeddedStore({ dataDir: older, reserveBytes: 0 });
  await store.init();
  const { profile, imp } = await seed(store);
  const report = await store.reports.create({
    profileId: profile.id,
    importId: imp.id,
    tags: [],
    date: new Date().toISOString(),
  });
  await store.containers.insert(richContainers(report.id));
  t.equal(
    (await store.containers.list(report.id, { parentSeq: 1, limit: 10 })).length,
    richContainers(report.id).filter((c) => c.parentSeq === 1).length,
  );
  await store.close();
  const again = new Database(join(older, 'tally.sqlite'), { readonly: true });
  t.equal(again.pragma('page_size', { simple: true }), 4096, 'an existing file keeps its page size');
  again.close();
});

t.test('embedded: rows a parse worker encoded read back exactly', async (t) => {
  const { h, report } = await withReport(t);
  const base = richContainers(report.id);
  // Long texts go as bytes, short ones as text: both kinds, with non-ASCII in each.
  const long = {
    ...base[1]!,
    seq: base.length + 1,
    failure: { message: 'ü', type: null, stack: '\tat a.B.c(B.java:1) — ✓\n'.repeat(40) },
    output: { stdout: 'ключ '.repeat(100), stderr: null },
  };
  const rich = [...base, long];
  const writer = new SqliteRowWriter(h.store.databasePath);
  writer.write(rich.map(encodeContainerRow));
  writer.close();
  for (const c of rich) t.strictSame(await h.store.containers.get(report.id, c.seq), c, `seq ${c.seq}`);
  t.strictSame(await h.store.containers.find(report.id, { limit: 100 }), rich, 'and through a search');
  const peek = new Database(h.store.databasePath, { readonly: true });
  t.teardown(() => peek.close());
  const types = peek
    .prepare(
      'select typeof(failure) as failure, typeof(output) as output, typeof(meta) as meta from containers where seq = ?',
    )
    .get(long.seq);
  t.strictSame(
    types,
    { failure: 'blob', output: 'blob', meta: 'text' },
    'long JSON stored as its UTF-8 bytes, short as text',
  );
});

t.test('embedded: the checkpointer copies the log into the database, which keeps it short', async (t) => {
  const { h, report } = await withReport(t);
  t.ok(h.store.containers.rowWriter(), 'the embedded store offers parse threads a row writer');
  const checkpointer = h.store.checkpointer;
  t.ok(checkpointer, 'started with the first row writer handed out');
  const writer = new SqliteRowWriter(h.store.databasePath);
  t.teardown(() => writer.close());
  // ~1 KiB rows in batches, as a parse worker writes them, up to the connections' own checkpoint point:
  // without the thread the log would grow to that length before anything started it over.
  const text = 'x'.repeat(900);
  let seq = 0;
  const bytesWritten = () => seq * 1100;
  while (bytesWritten() < AUTOCHECKPOINT_BYTES) {
    const batch = Array.from({ length: 1000 }, () =>
      container(report.id, ++seq, null, { title: `t${seq}`, durationMs: 1, output: { stdout: text, stderr: null } }),
    );
    writer.write(batch.map(encodeContainerRow));
    // Paced (~50 MiB/s), so a loaded CI machine still gives the thread its turns.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  for (let i = 0; i < 100 && checkpointer!.copies === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  t.ok(
    checkpointer!.copies > 0,
    `the thread copied the log into the database ${checkpointer!.copies} time(s) ` +
      `(${checkpointer!.restarts} with a restart)`,
  );
  t.equal(checkpointer!.lastError, null, 'without an error');
  const wal = (await stat(`${h.store.databasePath}-wal`)).size;
  t.ok(
    wal < AUTOCHECKPOINT_BYTES,
    `the log file stays short: ${(wal / 2 ** 20).toFixed(1)} MiB ` +
      `after ${(bytesWritten() / 2 ** 20).toFixed(0)} MiB of rows`,
  );
  t.equal(
    (await h.store.containers.list(report.id, { parentSeq: null, afterSeq: seq - 1, limit: 5 }))[0]?.seq,
    seq,
    'every row is there',
  );
});
