/**
 * Managing profiles and reports in the web interface over plain HTTP, on both stores: the forms
 * need the session's CSRF token, deleting asks first and says what goes, the page after says what
 * was done (once), another account's profile or report is not found, names are checked, and an
 * import still running stops a deletion with import_in_progress.
 */
import t from 'tap';
import { importDemoReport } from '../helpers/demo-import.js';
import { BOUNDARY } from '../helpers/multipart.js';
import { junitXml } from '../helpers/junit.js';
import { createAccountWithKey } from '../../lib/api-keys.js';
import { startTally, storeKinds, type Harness } from '../helpers/tally.js';
import { signedIn } from '../helpers/web.js';

/** Imported on consecutive days, so the pages list them in a known order. */
const importRun = (h: Harness, profileId: string | number, i: number): Promise<number> =>
  importDemoReport(h, profileId, i, new Date(Date.UTC(2026, 10, 20 + i, 9, 30)).toISOString());

/** The text of a page without its markup, spaces folded. */
const text = (page: string): string =>
  page
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();

for (const kind of storeKinds(t)) {
  t.test(`${kind}: create, rename and delete a profile in the web interface`, async (t) => {
    const h = await startTally(t, { store: kind });
    const { client, csrf } = await signedIn(h);

    const noToken = await client.post('/profiles', { name: 'sneaky' });
    t.equal(noToken.status, 403, 'a form without the CSRF token');
    t.match(noToken.text, 'csrf_rejected');
    const otherSite = await client.post('/profiles', { name: 'sneaky', csrf }, { origin: 'https://evil.example' });
    t.equal(otherSite.status, 403, 'a form from another site');
    t.notOk(
      (await h.store.profiles.list(h.accountId)).some((p) => p.name === 'sneaky'),
      'neither created a profile',
    );

    const bad = await client.post('/profiles', { name: '   ', csrf });
    t.equal(bad.status, 400, 'a blank name');
    t.match(bad.text, 'profile_name_invalid');
    const tooLong = await client.post('/profiles', { name: 'x'.repeat(101), csrf });
    t.equal(tooLong.status, 400, '101 characters');
    t.match(tooLong.text, `value="${'x'.repeat(101)}"`, 'what was typed is kept in the form');

    const made = await client.post('/profiles', { name: ' Nightly <b>run</b> ', csrf });
    t.equal(made.status, 303);
    t.equal(made.headers.location, '/profiles');
    const created = (await h.store.profiles.list(h.accountId)).find((p) => p.name === 'Nightly <b>run</b>');
    t.ok(created, 'created with the name trimmed');
    const id = created!.number;
    const listed = await client.get('/profiles');
    t.match(listed.text, 'class="flash"', 'the next page says what was done');
    t.match(text(listed.text), 'Profile “Nightly <b>run</b>” created.', 'escaped: the name is text');
    t.notMatch(listed.text, '<b>run</b>', 'never markup');
    t.match(listed.text, `href="/profiles/${id}/delete"`, 'each profile has its delete link');
    t.notMatch((await client.get('/profiles')).text, 'class="flash"', 'once');

    const renameForm = await client.get(`/profiles/${id}/rename`);
    t.equal(renameForm.status, 200);
    t.match(renameForm.text, 'value="Nightly &lt;b&gt;run&lt;/b&gt;"', 'the rename form holds the name');
    t.equal((await client.post(`/profiles/${id}/rename`, { name: 'weekly' })).status, 403, 'without the token');
    const badRename = await client.post(`/profiles/${id}/rename`, { name: '', csrf });
    t.equal(badRename.status, 400);
    t.match(badRename.text, 'profile_name_invalid');
    const renamed = await client.post(`/profiles/${id}/rename`, { name: 'weekly', csrf });
    t.equal(renamed.status, 303);
    t.match(text((await client.get('/profiles')).text), 'Profile “Nightly <b>run</b>” renamed to “weekly”.');
    t.equal((await h.store.profiles.get(id))?.name, 'weekly');

    for (const path of [`/profiles/${h.foreignProfileId}/rename`, `/profiles/${h.foreignProfileId}/delete`]) {
      t.equal((await client.get(path)).status, 404, `another account's ${path.split('/').pop()} page`);
      t.equal((await client.post(path, { name: 'mine', csrf })).status, 404, `and its form`);
    }
    t.equal((await h.store.profiles.get(h.foreignProfileId))?.name, 'theirs', 'untouched');

    const baseline = (await h.leftovers()).blobs;
    await importRun(h, id, 0);
    await importRun(h, id, 1);
    const confirm = await client.get(`/profiles/${id}/delete`);
    t.equal(confirm.status, 200, 'deleting asks first');
    t.match(text(confirm.text), 'Delete the profile “weekly”?');
    t.match(text(confirm.text), 'With it go 2 reports holding 28 tests', 'and says what goes');
    t.ok(await h.store.profiles.get(id), 'asking deletes nothing');

    // An import still running into it stops the deletion.
    let finish!: () => void;
    const go = new Promise<void>((resolve) => (finish = resolve));
    async function* held(): AsyncGenerator<Buffer> {
      yield Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file[]"; filename="TEST-held.xml"\r\n\r\n`,
      );
      await go;
      yield Buffer.from(`${junitXml()}\r\n--${BOUNDARY}--\r\n`);
    }
    const upload = h.send({
      path: `/api/v2/profile/${id}/import/junit`,
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: held(),
    });
    for (let i = 0; i < 400; i++) {
      const latest = await h.latestImportId();
      if (latest && (await h.store.imports.get(latest))?.status === 'receiving') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const busy = await client.post(`/profiles/${id}/delete`, { csrf });
    t.equal(busy.status, 409, 'while an import runs');
    t.match(busy.text, 'import_in_progress');
    finish();
    t.equal((await upload).status, 201);

    t.equal((await client.post(`/profiles/${id}/delete`, {})).status, 403, 'without the token');
    t.ok(await h.store.profiles.get(id), 'nothing deleted');
    const deleted = await client.post(`/profiles/${id}/delete`, { csrf });
    t.equal(deleted.status, 303);
    t.equal(deleted.headers.location, '/profiles');
    const after = await client.get('/profiles');
    t.match(text(after.text), 'Profile “weekly” deleted with its 3 reports (30 tests).');
    t.notMatch(after.text, `href="/profiles/${id}"`, 'no longer listed');
    t.equal((await client.get(`/profiles/${id}`)).status, 404, 'its pages are gone');
    t.equal((await h.leftovers()).blobs, baseline, 'and its stored files');
    t.equal((await client.post(`/profiles/${id}/delete`, { csrf })).status, 404, 'deleting it again');
  });

  t.test(`${kind}: delete a report in the web interface`, async (t) => {
    const h = await startTally(t, { store: kind });
    const { client, csrf } = await signedIn(h);
    const doomed = await importRun(h, h.profileId, 0);
    const kept = await importRun(h, h.profileId, 1);

    const reportPage = await client.get(`/reports/${doomed}`);
    t.match(reportPage.text, `href="/reports/${doomed}/delete"`, 'the report page links to deleting it');
    const list = await client.get(`/profiles/${h.profileId}`);
    t.match(list.text, `href="/reports/${doomed}/delete"`, 'so does the reports list');

    const confirm = await client.get(`/reports/${doomed}/delete`);
    t.equal(confirm.status, 200);
    t.match(text(confirm.text), 'Delete the report of 2026-11-20 09:30 UTC?');
    t.match(text(confirm.text), 'With it go 14 tests in 17 containers');
    t.match(text(confirm.text), '2 files uploaded with its import');

    t.equal((await client.post(`/reports/${doomed}/delete`, {})).status, 403, 'without the token');
    t.ok(await h.store.reports.get(doomed), 'nothing deleted');
    const stranger = await createAccountWithKey(h.store, 'stranger');
    const other = await signedIn(h, 'other@example.com', stranger.accountId);
    t.equal((await other.client.get(`/reports/${doomed}/delete`)).status, 404, "another account's user");
    t.equal((await other.client.post(`/reports/${doomed}/delete`, { csrf: other.csrf })).status, 404);
    t.ok(await h.store.reports.get(doomed), 'nothing deleted');

    const deleted = await client.post(`/reports/${doomed}/delete`, { csrf });
    t.equal(deleted.status, 303);
    t.equal(deleted.headers.location, `/profiles/${h.profileNumber}`, 'back to the reports of its profile');
    const after = await client.get(`/profiles/${h.profileId}`);
    t.match(text(after.text), 'Report of 2026-11-20 09:30 UTC deleted (14 tests).');
    t.notMatch(after.text, `href="/reports/${doomed}"`, 'no longer listed');
    t.match(after.text, `href="/reports/${kept}"`, 'the other report is');
    t.equal((await client.get(`/reports/${doomed}`)).status, 404, 'its page is gone');
    t.equal((await client.post(`/reports/${doomed}/delete`, { csrf })).status, 404, 'deleting it again');
  });
}
