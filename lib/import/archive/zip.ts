/**
 * Zip archives inside file[]: spooled to a temp file (the central directory is the truth; streaming
 * zip readers disagree with it on crafted archives), then read entry by entry with yauzl-promise.
 * No entry name ever becomes a filesystem path. The central directory is checked whole first
 * (entry-checks.ts); entries are then read in their order, a few ahead of the one being committed.
 */
import { open as openZip, type Entry } from 'yauzl-promise';
import type { Readable } from 'node:stream';
import type { Limits } from '../../config.js';
import { ImportFault } from '../../messages.js';
import { checkEntries, checkEntryCount, entryKind, type EntryProblem } from './entry-checks.js';
import { DEFLATE, guardEntry, inflateEntry } from './inflate.js';

export const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
export const EMPTY_ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x05, 0x06]);

export function looksLikeZip(head: Buffer): boolean {
  return head.subarray(0, 4).equals(ZIP_MAGIC) || head.subarray(0, 4).equals(EMPTY_ZIP_MAGIC);
}

export interface ZipVisitor {
  /** A regular file entry; must consume `stream`. Up to `ahead` entries are visited at once. */
  entry(name: string, stream: AsyncIterable<Buffer>, size: number): Promise<void>;
  hidden(name: string): void;
}

export async function readZip(
  zipPath: string,
  archiveName: string,
  limits: Limits,
  ahead: number,
  visit: ZipVisitor,
): Promise<number> {
  const invalid = (detail: string, cause?: unknown): ImportFault =>
    new ImportFault('zip_invalid', { detail, file: archiveName, details: { archive: archiveName }, cause });
  let zip;
  try {
    zip = await openZip(zipPath, {
      validateEntrySizes: true,
      validateFilenames: true,
      strictFilenames: false,
      supportMacArchive: true,
    });
  } catch (cause) {
    throw invalid(`The archive cannot be opened: ${(cause as Error).message}.`, cause);
  }
  try {
    const fault = (p: EntryProblem): ImportFault =>
      p.code === 'zip_invalid'
        ? invalid(p.detail)
        : new ImportFault(p.code, { detail: p.detail, file: archiveName, details: p.details });
    const tooMany = checkEntryCount(zip.entryCount, limits);
    if (tooMany) throw fault(tooMany);
    const entries: Entry[] = [];
    try {
      for await (const entry of zip) entries.push(entry);
    } catch (cause) {
      throw invalid(`The central directory is not valid: ${(cause as Error).message}.`, cause);
    }
    const problem = checkEntries(entries, limits);
    if (problem) throw fault(problem);
    let files = 0;
    const visiting: Promise<void>[] = [];
    try {
      for (const entry of entries) {
        const name = entry.filename;
        const kind = entryKind(entry);
        if (kind === 'hidden') visit.hidden(name);
        if (kind !== 'file') continue;
        files++;
        let stream: Readable;
        try {
          // Deflated entries are inflated here, in large chunks (see inflateEntry); stored ones as they are.
          stream =
            entry.compressionMethod === DEFLATE
              ? await entry.openReadStream({ decompress: false, validateCrc32: false })
              : await entry.openReadStream();
        } catch (cause) {
          throw invalid(`The entry "${name}" cannot be read: ${(cause as Error).message}.`, cause);
        }
        // A corrupt entry shows up while it is read: its errors become zip_invalid, not parser errors.
        const guarded = guardEntry(
          entry.compressionMethod === DEFLATE ? inflateEntry(stream, entry) : stream,
          stream,
          name,
          invalid,
        );
        const current = visit.entry(name, guarded, entry.uncompressedSize);
        // Settled here or below; an early failure must not go unobserved while it waits its turn.
        current.catch(() => undefined);
        visiting.push(current);
        if (visiting.length >= ahead) await visiting.shift();
      }
      for (const v of visiting.splice(0)) await v;
    } finally {
      // On a failure the zip is closed only after the entries still being read have stopped.
      await Promise.allSettled(visiting);
    }
    return files;
  } finally {
    await zip.close().catch(() => undefined);
  }
}
