/**
 * What one import received, part by part: a result file (a file[] part or the raw body) is stored
 * as a blob while it goes its way through the import (result-files.ts); a zip is spooled and stored
 * whole, and its entries go that way one by one (archive/); attachments are stored as they are. A
 * queued import's parts, already in the blob store, are read back the same way.
 */
import { createReadStream } from 'node:fs';
import { PassThrough, Readable } from 'node:stream';
import type { Limits } from '../config.js';
import type { Formatter } from '../formatter/api.js';
import { baseName, HEAD_BYTES } from '../formatter/head.js';
import { ImportFault } from '../messages.js';
import type { Store } from '../store/store.js';
import type { Message, StoredFile } from '../store/types.js';
import { ReportAssembly } from './assemble/report-assembly.js';
import { CommitOrder } from './assemble/commit-order.js';
import { hiddenEntriesNotice } from './archive/entry-checks.js';
import { withSpooledZip } from './archive/spool.js';
import { looksLikeZip, readZip } from './archive/zip.js';
import { FormatterChoice } from './detect/formatter-choice.js';
import type { ProcessedFiles } from './finalize/finalize.js';
import type { ParsePool } from './parse/pool.js';
import { ResultFiles, type FileSource } from './result-files.js';
import { peek, tee } from './streams.js';

export interface UploadOptions {
  store: Store;
  limits: Limits;
  tmpDir: string;
  reportId: string;
  /** Blobs are tagged with it, so a sweep can find them if the import dies with its process. */
  importId: string;
  /** The formatter named in the path (or form), or null to detect. */
  formatter: Formatter | null;
  /**
   * Formatters allowed to vote (all, or those taking a raw body's media type): on every file when none
   * is named, else on a file the named one refuses, to say what it looks like.
   */
  candidates: readonly Formatter[];
  /** `smart` (default true): formatters may group or sort for readability. */
  smart: boolean;
  onProgress(): void;
  /** Parse threads; without them every file is parsed on the import thread. */
  pool: ParsePool | null;
}

export class Uploads {
  /** Result files as uploaded (zips whole). */
  readonly uploads: StoredFile[] = [];
  readonly attachments: StoredFile[] = [];
  /** Messages of the files, in file order, then those of the whole upload (finish). */
  readonly messages: Message[] = [];
  readonly assembly: ReportAssembly;
  /** Result files seen, zip entries counted one by one (SPEC 8). */
  fileCount = 0;
  private readonly choice: FormatterChoice;
  private readonly files: ResultFiles;
  /** Hidden entries of the zips, skipped. */
  private readonly hidden: string[] = [];

  constructor(private readonly o: UploadOptions) {
    this.choice = new FormatterChoice(o.formatter, o.candidates);
    this.assembly = new ReportAssembly(o.store, o.onProgress);
    this.files = new ResultFiles({ ...o, choice: this.choice, assembly: this.assembly, messages: this.messages });
  }

  get formatter(): Formatter | null {
    return this.choice.formatter;
  }

  /** Files and entries no formatter claimed. */
  get unmatched(): StoredFile[] {
    return this.files.unmatched;
  }

  /** What finalize reads of the files. */
  get processed(): ProcessedFiles {
    const { parsed, refs, totals, earliest } = this.assembly;
    const { unmatched, attachments, fileCount } = this;
    return { parsed, unmatched, refused: this.choice.refused, attachments, refs, fileCount, totals, earliest };
  }

