/**
 * Every JUnit fixture through HTTP: totals equal MANIFEST.json, with the explicit key and with
 * detection. The fixtures live beside their formatter with their provenance.
 */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTally, storeKinds } from '../helpers/tally.js';
import { file, multipart } from '../helpers/multipart.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.resolve(here, '../../formatters/junit/fixtures');

interface Entry {
  path: string;
  expected: { tests: number; passed: number; failed: number; errored: number; skipped: number } | null;
  parse_error_expected?: boolean;
}

for (const kind of storeKinds(t)) t.test(`junit fixtures over HTTP (${kind} store)`, async (t) => {
  const manifest = JSON.parse(await readFile(path.join(fixtures, 'MANIFEST.json'), 'utf8')) as { files: Entry[] };
  t.ok(manifest.files.length >= 49, 'all junit fixtures are listed');
  const h = await startTally(t, { store: kind });
  for (const entry of manifest.files) {
    const bytes = await readFile(path.join(fixtures, entry.path));
    for (const suffix of ['/import/junit', '/import']) {
      const m = multipart([file('file[]', entry.path, bytes, 'application/xml'), { name: 'ignore_empty_import', value: 'true' }]);
      const reply = await h.send({ path: `/api/v2/profile/${h.profileId}${suffix}`, headers: { 'content-type': m.contentType }, body: m.body });
      if (entry.parse_error_expected) {
        t.equal(reply.status, 422, `${entry.path} ${suffix}: fails`);
        t.ok(reply.json.messages.some((x: any) => x.code === 'report_validation_error'), `${entry.path}: report_validation_error`);
        continue;
      }
      t.equal(reply.status, 201, `${entry.path} ${suffix}: 201`, { body: reply.text.slice(0, 2000) });
      const totals = reply.json.report?.totals ?? {};
      const e = entry.expected!;
      t.same(
        { tests: totals.tests, passed: totals.passed, failed: totals.failed, errored: totals.errored, skipped: totals.skipped + totals.pending + totals.unknown },
        e,
        `${entry.path} ${suffix}`,
      );
      if (suffix === '/import') t.same(reply.json.report.files.map((f: any) => f.formatter), ['junit'], `${entry.path} detected as junit`);
    }
  }
});
