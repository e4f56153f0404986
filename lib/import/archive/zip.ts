/**
 * Zip archives inside file[]: spooled to a temp file (the central directory is the truth; streaming
 * zip readers disagree with it on crafted archives), then read entry by entry with yauzl-promise.
 * No entry name ever becomes a filesystem path. Limits: entries, total uncompressed size,
 * compression ratio, overlapping entries (yauzl does not check those).
 */
import { open as openZip, type Entry } from 'yauzl-promise';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { Limits } from '../../config.js';
import { ImportFault } from '../../messages.js';

export const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
export const EMPTY_ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x05, 0x06]);

export function looksLikeZip(head: Buffer): boolean {
  return head.subarray(0, 4).equals(ZIP_MAGIC) || head.subarray(0, 4).equals(EMPTY_ZIP_MAGIC);
}

/** Ratio is only judged on entries at least this large: small text compresses well legitimately. */
const RATIO_FLOOR_BYTES = 1024 * 1024;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** Hidden files of desktop systems (SPEC 4.5 rule 5): `._x`, `__x`, anything under `__MACOSX/`. */
export function isHiddenEntry(name: string): boolean {
  return name.split('/').some((segment) => segment.startsWith('._') || segment.startsWith('__'));
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

/** What an entry of the central directory is to the import, from its name and attributes alone. */
export type EntryKind = 'directory' | 'hidden' | 'symlink' | 'file';

export function entryKind(entry: Pick<Entry, 'filename' | 'externalFileAttributes'>): EntryKind {
  if (entry.filename.endsWith('/')) return 'directory';
  if (isHiddenEntry(entry.filename)) return 'hidden';
  // A symlink entry's content is a link target, not a result: it is skipped, never followed.
  if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) return 'symlink';
  return 'file';
}

/** The facts of a central-directory record that the checks read (yauzl's `Entry` has them all). */
export type EntryFacts = Pick<
  Entry,
  'filename' | 'filenameLength' | 'uncompressedSize' | 'compressedSize' | 'fileHeaderOffset' | 'isEncrypted'
>;

/** What is wrong with an archive's entries; the caller turns it into the fault. */
export interface EntryProblem {
  code: 'zip_invalid' | 'zip_limit_exceeded';
  detail: string;
  /** For zip_limit_exceeded: which limit, its value, and the entry when one is to blame. */
  details?: Record<string, unknown>;
}

/** The entry count of the end record, checked before any record of the central directory is read. */
export function checkEntryCount(count: number, limits: Pick<Limits, 'maxZipEntries'>): EntryProblem | null {
  if (count <= limits.maxZipEntries) return null;
  return {
    code: 'zip_limit_exceeded',
    detail: `It has ${count} entries; the limit is ${limits.maxZipEntries} (TALLY_MAX_ZIP_ENTRIES).`,
    details: { limit: 'entries', max: limits.maxZipEntries, found: count },
  };
}

/**
 * The whole central directory, before any entry is read: encryption, total uncompressed size,
 * compression ratio, overlapping entries. The first problem found is returned.
 */
export function checkEntries(
  entries: readonly EntryFacts[],
  limits: Pick<Limits, 'maxZipUncompressedBytes' | 'maxZipRatio'>,
): EntryProblem | null {
  let total = 0;
  const ranges: [number, number, string][] = [];
  for (const e of entries) {
    if (e.isEncrypted()) return { code: 'zip_invalid', detail: `The entry "${e.filename}" is encrypted.` };
    total += e.uncompressedSize;
    if (total > limits.maxZipUncompressedBytes) {
      return {
        code: 'zip_limit_exceeded',
        detail:
          `Its entries hold more than ${limits.maxZipUncompressedBytes} bytes uncompressed ` +
          '(TALLY_MAX_ZIP_UNCOMPRESSED_BYTES).',
        details: { limit: 'uncompressed', max: limits.maxZipUncompressedBytes },
      };
    }
    if (
      e.uncompressedSize >= RATIO_FLOOR_BYTES &&
      e.uncompressedSize > limits.maxZipRatio * Math.max(1, e.compressedSize)
    ) {
      return {
        code: 'zip_limit_exceeded',
        detail: `The entry "${e.filename}" expands more than ${limits.maxZipRatio} times (TALLY_MAX_ZIP_RATIO).`,
        details: { limit: 'ratio', max: limits.maxZipRatio, entry: e.filename },
      };
    }
    if (!e.filename.endsWith('/'))
      ranges.push([e.fileHeaderOffset, e.fileHeaderOffset + 30 + e.filenameLength + e.compressedSize, e.filename]);
  }
  // Overlapping entries (the "better zip bomb"): several names sharing the same compressed bytes.
  ranges.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < ranges.length; i++) {
    const prev = ranges[i - 1]!;
    const cur = ranges[i]!;
    if (cur[0] < prev[1]) return { code: 'zip_invalid', detail: `The entries "${prev[2]}" and "${cur[2]}" overlap.` };
  }
  return null;
}

/** zip compression method 8. */
const DEFLATE = 8;
/**
 * Inflated bytes per chunk. zlib's default (16 KiB) costs a callback, a copy and a message to a
 * parse worker per 16 KiB; 256 KiB chunks read the same entry with a sixteenth of that overhead.
 */
const INFLATE_CHUNK_BYTES = 256 * 1024;

/**
 * A deflated entry's bytes, inflated in large chunks, with the checks yauzl would make on its own
 * stream: never more bytes than the central directory says, exactly that many, and a matching CRC-32.
 */
async function* inflateEntry(raw: Readable, entry: Entry): AsyncGenerator<Buffer> {
  const inflate = zlib.createInflateRaw({ chunkSize: INFLATE_CHUNK_BYTES });
  raw.on('error', (e) => inflate.destroy(e));
  raw.pipe(inflate);
  let size = 0;
  let crc = 0;
  try {
    for await (const chunk of inflate as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > entry.uncompressedSize)
        throw new Error(`it inflates to more than the ${entry.uncompressedSize} bytes its header says`);
      crc = zlib.crc32(chunk, crc);
      yield chunk;
    }
    if (size !== entry.uncompressedSize)
      throw new Error(`it inflates to ${size} bytes, its header says ${entry.uncompressedSize}`);
    if (crc !== entry.crc32) throw new Error('its CRC-32 does not match');
  } finally {
    inflate.destroy();
  }
}

async function* guardEntry(
  source: AsyncIterable<Buffer>,
  stream: Readable,
  name: string,
  invalid: (d: string, c?: unknown) => ImportFault,
): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of source) yield chunk as Buffer;
  } catch (cause) {
    if (cause instanceof ImportFault) throw cause;
    throw invalid(`The entry "${name}" is corrupt: ${(cause as Error).message}.`, cause);
  } finally {
    stream.destroy();
  }
}
