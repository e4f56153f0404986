/**
 * Managing profiles and reports in a real browser (Debian's chromium via playwright-core), on both
 * stores: create a profile with the form, rename it, delete a report from its page and the profile
 * from the profiles page, each after a confirmation page that says what goes, each followed by a
 * message that says what was done. A missing chromium is a failure, never a skip.
 */
import t from 'tap';
import { createUserWithPassword } from '../../lib/users.js';
import { signInFirstTime } from '../../scripts/browser.js';
import { fileBrowser } from '../helpers/web.js';
import { importDemoRun } from '../../scripts/demo-data.js';
import { startTally, storeKinds } from '../helpers/tally.js';

const browser = await fileBrowser(t);

for (const kind of browser ? storeKinds(t) : []) {
  t.test(`${kind}: create, rename and delete a profile, delete a report`, async (t) => {
    const h = await startTally(t, { store: kind });
    const { password } = await createUserWithPassword(h.store, h.accountId, 'ops@example.com');
    const page = await browser!.context.newPage();
    t.teardown(() => page.close());
    const problems: string[] = [];
    page.on('console', (m) => void (m.type() === 'error' && problems.push(`${m.text()} ${m.location().url}`)));
    page.on('pageerror', (e) => problems.push(e.message));
    await signInFirstTime(page, h.url, 'ops@example.com', password, 'a browser test password');
    const baseline = (await h.leftovers()).blobs;

    await page.fill('#create-profile input[name=name]', 'android nightly');
    await Promise.all([page.waitForURL(/\/profiles$/), page.click('#create-profile button[type=submit]')]);
    t.equal(await page.textContent('.flash'), 'Profile “android nightly” created.', 'the page says it was created');
    const profile = (await h.store.profiles.list(h.accountId)).find((p) => p.name === 'android nightly');
    t.ok(profile, 'the profile exists');
    const id = profile!.number;
    const row = page.locator(`tr:has(a[href="/profiles/${id}"])`);
    t.equal(await row.count(), 1, 'and is listed');

    await Promise.all([page.waitForURL(/\/rename$/), row.locator('a:has-text("Rename")').click()]);
    await page.fill('#rename-profile input[name=name]', 'android');
    await Promise.all([page.waitForURL(/\/profiles$/), page.click('#rename-profile button[type=submit]')]);
    t.equal(await page.textContent('.flash'), 'Profile “android nightly” renamed to “android”.');
    t.equal(await page.textContent(`a[href="/profiles/${id}"]`), 'android', 'listed by its new name');

    const stamps = ['2026-11-21T08:00:00.000Z', '2026-11-22T08:00:00.000Z'];
    for (const [i, timestamp] of stamps.entries()) {
      const r = await importDemoRun({
        url: h.url,
        apiKey: h.apiKey,
        profileId: String(id),
        i,
        failLogin: true,
        timestamp,
      });
      t.equal(r.status, 201, `run ${i} imported`);
    }

    // A report, from its own page.
    await page.goto(`${h.url}/profiles/${id}`);
    await Promise.all([page.waitForURL(/\/reports\/[0-9]+$/), page.click('a:has-text("2026-11-21 08:00 UTC")')]);
    await Promise.all([page.waitForURL(/\/delete$/), page.click('a:has-text("Delete this report")')]);
    t.match(await page.textContent('#confirm-delete'), /With it go\s+14 tests/, 'the confirmation says what goes');
    t.match(await page.textContent('#confirm-delete'), '2 files uploaded');
    await Promise.all([
      page.waitForURL(new RegExp(`/profiles/${id}$`)),
      page.click('#confirm-delete button[type=submit]'),
    ]);
    t.equal(await page.textContent('.flash'), 'Report of 2026-11-21 08:00 UTC deleted (14 tests).');
    t.equal(await page.locator('table.reports tbody tr').count(), 1, 'one report left');

    // The profile, from the profiles page; cancelling first changes nothing.
    await page.goto(`${h.url}/profiles`);
    await Promise.all([page.waitForURL(/\/delete$/), row.locator('a:has-text("Delete")').click()]);
    t.match(await page.textContent('#confirm-delete'), /With it go\s+1 report\s+holding\s+14 tests/);
    await Promise.all([page.waitForURL(/\/profiles$/), page.click('#confirm-delete a:has-text("Cancel")')]);
    t.equal(await row.count(), 1, 'cancelled: still listed');
    await Promise.all([page.waitForURL(/\/delete$/), row.locator('a:has-text("Delete")').click()]);
    await Promise.all([page.waitForURL(/\/profiles$/), page.click('#confirm-delete button[type=submit]')]);
    t.equal(await page.textContent('.flash'), 'Profile “android” deleted with its 1 report (14 tests).');
    t.equal(await row.count(), 0, 'no longer listed');
    await page.reload();
    t.equal(await page.locator('.flash').count(), 0, 'the message is shown once');
    t.equal(await h.store.profiles.get(id), null, 'the profile is gone');
    t.equal((await h.leftovers()).blobs, baseline, 'with every file uploaded into it');
    t.strictSame(problems, [], 'no script errors and no CSP violations');
  });
}
