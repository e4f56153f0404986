/**
 * One import's files: each upload (a file[] part or the raw body) is stored as a blob, sniffed,
 * voted on and parsed; a zip is spooled and its entries go through the same path. Unmatched files
 * are kept as attachment candidates; finalize decides whether they are moved or the import fails.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import { isFormatError, type Formatter, type Head, type ParseContext } from '../formatter/api.js';
import type { Limits } from '../config.js';
import { ImportFault, message } from '../messages.js';
import { scoreOf, vote, type Registry } from '../formatter/registry.js';
import { decodeText } from '../formatter/encoding.js';
import { baseName, HEAD_BYTES, readHead } from '../formatter/head.js';
import type { Message, ReportFile, StoredFile, Totals } from '../store/types.js';
import type { Store } from '../store/store.js';
import { addTotals, FileAssembler, MAX_REFS, zeroTotals, type AttachmentRef } from './assemble/assembler.js';
import { ContainerBatcher } from './assemble/container-batcher.js';
import type { ParseJob, ParsePool } from './parse/pool.js';
import type { EncodingGuess } from '../formatter/encoding.js';
import { peek, tee } from './streams.js';
import { looksLikeZip, readZip } from './archive/zip.js';
import { inSpan, recordSpan } from '../telemetry/spans.js';

export interface FileProcessorOptions {
  store: Store;
  registry: Registry;
  limits: Limits;
  tmpDir: string;
  reportId: string;
  /** Blobs are tagged with it, so a sweep can find them if the import dies with its process. */
  importId: string;
  /** The formatter named in the path (or form), or null to detect. */
  formatter: Formatter | null;
  /** Formatters allowed to vote when none is named (all, or those taking a raw body's media type). */
  candidates: readonly Formatter[];
  /** `smart` (default true): formatters may group or sort for readability. */
  smart: boolean;
  onProgress(): void;
  /** Parse workers; without them every file is parsed on the import thread. */
  pool?: ParsePool | null;
}

/** A file sniffed and voted on; its parse may already run on a worker while earlier files finish. */
interface Prepared {
  name: string;
  head: Head;
  encoding: EncodingGuess;
  formatter: Formatter | null;
  /** A vote that failed (several formatters tie): raised in the file's turn, so the first such file decides. */
  fault: unknown;
  all: AsyncGenerator<Buffer>;
  job: ParseJob | null;
  feeding: Promise<void> | null;
  keepUnmatched: boolean;
  archive?: string;
}

export interface ParsedFile extends ReportFile {
  index: number;
  empty: boolean;
  duplicates: string[];
  duplicateCount: number;
}

export class FileProcessor {
  /** Result files as uploaded (zips whole). */
  readonly uploads: StoredFile[] = [];
  readonly attachments: StoredFile[] = [];
  /** Files and entries no formatter claimed. */
  readonly unmatched: StoredFile[] = [];
  readonly parsed: ParsedFile[] = [];
  readonly messages: Message[] = [];
  readonly refs: AttachmentRef[] = [];
  readonly totals: Totals = zeroTotals();
  earliest: string | null = null;
  /** Result files seen, zip entries counted one by one (SPEC 8). */
  fileCount = 0;
  containers = 0;
  private seq = 0;
  /** Set by the first file that fails: files prepared after it are dropped, not committed. */
  private failed = false;
  /** Files on workers not yet let go of: a failed import waits for them before its rows are purged. */
  private readonly jobs = new Set<ParseJob>();
  private readonly batcher: ContainerBatcher;
  private readonly hidden: string[] = [];
  /** Files with texts cut at TALLY_MAX_TEXT_CHARS, and how many containers each. */
  private readonly truncated: { file: string; containers: number }[] = [];
  private readonly mimeWarnings: string[] = [];

  constructor(private readonly o: FileProcessorOptions) {
    this.batcher = new ContainerBatcher(o.store);
  }

  /** Names the formatter after construction (a `formatter` form field); only before any file. */
  useFormatter(formatter: Formatter): void {
    // Files already read were detected; naming the same formatter they got changes nothing.
    const agrees = this.unmatched.length === 0 && this.parsed.every((f) => f.formatter === formatter.key);
    if (this.fileCount > 0 && this.o.formatter?.key !== formatter.key && !agrees) {
      throw new ImportFault('import_validation_error', {
        detail: 'The formatter field must come before the files in the form; or name the formatter in the path.',
        details: { parameter: 'formatter' },
      });
    }
    this.o.formatter = formatter;
  }

  get formatter(): Formatter | null {
    return this.o.formatter;
  }

