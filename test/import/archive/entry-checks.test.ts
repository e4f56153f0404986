/**
 * Zip entry checks (lib/import/archive/entry-checks.ts): what an entry is (file, directory, hidden,
 * symlink), and what the central directory may not hold (too many entries, encryption, size and
 * ratio past the limits, overlap). SPEC 4.5 rules 4 and 5; the limits of README "Limits".
 */
import t from 'tap';
import {
  checkEntries,
  checkEntryCount,
  entryKind,
  isHiddenEntry,
  type EntryFacts,
  type EntryKind,
  type EntryProblem,
} from '../../../lib/import/archive/entry-checks.js';

const MiB = 1024 * 1024;
const S_IFLNK = 0o120000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const mode = (bits: number): number => (bits << 16) >>> 0;

t.test('entryKind', async (t) => {
  const cases: [name: string, attributes: number, kind: EntryKind][] = [
    ['a.xml', 0, 'file'],
    ['results/nested/a.xml', mode(S_IFREG | 0o644), 'file'],
    ['results/', 0, 'directory'],
    ['results/', mode(S_IFDIR | 0o755), 'directory'],
    ['._a.xml', 0, 'hidden'],
    ['results/._a.xml', 0, 'hidden'],
    ['__MACOSX/._a.xml', 0, 'hidden'],
    ['__MACOSX/results/a.xml', 0, 'hidden'],
    ['__a.xml', 0, 'hidden'],
    // Any segment: a folder whose name starts with `__` hides what is under it.
    ['build/__snapshots__/a.xml', 0, 'hidden'],
    ['a._b.xml', 0, 'file'],
    ['.a.xml', 0, 'file'],
    ['_a.xml', 0, 'file'],
    ['a__.xml', 0, 'file'],
    ['link.xml', mode(S_IFLNK | 0o777), 'symlink'],
    ['results/link.xml', mode(S_IFLNK), 'symlink'],
    // The order of the checks: a slash first, then the name, then the mode.
    ['links/', mode(S_IFLNK | 0o777), 'directory'],
    ['._link.xml', mode(S_IFLNK | 0o777), 'hidden'],
    // Only the file type bits decide: permissions alone, or a socket, are a file.
    ['a.xml', mode(0o777), 'file'],
    ['a.xml', mode(0o140000), 'file'],
  ];
  for (const [name, attributes, kind] of cases) {
    t.equal(
      entryKind({ filename: name, externalFileAttributes: attributes }),
      kind,
      `${name} (${attributes}): ${kind}`,
    );
    t.equal(isHiddenEntry(name), kind === 'hidden', `${name}: isHiddenEntry`);
  }
});

function facts(filename: string, o: Partial<Omit<EntryFacts, 'isEncrypted'>> & { encrypted?: boolean }): EntryFacts {
  const { encrypted = false, ...rest } = o;
  return {
    filename,
    filenameLength: Buffer.byteLength(filename),
    uncompressedSize: 100,
    compressedSize: 50,
    fileHeaderOffset: 0,
    ...rest,
    isEncrypted: () => encrypted,
  };
}

/** Entries one after another, each local header placed right after the previous entry's data. */
function laidOut(...entries: [string, Partial<Omit<EntryFacts, 'isEncrypted'>> & { encrypted?: boolean }][]) {
  let offset = 0;
  return entries.map(([name, o]) => {
    const e = facts(name, { fileHeaderOffset: offset, ...o });
    offset = e.fileHeaderOffset + 30 + e.filenameLength + e.compressedSize;
    return e;
  });
}

