/**
 * Parse threads shared by all imports: a file whose formatter a thread can load runs on a worker
 * thread while the import thread receives bytes, inflates the next entry and writes containers,
 * so an archive is parsed on every core. Which formatters those are is given by the composition
 * root (modules by URL: the built-in formatters); formatters loaded as plugins (TALLY_FORMATTERS, or
 * given to createTally) are parsed on the import thread, as a worker cannot load them for sure.
 */
import { Worker } from 'node:worker_threads';
import type { Formatter } from '../../formatter/api.js';
import { ImportFault } from '../../messages.js';
import { loadFormatterModules, type FormatterModule } from './formatter-modules.js';
import { ParseJob } from './job.js';
import type { FromWorker, JobStart, ThreadData } from './protocol.js';

/** Workers run from the same kind of file as this module: .js when built, .ts from the sources. */
const FROM_SOURCES = import.meta.url.endsWith('.ts');
const THREAD_URL = new URL(FROM_SOURCES ? './thread.ts' : './thread.js', import.meta.url);

/**
 * Each worker's heap: a small young generation (parsing makes short-lived garbage at a high rate,
 * and V8's default lets each thread's heap grow by tens of MiB before collecting it), and an old
 * generation capped at 1 GiB, so a file whose formatter must hold much (or a hostile one) ends its
 * own import instead of the process.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 1024 };

function newWorker(workerData: ThreadData): Worker {
  if (!FROM_SOURCES) return new Worker(THREAD_URL, { workerData, resourceLimits: WORKER_LIMITS });
  // From the sources (tests, `node --import tsx`), the worker needs TypeScript loading of its own:
  // a worker does not always get the loader the main thread was started with.
  const api = import.meta.resolve('tsx/esm/api');
  return new Worker(
    `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); ` +
      `return import(${JSON.stringify(THREAD_URL.href)}); });`,
    { eval: true, workerData, resourceLimits: WORKER_LIMITS },
  );
}

/** A job's start message, with the formatter itself instead of its key. */
export type ParseJobOptions = Omit<JobStart, 't' | 'job' | 'formatter'> & { formatter: Formatter };

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

  /**
   * `size` workers at most, started on first use (0 parses everything on the import thread), able
   * to run the formatters of `modules`, which are loaded here too.
   */
  static async create(size: number, modules: readonly FormatterModule[]): Promise<ParsePool> {
    const formatters = size > 0 ? await loadFormatterModules(modules) : [];
    return new ParsePool(size, { formatterModules: modules }, new Set(formatters));
  }

  private constructor(
    readonly size: number,
    private readonly threadData: ThreadData,
    private readonly formatters: ReadonlySet<Formatter>,
  ) {}

  /** True when files of this formatter are parsed on a worker: it is one the threads load. */
  handles(formatter: Formatter): boolean {
    return this.size > 0 && !this.closed && this.formatters.has(formatter);
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
    const worker = newWorker(this.threadData);
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
              detail:
                `Parsing a file needed more than the ${WORKER_LIMITS.maxOldGenerationSizeMb} MiB ` +
                'a parse worker may hold.',
              cause: err,
            })
          : err,
      );
    });
    worker.on('exit', (code) => lost(new Error(`A parse worker stopped (exit code ${code}).`)));
    return slot;
  }
}