  /** A file[] part or the raw body; false when it held no bytes (nothing is kept). */
  async addUpload(source: AsyncIterable<Buffer>, rawName: string, contentType: string | null): Promise<boolean> {
    const name = baseName(rawName) || 'file';
    const p = await peek(source, HEAD_BYTES);
    if (p.head.length === 0 && p.complete) return false;
    if (looksLikeZip(p.head)) {
      await this.addZip(p.all, name, contentType, null);
      return true;
    }
    this.fileCount++;
    const blob = new PassThrough();
    const stored = this.o.store.blobs.put(blob, { name, contentType, importId: this.o.importId });
    // The blob writer settles on its own; its failure is reported once, below.
    stored.catch(() => undefined);
    let outcome: StoredFile;
    try {
      const record = await this.processFile(tee(p.all, blob), p, name, { keepUnmatched: false });
      const ref = await stored;
      outcome = { name, blobId: ref.id, size: ref.size, sha256: ref.sha256, contentType, formatter: record.formatter };
    } catch (e) {
      // With an error: a blob stream that already ended is otherwise left to a pipeline that never settles.
      blob.destroy(e instanceof Error ? e : new Error(String(e)));
      await stored.then(
        (ref) => this.o.store.blobs.delete(ref.id),
        () => undefined,
      );
      throw e;
    }
    this.uploads.push(outcome);
    if (outcome.formatter === null) this.unmatched.push(outcome);
    return true;
  }

  /** An upload already in the blob store (a queued import being processed): read, never stored again. */
  async addStoredUpload(file: StoredFile): Promise<void> {
    const source = await this.o.store.blobs.open(file.blobId);
    if (!source)
      throw new ImportFault('import_validation_error', {
        detail: `The stored file ${file.name} is missing.`,
        file: file.name,
      });
    const p = await peek(source, HEAD_BYTES);
    if (looksLikeZip(p.head)) {
      await this.addZip(p.all, file.name, file.contentType, file);
      return;
    }
    this.fileCount++;
    const record = await this.processFile(p.all, p, file.name, { keepUnmatched: false });
    const outcome = { ...file, formatter: record.formatter };
    this.uploads.push(outcome);
    if (outcome.formatter === null) this.unmatched.push(outcome);
  }

  /** An attachment already in the blob store (a queued import being processed). */
  adoptAttachment(file: StoredFile): void {
    this.attachments.push(file);
  }

  async addAttachment(source: AsyncIterable<Buffer>, rawName: string, contentType: string | null): Promise<void> {
    const name = baseName(rawName) || 'attachment';
    const ref = await this.o.store.blobs.put(Readable.from(source), { name, contentType, importId: this.o.importId });
    this.attachments.push({ name, blobId: ref.id, size: ref.size, sha256: ref.sha256, contentType, formatter: null });
  }

  /** Flushes pending container writes and returns the notices gathered along the way. */
  async finish(): Promise<void> {
    await this.batcher.flush();
    if (this.truncated.length > 0) {
      const containers = this.truncated.reduce((n, f) => n + f.containers, 0);
      const limit = this.o.limits.maxTextChars;
      this.messages.push(
        message('text_truncated', {
          detail: `${containers} container${containers === 1 ? '' : 's'} in ${this.truncated.length} file${this.truncated.length === 1 ? '' : 's'} had output or failure text over ${limit} characters; the first ${limit} were kept.`,
          details: { limit, containers, files: this.truncated.slice(0, 50) },
        }),
      );
    }
    if (this.hidden.length > 0) {
      this.messages.push(
        message('mac_os_hidden_files', {
          detail: `${this.hidden.length} ignored: ${this.hidden.slice(0, 10).join(', ')}${this.hidden.length > 10 ? ', …' : ''}.`,
          details: { count: this.hidden.length, entries: this.hidden.slice(0, 50) },
        }),
      );
    }
  }

  /** Stops container writes of a failed import; resolves once none is in flight. */
  async abandon(): Promise<void> {
    this.failed = true;
    const stopping = [...this.jobs].map((job) => {
      job.abort(new Error('The import failed.'));
      return job.finished;
    });
    await Promise.all([this.batcher.abandon(), ...stopping]);
  }

  /** Blobs this import wrote: removed when it fails. */
  blobIds(): string[] {
    const ids = new Set<string>();
    for (const f of [...this.uploads, ...this.attachments, ...this.unmatched]) ids.add(f.blobId);
    return [...ids];
  }

