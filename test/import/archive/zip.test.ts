/**
 * Zip entry checks (lib/import/zip.ts): what an entry is (file, directory, hidden, symlink), what
 * the central directory may not hold (encryption, size and ratio past the limits, overlap), and
 * archives made byte by byte read through `readZip`, where yauzl's name checks (absolute paths,
 * `..`, drive letters) come in too. SPEC 4.5 rules 4 and 5; the limits of README "Limits".
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { DEFAULT_LIMITS, type Limits } from '../../../lib/config.js';
import { ImportFault } from '../../../lib/messages.js';
import {
  checkEntries,
  checkEntryCount,
  entryKind,
  isHiddenEntry,
  readZip,
  type EntryFacts,
  type EntryKind,
  type EntryProblem,
} from '../../../lib/import/archive/zip.js';
import { craftZip, deflatedZeros, overlappingZip } from '../../security/craft.js';
import { zipOf } from '../../helpers/zip.js';

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

/** What readZip made of an archive: the files it handed over with their bytes, the hidden names, or its fault. */
interface Read {
  files?: Record<string, string>;
  hidden?: string[];
  count?: number;
  fault?: { code: string; detail: string; details: Record<string, unknown> };
}

/** As `Read`, with the fault's detail as a pattern. */
type Expected = Omit<Read, 'fault'> & { fault?: { code: string; detail: RegExp; details: Record<string, unknown> } };

