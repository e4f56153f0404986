/**
 * Moves the embedded database's write-ahead log into the database file on a thread of its own.
 *
 * Without it, the connection whose commit crosses `wal_autocheckpoint` copies the log and waits for
 * two fsyncs inside that commit: on a bulk import that is a parse worker, and every worker waits
 * behind it for the write lock (a quarter of a 400 MiB import's wall time, bench/RESULTS.md). Here
 * the copy runs beside the writers: a PASSIVE checkpoint never takes the write lock, and once it has
 * copied everything the next writer starts the log from its beginning again, so the file stays small.
 * The connections keep their own `wal_autocheckpoint` as a safety net for a checkpointer that lags.
 */
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';

/** Log bytes after which the log is copied whole and started over. */
const RESTART_BYTES = 16 * 1024 * 1024;
/** How often the thread looks at the log while imports write. */
const BUSY_INTERVAL_MS = 100;
/** How often it looks when the log has not changed since the last look. */
const IDLE_INTERVAL_MS = 250;
/** How long a RESTART waits for the write lock and for readers before it gives up until the next look. */
const RESTART_WAIT_MS = 1000;

export interface CheckpointerData {
  module: string;
  path: string;
  restartBytes: number;
  busyMs: number;
  idleMs: number;
  waitMs: number;
}

// Plain CommonJS, evaluated as the worker's script: it needs nothing but better-sqlite3, so it runs
// the same from the sources (tests) and from the build.
const SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.path, { fileMustExist: true, timeout: workerData.waitMs });
db.pragma('synchronous = NORMAL');
db.pragma('wal_autocheckpoint = 0');
const frames = Math.max(1, Math.round(workerData.restartBytes / db.pragma('page_size', { simple: true })));
let timer = null;
let stopped = false;
let lastLog = -1;
let lastCopied = 0;
function look() {
  timer = null;
  if (stopped) return;
  let active = false;
  try {
    // log: frames in the log; checkpointed: frames of it already copied into the database file.
    let [r] = db.pragma('wal_checkpoint(PASSIVE)');
    active = r.log !== lastLog;
    // More frames in the database than at the last look, or a log that started over since.
    if (r.checkpointed > 0 && (r.checkpointed !== lastCopied || r.log < lastLog))
      parentPort.postMessage({ t: 'copied', frames: r.checkpointed });
    lastCopied = r.checkpointed;
    // Writers keep appending while a passive copy runs, so the log would never be found all copied
    // and never start over. Once it is long and nearly copied, RESTART copies the rest while holding
    // writers back for that short while, and the next writer starts the log from its beginning.
    if (r.log >= frames && r.log - r.checkpointed <= frames / 4) {
      [r] = db.pragma('wal_checkpoint(RESTART)');
      parentPort.postMessage({ t: 'restart', log: r.log, checkpointed: r.checkpointed, busy: r.busy });
    }
    lastLog = r.log;
  } catch (e) {
    parentPort.postMessage({ t: 'error', message: e.message, code: e.code });
  }
  timer = setTimeout(look, active ? workerData.busyMs : workerData.idleMs);
}
parentPort.on('message', (m) => {
  if (m === 'stop') { stopped = true; if (timer) clearTimeout(timer); db.close(); parentPort.close(); return; }
  // After deletions: copy the whole log and empty its file, so the space it held comes back too.
  if (m && m.t === 'truncate') {
    try {
      const [r] = db.pragma('wal_checkpoint(TRUNCATE)');
      parentPort.postMessage({ t: 'truncated', id: m.id, busy: r.busy });
    } catch (e) {
      parentPort.postMessage({ t: 'truncated', id: m.id, busy: 1, message: e.message });
    }
  }
});
look();
`;

/** One per open embedded database that takes bulk writes; started on the first import. */
export class WalCheckpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;
  /** Looks that copied frames into the database, times the thread started the log over, the last error. */
  copies = 0;
  restarts = 0;
  lastError: string | null = null;
  /** Truncating checkpoints asked for and not answered yet, by request id. */
  readonly #truncates = new Map<number, (emptied: boolean) => void>();
  #nextTruncate = 0;
  #ended = false;

  constructor(databasePath: string) {
    const data: CheckpointerData = {
      module: createRequire(import.meta.url).resolve('better-sqlite3'),
      path: databasePath,
      restartBytes: RESTART_BYTES,
      busyMs: BUSY_INTERVAL_MS,
      idleMs: IDLE_INTERVAL_MS,
      waitMs: RESTART_WAIT_MS,
    };
    this.worker = new Worker(SCRIPT, {
      eval: true,
      workerData: data,
      resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 32 },
    });
    // The thread alone never keeps the process alive: a server that is stopping is not held up by it.
    this.worker.unref();
    this.worker.on('message', (m: { t: string; message?: string; id?: number; busy?: number }) => {
      if (m.t === 'copied') this.copies++;
      else if (m.t === 'restart') this.restarts++;
      else if (m.t === 'error') this.lastError = m.message ?? 'unknown';
      else if (m.t === 'truncated') {
        if (m.message) this.lastError = m.message;
        this.#truncates.get(m.id!)?.(m.busy === 0);
        this.#truncates.delete(m.id!);
      }
    });
    this.exited = new Promise((resolve) => {
      this.worker.once('exit', () => {
        this.#ended = true;
        for (const answer of this.#truncates.values()) answer(false);
        this.#truncates.clear();
        resolve();
      });
      // A failure of the thread only costs speed: the connections' own autocheckpoint takes over.
      this.worker.once('error', (e) => {
        this.lastError = e.message;
      });
    });
  }

  /**
   * Copies the whole log into the database file and empties the log's file, on the thread (it may wait
   * up to a second for readers and writers, never on the caller's thread); true when the log was emptied.
   */
  truncate(): Promise<boolean> {
    if (this.#ended) return Promise.resolve(false);
    const id = this.#nextTruncate++;
    return new Promise((resolve) => {
      this.#truncates.set(id, resolve);
      this.worker.postMessage({ t: 'truncate', id });
    });
  }

  /** Closes the thread's connection and waits for the thread to end. */
  async stop(): Promise<void> {
    // Held while it stops: an unreferenced thread would let a process with nothing else to do exit
    // with this promise unsettled.
    this.worker.ref();
    this.worker.postMessage('stop');
    await this.exited;
  }
}
