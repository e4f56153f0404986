/**
 * Container rows written from a parse worker's own connection to the embedded database, so an
 * archive's rows are encoded and inserted off the request thread. SQLite takes one writer at a
 * time; the import hands the write turn to one file at a time, so writers rarely wait.
 */
import Database from 'better-sqlite3';
import { CONTAINER_COLUMNS, type ContainerRowValues } from './rows.js';
import { BUSY_TIMEOUT_MS, tuneConnection } from './connection.js';

export const INSERT_CONTAINER_SQL = `insert into containers (${CONTAINER_COLUMNS}) values (${CONTAINER_COLUMNS.split(
  ',',
)
  .map(() => '?')
  .join(', ')})`;

export class SqliteContainerWriter {
  private readonly db: Database.Database;
  private readonly insertBatch: (rows: readonly ContainerRowValues[]) => void;

  constructor(databasePath: string) {
    // fileMustExist: the store created and migrated it; a worker never makes a database of its own.
    this.db = new Database(databasePath, { timeout: BUSY_TIMEOUT_MS, fileMustExist: true });
    tuneConnection(this.db);
    const insert = this.db.prepare<unknown[]>(INSERT_CONTAINER_SQL);
    this.insertBatch = this.db.transaction((rows: readonly ContainerRowValues[]) => {
      for (const row of rows) insert.run(...row);
    });
  }

  /** Rows encoded by encodeContainerRow, in one transaction. */
  write(rows: readonly ContainerRowValues[]): void {
    this.insertBatch(rows);
  }

  close(): void {
    this.db.close();
  }
}
