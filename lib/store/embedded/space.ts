/**
 * Giving the space of deleted rows back. SQLite keeps freed pages inside its file for later rows, so
 * a deletion alone never shrinks the data dir. A database made with `auto_vacuum = INCREMENTAL`
 * (every new one: database.ts sets it before the first table) keeps the bookkeeping that lets
 * `incremental_vacuum` move the last pages into the free ones and cut the file's end off; in WAL
 * mode the file is cut when a checkpoint copies that commit, and the log file keeps its length until
 * a truncating checkpoint empties it.
 *
 * A database made before this version has no such bookkeeping, and only a full VACUUM (which
 * rewrites the whole file, through the log: twice its size written, up to its size again on disk
 * meanwhile) switches it over (vacuum-mode.ts): at open for a small one, by `tally vacuum` for a
 * larger one, which until then keeps freed pages for new rows (reclaim says so: `incremental: false`).
 */
import { stat } from 'node:fs/promises';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type Database from 'better-sqlite3';
import type { Reclaimed } from '../store.js';
import { BUSY_TIMEOUT_MS } from './connection.js';
import type { EmbeddedDatabase } from './database.js';
import { isIncremental, rewrite } from './vacuum-mode.js';

/** Pages freed per statement: each holds the write lock for a few milliseconds, then the loop runs. */
const VACUUM_STEP_PAGES = 256;
/** How long the truncating checkpoint on the store's own connection waits for others (no checkpointer thread). */
const TRUNCATE_WAIT_MS = 200;

/** The bytes of the database file and its log. */
export async function databaseBytes(path: string): Promise<number> {
  let bytes = 0;
  for (const file of [path, `${path}-wal`])
    bytes += await stat(file).then(
      (s) => s.size,
      () => 0,
    );
  return bytes;
}

/** Frees the database's unused pages in steps, then empties the log (Store.reclaimSpace). */
export async function reclaim(d: EmbeddedDatabase): Promise<Reclaimed> {
  const db = d.db;
  const before = await databaseBytes(d.path);
  const incremental = isIncremental(db);
  if (incremental) {
    let free = db.pragma('freelist_count', { simple: true }) as number;
    while (free > 0 && d.isStill(db)) {
      db.exec(`pragma incremental_vacuum(${VACUUM_STEP_PAGES})`);
      const left = db.pragma('freelist_count', { simple: true }) as number;
      if (left >= free) break;
      free = left;
      await yieldToLoop();
    }
  }
  if (d.isStill(db)) await emptyLog(d, db);
  return { bytes: Math.max(0, before - (await databaseBytes(d.path))), incremental };
}

/**
 * The truncating checkpoint waits for readers and writers of the log: on the checkpointer thread when
 * it runs (imports are writing), else briefly on this connection (nobody else writes much then).
 */
async function emptyLog(d: EmbeddedDatabase, db: Database.Database): Promise<void> {
  if (d.checkpointer) {
    await d.checkpointer.truncate();
    return;
  }
  db.pragma(`busy_timeout = ${TRUNCATE_WAIT_MS}`);
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // Busy: the log is emptied after the next deletion, or copied by the next checkpoint.
  } finally {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  }
}

/** `tally vacuum`: the whole file rewritten, switched to incremental vacuum on the way (Store.vacuum). */
export async function vacuumWhole(d: EmbeddedDatabase): Promise<{ bytesBefore: number; bytesAfter: number }> {
  const bytesBefore = await databaseBytes(d.path);
  rewrite(d.db);
  await emptyLog(d, d.db);
  return { bytesBefore, bytesAfter: await databaseBytes(d.path) };
}
