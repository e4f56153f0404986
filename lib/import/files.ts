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
import { isFormatError, type Formatter, type Head, type ParseContext } from '../formatter-api.js';
import type { Limits } from '../config.js';
import { ImportFault, message } from '../messages.js';
import { vote, type Registry } from '../registry.js';
import { decodeText } from '../sniff/encoding.js';
import { baseName, HEAD_BYTES, readHead } from '../sniff/head.js';
import type { Message, ReportFile, Store, StoredFile, Totals } from '../store/store.js';
import { addTotals, FileAssembler, zeroTotals, type AttachmentRef } from './assembler.js';
import { ContainerBatcher } from './container-batcher.js';
import { peek, tee } from './streams.js';
import { looksLikeZip, readZip } from './zip.js';
import { inSpan } from '../telemetry/spans.js';

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
  private readonly batcher: ContainerBatcher;
  private readonly hidden: string[] = [];
  private readonly mimeWarnings: string[] = [];

  constructor(private readonly o: FileProcessorOptions) {
    this.batcher = new ContainerBatcher(o.store);
  }

  /** Names the formatter after construction (a `formatter` form field); only before any file. */
  useFormatter(formatter: Formatter): void {
    // Files already read were detected; naming the same formatter they got changes nothing.
    const agrees = this.unmatched.length === 0 && this.parsed.every((f) => f.formatter === formatter.key);
    if (this.fileCount > 0 && this.o.formatter?.key !== formatter.key && !agrees) {
      throw new ImportFault('import_validation_error', { detail: 'The formatter field must come before the files in the form; or name the formatter in the path.', details: { parameter: 'formatter' } });
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
    const stored = this.o.store.putBlob(blob, { name, contentType, importId: this.o.importId });
    // The blob writer settles on its own; its failure is reported once, below.
    stored.catch(() => undefined);
    let outcome: StoredFile | null = null;
    try {
      const record = await this.processFile(tee(p.all, blob), p, name, { keepUnmatched: false });
      const ref = await stored;
      outcome = { name, blobId: ref.id, size: ref.size, sha256: ref.sha256, contentType, formatter: record.formatter };
    } catch (e) {
      // With an error: a blob stream that already ended is otherwise left to a pipeline that never settles.
      blob.destroy(e instanceof Error ? e : new Error(String(e)));
      await stored.then((ref) => this.o.store.deleteBlob(ref.id), () => undefined);
      throw e;
    }
    this.uploads.push(outcome);
    if (outcome.formatter === null) this.unmatched.push(outcome);
    return true;
  }

  /** An upload already in the blob store (a queued import being processed): read, never stored again. */
  async addStoredUpload(file: StoredFile): Promise<void> {
    const source = await this.o.store.openBlob(file.blobId);
    if (!source) throw new ImportFault('import_validation_error', { detail: `The stored file ${file.name} is missing.`, file: file.name });
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
    const ref = await this.o.store.putBlob(Readable.from(source), { name, contentType, importId: this.o.importId });
    this.attachments.push({ name, blobId: ref.id, size: ref.size, sha256: ref.sha256, contentType, formatter: null });
  }

  /** Flushes pending container writes and returns the notices gathered along the way. */
  async finish(): Promise<void> {
    await this.batcher.flush();
    if (this.hidden.length > 0) {
      this.messages.push(message('mac_os_hidden_files', { detail: `${this.hidden.length} ignored: ${this.hidden.slice(0, 10).join(', ')}${this.hidden.length > 10 ? ', …' : ''}.`, details: { count: this.hidden.length, entries: this.hidden.slice(0, 50) } }));
    }
  }

  /** Stops container writes of a failed import; resolves once none is in flight. */
  abandon(): Promise<void> {
    return this.batcher.abandon();
  }

  /** Blobs this import wrote: removed when it fails. */
  blobIds(): string[] {
    const ids = new Set<string>();
    for (const f of [...this.uploads, ...this.attachments, ...this.unmatched]) ids.add(f.blobId);
    return [...ids];
  }

  private async addZip(source: AsyncIterable<Buffer>, name: string, contentType: string | null, stored: StoredFile | null): Promise<void> {
    const spool = path.join(this.o.tmpDir, `upload-${randomUUID()}.zip`);
    try {
      await pipeline(Readable.from(source), createWriteStream(spool, { flags: 'wx' }));
      if (stored) this.uploads.push({ ...stored, formatter: null });
      else {
        const ref = await this.o.store.putBlob(createReadStream(spool), { name, contentType: contentType ?? 'application/zip', importId: this.o.importId });
        this.uploads.push({ name, blobId: ref.id, size: ref.size, sha256: ref.sha256, contentType: contentType ?? 'application/zip', formatter: null });
      }
      const files = await readZip(spool, name, this.o.limits, {
        hidden: (entry) => this.hidden.push(entry),
        entry: async (entry, stream) => {
          this.fileCount++;
          const p = await peek(stream, HEAD_BYTES);
          const record = await this.processFile(p.all, p, entry, { keepUnmatched: true, archive: name });
          if (record.formatter !== null) this.uploads[this.uploads.length - 1]!.formatter ??= record.formatter;
        },
      });
      if (files === 0) throw new ImportFault('zero_files_after_unzipping', { file: name, detail: this.hidden.length > 0 ? 'Only hidden files were found.' : undefined });
    } finally {
      await rm(spool, { force: true });
    }
  }

  /** Votes on the head and parses the file, or keeps it as unmatched; in a `tally.file` span. */
  private processFile(
    all: AsyncGenerator<Buffer>,
    p: { head: Buffer; complete: boolean },
    name: string,
    o: { keepUnmatched: boolean; archive?: string },
  ): Promise<{ formatter: string | null }> {
    return inSpan('tally.file', o.archive ? { 'tally.file': name, 'tally.archive': o.archive } : { 'tally.file': name }, () => this.voteAndParse(all, p, name, o));
  }

  private async voteAndParse(
    all: AsyncGenerator<Buffer>,
    p: { head: Buffer; complete: boolean },
    name: string,
    o: { keepUnmatched: boolean; archive?: string },
  ): Promise<{ formatter: string | null }> {
    const { head, encoding } = readHead(p.head, name, p.complete);
    const formatter = this.choose(head, name);
    if (!formatter) {
      if (o.keepUnmatched) {
        const ref = await this.o.store.putBlob(Readable.from(all), { name, contentType: null, importId: this.o.importId });
        const file: StoredFile = { name, blobId: ref.id, size: ref.size, sha256: ref.sha256, contentType: null, formatter: null };
        if (o.archive) file.archive = o.archive;
        this.unmatched.push(file);
      } else {
        for await (const _ of all); // the tee stores it
      }
      return { formatter: null };
    }
    this.checkMime(head, formatter);
    const index = this.parsed.length;
    const refs = this.refs;
    const assembler = new FileAssembler(this.o.reportId, index, this.batcher, refs, () => {
      this.containers++;
      this.o.onProgress();
    });
    let producer: string | null = null;
    let noTestsByDesign = false;
    const ctx: ParseContext = {
      fileName: name,
      nextId: () => ++this.seq,
      limits: { maxTextChars: this.o.limits.maxTextChars },
      setProducer: (p) => {
        producer = p;
      },
      options: { smart: this.o.smart },
      declareNoTests: () => {
        noTestsByDesign = true;
      },
    };
    try {
      await inSpan('tally.formatter', { 'tally.formatter': formatter.key }, () => formatter.parse(decodeText(all, encoding), assembler, ctx));
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
      await all.return(undefined);
    }
    addTotals(this.totals, assembler.totals);
    if (assembler.earliest && (this.earliest === null || assembler.earliest < this.earliest)) this.earliest = assembler.earliest;
    this.parsed.push({
      index,
      name,
      formatter: formatter.key,
      producer,
      tests: assembler.totals.tests,
      empty: assembler.totals.tests === 0 && !noTestsByDesign,
      duplicates: assembler.duplicates,
      duplicateCount: assembler.duplicateCount,
    });
    return { formatter: formatter.key };
  }

  private choose(head: Head, name: string): Formatter | null {
    if (this.o.formatter) {
      let score = 0;
      try {
        score = this.o.formatter.sniff(head);
      } catch {
        score = 0;
      }
      return score > 0 ? this.o.formatter : null;
    }
    const v = vote(this.o.candidates, head);
    if (v.kind === 'tie') {
      const keys = v.formatters.map((f) => f.key);
      throw new ImportFault('multiple_formatter_match', { detail: `${name} matches ${keys.join(', ')}.`, file: name, details: { formatters: keys } });
    }
    return v.kind === 'match' ? v.formatter : null;
  }

  /** SPEC 4.5 rule 14: XML should start with a declaration; the extension should fit the type. */
  private checkMime(head: Head, formatter: Formatter): void {
    const reasons: string[] = [];
    if (head.kind === 'xml' && !head.hasXmlDeclaration) reasons.push('the XML has no declaration');
    if (head.extension && !formatter.extensions.includes(head.extension)) reasons.push(`the extension ${head.extension} is not one of ${formatter.extensions.join(', ')}`);
    if (!head.extension && head.fileName !== 'request-body') reasons.push('the file has no extension');
    if (reasons.length > 0) this.messages.push(message('invalid_file_mime_type', { file: head.fileName, detail: `${head.fileName}: ${reasons.join('; ')}.` }));
  }
}

export type { Totals };
