/**
 * Settings every connection that writes rows to the embedded database takes: the store's own and
 * each parse worker's. One place, so no connection checkpoints far more often than the others. (The
 * checkpointer thread's connection sets its own: it never writes rows and never autocheckpoints.)
 */
import type Database from 'better-sqlite3';

/** How long a statement waits for another connection's write lock before failing with SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5_000;

/**
 * Log bytes after which a committing connection copies the log into the database itself (SQLite's
 * default is 4 MiB). The checkpointer thread normally does it long before; this is the safety net.
 */
export const AUTOCHECKPOINT_BYTES = 64 * 1024 * 1024;

/** The log's length in frames (pages) for a byte count, on this database's page size. */
function framesFor(db: Database.Database, bytes: number): number {
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  return Math.max(1, Math.round(bytes / pageSize));
}

export function tuneConnection(db: Database.Database): void {
  // NORMAL in WAL mode: a power cut can lose the last commits but never corrupts the file, and an
  // import in flight is redone anyway.
  db.pragma('synchronous = NORMAL');
  db.pragma(`wal_autocheckpoint = ${framesFor(db, AUTOCHECKPOINT_BYTES)}`);
  db.pragma('foreign_keys = ON');
}
