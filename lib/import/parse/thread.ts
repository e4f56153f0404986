/**
 * A parse thread: runs the formatters the composition root named (modules loaded here by URL) over
 * files whose bytes the import streams in, and streams the assembled containers back, or writes them
 * itself through the store's row writer. Sniffing, voting, ids across files and the store's other
 * writes stay with the import; what is costly per byte (decoding, tokenizing, building containers)
 * runs here, so the files of an archive are parsed on every core.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Formatter } from '../../formatter/api.js';
import type { ContainerRowWriter, OpenRowWriter, RowWriterDescription } from '../../store/containers.js';
import { FileAssembler, type AttachmentRef } from '../assemble/assembler.js';
import { loadFormatterModules } from './formatter-modules.js';
import { runFormatter } from './run-formatter.js';
import type { FromWorker, JobStart, ThreadData, ToWorker } from './protocol.js';
import { StoreWriteError, ThreadJob } from './thread-job.js';

const port = parentPort;
if (!port) throw new Error('parse/thread.ts runs as a worker thread');
const { formatterModules } = workerData as ThreadData;
const formatters = new Map<string, Formatter>((await loadFormatterModules(formatterModules)).map((f) => [f.key, f]));

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

const jobs = new Map<number, ThreadJob>();

function post(m: FromWorker): void {
  port!.postMessage(m);
}

async function run(start: JobStart, job: ThreadJob): Promise<void> {
  try {
    if (start.rowWriter) job.writer = await openWriter(start.rowWriter);
    const formatter = formatters.get(start.formatter);
    if (!formatter) throw new Error(`The parse worker has no formatter ${start.formatter}.`);
    const refs: AttachmentRef[] = [];
    const assembler = new FileAssembler(start.reportId, 0, job, refs, () => undefined, start.maxTextChars);
    let lastId = 0;
    const outcome = await runFormatter(formatter, job.input(), assembler, {
      fileName: start.fileName,
      encoding: start.encoding,
      maxTextChars: start.maxTextChars,
      smart: start.smart,
      nextId: () => ++lastId,
    });
    job.flush();
    job.history?.finish();
    if (start.rowWriter) {
      await job.committed();
      job.report();
    }
    post({
      t: 'done',
      job: job.id,
      result: { ...outcome, refs, lastId },
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
    const job = new ThreadJob(m.job, m.rowWriter !== null, post);
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

// Formatters are loaded (above): the pool may count this thread as started.
post({ t: 'ready', job: 0 });
