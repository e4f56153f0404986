/**
 * One file on a parse thread, seen from the import: its bytes go in with credit, its containers (or
 * counts of what the thread wrote itself) come out in order, with credit back as each is taken.
 */
import type { Worker } from 'node:worker_threads';
import { FormatError } from '../../formatter/api.js';
import type { FileHistory } from '../../history/file-history.js';
import { ImportFault } from '../../messages.js';
import type { StoredContainer } from '../../store/types.js';
import { INPUT_CREDIT, type FromWorker, type JobFailure, type JobResult, type ToWorker } from './protocol.js';

/** Bytes gathered into one message to a worker. */
const SEND_BYTES = 256 * 1024;

/** What a job hands the import: containers to write, or how many the worker wrote itself. */
export type JobOutput = { containers: StoredContainer[] } | { wrote: number } | { history: FileHistory | null };

/** One file on a worker: `feed` sends its bytes, `output` yields its containers (or counts) in order. */
export class ParseJob {
  result: JobResult | null = null;
  /** Resolves once the worker has let go of the job (done, failed or stopped): nothing of it is written after. */
  readonly finished: Promise<void>;
  private readonly out: JobOutput[] = [];
  private failure: Error | null = null;
  private done = false;
  private unread = 0;
  private onRead: (() => void) | null = null;
  private onOutput: (() => void) | null = null;
  private end!: () => void;

  constructor(
    readonly id: number,
    private readonly worker: Worker,
    private readonly release: () => void,
  ) {
    this.finished = new Promise<void>((resolve) => (this.end = resolve));
  }

  /** The file's turn to write (a worker writing itself): ids move past `base`, rows get `fileIndex`. */
  commit(base: number, fileIndex: number): void {
    if (!this.failure && !this.done) this.send({ t: 'commit', job: this.id, base, fileIndex });
  }

  send(m: ToWorker, transfer?: ArrayBuffer[]): void {
    this.worker.postMessage(m, transfer);
  }

  /** Streams the file to the worker with credit; a source error fails the job with that error. */
  async feed(source: AsyncIterable<Buffer>): Promise<void> {
    // Small chunks (a socket's, say) are gathered first: each message to a worker has a fixed cost.
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const send = async (): Promise<void> => {
      // A copy the worker can own: chunks are often views into a shared pool.
      const data = new Uint8Array(pendingBytes);
      let at = 0;
      for (const c of pending) {
        data.set(c, at);
        at += c.length;
      }
      pending = [];
      pendingBytes = 0;
      this.unread++;
      this.send({ t: 'chunk', job: this.id, data }, [data.buffer]);
      while (this.unread >= INPUT_CREDIT && !this.failure && !this.done)
        await new Promise<void>((resolve) => (this.onRead = resolve));
    };
    try {
      for await (const chunk of source) {
        if (this.failure || this.done) return;
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= SEND_BYTES) await send();
      }
      if (this.failure || this.done) return;
      if (pendingBytes > 0) await send();
      if (!this.failure && !this.done) this.send({ t: 'end', job: this.id });
    } catch (e) {
      this.abort(e instanceof Error ? e : new Error(String(e)));
    }
  }

  /** The containers, batch by batch (the worker gets credit back as each is taken), or counts written. */
  async *output(): AsyncGenerator<JobOutput> {
    for (;;) {
      if (this.failure) throw this.failure;
      const next = this.out.shift();
      if (next) {
        yield next;
        if ('containers' in next && !this.failure && !this.done) this.send({ t: 'ack', job: this.id });
        continue;
      }
      if (this.done) return;
      await new Promise<void>((resolve) => (this.onOutput = resolve));
    }
  }

  /** Stops the job; `output` throws `reason`; `finished` resolves when the worker has stopped. */
  abort(reason: Error): void {
    if (this.failure || this.done) return;
    this.failure = reason;
    this.send({ t: 'abort', job: this.id });
    this.wakeFeeder();
    this.wakeReader();
  }

  receive(m: FromWorker): void {
    if (m.t === 'read') {
      this.unread--;
      this.wakeFeeder();
    } else if (m.t === 'batch') {
      if (!this.failure) this.out.push({ containers: m.containers });
      this.wakeReader();
    } else if (m.t === 'wrote') {
      if (!this.failure) this.out.push({ wrote: m.count });
      this.wakeReader();
    } else if (m.t === 'history') {
      if (!this.failure) this.out.push({ history: m.history });
      this.wakeReader();
    } else if (m.t === 'done') {
      this.result = m.result;
      this.done = true;
      this.settle();
    } else if (m.t === 'fail') {
      this.failure ??= revive(m.error);
      this.settle();
    }
  }

  /** The worker died under the job. */
  lose(err: Error): void {
    this.failure ??= err;
    this.settle();
  }

  private settle(): void {
    this.release();
    this.end();
    this.wakeFeeder();
    this.wakeReader();
  }

  private wakeFeeder(): void {
    const f = this.onRead;
    this.onRead = null;
    f?.();
  }

  private wakeReader(): void {
    const f = this.onOutput;
    this.onOutput = null;
    f?.();
  }
}

/** A worker's error as the import thread would have seen it: FormatErrors keep their position. */
function revive(e: JobFailure): Error {
  if (e.name === 'FormatError') return new FormatError(e.message, e.line, e.column);
  if (e.name === 'StoreWriteError') {
    // The worker's error, with its code, is the cause: a full disk is told apart by it.
    const cause = Object.assign(new Error(e.message), e.code ? { code: e.code } : {});
    return new ImportFault('store_unavailable', { detail: e.message, cause });
  }
  const err = new Error(e.message);
  err.name = e.name;
  if (e.stack) err.stack = e.stack;
  return err;
}