  /** Names the formatter after construction (a `formatter` form field); only before any file. */
  useFormatter(formatter: Formatter): void {
    this.choice.name(formatter, {
      files: this.fileCount,
      unmatched: this.unmatched.length,
      formatters: this.assembly.parsed.map((f) => f.formatter),
    });
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
      const file = await this.files.run({ ...p, all: tee(p.all, blob) }, name, { keepUnmatched: false });
      const ref = await stored;
      outcome = { name, blobId: ref.id, size: ref.size, sha256: ref.sha256, contentType, formatter: file.formatter };
    } catch (e) {
      // With an error: a blob stream that already ended is otherwise left to a pipeline that never settles.
      blob.destroy(e instanceof Error ? e : new Error(String(e)));
      await stored.then(
        (ref) => this.o.store.blobs.delete(ref.id),
        () => undefined,
      );
      throw e;
    }
    this.took(outcome);
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
    const done = await this.files.run(p, file.name, { keepUnmatched: false });
    this.took({ ...file, formatter: done.formatter });
  }

  async addAttachment(source: AsyncIterable<Buffer>, rawName: string, contentType: string | null): Promise<void> {
    const name = baseName(rawName) || 'attachment';
    const ref = await this.o.store.blobs.put(Readable.from(source), { name, contentType, importId: this.o.importId });
    this.attachments.push({ name, blobId: ref.id, size: ref.size, sha256: ref.sha256, contentType, formatter: null });
  }

  /** An attachment already in the blob store (a queued import being processed). */
  adoptAttachment(file: StoredFile): void {
    this.attachments.push(file);
  }

  /** Flushes pending container writes and adds the notices of the whole upload. */
  async finish(): Promise<void> {
    await this.assembly.batcher.flush();
    for (const notice of [this.assembly.truncatedNotice(this.o.limits.maxTextChars), hiddenEntriesNotice(this.hidden)])
      if (notice) this.messages.push(notice);
  }

  /** Stops container writes of a failed import; resolves once none is in flight. */
  async abandon(): Promise<void> {
    await Promise.all([this.assembly.batcher.abandon(), this.files.abandon()]);
  }

  private took(upload: StoredFile): void {
    this.uploads.push(upload);
    if (upload.formatter === null) this.unmatched.push(upload);
  }

  /**
   * A zip: spooled, stored whole as one upload (unless it is a stored one already), then its
   * entries. With parse threads, the next entries are read and parsed while the current one is
   * written; their containers still land in entry order, so ids and listings do not depend on timing.
   */
  private async addZip(
    source: AsyncIterable<Buffer>,
    name: string,
    contentType: string | null,
    stored: StoredFile | null,
  ): Promise<void> {
    await withSpooledZip(source, this.o.tmpDir, async (spool) => {
      const type = contentType ?? 'application/zip';
      const zip = stored ?? (await this.storeZip(spool, name, type));
      const upload: StoredFile = { ...zip, formatter: null };
      this.uploads.push(upload);
      const ahead = this.o.pool && this.o.pool.size > 0 ? this.o.pool.size + 1 : 1;
      const order = new CommitOrder();
      const files = await readZip(spool, name, this.o.limits, ahead, {
        hidden: (entry) => this.hidden.push(entry),
        entry: async (entry, stream) => {
          this.fileCount++;
          // Prepared as its head arrives; its place in the commit order is taken now, before any
          // await, as heads of later entries may arrive first.
          const prepared = peek(stream, HEAD_BYTES).then((p: FileSource) =>
            this.files.prepare(p, entry, { keepUnmatched: true, archive: name }),
          );
          // A corrupt entry can fail its head read while earlier entries still commit; it is awaited
          // (and reported) in its turn, so the early rejection is not an unhandled one.
          prepared.catch(() => undefined);
          const done = await order.next(async () => this.files.commit(await prepared));
          if (done.formatter !== null) upload.formatter ??= done.formatter;
        },
      });
      if (files === 0)
        throw new ImportFault('zero_files_after_unzipping', {
          file: name,
          detail: this.hidden.length > 0 ? 'Only hidden files were found.' : undefined,
        });
    });
  }

  private async storeZip(spool: string, name: string, contentType: string): Promise<StoredFile> {
    const ref = await this.o.store.blobs.put(createReadStream(spool), {
      name,
      contentType,
      importId: this.o.importId,
    });
    return { name, blobId: ref.id, size: ref.size, sha256: ref.sha256, contentType, formatter: null };
  }
}
