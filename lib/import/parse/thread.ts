/**
 * A parse worker: runs built-in formatters over files whose bytes the import streams in, and
 * streams the assembled containers back. Sniffing, voting, ids across files and the store stay
 * with the import; what is costly per byte (decoding, tokenizing, building containers) runs here,
 * so the files of an archive are parsed on every core.
 */
import { parentPort } from 'node:worker_threads';
import { builtinFormatters } from '../../../formatters/index.js';
import type { Formatter, OpenedContainer, ParseContext } from '../../formatter/api.js';
import { decodeText } from '../../formatter/encoding.js';
import type { ContainerRowWriter, OpenRowWriter, RowWriterDescription } from '../../store/containers.js';
import type { StoredContainer } from '../../store/types.js';
import { FileAssembler, type AttachmentRef, type ContainerTarget } from '../assemble/assembler.js';
import { estimateBytes } from '../assemble/container-batcher.js';
import { FileHistoryCollector } from '../../history/column.js';
import {
  HISTORY_MAX_CONTAINERS,
  OUT_BATCH_BYTES,
  OUT_BATCH_COUNT,
  OUTPUT_CREDIT,
  WRITE_BATCH_BYTES,
  WRITE_BATCH_COUNT,
  WROTE_REPORT_EVERY,
  type FromWorker,
  type JobStart,
  type ToWorker,
} from './protocol.js';

const port = parentPort;
if (!port) throw new Error('parse-worker runs as a worker thread');
const formatters = new Map<string, Formatter>(builtinFormatters.map((f) => [f.key, f]));

class Aborted extends Error {}

/** A failed write to the store from this worker: the import answers store_unavailable. */
class StoreWriteError extends Error {
  override name = 'StoreWriteError';
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/** One row writer (a connection of its own) per store, kept for the worker's life. */
const writers = new Map<string, Promise<ContainerRowWriter>>();

function writerFor(description: RowWriterDescription): Promise<ContainerRowWriter> {
  const key = JSON.stringify(description);
  let w = writers.get(key);
  if (!w) {
    w = import(description.module).then((m: { openRowWriter: OpenRowWriter }) => m.openRowWriter(description.options));
    writers.set(key, w);
    // A writer that could not be opened is tried again by the next file.
    w.catch(() => writers.delete(key));
  }
  return w;
}

/** The store's row writer; failing to open it is a store fault (the import answers store_unavailable). */
async function openWriter(description: RowWriterDescription): Promise<ContainerRowWriter> {
  try {
    return await writerFor(description);
  } catch (e) {
    throw new StoreWriteError(`The database cannot be opened: ${(e as Error).message}`, (e as { code?: string }).code);
  }
}

/** One file being parsed: an input queue fed by messages, an output batch drained by credit. */
class Job implements ContainerTarget {
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
        post({ t: 'read', job: this.id });
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
      post({ t: 'batch', job: this.id, containers: batch });
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
    post({ t: 'wrote', job: this.id, count: this.unreported });
    this.unreported = 0;
  }

  private poke(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }
}

const jobs = new Map<number, Job>();

function post(m: FromWorker): void {
  port!.postMessage(m);
}

async function run(start: JobStart, job: Job): Promise<void> {
  try {
    if (start.rowWriter) job.writer = await openWriter(start.rowWriter);
    const formatter = formatters.get(start.formatter);
    if (!formatter) throw new Error(`The parse worker has no formatter ${start.formatter}.`);
    const refs: AttachmentRef[] = [];
    const assembler = new FileAssembler(start.reportId, 0, job, refs, () => undefined, start.maxTextChars);
    let lastId = 0;
    let producer: string | null = null;
    let noTests = false;
    const ctx: ParseContext = {
      fileName: start.fileName,
      nextId: () => ++lastId,
      limits: { maxTextChars: start.maxTextChars },
      setProducer: (p) => {
        producer = p;
      },
      options: { smart: start.smart },
      declareNoTests: () => {
        noTests = true;
      },
    };
    await formatter.parse(decodeText(job.input(), start.encoding), assembler, ctx);
    job.flush();
    job.history?.finish();
    if (start.rowWriter) {
      await job.committed();
      job.report();
    }
    post({
      t: 'done',
      job: job.id,
      result: {
        totals: assembler.totals,
        earliest: assembler.earliest,
        duplicates: assembler.duplicates,
        duplicateCount: assembler.duplicateCount,
        truncated: assembler.truncated,
        refs,
        producer,
        noTests,
        lastId,
      },
    });
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    const where = err as Error & { line?: unknown; column?: unknown; code?: unknown };
    post({
      t: 'fail',
      job: job.id,
      error: {
        name: err.name,
        message: err.message,
        line: typeof where.line === 'number' ? where.line : null,
        column: typeof where.column === 'number' ? where.column : null,
        stack: err.stack,
        ...(typeof where.code === 'string' ? { code: where.code } : {}),
      },
    });
  } finally {
    jobs.delete(job.id);
  }
}

port.on('message', (m: ToWorker) => {
  if (m.t === 'start') {
    // Registered at once: the file's chunks may come while its writer loads.
    const job = new Job(m.job, m.rowWriter !== null);
    jobs.set(m.job, job);
    void run(m, job);
    return;
  }
  const job = jobs.get(m.job);
  if (!job) return;
  if (m.t === 'chunk') job.take(m.data);
  else if (m.t === 'end') job.end();
  else if (m.t === 'ack') job.ack();
  else if (m.t === 'commit') job.commit(m.base, m.fileIndex);
  else job.abort();
});

// Formatters are loaded (imports above): the pool may count this worker as started.
post({ t: 'ready', job: 0 });
