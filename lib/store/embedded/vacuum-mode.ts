/**
 * Whether the embedded database does incremental vacuum, and the switch of one made before it
 * (space.ts says why): a full VACUUM, at open when the database is small, else by `tally vacuum`.
 */
import type Database from 'better-sqlite3';

/** A database made before incremental vacuum is switched over at open when it is no larger than this. */
export const AUTO_SWITCH_BYTES = 128 * 1024 * 1024;

const INCREMENTAL = 2;

export function isIncremental(db: Database.Database): boolean {
  return db.pragma('auto_vacuum', { simple: true }) === INCREMENTAL;
}

/**
 * At open: a small database made before incremental vacuum is switched over now. Another process
 * holding the database makes the VACUUM fail; it is tried again at the next open.
 */
export function switchSmallToIncremental(db: Database.Database, limit = AUTO_SWITCH_BYTES): void {
  if (isIncremental(db)) return;
  const bytes =
    (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
  if (bytes > limit) return;
  try {
    rewrite(db);
    db.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // Busy: the database stays as it was, and works as before.
  }
}

/** auto_vacuum only changes on an existing database through a VACUUM (which writes the whole file into the log). */
export function rewrite(db: Database.Database): void {
  db.pragma('auto_vacuum = INCREMENTAL');
  db.exec('vacuum');
}
