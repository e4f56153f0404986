/**
 * Hostile zip archives in file[], sent to a started Tally (both stores, default limits). The archives
 * are crafted byte by byte (test/security/craft.ts): yazl refuses to write most of them.
 */
import t from 'tap';
import { existsSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yazl from 'yazl';
import { junitXml } from '../helpers/junit.js';
import { startTally, storeKinds } from '../helpers/tally.js';
import { centralDirectoryOffset, craftZip, deflatedZeros, overlappingZip, peakRssDuring } from './craft.js';
import { hostile, upload } from './expect.js';

const MiB = 1024 * 1024;
const xml = Buffer.from(junitXml());
const S_IFLNK = 0o120000;

// 200 MiB of zeros, deflated once for both stores (about 200 KB: a ratio of ~1030).
const bombOnce = deflatedZeros(200 * MiB);

function zip64Of(name: string, data: Buffer): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(data, name, { forceZip64Format: true });
  zip.end({ forceZip64Format: true, comment: '' });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

const detailOf = (reply: any, code: string): string =>
  reply.json.messages.find((m: any) => m.code === code)?.message ?? '';

for (const kind of storeKinds(t)) {
  t.test(`hostile zip archives (${kind} store)`, async (t) => {
    // Default limits: the ratio limit (1000) is tested as shipped.
    const h = await startTally(t, { store: kind });
    const bomb = await bombOnce;

    // Guards: the ratio check in checkEntries (lib/import/archive/entry-checks.ts,
    // `if (e.uncompressedSize >= RATIO_FLOOR_BYTES && e.uncompressedSize > limits.maxZipRatio * …)`), made from
    // the central directory before any entry is inflated.
    await hostile(
      t,
      h,
      'a zip bomb: one entry of 200 MiB of zeros, ratio ~1030',
      async (t) => {
        const archive = craftZip([
          { name: 'zeros.xml', compressed: bomb.compressed, crc: bomb.crc, uncompressedSize: bomb.size },
        ]);
        const { value, growth } = await peakRssDuring(() => upload(h, 'bomb.zip', archive));
        t.ok(growth < 50 * MiB, `RSS grew by ${(growth / MiB).toFixed(1)} MiB: nothing was inflated`);
        return value;
      },
      { status: 413, code: 'zip_limit_exceeded', severity: 'error' },
      (t, reply) => t.match(detailOf(reply, 'zip_limit_exceeded'), /expands more than 1000 times/),
    );

    // Guards: `validateEntrySizes: true` in openZip (lib/import/archive/zip.ts): yauzl stops inflating once an
    // entry passes its declared size; guardEntry (archive/inflate.ts) turns that into zip_invalid. The ratio check
    // cannot see this one.
    await hostile(
      t,
      h,
      'a zip bomb that lies: 200 MiB of zeros declared as 1,000 bytes',
      async (t) => {
        const archive = craftZip([
          { name: 'zeros.xml', compressed: bomb.compressed, crc: bomb.crc, uncompressedSize: 1000 },
        ]);
        const { value, growth } = await peakRssDuring(() => upload(h, 'liar.zip', archive));
        t.ok(growth < 50 * MiB, `RSS grew by ${(growth / MiB).toFixed(1)} MiB: inflating stopped early`);
        return value;
      },
      { status: 422, code: 'zip_invalid', severity: 'error' },
    );

    // Guards: the overlap scan at the end of checkEntries (lib/import/archive/entry-checks.ts,
    // `if (cur[0] < prev[1]) return { code: 'zip_invalid', …overlap… }`).
    await hostile(
      t,
      h,
      'an overlapping-entry bomb: 50 central-directory records share one local header',
      () =>
        upload(
          h,
          'overlap.zip',
          overlappingZip(
            Array.from({ length: 50 }, (_, i) => `r${i}.xml`),
            xml,
          ),
        ),
      { status: 422, code: 'zip_invalid', severity: 'error' },
      (t, reply) => t.match(detailOf(reply, 'zip_invalid'), /overlap/),
    );

    // Guards: addZip's entry visitor in lib/import/uploads.ts hands entries to the result files (never to
    // addUpload/looksLikeZip), so an inner zip is an unmatched file, kept as an attachment.
    const inner = craftZip([
      {
        name: 'inner.xml',
        data: Buffer.from(junitXml({ cases: [{ name: 'hidden 1' }, { name: 'hidden 2' }, { name: 'hidden 3' }] })),
      },
    ]);
    await hostile(
      t,
      h,
      'a zip inside a zip, beside a result file: not opened, kept as an attachment',
      () =>
        upload(
          h,
          'outer.zip',
          craftZip([
            { name: 'inner.zip', data: inner },
            { name: 'b.xml', data: xml },
          ]),
        ),
      { status: 201, code: 'files_moved_to_attachments', severity: 'warning' },
      async (t, reply) => {
        t.equal(reply.json.report.totals.tests, 2, 'only b.xml was parsed');
        const record = await h.send({ method: 'GET', path: `/api/v2/imports/${reply.json.import_id}` });
        t.ok(JSON.stringify(record.json.attachments).includes('inner.zip'), 'inner.zip is an attachment');
      },
      { blobsAdded: 2 },
    );
    await hostile(
      t,
      h,
      'a zip holding only a zip',
      () => upload(h, 'outer.zip', craftZip([{ name: 'inner.zip', data: inner }])),
      { status: 422, code: 'zero_files_matched_formatters', severity: 'error' },
    );

    // Guards: `validateFilenames: true` (with `strictFilenames: false`, which turns `\` into `/` first) in
    // openZip (lib/import/archive/zip.ts): yauzl refuses absolute names and `..` segments while the central
    // directory is read, before any entry; and no entry name ever becomes a filesystem path.
    const passwd = statSync('/etc/passwd', { throwIfNoEntry: false });
    for (const name of [
      '../../etc/passwd',
      '..\\evil.xml',
      '/etc/x.xml',
      'C:\\x.xml',
      'results/../../../tally-zip-slip.xml',
    ]) {
      await hostile(
        t,
        h,
        `zip slip: an entry named ${JSON.stringify(name)}`,
        () =>
          upload(
            h,
            'slip.zip',
            craftZip([
              { name: 'ok.xml', data: xml },
              { name, data: xml },
            ]),
          ),
        { status: 422, code: 'zip_invalid', severity: 'error' },
        (t) => {
          // Wherever an extractor that trusted the name would have written it (the name as given, and with `\\`
          // as `/`).
          const bases = [
            h.dataDir,
            path.join(h.dataDir, 'tmp'),
            path.join(h.dataDir, 'blobs'),
            process.cwd(),
            os.tmpdir(),
          ];
          const targets = new Set<string>();
          for (const variant of [name, name.replace(/\\/g, '/').replace(/^[A-Za-z]:/, '')])
            for (const base of bases) targets.add(path.resolve(base, variant));
          for (const target of targets) {
            if (target === '/etc/passwd') continue;
            t.notOk(existsSync(target), `nothing written at ${target}`);
          }
          if (passwd) t.equal(statSync('/etc/passwd').mtimeMs, passwd.mtimeMs, '/etc/passwd untouched');
        },
      );
    }

    // Guards: the S_IFLNK test in entryKind (lib/import/archive/entry-checks.ts,
    // `if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) return 'symlink';`): a symlink entry is
    // skipped, its target never read, its bytes never stored.
    const link = {
      name: 'link.xml',
      data: Buffer.from('/etc/passwd'),
      versionMadeBy: (3 << 8) | 30,
      externalAttributes: ((S_IFLNK | 0o777) << 16) >>> 0,
    };
    await hostile(
      t,
      h,
      'a symlink entry beside a result file: skipped',
      () => upload(h, 'links.zip', craftZip([{ name: 'a.xml', data: xml }, link])),
      { status: 201, code: 'specify_formatter', severity: 'warning' },
      async (t, reply) => {
        t.equal(reply.json.report.totals.tests, 2);
        t.notOk(
          reply.json.messages.some((m: any) => m.code === 'files_moved_to_attachments'),
          'the link is not an unmatched file',
        );
        const record = await h.send({ method: 'GET', path: `/api/v2/imports/${reply.json.import_id}` });
        t.same(record.json.attachments, [], 'nothing attached');
        t.notMatch(reply.text + record.text, /root:x?:0:0/, 'no /etc/passwd content anywhere');
      },
      { blobsAdded: 1 },
    );
    await hostile(t, h, 'a zip holding only a symlink', () => upload(h, 'links.zip', craftZip([link])), {
      status: 422,
      code: 'zero_files_after_unzipping',
      severity: 'error',
    });

    // A positive control: a real zip64 archive (yazl, forceZip64Format) imports as any zip does.
    await hostile(
      t,
      h,
      'a zip64 archive imports',
      async () => upload(h, 'z64.zip', await zip64Of('TEST-a.xml', xml)),
      { status: 201, code: 'specify_formatter', severity: 'warning' },
      (t, reply) => t.equal(reply.json.report.totals.tests, 2),
      {
        blobsAdded: 1,
      },
    );

    // Guards: `if (e.isEncrypted()) return { code: 'zip_invalid', …is encrypted. }` in checkEntries
    // (lib/import/archive/entry-checks.ts), before any entry is read. (yauzl's openReadStream would refuse too, but
    // only once the entries before it were parsed.)
    await hostile(
      t,
      h,
      'an encrypted entry (general purpose bit 0)',
      () =>
        upload(
          h,
          'enc.zip',
          craftZip([
            { name: 'a.xml', data: xml },
            {
              name: 'secret.xml',
              data: xml,
              compressed: Buffer.concat([Buffer.alloc(12, 0x5a), xml]),
              method: 0,
              uncompressedSize: xml.length,
              flags: 0x801,
            },
          ]),
        ),
      { status: 422, code: 'zip_invalid', severity: 'error' },
      (t, reply) => t.match(detailOf(reply, 'zip_invalid'), /"secret\.xml" is encrypted\./),
    );

    // Guards: the try/catch around openZip and around the central-directory loop in readZip
    // (lib/import/archive/zip.ts), and guardEntry (archive/inflate.ts) for what only shows while reading (CRC):
    // yauzl's errors become zip_invalid, not internal_error.
    const good = craftZip([
      { name: 'a.xml', data: xml },
      { name: 'b.xml', data: Buffer.from(junitXml({ suite: 'other' })) },
    ]);
    const cd = centralDirectoryOffset(good);
    const flipped = (at: number[]): Buffer => {
      const b = Buffer.from(good);
      for (const i of at) b[i] = b[i]! ^ 0xff;
      return b;
    };
    const corrupt: [string, Buffer][] = [
      ['the signature of the first central-directory record', flipped([cd])],
      ['the name length of the first record', flipped([cd + 28, cd + 29])],
      ['the local-header offset of the first record', flipped([cd + 42])],
      ['the entry count of the end record', flipped([good.length - 22 + 10])],
      ['the CRC of the first record (a CRC mismatch)', flipped([cd + 16])],
      ['a byte of the first entry data (a CRC mismatch)', flipped([30 + 'a.xml'.length + 20])],
    ];
    for (const [what, archive] of corrupt) {
      await hostile(t, h, `a corrupt zip: flipped ${what}`, () => upload(h, 'corrupt.zip', archive), {
        status: 422,
        code: 'zip_invalid',
        severity: 'error',
      });
    }
    for (const cut of [60, cd + 20, good.length - 10]) {
      await hostile(
        t,
        h,
        `a truncated zip: the first ${cut} of ${good.length} bytes`,
        () => upload(h, 'cut.zip', good.subarray(0, cut)),
        { status: 422, code: 'zip_invalid', severity: 'error' },
      );
    }
  });
}
