/**
 * Container rows written from a parse worker's own connection to the embedded database, so an
 * archive's rows are encoded and inserted off the request thread. SQLite takes one writer at a
 * time; the import hands the write turn to one file at a time, so writers rarely wait.
 */
import Database from 'better-sqlite3';
import type { StoredContainer } from '../store.js';
import { CONTAINER_COLUMNS, containerValues } from './rows.js';

/** Same wait as the store's own connection: the store's short writes (progress) may hold the lock. */
const BUSY_TIMEOUT_MS = 5_000;

export const INSERT_CONTAINER_SQL = `insert into containers (${CONTAINER_COLUMNS}) values (${CONTAINER_COLUMNS.split(',').map(() => '?').join(', ')})`;

export class SqliteContainerWriter {
  private readonly db: Database.Database;
  private readonly insertBatch: (batch: readonly StoredContainer[]) => void;

  constructor(databasePath: string) {
    // fileMustExist: the store created and migrated it; a worker never makes a database of its own.
    this.db = new Database(databasePath, { timeout: BUSY_TIMEOUT_MS, fileMustExist: true });
    this.db.pragma('synchronous = NORMAL');
    // Bulk writes: a checkpoint (which syncs) every 64 MiB of WAL instead of SQLite's 4 MiB.
    this.db.pragma('wal_autocheckpoint = 16384');
    this.db.pragma('foreign_keys = ON');
    const insert = this.db.prepare<unknown[]>(INSERT_CONTAINER_SQL);
    this.insertBatch = this.db.transaction((batch: readonly StoredContainer[]) => {
      for (const c of batch) insert.run(...containerValues(c));
    });
  }

  write(batch: readonly StoredContainer[]): void {
    this.insertBatch(batch);
  }

  close(): void {
    this.db.close();
  }
}
