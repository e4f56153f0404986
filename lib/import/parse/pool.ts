/**
 * Parse workers shared by all imports: a file parsed by a built-in formatter runs on a worker
 * thread while the import thread receives bytes, inflates the next entry and writes containers,
 * so an archive is parsed on every core. Formatters loaded as plugins (TALLY_FORMATTERS, or given
 * to createTally) are parsed on the import thread, as they cannot be loaded by a worker for sure.
 */
import { Worker } from 'node:worker_threads';
import { builtinFormatters } from '../../../formatters/index.js';
import { FormatError, type Formatter } from '../../formatter/api.js';
import type { StoredContainer } from '../../store/types.js';
import type { FileHistory } from '../../history/column.js';
import { ImportFault } from '../../messages.js';
import {
  INPUT_CREDIT,
  type FromWorker,
  type JobFailure,
  type JobResult,
  type JobStart,
  type ToWorker,
} from './protocol.js';

const builtins = new Set<Formatter>(builtinFormatters);
/** Bytes gathered into one message to a worker. */
const SEND_BYTES = 256 * 1024;

/** Workers run from the same kind of file as this module: .js when built, .ts from the sources. */
const FROM_SOURCES = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(FROM_SOURCES ? './thread.ts' : './thread.js', import.meta.url);

/**
 * Each worker's heap: a small young generation (parsing makes short-lived garbage at a high rate,
 * and V8's default lets each thread's heap grow by tens of MiB before collecting it), and an old
 * generation capped at 1 GiB, so a file whose formatter must hold much (or a hostile one) ends its
 * own import instead of the process.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 1024 };

function newWorker(): Worker {
  if (!FROM_SOURCES) return new Worker(WORKER_URL, { resourceLimits: WORKER_LIMITS });
  // From the sources (tests, `node --import tsx`), the worker needs TypeScript loading of its own:
  // a worker does not always get the loader the main thread was started with.
  const api = import.meta.resolve('tsx/esm/api');
  return new Worker(
    `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER_URL.href)}); });`,
    { eval: true, resourceLimits: WORKER_LIMITS },
  );
}

/** A job's start message, with the formatter itself instead of its key. */
export type ParseJobOptions = Omit<JobStart, 't' | 'job' | 'formatter'> & { formatter: Formatter };

/** What a job hands the import: containers to write, or how many the worker wrote itself. */
export type JobOutput = { containers: StoredContainer[] } | { wrote: number } | { history: FileHistory | null };

interface Slot {
  worker: Worker;
  jobs: Map<number, ParseJob>;
  /** Resolves when the worker has loaded its formatters (or has died trying). */
  ready: Promise<void>;
}

export class ParsePool {
  private readonly slots: Slot[] = [];
  private nextJob = 1;
  private lastPicked = -1;
  private closed = false;
  /** Files parsed on workers since start (for operators and tests: is the pool in use?). */
  jobsStarted = 0;

  /** `size` workers at most, started on first use; 0 parses everything on the import thread. */
  constructor(readonly size: number) {}

  /** True when files of this formatter are parsed on a worker. */
  handles(formatter: Formatter): boolean {
    return this.size > 0 && !this.closed && builtins.has(formatter);
  }

  start(o: ParseJobOptions): ParseJob {
    const slot = this.pick();
    const job = new ParseJob(this.nextJob++, slot.worker, () => slot.jobs.delete(job.id));
    this.jobsStarted++;
    slot.jobs.set(job.id, job);
    job.send({ ...o, t: 'start', job: job.id, formatter: o.formatter.key });
    return job;
  }

  /** Starts every worker now and waits until they have loaded, so the first imports do not wait for them. */
  async warm(): Promise<void> {
    while (!this.closed && this.slots.length < this.size) this.spawn();
    await Promise.all(this.slots.map((s) => s.ready));
  }

  /** Ends the workers; jobs still running fail. */
  async close(): Promise<void> {
    this.closed = true;
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  /**
   * A new worker while below size, else the one with the fewest jobs; among equals, the next after
   * the last one picked. Always taking the first of equals gave one worker two thirds of an
   * archive's files (with three entries in flight, ties are the rule), and the import waited on it.
   */
  private pick(): Slot {
    if (this.slots.length < this.size) return this.spawn();
    const n = this.slots.length;
    let best = (this.lastPicked + 1) % n;
    for (let i = 2; i <= n; i++) {
      const at = (this.lastPicked + i) % n;
      if (this.slots[at]!.jobs.size < this.slots[best]!.jobs.size) best = at;
    }
    this.lastPicked = best;
    return this.slots[best]!;
  }

  private spawn(): Slot {
    const worker = newWorker();
    // Idle workers must not keep a process alive that has nothing else to do.
    worker.unref();
    let loaded!: () => void;
    const slot: Slot = { worker, jobs: new Map(), ready: new Promise<void>((resolve) => (loaded = resolve)) };
    this.slots.push(slot);
    worker.on('message', (m: FromWorker) => {
      if (m.t === 'ready') loaded();
      else slot.jobs.get(m.job)?.receive(m);
    });
    const lost = (err: Error): void => {
      loaded();
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots.splice(i, 1);
      for (const job of [...slot.jobs.values()]) job.lose(err);
    };
    worker.on('error', (err: Error & { code?: string }) => {
      lost(
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new ImportFault('internal_error', {
              detail: `Parsing a file needed more than the ${WORKER_LIMITS.maxOldGenerationSizeMb} MiB a parse worker may hold.`,
              cause: err,
            })
          : err,
      );
    });
    worker.on('exit', (code) => lost(new Error(`A parse worker stopped (exit code ${code}).`)));
    return slot;
  }
}

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
