/**
 * The embedded store's row writer (ContainerStore.rowWriter): container rows written from a parse
 * thread's own connection to the database, so an archive's rows are encoded and inserted off the
 * import thread. SQLite takes one writer at a time; the import hands the write turn to one file at
 * a time, so writers rarely wait. A parse thread loads this module by its URL: it imports nothing
 * of the store's but the row mapping and the connection settings.
 */
import Database from 'better-sqlite3';
import type { ContainerRowWriter, OpenRowWriter } from '../containers.js';
import type { StoredContainer } from '../types.js';
import { BUSY_TIMEOUT_MS, tuneConnection } from './connection.js';
import { columnIndex, containerValues, INSERT_CONTAINER_SQL } from './rows.js';

/** What the store hands the thread (plain data). */
export interface RowWriterOptions {
  databasePath: string;
}

/** A container's bind values (CONTAINER_COLUMNS order), encoded ahead of its write. */
export type ContainerRowValues = unknown[] & { readonly encoded: true };

/** Where the values that depend on the file's place in the report sit in ContainerRowValues. */
const ROW_SEQ = columnIndex('seq');
const ROW_PARENT_SEQ = columnIndex('parent_seq');
const ROW_FILE_INDEX = columnIndex('file_index');

const JSON_COLUMNS = ['failure', 'output', 'properties', 'attachment_refs', 'attachments', 'attempts', 'meta'].map(
  columnIndex,
);
/** Shorter JSON (a test's meta, say) is cheaper bound as text in the turn than made a Buffer before it. */
const ENCODE_FROM_CHARS = 256;

/**
 * As containerValues, with the longer JSON columns (output, stack traces) as UTF-8 bytes (stored as
 * BLOBs, read back by toContainer like text). A parse thread encodes its rows while it waits for the
 * write turn, so the turn itself, which all threads share, only copies bytes into pages.
 */
export function encodeContainerRow(c: StoredContainer): ContainerRowValues {
  const v = containerValues(c);
  for (const i of JSON_COLUMNS) {
    const text = v[i];
    if (typeof text === 'string' && text.length >= ENCODE_FROM_CHARS) v[i] = Buffer.from(text, 'utf8');
  }
  return v as ContainerRowValues;
}

export class SqliteRowWriter implements ContainerRowWriter<ContainerRowValues> {
  private readonly db: Database.Database;
  private readonly insertBatch: (rows: readonly ContainerRowValues[]) => void;

  constructor(databasePath: string) {
    // fileMustExist: the store created and migrated it; a thread never makes a database of its own.
    this.db = new Database(databasePath, { timeout: BUSY_TIMEOUT_MS, fileMustExist: true });
    tuneConnection(this.db);
    const insert = this.db.prepare<unknown[]>(INSERT_CONTAINER_SQL);
    this.insertBatch = this.db.transaction((rows: readonly ContainerRowValues[]) => {
      for (const row of rows) insert.run(...row);
    });
  }

  encode(c: StoredContainer): ContainerRowValues {
    return encodeContainerRow(c);
  }

  place(row: ContainerRowValues, base: number, fileIndex: number): void {
    (row[ROW_SEQ] as number) += base;
    if (row[ROW_PARENT_SEQ] !== null) (row[ROW_PARENT_SEQ] as number) += base;
    row[ROW_FILE_INDEX] = fileIndex;
  }

  write(rows: readonly ContainerRowValues[]): void {
    this.insertBatch(rows);
  }

  close(): void {
    this.db.close();
  }
}

export const openRowWriter: OpenRowWriter = (options) =>
  new SqliteRowWriter((options as RowWriterOptions).databasePath);