  private async addZip(
    source: AsyncIterable<Buffer>,
    name: string,
    contentType: string | null,
    stored: StoredFile | null,
  ): Promise<void> {
    const spool = path.join(this.o.tmpDir, `upload-${randomUUID()}.zip`);
    try {
      await pipeline(Readable.from(source), createWriteStream(spool, { flags: 'wx' }));
      if (stored) this.uploads.push({ ...stored, formatter: null });
      else {
        const ref = await this.o.store.blobs.put(createReadStream(spool), {
          name,
          contentType: contentType ?? 'application/zip',
          importId: this.o.importId,
        });
        this.uploads.push({
          name,
          blobId: ref.id,
          size: ref.size,
          sha256: ref.sha256,
          contentType: contentType ?? 'application/zip',
          formatter: null,
        });
      }
      // With parse workers, the next entries are read and parsed while the current one is written;
      // their containers still land in entry order, so ids and listings do not depend on timing.
      const ahead = this.o.pool && this.o.pool.size > 0 ? this.o.pool.size + 1 : 1;
      let turn: Promise<unknown> = Promise.resolve();
      const files = await readZip(spool, name, this.o.limits, ahead, {
        hidden: (entry) => this.hidden.push(entry),
        entry: async (entry, stream) => {
          this.fileCount++;
          // The file's place in the commit order is taken now, before any await: heads of later
          // entries may arrive first.
          const prepared = peek(stream, HEAD_BYTES).then((p) =>
            this.prepare(p, entry, { keepUnmatched: true, archive: name }),
          );
          // A corrupt entry can fail its head read while earlier entries still commit; it is awaited
          // (and reported) in its turn, so the early rejection is not an unhandled one.
          prepared.catch(() => undefined);
          const mine = turn.then(async () => this.commit(await prepared));
          turn = mine.catch(() => undefined);
          const record = await mine;
          if (record.formatter !== null) this.uploads[this.uploads.length - 1]!.formatter ??= record.formatter;
        },
      });
      if (files === 0)
        throw new ImportFault('zero_files_after_unzipping', {
          file: name,
          detail: this.hidden.length > 0 ? 'Only hidden files were found.' : undefined,
        });
    } finally {
      await rm(spool, { force: true });
    }
  }

  /** Votes on the head and parses the file, or keeps it as unmatched. */
  private processFile(
    all: AsyncGenerator<Buffer>,
    p: { head: Buffer; complete: boolean },
    name: string,
    o: { keepUnmatched: boolean; archive?: string },
  ): Promise<{ formatter: string | null }> {
    return this.commit(this.prepare({ ...p, all }, name, o));
  }

  /** Sniffs and votes; a file for a worker starts parsing there at once. */
  private prepare(
    p: { head: Buffer; complete: boolean; all: AsyncGenerator<Buffer> },
    name: string,
    o: { keepUnmatched: boolean; archive?: string },
  ): Prepared {
    const { head, encoding } = readHead(p.head, name, p.complete);
    const x: Prepared = {
      name,
      head,
      encoding,
      formatter: null,
      fault: null,
      all: p.all,
      job: null,
      feeding: null,
      keepUnmatched: o.keepUnmatched,
    };
    if (o.archive) x.archive = o.archive;
    try {
      x.formatter = this.choose(head, name);
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
      x.feeding = job.feed(p.all);
    }
    return x;
  }