async function read(t: Test, archive: Buffer, limits: Limits = DEFAULT_LIMITS, ahead = 2): Promise<Read> {
  const dir = await mkdtemp(join(tmpdir(), 'tally-zip-test-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'upload.zip');
  await writeFile(path, archive);
  const files: Record<string, string> = {};
  const hidden: string[] = [];
  try {
    const count = await readZip(path, 'upload.zip', limits, ahead, {
      async entry(name, stream, size) {
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk);
        const data = Buffer.concat(chunks);
        if (data.length !== size) throw new Error(`${name}: ${data.length} bytes, announced ${size}`);
        files[name] = data.toString('latin1');
      },
      hidden: (name) => hidden.push(name),
    });
    return { files, hidden, count };
  } catch (e) {
    if (!(e instanceof ImportFault)) throw e;
    t.equal(e.msg.file, 'upload.zip', 'the fault names the archive');
    return { fault: { code: e.code, detail: e.message.slice(e.code.length + 2), details: e.msg.details ?? {} } };
  }
}

const xml = Buffer.from('<testsuite name="s"><testcase name="c"/></testsuite>');
const text = (b: Buffer): string => b.toString('latin1');

t.test('readZip: archives', async (t) => {
  const bomb = await deflatedZeros(2 * MiB);
  const cases: {
    name: string;
    archive: () => Promise<Buffer> | Buffer;
    limits?: Partial<Limits>;
    expected: Expected;
  }[] = [
    {
      name: 'files, deflated and stored, in folders',
      archive: () =>
        zipOf([
          { name: 'a.xml', data: xml },
          { name: 'results/', data: '' },
          { name: 'results/b.xml', data: 'b'.repeat(300_000), compress: false },
        ]),
      expected: { count: 2, files: { 'a.xml': text(xml), 'results/b.xml': 'b'.repeat(300_000) }, hidden: [] },
    },
    {
      name: 'an empty archive',
      archive: () => zipOf([]),
      expected: { count: 0, files: {}, hidden: [] },
    },
    {
      name: 'only directories',
      archive: () =>
        zipOf([
          { name: 'a/', data: '' },
          { name: 'a/b/', data: '' },
        ]),
      expected: { count: 0, files: {}, hidden: [] },
    },
    {
      name: 'hidden entries are named, not read',
      archive: () =>
        craftZip([
          { name: 'a.xml', data: xml },
          { name: '._a.xml', data: Buffer.from('mac') },
          { name: '__MACOSX/._a.xml', data: Buffer.from('mac') },
        ]),
      expected: { count: 1, files: { 'a.xml': text(xml) }, hidden: ['._a.xml', '__MACOSX/._a.xml'] },
    },
    {
      name: 'a symlink entry is skipped, its target never read',
      archive: () =>
        craftZip([
          { name: 'a.xml', data: xml },
          {
            name: 'link.xml',
            data: Buffer.from('/etc/passwd'),
            versionMadeBy: 3 << 8,
            externalAttributes: mode(S_IFLNK | 0o777),
          },
        ]),
      expected: { count: 1, files: { 'a.xml': text(xml) }, hidden: [] },
    },
    {
      name: 'backslashes are folder separators',
      archive: () => craftZip([{ name: 'results\\a.xml', data: xml }]),
      expected: { count: 1, files: { 'results/a.xml': text(xml) }, hidden: [] },
    },
    {
      // Names never become paths, so a NUL is a character like any other.
      name: 'a NUL in a name is kept',
      archive: () => craftZip([{ name: 'a\u0000.xml', data: xml }]),
      expected: { count: 1, files: { 'a\u0000.xml': text(xml) }, hidden: [] },
    },
    {
      name: 'a ./ prefix and empty segments are kept as given',
      archive: () => craftZip([{ name: './a//b.xml', data: xml }]),
      expected: { count: 1, files: { './a//b.xml': text(xml) }, hidden: [] },
    },
    ...['/etc/x.xml', '../x.xml', 'results/../../x.xml', '..\\x.xml', 'C:\\x.xml', 'C:x.xml', 'c:/x.xml'].map(
      (name) => ({
        name: `a name yauzl refuses: ${JSON.stringify(name)}`,
        archive: () =>
          craftZip([
            { name: 'a.xml', data: xml },
            { name, data: xml },
          ]),
        expected: {
          fault: {
            code: 'zip_invalid',
            detail: /^The central directory is not valid: /,
            details: { archive: 'upload.zip' },
          },
        },
      }),
    ),
    {
      name: 'an encrypted entry',
      archive: () =>
        craftZip([
          { name: 'a.xml', data: xml },
          // Stored, with the 12-byte encryption header before the data (general purpose bit 0).
          {
            name: 'secret.xml',
            data: xml,
            compressed: Buffer.concat([Buffer.alloc(12, 0x5a), xml]),
            method: 0,
            uncompressedSize: xml.length,
            flags: 0x801,
          },
        ]),
      expected: {
        fault: {
          code: 'zip_invalid',
          detail: /^The entry "secret\.xml" is encrypted\.$/,
          details: { archive: 'upload.zip' },
        },
      },
    },
    {
      name: 'more entries than allowed',
      archive: () =>
        craftZip([
          { name: 'a.xml', data: xml },
          { name: 'b.xml', data: xml },
          { name: 'c/', data: Buffer.alloc(0) },
        ]),
      limits: { maxZipEntries: 2 },
      expected: {
        fault: {
          code: 'zip_limit_exceeded',
          detail: /3 entries; the limit is 2/,
          details: { limit: 'entries', max: 2, found: 3 },
        },
      },
    },
    {
      name: 'more bytes uncompressed than allowed',
      archive: () =>
        craftZip([
          { name: 'a.xml', data: xml },
          { name: 'b.xml', data: xml },
        ]),
      limits: { maxZipUncompressedBytes: xml.length * 2 - 1 },
      expected: {
        fault: {
          code: 'zip_limit_exceeded',
          detail: /uncompressed/,
          details: { limit: 'uncompressed', max: xml.length * 2 - 1 },
        },
      },
    },
    {
      name: 'a deflate bomb',
      archive: () =>
        craftZip([{ name: 'zeros.xml', compressed: bomb.compressed, crc: bomb.crc, uncompressedSize: bomb.size }]),
      limits: { maxZipRatio: 100 },
      expected: {
        fault: {
          code: 'zip_limit_exceeded',
          detail: /expands more than 100 times/,
          details: { limit: 'ratio', max: 100, entry: 'zeros.xml' },
        },
      },
    },
    {
      name: 'the same entry under a ratio it keeps to',
      archive: () =>
        craftZip([{ name: 'zeros.xml', compressed: bomb.compressed, crc: bomb.crc, uncompressedSize: bomb.size }]),
      limits: { maxZipRatio: 2000 },
      expected: { count: 1, files: { 'zeros.xml': text(Buffer.alloc(2 * MiB)) }, hidden: [] },
    },
    {
      name: 'overlapping entries',
      archive: () => overlappingZip(['a.xml', 'b.xml', 'c.xml'], xml),
      expected: {
        fault: { code: 'zip_invalid', detail: /"a\.xml" and "b\.xml" overlap/, details: { archive: 'upload.zip' } },
      },
    },
    {
      name: 'not a zip',
      archive: () => xml,
      expected: {
        fault: { code: 'zip_invalid', detail: /^The archive cannot be opened: /, details: { archive: 'upload.zip' } },
      },
    },
    {
      name: 'an entry that inflates to more than its header says',
      archive: () =>
        craftZip([{ name: 'zeros.xml', compressed: bomb.compressed, crc: bomb.crc, uncompressedSize: MiB }]),
      expected: {
        fault: { code: 'zip_invalid', detail: /"zeros\.xml" is corrupt/, details: { archive: 'upload.zip' } },
      },
    },
    {
      name: 'a stored entry with a wrong CRC-32',
      archive: () => craftZip([{ name: 'a.xml', data: xml, crc: 1234 }]),
      expected: { fault: { code: 'zip_invalid', detail: /"a\.xml" is corrupt/, details: { archive: 'upload.zip' } } },
    },
  ];
  for (const c of cases) {
    t.test(c.name, async (t) => {
      const got = await read(t, await c.archive(), { ...DEFAULT_LIMITS, ...c.limits });
      if (c.expected.fault) {
        t.strictSame(Object.keys(got), ['fault'], 'refused');
        t.equal(got.fault?.code, c.expected.fault.code, 'code');
        t.match(got.fault?.detail, c.expected.fault.detail, 'detail');
        t.strictSame(got.fault?.details, c.expected.fault.details, 'details');
      } else {
        t.strictSame(got, c.expected);
      }
    });
  }
});
