/**
 * Reading zips (lib/import/archive/zip.ts): archives made byte by byte read through `readZip`, the
 * entry checks applied to a whole central directory, yauzl's name checks (absolute paths, `..`,
 * drive letters), corrupt entries, and the inflating of deflated ones (archive/inflate.ts). SPEC 4.5
 * rules 4 and 5; the limits of README "Limits".
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { DEFAULT_LIMITS, type Limits } from '../../../lib/config.js';
import { ImportFault } from '../../../lib/messages.js';
import { readZip } from '../../../lib/import/archive/zip.js';
import { craftZip, deflatedZeros, overlappingZip } from '../../security/craft.js';
import { zipOf } from '../../helpers/zip.js';

const MiB = 1024 * 1024;
const S_IFLNK = 0o120000;
const mode = (bits: number): number => (bits << 16) >>> 0;

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
