/**
 * One file being parsed on a parse thread: an input queue fed by the import's messages, an output
 * drained by credit. Without a row writer its containers go back in batches; with one (the
 * embedded store) it encodes them as they come, holds them until the file's turn, then writes them.
 */
import type { OpenedContainer } from '../../formatter/api.js';
import { FileHistoryCollector } from '../../history/file-history.js';
import type { ContainerRowWriter } from '../../store/containers.js';
import type { StoredContainer } from '../../store/types.js';
import type { ContainerTarget } from '../assemble/assembler.js';
import { estimateBytes } from '../assemble/container-batcher.js';
import {
  HISTORY_MAX_CONTAINERS,
  OUT_BATCH_BYTES,
  OUT_BATCH_COUNT,
  OUTPUT_CREDIT,
  WRITE_BATCH_BYTES,
  WRITE_BATCH_COUNT,
  WROTE_REPORT_EVERY,
  type FromWorker,
} from './protocol.js';

/** The import stopped the file. */
class Aborted extends Error {}

/** A failed write to the store from this thread: the import answers store_unavailable. */
export class StoreWriteError extends Error {
  override name = 'StoreWriteError';
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/** One file being parsed: an input queue fed by messages, an output batch drained by credit. */
export class ThreadJob implements ContainerTarget {
  private readonly chunks: Uint8Array[] = [];
  private ended = false;
  aborted = false;
  private wake: (() => void) | null = null;
  /** Containers for the import thread to write (no writer here). */
  private batch: StoredContainer[] = [];
  /** Rows this worker writes itself, encoded as they come so the write turn only copies them. */
  private rows: unknown[] = [];
  private batchBytes = 0;
  private unacked = 0;
  private credit: (() => void) | null = null;
  /** Writing itself: batches held until the file's turn, and the turn once given. */
  private held: unknown[][] = [];
  private turn: { base: number; fileIndex: number } | null = null;
  private writeFailure: Error | null = null;
  private unreported = 0;

  /** The store's row writer, once loaded (before the parse starts), when the worker writes itself. */
  writer: ContainerRowWriter | null = null;

  constructor(
    readonly id: number,
    writes: boolean,
    private readonly post: (m: FromWorker) => void,
  ) {
    // The store reads nothing back for a report whose files' rows all came from workers.
    this.history = writes
      ? new FileHistoryCollector(HISTORY_MAX_CONTAINERS, (history) => post({ t: 'history', job: id, history }))
      : null;
  }

  readonly history: FileHistoryCollector | null;

  /** The file's turn to write: what was held goes to the store now, the rest as it comes. */
  commit(base: number, fileIndex: number): void {
    this.turn = { base, fileIndex };
    const held = this.held;
    this.held = [];
    for (const batch of held) this.write(batch);
    this.release();
  }

  /** Waits for the file's turn (the end of a file written by the worker). */
  async committed(): Promise<void> {
    while (!this.turn && !this.aborted) await new Promise<void>((resolve) => (this.credit = resolve));
    if (this.aborted) throw new Aborted('aborted');
    if (this.writeFailure) throw this.writeFailure;
  }

  take(data: Uint8Array): void {
    this.chunks.push(data);
    this.poke();
  }

  end(): void {
    this.ended = true;
    this.poke();
  }

  abort(): void {
    this.aborted = true;
    this.poke();
    this.release();
  }

  ack(): void {
    this.unacked--;
    this.release();
  }

  private release(): void {
    const c = this.credit;
    this.credit = null;
    c?.();
  }

  async *input(): AsyncGenerator<Buffer> {
    for (;;) {
      if (this.aborted) throw new Aborted('aborted');
      const next = this.chunks.shift();
      if (next) {
        this.post({ t: 'read', job: this.id });
        yield Buffer.from(next.buffer, next.byteOffset, next.byteLength);
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  opened(c: OpenedContainer): void {
    this.history?.opened(c);
  }

  push(c: StoredContainer): void {
    // Before the write shifts its ids: the history keeps the file's own.
    this.history?.add(c);
    this.batchBytes += estimateBytes(c);
    if (this.writer) {
      this.rows.push(this.writer.encode(c));
      if (this.rows.length >= WRITE_BATCH_COUNT || this.batchBytes >= WRITE_BATCH_BYTES) this.flush();
    } else {
      this.batch.push(c);
      if (this.batch.length >= OUT_BATCH_COUNT || this.batchBytes >= OUT_BATCH_BYTES) this.flush();
    }
  }

  ready(): Promise<void> | null {
    if (this.aborted) return Promise.reject(new Aborted('aborted'));
    if (this.writeFailure) return Promise.reject(this.writeFailure);
    const waiting = this.writer ? (this.turn ? 0 : this.held.length) : this.unacked;
    if (waiting < OUTPUT_CREDIT) return null;
    return new Promise<void>((resolve) => (this.credit = resolve));
  }

  flush(): void {
    if (this.aborted) return;
    if (!this.writer) {
      if (this.batch.length === 0) return;
      const batch = this.batch;
      this.batch = [];
      this.batchBytes = 0;
      this.unacked++;
      this.post({ t: 'batch', job: this.id, containers: batch });
      return;
    }
    if (this.rows.length === 0) return;
    const rows = this.rows;
    this.rows = [];
    this.batchBytes = 0;
    if (this.turn) this.write(rows);
    else this.held.push(rows);
  }

  private write(rows: unknown[]): void {
    if (this.writeFailure || this.aborted) return;
    const { base, fileIndex } = this.turn!;
    const writer = this.writer!;
    for (const row of rows) writer.place(row, base, fileIndex);
    try {
      writer.write(rows);
    } catch (e) {
      this.writeFailure = new StoreWriteError(
        `Writing containers failed: ${(e as Error).message}`,
        (e as { code?: string }).code,
      );
      return;
    }
    this.unreported += rows.length;
    if (this.unreported >= WROTE_REPORT_EVERY) this.report();
  }

  /** Tells the import how many containers were written since the last report (its progress). */
  report(): void {
    if (this.unreported === 0) return;
    this.post({ t: 'wrote', job: this.id, count: this.unreported });
    this.unreported = 0;
  }

  private poke(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }
}
