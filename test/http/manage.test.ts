/**
 * Managing profiles and reports with the API key, on both stores: create and rename a profile (and
 * the names refused), delete a report and a profile with everything they own (the stored files
 * counted), the answers for another account's and unknown ids, and the 409 while an import into
 * them is still running (a real upload held open). The sweep finishes a deletion cut short.
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import t from 'tap';
import { createAccountWithKey } from '../../lib/api-keys.js';
import { importDemoReport } from '../helpers/demo-import.js';
import { heldUpload, runningImport } from '../helpers/held-upload.js';
import { junitXml } from '../helpers/junit.js';
import { send, startTally, storeKinds, type Harness, type Reply } from '../helpers/tally.js';

const json = (h: Harness, method: string, p: string, body: unknown, key = h.apiKey): Promise<Reply> =>
  send(h.url, key, {
    method,
    path: p,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });

for (const kind of storeKinds(t)) {
  t.test(`${kind}: create and rename profiles`, async (t) => {
    const h = await startTally(t, { store: kind });
    const made = await json(h, 'POST', '/api/v2/profiles', { name: '  nightly — ✓  ' });
    t.equal(made.status, 201);
    t.match(made.json, { name: 'nightly — ✓', profile_id: made.json.id, created_at: String });
    t.equal(made.headers.location, `/api/v2/profile/${made.json.id}`);
    const id = made.json.profile_id as number;
    t.equal((await h.send({ method: 'GET', path: `/api/v2/profile/${id}` })).json.name, 'nightly — ✓');
    const listed = await h.send({ method: 'GET', path: '/api/v2/profiles' });
    t.ok(
      listed.json.profiles.some((p: { id: number }) => p.id === id),
      'listed with the account',
    );
    t.ok(Number.isInteger(await importDemoReport(h, id, 0)), 'imports go into it');
    const long = `${'ü'.repeat(98)}🚀x`;
    t.equal((await json(h, 'POST', '/api/v2/profiles', { name: long })).status, 201, '100 characters');

    const refused: [string, unknown][] = [
      ['an empty name', { name: '' }],
      ['only spaces', { name: '   ' }],
      ['101 characters', { name: `${long}y` }],
      ['a control character', { name: 'a\nb' }],
      ['no name', {}],
      ['a number', { name: 4390 }],
      ['an array', [{ name: 'x' }]],
      ['JSON null', 'null'],
      ['not JSON', '{"name": '],
    ];
    for (const [what, body] of refused) {
      const r = await json(h, 'POST', '/api/v2/profiles', body);
      t.equal(r.status, 400, what);
      t.match(r.json, { status: 'failed', messages: [{ code: 'profile_name_invalid' }] }, what);
    }
    const form = await h.send({
      path: '/api/v2/profiles',
      body: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    t.equal(form.status, 415, 'a form body');
    t.match(form.json, { messages: [{ code: 'json_body_required' }] });
    const big = await json(h, 'POST', '/api/v2/profiles', { name: 'x', pad: 'x'.repeat(20_000) });
    t.equal(big.status, 413);
    t.match(big.json, { messages: [{ code: 'payload_too_large' }] });
    const anon = await send(h.url, '', { path: '/api/v2/profiles', body: '{"name":"x"}', noKey: true });
    t.equal(anon.status, 401);
    t.match(anon.json, { messages: [{ code: 'missing_api_key' }] });

    const renamed = await json(h, 'PATCH', `/api/v2/profiles/${id}`, { name: 'weekly' });
    t.equal(renamed.status, 200);
    t.strictSame(renamed.json, { ...made.json, name: 'weekly' }, 'the profile with its new name');
    t.equal((await h.send({ method: 'GET', path: `/api/v2/profile/${id}` })).json.name, 'weekly');
    const badName = await json(h, 'PATCH', `/api/v2/profiles/${id}`, { name: ' ' });
    t.equal(badName.status, 400);
    t.match(badName.json, { messages: [{ code: 'profile_name_invalid' }] });
    const foreign = await json(h, 'PATCH', `/api/v2/profiles/${h.foreignProfileId}`, { name: 'mine now' });
    t.equal(foreign.status, 403, "another account's profile");
    t.match(foreign.json, { messages: [{ code: 'profile_forbidden' }] });
    t.equal((await h.store.profiles.get(h.foreignProfileId))?.name, 'theirs', 'is not renamed');
    const unknown = await json(h, 'PATCH', '/api/v2/profiles/00000000-0000-4000-8000-000000000000', { name: 'x' });
    t.equal(unknown.status, 404);
    t.match(unknown.json, { messages: [{ code: 'profile_not_found' }] });
  });

  t.test(`${kind}: delete a report`, async (t) => {
    const h = await startTally(t, { store: kind });
    const baseline = (await h.leftovers()).blobs;
    const doomed = await importDemoReport(h, h.profileId, 0);
    const perRun = (await h.leftovers()).blobs - baseline;
    t.equal(perRun, 2, 'an import stores its result file and its attachment');
    const kept = await importDemoReport(h, h.profileId, 1);
    const record = (await h.send({ method: 'GET', path: `/api/v2/reports/${doomed}/status` })).json;
    t.equal(record.import_status, 'completed');

    const other = await createAccountWithKey(h.store, 'other');
    const stranger = await send(h.url, other.apiKey, { method: 'DELETE', path: `/api/v2/reports/${doomed}` });
    t.equal(stranger.status, 404, "another account's key: not found, its existence not revealed");
    t.match(stranger.json, { messages: [{ code: 'not_found' }] });

    const r = await h.send({ method: 'DELETE', path: `/api/v2/reports/${doomed}` });
    t.equal(r.status, 200);
    t.strictSame(r.json, { report_id: doomed, deleted: { reports: 1, tests: 14 } });
    for (const p of [
      `/api/v2/reports/${doomed}`,
      `/api/v2/reports/${doomed}/status`,
      `/api/v2/reports/${doomed}/containers`,
      `/api/v2/imports/${record.import_id}`,
    ]) {
      const gone = await h.send({ method: 'GET', path: p });
      t.equal(gone.status, 404, `${p} is gone`);
    }
    t.equal((await h.leftovers()).blobs, baseline + perRun, "the doomed import's files went");
    const list = await h.send({ method: 'GET', path: `/api/v2/profile/${h.profileId}/reports` });
    t.strictSame(
      list.json.reports.map((x: { id: number }) => x.id),
      [kept],
      'the other report stays',
    );
    const again = await h.send({ method: 'DELETE', path: `/api/v2/reports/${doomed}` });
    t.equal(again.status, 404, 'deleting it again');
    t.match(again.json, { messages: [{ code: 'not_found' }] });
    t.equal((await h.send({ method: 'DELETE', path: `/api/v2/reports/${kept}` })).status, 200);
    t.equal((await h.leftovers()).blobs, baseline, 'no stored file is left');

    // An import still running: its report is being built.
    const held = heldUpload(h, h.profileId);
    const building = await runningImport(h, h.profileId);
    const busy = await h.send({ method: 'DELETE', path: `/api/v2/reports/${building}` });
    t.equal(busy.status, 409, 'a report whose import runs');
    t.match(busy.json, { messages: [{ code: 'import_in_progress' }] });
    held.finish();
    t.equal((await held.answer).status, 201, 'the import was not disturbed');
    t.equal((await h.send({ method: 'DELETE', path: `/api/v2/reports/${building}` })).status, 200, 'then it goes');
  });

  t.test(`${kind}: delete a profile`, async (t) => {
    const h = await startTally(t, { store: kind });
    const baseline = (await h.leftovers()).blobs;
    const id = (await json(h, 'POST', '/api/v2/profiles', { name: 'doomed' })).json.id as number;
    await importDemoReport(h, id, 0);
    await importDemoReport(h, id, 1);
    const failed = await h.send({
      path: `/api/v2/profile/${id}/import/junit`,
      body: '<testsuites><broken',
      headers: { 'content-type': 'application/xml' },
    });
    t.equal(failed.status, 422, 'and a failed import');
    const beforeKept = (await h.leftovers()).blobs;
    const kept = await importDemoReport(h, h.profileId, 2);
    const keptBlobs = (await h.leftovers()).blobs - beforeKept;

    const foreign = await h.send({ method: 'DELETE', path: `/api/v2/profiles/${h.foreignProfileId}` });
    t.equal(foreign.status, 403, "another account's profile");
    t.match(foreign.json, { messages: [{ code: 'profile_forbidden' }] });
    t.ok(await h.store.profiles.get(h.foreignProfileId), 'is kept');

    const held = heldUpload(h, id);
    await runningImport(h, id);
    const busy = await h.send({ method: 'DELETE', path: `/api/v2/profiles/${id}` });
    t.equal(busy.status, 409, 'a profile with an import running');
    t.match(busy.json, { messages: [{ code: 'import_in_progress' }] });
    t.equal((await h.send({ method: 'GET', path: `/api/v2/profile/${id}` })).status, 200, 'the profile stays');
    held.finish();
    t.equal((await held.answer).status, 201);

    const r = await h.send({ method: 'DELETE', path: `/api/v2/profiles/${id}` });
    t.equal(r.status, 200);
    t.strictSame(r.json, { profile_id: id, deleted: { reports: 3, tests: 30 } });
    for (const p of [`/api/v2/profile/${id}`, `/api/v2/profiles/${id}/reports`, `/api/v2/profile/${id}/reports`]) {
      const gone = await h.send({ method: 'GET', path: p });
      t.equal(gone.status, 404, `${p} is gone`);
      t.match(gone.json, { messages: [{ code: 'profile_not_found' }] });
    }
    const late = await h.send({
      path: `/api/v2/profile/${id}/import/junit`,
      body: junitXml(),
      headers: { 'content-type': 'application/xml' },
    });
    t.equal(late.status, 404, 'no import goes into it');
    t.equal((await h.leftovers()).blobs, baseline + keptBlobs, 'only the kept report keeps files');
    t.equal((await h.send({ method: 'GET', path: `/api/v2/reports/${kept}` })).status, 200, 'other profiles stay');
    t.equal((await h.send({ method: 'DELETE', path: `/api/v2/profiles/${id}` })).status, 404, 'deleting it again');
  });
}

t.test('embedded: the sweep finishes a deletion cut short', async (t) => {
  const h = await startTally(t);
  const doomed = await importDemoReport(h, h.profileId, 0);
  // What a process that died right after marking the report leaves behind.
  const raw = new Database(path.join(h.dataDir, 'tally.sqlite'));
  raw.prepare("update reports set status = 'deleting' where number = ?").run(doomed);
  raw.close();
  t.equal((await h.send({ method: 'GET', path: `/api/v2/reports/${doomed}` })).status, 404, 'invisible at once');
  t.equal((await h.send({ method: 'GET', path: `/api/v2/reports/${doomed}/status` })).status, 404);
  t.ok(await h.store.reports.get(doomed), 'but still stored');
  t.equal(await h.tally.sweep(), 0, 'the sweep ends no import');
  t.equal(await h.store.reports.get(doomed), null, 'and finishes the deletion');
  t.equal((await h.leftovers()).blobs, 0, 'its files too');
});