  /** In file order: keeps the file as unmatched, or takes its parse (here or from its worker) into the report. */
  private async commit(x: Prepared): Promise<{ formatter: string | null }> {
    if (this.failed || x.fault) {
      const reason = x.fault ?? new Error('An earlier file of the import failed.');
      // A file on a worker: its feeder owns the source and lets go of it once it sees the abort.
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

  private async take(x: Prepared): Promise<{ formatter: string | null }> {
    const { name, formatter } = x;
    if (!formatter) {
      if (x.keepUnmatched) {
        const ref = await this.o.store.blobs.put(Readable.from(x.all), {
          name,
          contentType: null,
          importId: this.o.importId,
        });
        const file: StoredFile = {
          name,
          blobId: ref.id,
          size: ref.size,
          sha256: ref.sha256,
          contentType: null,
          formatter: null,
        };
        if (x.archive) file.archive = x.archive;
        this.unmatched.push(file);
      } else {
        for await (const _ of x.all); // the tee stores it
      }
      return { formatter: null };
    }
    this.checkMime(x.head, formatter);
    const index = this.parsed.length;
    let parsed: FileOutcome;
    try {
      parsed = await inSpan('tally.formatter', { 'tally.formatter': formatter.key }, () =>
        x.job ? this.collect(x.job, x.feeding!, index) : this.parseHere(x, formatter, index),
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
      // A worker's feeder has let go of the source by now, or will when it sees the abort; waiting on
      // it here could wait on a client that is itself waiting for the answer.
      if (!x.job) await x.all.return(undefined);
    }
    addTotals(this.totals, parsed.totals);
    if (parsed.truncated > 0) this.truncated.push({ file: name, containers: parsed.truncated });
    if (parsed.earliest && (this.earliest === null || parsed.earliest < this.earliest)) this.earliest = parsed.earliest;
    this.parsed.push({
      index,
      name,
      formatter: formatter.key,
      producer: parsed.producer,
      tests: parsed.totals.tests,
      empty: parsed.totals.tests === 0 && !parsed.noTests,
      duplicates: parsed.duplicates,
      duplicateCount: parsed.duplicateCount,
    });
    return { formatter: formatter.key };
  }

  /** Parses on this thread (plugins, or no workers). */
  private async parseHere(x: Prepared, formatter: Formatter, index: number): Promise<FileOutcome> {
    const assembler = new FileAssembler(
      this.o.reportId,
      index,
      this.batcher,
      this.refs,
      () => {
        this.containers++;
        this.o.onProgress();
      },
      this.o.limits.maxTextChars,
    );
    let producer: string | null = null;
    let noTests = false;
    const ctx: ParseContext = {
      fileName: x.name,
      nextId: () => ++this.seq,
      limits: { maxTextChars: this.o.limits.maxTextChars },
      setProducer: (p) => {
        producer = p;
      },
      options: { smart: this.o.smart },
      declareNoTests: () => {
        noTests = true;
      },
    };
    await formatter.parse(decodeText(x.all, x.encoding), assembler, ctx);
    return {
      totals: assembler.totals,
      earliest: assembler.earliest,
      duplicates: assembler.duplicates,
      duplicateCount: assembler.duplicateCount,
      truncated: assembler.truncated,
      producer,
      noTests,
    };
  }

  /** Takes a worker's containers: its ids are the file's own, so they move past the ids used so far. */
  private async collect(job: ParseJob, feeding: Promise<void>, index: number): Promise<FileOutcome> {
    const base = this.seq;
    job.commit(base, index);
    let since = Date.now();
    try {
      for await (const out of job.output()) {
        if ('history' in out) {
          await this.o.store.history.addFileHistory(this.o.reportId, out.history, base);
          continue;
        }
        if ('wrote' in out) {
          recordSpan('tally.store.batch', { 'tally.containers': out.wrote, 'tally.writer': 'parse-worker' }, since);
          since = Date.now();
          this.containers += out.wrote;
          this.o.onProgress();
          continue;
        }
        for (const c of out.containers) {
          c.seq += base;
          if (c.parentSeq !== null) c.parentSeq += base;
          c.fileIndex = index;
          this.batcher.push(c);
        }
        this.containers += out.containers.length;
        this.o.onProgress();
        const wait = this.batcher.ready();
        if (wait) await wait;
      }
    } catch (e) {
      job.abort(e instanceof Error ? e : new Error(String(e)));
      throw e;
    }
    // Done means the worker read the end, so the feeder has finished too.
    await feeding;
    const r = job.result!;
    this.seq = base + r.lastId;
    for (const ref of r.refs) if (this.refs.length < MAX_REFS) this.refs.push({ seq: ref.seq + base, ref: ref.ref });
    return {
      totals: r.totals,
      earliest: r.earliest,
      duplicates: r.duplicates,
      duplicateCount: r.duplicateCount,
      truncated: r.truncated,
      producer: r.producer,
      noTests: r.noTests,
    };
  }

  private choose(head: Head, name: string): Formatter | null {
    if (this.o.formatter) return scoreOf(this.o.formatter, head) > 0 ? this.o.formatter : null;
    const v = vote(this.o.candidates, head);
    if (v.kind === 'tie') {
      const keys = v.formatters.map((f) => f.key);
      throw new ImportFault('multiple_formatter_match', {
        detail: `${name} matches ${keys.join(', ')}.`,
        file: name,
        details: { formatters: keys },
      });
    }
    return v.kind === 'match' ? v.formatter : null;
  }

  /** SPEC 4.5 rule 14: XML should start with a declaration; the extension should fit the type. */
  private checkMime(head: Head, formatter: Formatter): void {
    const reasons: string[] = [];
    if (head.kind === 'xml' && !head.hasXmlDeclaration) reasons.push('the XML has no declaration');
    if (head.extension && !formatter.extensions.includes(head.extension))
      reasons.push(`the extension ${head.extension} is not one of ${formatter.extensions.join(', ')}`);
    if (!head.extension && head.fileName !== 'request-body') reasons.push('the file has no extension');
    if (reasons.length > 0)
      this.messages.push(
        message('invalid_file_mime_type', { file: head.fileName, detail: `${head.fileName}: ${reasons.join('; ')}.` }),
      );
  }
}

/** What parsing one file amounted to, wherever it ran. */
interface FileOutcome {
  totals: Totals;
  earliest: string | null;
  duplicates: string[];
  duplicateCount: number;
  truncated: number;
  producer: string | null;
  noTests: boolean;
}

export type { Totals };
