/**
 * Replays the inputs the fuzzer found (test/fixtures/fuzz/, README there) over HTTP on both
 * stores: each is answered as designed (no 500), nothing is left behind, and the server goes on.
 */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTally, storeKinds } from './helpers/tally.js';
import { file, multipart } from './helpers/multipart.js';
import { builtinFormatters } from '../formatters/index.js';
import { formatterTarget } from '../scripts/fuzz/targets.js';
import { within } from './security/expect.js';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'fuzz');

t.test('an XML file ending in an unfinished reference, through every XML formatter', async (t) => {
  const input = await readFile(path.join(dir, 'xml-ends-in-unfinished-reference.xml'));
  for (const f of builtinFormatters.filter((x) => x.extensions.includes('.xml')))
    await t.resolves(formatterTarget(f, builtinFormatters, dir).run(input), f.key);
  await t.resolves(
    formatterTarget(
      builtinFormatters.find((x) => x.key === 'junit')!,
      builtinFormatters,
      dir,
    ).run(Buffer.from('&?x')),
    'the input as found',
  );
});

t.test('the head scanner input, through every formatter target', async (t) => {
  const input = await readFile(path.join(dir, 'head-json-key-control-char.json'));
  for (const f of builtinFormatters) await t.resolves(formatterTarget(f, builtinFormatters, dir).run(input), f.key);
});

for (const kind of storeKinds(t)) {
  t.test(`fuzzer findings over HTTP (${kind} store)`, async (t) => {
    const h = await startTally(t, { store: kind });
    const before = await h.leftovers();

    const json = await readFile(path.join(dir, 'head-json-key-control-char.json'));
    const m = multipart([file('file[]', 'report.json', json)]);
    const a = await h.send({
      path: `/api/v2/profile/${h.profileId}/import`,
      headers: { 'content-type': m.contentType },
      body: m.body,
    });
    t.equal(a.status, 422, 'a JSON key with a control character: no format matches (not a fault)', {
      body: a.text.slice(0, 400),
    });
    t.equal(
      a.json.messages.find((x: { severity: string }) => x.severity === 'error')?.code,
      'zero_files_matched_formatters',
    );

    const cut = await readFile(path.join(dir, 'xml-ends-in-unfinished-reference.xml'));
    const m2 = multipart([file('file[]', 'TEST-cut.xml', cut)]);
    const c = await h.send({
      path: `/api/v2/profile/${h.profileId}/import/junit`,
      headers: { 'content-type': m2.contentType },
      body: m2.body,
    });
    t.equal(c.status, 422, 'an XML file cut inside a reference: report_validation_error, not a fault', {
      body: c.text.slice(0, 400),
    });
    t.equal(c.json.messages.find((x: { severity: string }) => x.severity === 'error')?.code, 'report_validation_error');

    const form = await readFile(path.join(dir, 'multipart-part-without-name.bin'));
    const b = await h.send({
      path: `/api/v2/profile/${h.profileId}/import/junit`,
      headers: { 'content-type': 'multipart/form-data; boundary=tallyfuzzboundary' },
      body: form,
    });
    t.equal(b.status, 201, 'parts without a name are unused parameters; the named file imports', {
      body: b.text.slice(0, 400),
    });
    t.equal(b.json.report.totals.tests, 1);
    t.same(
      b.json.messages.find((x: { code: string | null }) => x.code === null)?.details?.parameters,
      [''],
      'named "" in the unused-parameters warning',
    );

    const early = await readFile(path.join(dir, 'multipart-closing-delimiter-in-part-header.bin'));
    const e = await within(
      10_000,
      h.send({
        path: `/api/v2/profile/${h.profileId}/import`,
        headers: { 'content-type': 'multipart/form-data; boundary=tallyfuzzboundary' },
        body: early,
      }),
    );
    t.equal(e.status, 400, 'a closing delimiter inside the first header block: answered, the form holds no file', {
      body: e.text.slice(0, 400),
    });
    t.equal(e.json.messages.find((x: { severity: string }) => x.severity === 'error')?.code, 'import_missing_file');

    const after = await h.leftovers();
    t.same(after.tmp, []);
    t.equal(after.blobs, before.blobs + 1, 'only the imported file is kept');
    t.equal((await h.send({ method: 'GET', path: '/healthz', noKey: true })).status, 200);
  });
}
