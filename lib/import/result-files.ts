/**
 * One result file's way through the import, top-down: its head is read and its formatter chosen
 * (detect/); its parse starts at once, on a parse thread when one can run that formatter (parse/);
 * in its turn (files are committed in the order they came) it is taken into the report (assemble/),
 * or kept as unmatched for finalize to move to the attachments. The first file that fails stops
 * every file after it.
 */
import { Readable } from 'node:stream';
import type { Limits } from '../config.js';
import { isFormatError, type Formatter, type Head } from '../formatter/api.js';
import type { EncodingGuess } from '../formatter/encoding.js';
import { readHead } from '../formatter/head.js';
import { ImportFault } from '../messages.js';
import type { Store } from '../store/store.js';
import type { Message, StoredFile } from '../store/types.js';
import { inSpan } from '../telemetry/spans.js';
import type { ReportAssembly } from './assemble/report-assembly.js';
import type { FormatterChoice } from './detect/formatter-choice.js';
import { mimeWarning } from './detect/mime-warning.js';
import { collectFromThread } from './parse/from-thread.js';
import { parseHere } from './parse/here.js';
import type { ParseJob } from './parse/job.js';
import type { ParsePool } from './parse/pool.js';

export interface ResultFileOptions {
  store: Pick<Store, 'blobs' | 'containers' | 'history'>;
  reportId: string;
  /** Blobs are tagged with it, so a sweep can find them if the import dies with its process. */
  importId: string;
  limits: Limits;
  /** `smart` (default true): formatters may group or sort for readability. */
  smart: boolean;
  /** Parse threads; without them every file is parsed on the import thread. */
  pool: ParsePool | null;
  choice: FormatterChoice;
  assembly: ReportAssembly;
  /** Where the files' messages go (in file order). */
  messages: Message[];
}

/** A file's source, its head read: `all` is the whole file again, head first. */
export interface FileSource {
  head: Buffer;
  complete: boolean;
  all: AsyncGenerator<Buffer>;
}

export interface FileRole {
  /** An entry of an archive: kept as a blob of its own when no formatter claims it. */
  keepUnmatched: boolean;
  archive?: string;
}

/** A file sniffed and voted on; its parse may already run on a thread while earlier files finish. */
interface PreparedFile extends FileRole {
  name: string;
  head: Head;
  encoding: EncodingGuess;
  formatter: Formatter | null;
  /** A vote that failed (several formatters tie): raised in the file's turn, so the first such file decides. */
  fault: unknown;
  all: AsyncGenerator<Buffer>;
  job: ParseJob | null;
  feeding: Promise<void> | null;
}

export class ResultFiles {
  /** Entries no formatter claimed, stored as blobs (uploads no formatter claimed are added by Uploads). */
  readonly unmatched: StoredFile[] = [];
  /** Set by the first file that fails: files prepared after it are dropped, not committed. */
  private failed = false;
  /** Files on threads not yet let go of: a failed import waits for them before its rows are purged. */
  private readonly jobs = new Set<ParseJob>();

  constructor(private readonly o: ResultFileOptions) {}

  /** A file read in one go: prepared and committed at once (nothing is ahead of it). */
  run(source: FileSource, name: string, role: FileRole): Promise<{ formatter: string | null }> {
    return this.commit(this.prepare(source, name, role));
  }

  /** Reads the head and chooses the formatter; a file for a thread starts parsing there now. */
  prepare(source: FileSource, name: string, role: FileRole): PreparedFile {
    const { head, encoding } = readHead(source.head, name, source.complete);
    const x: PreparedFile = {
      name,
      head,
      encoding,
      formatter: null,
      fault: null,
      all: source.all,
      job: null,
      feeding: null,
      keepUnmatched: role.keepUnmatched,
    };
    if (role.archive) x.archive = role.archive;
    try {
      x.formatter = this.o.choice.choose(head, name);
    } catch (e) {
      x.fault = e;
    }
    const pool = this.o.pool;
    if (x.formatter && !this.failed && pool?.handles(x.formatter)) {
      const job = pool.start({
        formatter: x.formatter,
        encoding,
        fileName: name,
        reportId: this.o.reportId,
        smart: this.o.smart,
        maxTextChars: this.o.limits.maxTextChars,
        rowWriter: this.o.store.containers.rowWriter(),
      });
      this.jobs.add(job);
      void job.finished.then(() => this.jobs.delete(job));
      x.job = job;
      x.feeding = job.feed(source.all);
    }
    return x;
  }

  /** In file order: keeps the file as unmatched, or takes its parse (here or from its thread) into the report. */
  async commit(x: PreparedFile): Promise<{ formatter: string | null }> {
    if (this.failed || x.fault) {
      const reason = x.fault ?? new Error('An earlier file of the import failed.');
      // A file on a thread: its feeder owns the source and lets go of it once it sees the abort.
      if (x.job) x.job.abort(reason instanceof Error ? reason : new Error(String(reason)));
      else await x.all.return(undefined);
      throw reason;
    }
    try {
      return await inSpan(
        'tally.file',
        x.archive ? { 'tally.file': x.name, 'tally.archive': x.archive } : { 'tally.file': x.name },
        () => this.take(x),
      );
    } catch (e) {
      this.failed = true;
      throw e;
    }
  }

  /** Stops the files on threads of a failed import; resolves once none of them writes any more. */
  async abandon(): Promise<void> {
    this.failed = true;
    const stopping = [...this.jobs].map((job) => {
      job.abort(new Error('The import failed.'));
      return job.finished;
    });
    await Promise.all(stopping);
  }

  private async take(x: PreparedFile): Promise<{ formatter: string | null }> {
    const { name, formatter } = x;
    if (!formatter) {
      if (x.keepUnmatched) await this.keepUnmatched(x);
      else for await (const _ of x.all); // the tee stores it
      return { formatter: null };
    }
    const warning = mimeWarning(x.head, formatter);
    if (warning) this.o.messages.push(warning);
    const { assembly } = this.o;
    const index = assembly.nextIndex;
    let outcome;
    try {
      outcome = await inSpan('tally.formatter', { 'tally.formatter': formatter.key }, () =>
        x.job
          ? collectFromThread(x.job, x.feeding!, index, assembly, this.o)
          : parseHere(x, formatter, index, assembly, {
              reportId: this.o.reportId,
              smart: this.o.smart,
              maxTextChars: this.o.limits.maxTextChars,
            }),
      );
    } catch (e) {
      if (isFormatError(e)) {
        const where = e.line !== null ? ` (line ${e.line}, column ${e.column})` : '';
        throw new ImportFault('report_validation_error', {
          detail: `${name}${where}: ${e.message}`,
          file: name,
          details: { formatter: formatter.key, line: e.line, column: e.column },
          cause: e,
        });
      }
      throw e;
    } finally {
      // A thread's feeder has let go of the source by now, or will when it sees the abort; waiting on
      // it here could wait on a client that is itself waiting for the answer.
      if (!x.job) await x.all.return(undefined);
    }
    assembly.add(name, formatter.key, index, outcome);
    return { formatter: formatter.key };
  }

  /** An archive entry no formatter claimed: stored as a blob of its own. */
  private async keepUnmatched(x: PreparedFile): Promise<void> {
    const ref = await this.o.store.blobs.put(Readable.from(x.all), {
      name: x.name,
      contentType: null,
      importId: this.o.importId,
    });
    const file: StoredFile = {
      name: x.name,
      blobId: ref.id,
      size: ref.size,
      sha256: ref.sha256,
      contentType: null,
      formatter: null,
    };
    if (x.archive) file.archive = x.archive;
    this.unmatched.push(file);
  }
}
