/**
 * Every fixture of every formatter through HTTP: totals equal its MANIFEST.json, with the explicit
 * key and with detection (`/import`), where each file must be detected as exactly its own key —
 * no miss, no tie. Plus the encodings real files come in.
 */
import t from 'tap';
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import iconv from 'iconv-lite';
import { builtinFormatters } from '../../formatters/index.js';
import { startTally, storeKinds, type Harness } from '../helpers/tally.js';
import { field, file, multipart } from '../helpers/multipart.js';

const formattersDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../formatters');

interface Entry {
  path: string;
  expected: { tests: number; passed: number; failed: number; errored: number; skipped: number } | null;
  parse_error_expected?: boolean;
}

async function manifests(): Promise<{ key: string; dir: string; files: Entry[] }[]> {
  const out = [];
  for (const d of readdirSync(formattersDir, { withFileTypes: true })) {
    if (!d.isDirectory()) continue;
    const dir = path.join(formattersDir, d.name, 'fixtures');
    const manifest = JSON.parse(await readFile(path.join(dir, 'MANIFEST.json'), 'utf8')) as { files: Entry[] };
    out.push({ key: d.name, dir, files: manifest.files });
  }
  return out;
}

async function importFile(h: Harness, name: string, bytes: Buffer, suffix: string) {
  const m = multipart([file('file[]', name, bytes, 'application/octet-stream'), field('ignore_empty_import', 'true')]);
  return h.send({
    path: `/api/v2/profile/${h.profileId}${suffix}`,
    headers: { 'content-type': m.contentType },
    body: m.body,
  });
}

const totalsOf = (r: any) => {
  const t = r.json.report?.totals ?? {};
  return {
    tests: t.tests,
    passed: t.passed,
    failed: t.failed,
    errored: t.errored,
    skipped: t.skipped + t.pending + t.unknown,
  };
};

for (const kind of storeKinds(t)) {
  t.test(`every fixture over HTTP (${kind} store)`, async (t) => {
    const all = await manifests();
    t.equal(all.length, builtinFormatters.length, 'every built-in formatter has fixtures');
    const h = await startTally(t, { store: kind });
    for (const { key, dir, files } of all) {
      await t.test(key, async (t) => {
        t.ok(files.length > 0);
        for (const entry of files) {
          const bytes = await readFile(path.join(dir, entry.path));
          for (const suffix of [`/import/${key}`, '/import']) {
            const reply = await importFile(h, entry.path, bytes, suffix);
            if (entry.parse_error_expected) {
              t.equal(reply.status, 422, `${entry.path} ${suffix}: refused`);
              continue;
            }
            t.equal(reply.status, 201, `${entry.path} ${suffix}: 201`, { body: reply.text.slice(0, 1500) });
            t.same(totalsOf(reply), entry.expected, `${entry.path} ${suffix}: totals`);
            // Deleted once checked: every format's real containers go through a deletion, and the store stays
            // small (the MongoDB-wire server of the tests reads whole collections for some queries).
            const gone = await h.send({ method: 'DELETE', path: `/api/v2/reports/${reply.json.report_id}` });
            t.equal(gone.status, 200, `${entry.path} ${suffix}: deleted`);
            if (suffix === '/import') {
              t.same(
                reply.json.report.files.map((f: any) => f.formatter),
                [key],
                `${entry.path}: detected as ${key}`,
              );
              t.notOk(
                reply.json.messages.some((m: any) => m.code === 'multiple_formatter_match'),
                `${entry.path}: no tie`,
              );
            }
          }
        }
      });
    }

    await t.test('encodings: UTF-8 with BOM, UTF-16 LE and BE, the encoding an XML declaration names', async (t) => {
      const source = (await readFile(path.join(formattersDir, 'junit/fixtures/dorny__jest-junit.xml'), 'utf8')).replace(
        /^\uFEFF/,
        '',
      );
      const body = source.replace(/^<\?xml[^>]*\?>\s*/, '');
      const variants: [string, Buffer][] = [
        ['utf-8 BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(source)])],
        [
          'utf-16le BOM',
          Buffer.concat([
            Buffer.from([0xff, 0xfe]),
            iconv.encode(`<?xml version="1.0" encoding="UTF-16"?>\n${body}`, 'utf16le'),
          ]),
        ],
        [
          'utf-16be BOM',
          Buffer.concat([
            Buffer.from([0xfe, 0xff]),
            iconv.encode(`<?xml version="1.0" encoding="UTF-16"?>\n${body}`, 'utf16be'),
          ]),
        ],
        [
          'iso-8859-1 declared',
          iconv.encode(
            `<?xml version="1.0" encoding="ISO-8859-1"?>\n` +
              `${body.replace('</testsuites>', '<!-- Größe --></testsuites>')}`,
            'latin1',
          ),
        ],
      ];
      for (const [label, bytes] of variants) {
        const reply = await importFile(h, 'jest-junit.xml', bytes, '/import');
        t.equal(reply.status, 201, `${label}: 201`, { body: reply.text.slice(0, 800) });
        t.same(totalsOf(reply), { tests: 6, passed: 1, failed: 4, errored: 0, skipped: 1 }, `${label}: totals`);
        t.same(
          reply.json.report?.files.map((f: any) => f.formatter),
          ['junit'],
          `${label}: detected`,
        );
      }
      const json = await readFile(
        path.join(
          formattersDir,
          'jest/fixtures',
          readdirSync(path.join(formattersDir, 'jest/fixtures')).find(
            (f) => f.endsWith('.json') && f !== 'MANIFEST.json',
          )!,
        ),
      );
      const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(json.toString('utf8'), 'utf16le')]);
      const reply = await importFile(h, 'report.json', utf16, '/import');
      t.equal(reply.status, 201, 'UTF-16 JSON: 201', { body: reply.text.slice(0, 800) });
      t.same(
        reply.json.report?.files.map((f: any) => f.formatter),
        ['jest'],
        'UTF-16 JSON detected as jest',
      );
    });
  });
}
