/**
 * `tally vacuum` on a real data dir: a database made before incremental vacuum, whose deleted rows
 * stayed in the file as free pages, comes out switched over, without them, and with what it holds.
 * (This one is small, so the command's own opening switches it already: a larger one, which only the
 * command switches, is test/store/embedded-space.test.ts's.)
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import t from 'tap';
import { createEmbeddedStore } from '../lib/store/embedded/index.js';
import { container, seed } from './store/conformance/index.js';
import { TALLY } from './helpers/tally-command.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = promisify(execFile);

t.test('tally vacuum rewrites an older database and switches it to incremental vacuum', async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tally-cli-vacuum-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  // As a Tally before incremental vacuum made it, then filled, and a report of it deleted.
  const raw = new Database(path.join(dataDir, 'tally.sqlite'));
  raw.pragma('page_size = 16384');
  raw.pragma('journal_mode = WAL');
  raw.close();
  const store = createEmbeddedStore({ dataDir, reserveBytes: 0, switchAtOpenBytes: 0 });
  await store.init();
  const { profile, imp } = await seed(store);
  const report = await store.reports.create({ profileId: profile.id, importId: imp.id, tags: [], date: imp.createdAt });
  for (let from = 1; from <= 6000; from += 1000)
    await store.containers.insert(
      Array.from({ length: 1000 }, (_, i) =>
        container(report.id, from + i, null, { output: { stdout: 'x'.repeat(1000), stderr: null } }),
      ),
    );
  await store.reports.fail(report.id);
  await store.close();
  const before = new Database(path.join(dataDir, 'tally.sqlite'), { readonly: true });
  t.ok((before.pragma('freelist_count', { simple: true }) as number) > 300, 'the deleted rows left free pages');
  before.close();

  const { stdout } = await run(process.execPath, [...TALLY, 'vacuum', '--json'], {
    cwd: root,
    env: { ...process.env, TALLY_DATA_DIR: dataDir },
  });
  const done = JSON.parse(stdout);
  t.equal(done.vacuumed, true);
  t.ok(done.bytes_after <= done.bytes_before, `${done.bytes_before} → ${done.bytes_after} bytes`);
  t.ok(done.bytes_after < 2 * 1024 * 1024, 'the 6 MB of deleted rows are not in the file any more');
  const db = new Database(path.join(dataDir, 'tally.sqlite'), { readonly: true });
  t.teardown(() => db.close());
  t.equal(db.pragma('auto_vacuum', { simple: true }), 2, 'switched to incremental vacuum');
  t.equal(db.prepare('select name from profiles').pluck().get(), 'main', 'what it holds stays');
});
