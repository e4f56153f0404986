/**
 * The embedded store's own connection to `<dataDir>/tally.sqlite`: opened and migrated once, its
 * fixed statements (statements.ts) and the ones shaped by a call, the bulk insert, and the thread
 * that checkpoints the log once bulk writes have begun. better-sqlite3 is synchronous; every call
 * is one short statement or one transaction over a caller-sized batch.
 */
import Database from 'better-sqlite3';
import type { StoredContainer } from '../types.js';
import { WalCheckpointer } from './checkpointer.js';
import { BUSY_TIMEOUT_MS, tuneConnection } from './connection.js';
import { containerValues } from './rows.js';
import { migrate } from './schema.js';
import { switchSmallToIncremental } from './vacuum-mode.js';
import { prepareStatements, type Statements } from './statements.js';

/** Page size of a new database file. */
export const PAGE_SIZE = 16384;

interface Open {
  db: Database.Database;
  statements: Statements;
  insertBatch: (batch: readonly StoredContainer[]) => void;
}

export class EmbeddedDatabase {
  #open: Open | null = null;
  #checkpointer: WalCheckpointer | null = null;
  // Statements whose text depends on the call's shape, prepared once per shape.
  readonly #shaped = new Map<string, Database.Statement<unknown[]>>();

  constructor(
    readonly path: string,
    /** Up to this size, a database made before incremental vacuum is switched over at open (space.ts). */
    private readonly switchAtOpenBytes: number,
  ) {}

  /** Opens (creating and migrating the file if need be); a failure leaves it closed. */
  open(): void {
    const db = new Database(this.path, { timeout: BUSY_TIMEOUT_MS });
    try {
      // Only a new, empty file takes it (an existing one keeps the size it was made with). Imports
      // write hundreds of bytes a row; 16 KiB pages quarter the log's frames and write calls: a
      // 50 MiB file's rows went from 5.2 to 3.6 µs a row (bench/RESULTS.md, 2026-11-24).
      db.pragma(`page_size = ${PAGE_SIZE}`);
      // So deleted rows can give their space back (space.ts). Like the page size, only a new file takes
      // it, and only before WAL mode writes the file's first page.
      db.pragma('auto_vacuum = INCREMENTAL');
      // WAL: readers never block the writer.
      db.pragma('journal_mode = WAL');
      tuneConnection(db);
      migrate(db);
      switchSmallToIncremental(db, this.switchAtOpenBytes);
      const statements = prepareStatements(db);
      const insertBatch = db.transaction((batch: readonly StoredContainer[]) => {
        for (const c of batch) statements.insertContainer.run(...containerValues(c));
      });
      this.#open = { db, statements, insertBatch };
    } catch (err) {
      db.close();
      throw err;
    }
  }

  async close(): Promise<void> {
    const checkpointer = this.#checkpointer;
    this.#checkpointer = null;
    await checkpointer?.stop();
    this.#open?.db.close();
    this.#open = null;
    this.#shaped.clear();
  }

  /** The open connection; throws when the store is closed. */
  get db(): Database.Database {
    return this.#o.db;
  }

  get s(): Statements {
    return this.#o.statements;
  }

  /** The connection a long job began on is still the open one. */
  isStill(db: Database.Database): boolean {
    return this.#open?.db === db;
  }

  transaction(work: () => void): void {
    this.#o.db.transaction(work)();
  }

  shaped(sql: string): Database.Statement<unknown[]> {
    let statement = this.#shaped.get(sql);
    if (!statement) {
      statement = this.#o.db.prepare<unknown[]>(sql);
      this.#shaped.set(sql, statement);
    }
    return statement;
  }

  /** One transaction over the batch. */
  insertContainers(batch: readonly StoredContainer[]): void {
    const insertBatch = this.#o.insertBatch;
    this.startCheckpointer();
    insertBatch(batch);
  }

  /** The thread that checkpoints the log, once bulk writes have begun (for tests and operators). */
  get checkpointer(): WalCheckpointer | null {
    return this.#checkpointer;
  }

  /** Started with the first bulk write, so commands and idle stores run no extra thread. */
  startCheckpointer(): void {
    if (!this.#checkpointer && this.#open) this.#checkpointer = new WalCheckpointer(this.path);
  }

  get #o(): Open {
    if (!this.#open) throw new Error('EmbeddedStore is not open: call init() first (and not after close()).');
    return this.#open;
  }
}