t.test('checkEntries', async (t) => {
  const limits = { maxZipUncompressedBytes: 10 * MiB, maxZipRatio: 100 };
  const cases: { name: string; entries: EntryFacts[]; expected: EntryProblem | null }[] = [
    { name: 'no entries', entries: [], expected: null },
    {
      name: 'plain entries',
      entries: laidOut(['a.xml', {}], ['b/', { compressedSize: 0 }], ['b/c.xml', {}]),
      expected: null,
    },
    {
      name: 'an encrypted entry',
      entries: laidOut(['a.xml', {}], ['secret.xml', { encrypted: true }]),
      expected: { code: 'zip_invalid', detail: 'The entry "secret.xml" is encrypted.' },
    },
    {
      name: 'entries exactly at the uncompressed limit',
      entries: laidOut(
        ['a.xml', { uncompressedSize: 6 * MiB, compressedSize: MiB }],
        ['b.xml', { uncompressedSize: 4 * MiB, compressedSize: MiB }],
      ),
      expected: null,
    },
    {
      name: 'entries one byte over the uncompressed limit',
      entries: laidOut(
        ['a.xml', { uncompressedSize: 6 * MiB, compressedSize: MiB }],
        ['b.xml', { uncompressedSize: 4 * MiB + 1, compressedSize: MiB }],
      ),
      expected: {
        code: 'zip_limit_exceeded',
        detail: `Its entries hold more than ${10 * MiB} bytes uncompressed (TALLY_MAX_ZIP_UNCOMPRESSED_BYTES).`,
        details: { limit: 'uncompressed', max: 10 * MiB },
      },
    },
    {
      name: 'an entry below 1 MiB may expand without bound (small text compresses well)',
      entries: laidOut(['a.xml', { uncompressedSize: MiB - 1, compressedSize: 1 }]),
      expected: null,
    },
    {
      name: 'an entry of 1 MiB expanding exactly the limit',
      entries: laidOut(['a.xml', { uncompressedSize: MiB, compressedSize: MiB / 100 + 1 }]),
      expected: null,
    },
    {
      name: 'an entry of 1 MiB expanding more than the limit',
      entries: laidOut(['a.xml', {}], ['zeros.xml', { uncompressedSize: MiB, compressedSize: 10 }]),
      expected: {
        code: 'zip_limit_exceeded',
        detail: 'The entry "zeros.xml" expands more than 100 times (TALLY_MAX_ZIP_RATIO).',
        details: { limit: 'ratio', max: 100, entry: 'zeros.xml' },
      },
    },
    {
      name: 'a compressed size of 0 counts as 1',
      entries: laidOut(['zeros.xml', { uncompressedSize: MiB, compressedSize: 0 }]),
      expected: {
        code: 'zip_limit_exceeded',
        detail: 'The entry "zeros.xml" expands more than 100 times (TALLY_MAX_ZIP_RATIO).',
        details: { limit: 'ratio', max: 100, entry: 'zeros.xml' },
      },
    },
    {
      name: 'entries sharing their bytes overlap',
      entries: [facts('a.xml', { fileHeaderOffset: 0 }), facts('b.xml', { fileHeaderOffset: 0 })],
      expected: { code: 'zip_invalid', detail: 'The entries "a.xml" and "b.xml" overlap.' },
    },
    {
      name: 'an entry starting inside the previous one overlaps, in whatever order they are listed',
      entries: [facts('late.xml', { fileHeaderOffset: 50 }), facts('early.xml', { fileHeaderOffset: 0 })],
      expected: { code: 'zip_invalid', detail: 'The entries "early.xml" and "late.xml" overlap.' },
    },
    {
      name: 'an entry starting where the previous one ends does not overlap',
      entries: [facts('a.xml', { fileHeaderOffset: 0 }), facts('b.xml', { fileHeaderOffset: 30 + 5 + 50 })],
      expected: null,
    },
    {
      name: 'an entry starting one byte before the previous one ends overlaps',
      entries: [facts('a.xml', { fileHeaderOffset: 0 }), facts('b.xml', { fileHeaderOffset: 30 + 5 + 50 - 1 })],
      expected: { code: 'zip_invalid', detail: 'The entries "a.xml" and "b.xml" overlap.' },
    },
    {
      name: 'directories are not part of the overlap scan',
      entries: [facts('a.xml', { fileHeaderOffset: 0 }), facts('dir/', { fileHeaderOffset: 0 })],
      expected: null,
    },
    {
      name: 'the first problem in central-directory order is the one told: the total before the ratio',
      entries: laidOut(['zeros.xml', { uncompressedSize: 11 * MiB, compressedSize: 1 }]),
      expected: {
        code: 'zip_limit_exceeded',
        detail: `Its entries hold more than ${10 * MiB} bytes uncompressed (TALLY_MAX_ZIP_UNCOMPRESSED_BYTES).`,
        details: { limit: 'uncompressed', max: 10 * MiB },
      },
    },
    {
      name: 'an encrypted entry after a ratio bomb: the bomb is told',
      entries: laidOut(
        ['zeros.xml', { uncompressedSize: MiB, compressedSize: 1 }],
        ['secret.xml', { encrypted: true }],
      ),
      expected: {
        code: 'zip_limit_exceeded',
        detail: 'The entry "zeros.xml" expands more than 100 times (TALLY_MAX_ZIP_RATIO).',
        details: { limit: 'ratio', max: 100, entry: 'zeros.xml' },
      },
    },
    {
      name: 'limits before overlap: overlapping entries that also break a limit',
      entries: [
        facts('a.xml', { fileHeaderOffset: 0 }),
        facts('b.xml', { fileHeaderOffset: 0, uncompressedSize: MiB, compressedSize: 1 }),
      ],
      expected: {
        code: 'zip_limit_exceeded',
        detail: 'The entry "b.xml" expands more than 100 times (TALLY_MAX_ZIP_RATIO).',
        details: { limit: 'ratio', max: 100, entry: 'b.xml' },
      },
    },
  ];
  for (const c of cases) t.strictSame(checkEntries(c.entries, limits), c.expected, c.name);
});

t.test('checkEntryCount', async (t) => {
  t.equal(checkEntryCount(0, { maxZipEntries: 3 }), null, 'none');
  t.equal(checkEntryCount(3, { maxZipEntries: 3 }), null, 'at the limit');
  t.strictSame(
    checkEntryCount(4, { maxZipEntries: 3 }),
    {
      code: 'zip_limit_exceeded',
      detail: 'It has 4 entries; the limit is 3 (TALLY_MAX_ZIP_ENTRIES).',
      details: { limit: 'entries', max: 3, found: 4 },
    },
    'one over',
  );
});
