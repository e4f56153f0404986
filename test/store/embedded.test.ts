import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import Database from 'better-sqlite3';
import t from 'tap';
import { createEmbeddedStore, type EmbeddedStore } from '../../lib/store/embedded/index.js';
import { seed, storeConformance, type StoreHarness } from './conformance.js';

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
    listBlobFiles: () => first.blobs.list(),
    async cleanup() {
      for (const s of stores) await s.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

storeConformance(t, 'embedded', harness);

t.test('embedded: files where the design says', async (t) => {
  const h = await harness();
  t.teardown(() => h.cleanup());
  await Promise.all([h.store.init(), h.store.init()]);
  t.equal(h.store.databasePath, join(h.dataDir, 'tally.sqlite'));
  t.ok((await stat(join(h.dataDir, 'tally.sqlite'))).isFile(), 'the SQLite file is at <dataDir>/tally.sqlite');
  t.ok((await stat(join(h.dataDir, 'blobs'))).isDirectory(), 'the blob folder is at <dataDir>/blobs');

  const ref = await h.store.putBlob(Readable.from([Buffer.from('hello')]), { name: 'h.txt', contentType: 'text/plain' });
  t.strictSame(await h.store.blobs.list(), [join(ref.id.slice(0, 2), ref.id)], 'one file, in a 2-character fan-out folder');

  const peek = new Database(h.store.databasePath, { readonly: true });
  t.teardown(() => peek.close());
  t.equal(peek.pragma('journal_mode', { simple: true }), 'wal');
  t.strictSame(peek.prepare('select name, content_type, size from blobs').all(), [{ name: 'h.txt', content_type: 'text/plain', size: 5 }], 'blob meta recorded');
});

t.test('embedded: a failed putBlob leaves no temp file', async (t) => {
  const h = await harness();
  t.teardown(() => h.cleanup());
  await h.store.init();
  async function* breaks(): AsyncGenerator<Buffer> {
    yield Buffer.alloc(256 * 1024, 1);
    throw new Error('boom');
  }
  await t.rejects(h.store.putBlob(Readable.from(breaks()), { name: 'x', contentType: null }), { message: 'boom' });
  const names = await readdir(join(h.dataDir, 'blobs'), { recursive: true });
  t.strictSame(names.filter((n) => n.includes('.tmp-')), [], 'no .tmp-* files');
  t.strictSame(names, [], 'nothing at all');
});

t.test('embedded: a purge cut short by a crash is finished on init', async (t) => {
  const h = await harness();
  t.teardown(() => h.cleanup());
  const store = h.store;
  await store.init();
  const { account, profile, imp } = await seed(store);
  const report = await store.createReport({ profileId: profile.id, importId: imp.id, tags: [], date: new Date().toISOString() });
  const rows = Array.from({ length: 12_000 }, (_, i) => ({
    reportId: report.id, seq: i + 1, parentSeq: null, fileIndex: 0, type: 'test' as const, title: `t${i}`, status: 'passed' as const,
    durationMs: null, startedAt: null, failure: null, output: null, properties: [], attachmentRefs: [], attachments: [], flaky: false, attempts: [], meta: {},
  }));
  await store.insertContainers(rows);
  await store.close();

  // What a crash right after failReport's status flip leaves behind.
  const raw = new Database(store.databasePath);
  raw.prepare("update reports set status = 'failed' where id = ?").run(report.id);
  raw.close();

  const again = (await h.reopen!()) as EmbeddedStore;
  await again.init();
  t.strictSame(await again.listContainers(report.id, { parentSeq: null, limit: 5 }), []);
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
