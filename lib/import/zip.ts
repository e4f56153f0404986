/**
 * Zip archives inside file[]: spooled to a temp file (the central directory is the truth; streaming
 * zip readers disagree with it on crafted archives), then read entry by entry with yauzl-promise.
 * No entry name ever becomes a filesystem path. Limits: entries, total uncompressed size,
 * compression ratio, overlapping entries (yauzl does not check those).
 */
import { open as openZip, type Entry } from 'yauzl-promise';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { Limits } from '../config.js';
import { ImportFault } from '../messages.js';

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
    if (zip.entryCount > limits.maxZipEntries) {
      throw new ImportFault('zip_limit_exceeded', {
        detail: `It has ${zip.entryCount} entries; the limit is ${limits.maxZipEntries} (TALLY_MAX_ZIP_ENTRIES).`,
        file: archiveName,
        details: { limit: 'entries', max: limits.maxZipEntries, found: zip.entryCount },
      });
    }
    const entries: Entry[] = [];
    try {
      for await (const entry of zip) entries.push(entry);
    } catch (cause) {
      throw invalid(`The central directory is not valid: ${(cause as Error).message}.`, cause);
    }
    checkEntries(entries, archiveName, limits, invalid);
    let files = 0;
    const visiting: Promise<void>[] = [];
    try {
      for (const entry of entries) {
        const name = entry.filename;
        if (name.endsWith('/')) continue;
        if (isHiddenEntry(name)) {
          visit.hidden(name);
          continue;
        }
        // A symlink entry's content is a link target, not a result: it is skipped, never followed.
        if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) continue;
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

function checkEntries(
  entries: Entry[],
  archiveName: string,
  limits: Limits,
  invalid: (d: string) => ImportFault,
): void {
  let total = 0;
  const ranges: [number, number, string][] = [];
  for (const e of entries) {
    if (e.isEncrypted()) throw invalid(`The entry "${e.filename}" is encrypted.`);
    total += e.uncompressedSize;
    if (total > limits.maxZipUncompressedBytes) {
      throw new ImportFault('zip_limit_exceeded', {
        detail: `Its entries hold more than ${limits.maxZipUncompressedBytes} bytes uncompressed (TALLY_MAX_ZIP_UNCOMPRESSED_BYTES).`,
        file: archiveName,
        details: { limit: 'uncompressed', max: limits.maxZipUncompressedBytes },
      });
    }
    if (
      e.uncompressedSize >= RATIO_FLOOR_BYTES &&
      e.uncompressedSize > limits.maxZipRatio * Math.max(1, e.compressedSize)
    ) {
      throw new ImportFault('zip_limit_exceeded', {
        detail: `The entry "${e.filename}" expands more than ${limits.maxZipRatio} times (TALLY_MAX_ZIP_RATIO).`,
        file: archiveName,
        details: { limit: 'ratio', max: limits.maxZipRatio, entry: e.filename },
      });
    }
    if (!e.filename.endsWith('/'))
      ranges.push([e.fileHeaderOffset, e.fileHeaderOffset + 30 + e.filenameLength + e.compressedSize, e.filename]);
  }
  // Overlapping entries (the "better zip bomb"): several names sharing the same compressed bytes.
  ranges.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < ranges.length; i++) {
    const prev = ranges[i - 1]!;
    const cur = ranges[i]!;
    if (cur[0] < prev[1]) throw invalid(`The entries "${prev[2]}" and "${cur[2]}" overlap.`);
  }
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
