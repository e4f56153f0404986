/**
 * What the import makes of a zip's central directory before any entry is read: what each entry is
 * (file, directory, hidden, symlink) and what the whole directory may not hold (too many entries,
 * encryption, total size and ratio past the limits, overlapping entries; yauzl checks none of those).
 * Validators return the problem; the caller turns it into the fault.
 */
import type { Entry } from 'yauzl-promise';
import type { Limits } from '../../config.js';
import { message } from '../../messages.js';
import type { Message } from '../../store/types.js';

/** Ratio is only judged on entries at least this large: small text compresses well legitimately. */
const RATIO_FLOOR_BYTES = 1024 * 1024;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** Hidden files of desktop systems (SPEC 4.5 rule 5): `._x`, `__x`, anything under `__MACOSX/`. */
export function isHiddenEntry(name: string): boolean {
  return name.split('/').some((segment) => segment.startsWith('._') || segment.startsWith('__'));
}

/** The notice for hidden entries that were skipped (SPEC 4.5 rule 5), when there were any. */
export function hiddenEntriesNotice(hidden: readonly string[]): Message | null {
  if (hidden.length === 0) return null;
  return message('mac_os_hidden_files', {
    detail: `${hidden.length} ignored: ${hidden.slice(0, 10).join(', ')}${hidden.length > 10 ? ', …' : ''}.`,
    details: { count: hidden.length, entries: hidden.slice(0, 50) },
  });
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
