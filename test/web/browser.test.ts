/**
 * The web interface in a real browser (Debian's chromium via playwright-core), on both stores: sign
 * in with a one-time password, upload a zip through the form (progress bar, messages), open the
 * report, expand a failed test and see its screenshot, open the history comparison and find the
 * flaky test. One browser for the file; a fresh context per store. A missing chromium is a
 * failure, never a skip (scripts/test.ts installs it).
 */
import t from 'tap';
import { createUserWithPassword } from '../../lib/users.js';
import { signInFirstTime } from '../../scripts/browser.js';
import { fileBrowser } from '../helpers/web.js';
import { demoJunit, demoRun, demoScreenshot, importDemoRun } from '../../scripts/demo-data.js';
import { startTally, storeKinds } from '../helpers/tally.js';
import { zipOf } from '../helpers/zip.js';

const browser = await fileBrowser(t);

for (const kind of browser ? storeKinds(t) : []) {
  t.test(`${kind}: sign in, upload a zip, open the failure, find the flaky test`, async (t) => {
    const h = await startTally(t, { store: kind });
    const { password } = await createUserWithPassword(h.store, h.accountId, 'dev@example.com');
    // Three runs through the API: the coupon test passes, fails, passes.
    for (let i = 0; i < 3; i++) {
      const r = await importDemoRun({
        url: h.url,
        apiKey: h.apiKey,
        profileId: h.profileId,
        i,
        timestamp: new Date(Date.now() - (4 - i) * 3_600_000).toISOString(),
      });
      t.equal(r.status, 201, `run ${i} imported`);
    }

    const page = await browser!.context.newPage();
    t.teardown(() => page.close());
    const problems: string[] = [];
    page.on('console', (m) => void (m.type() === 'error' && problems.push(`${m.text()} ${m.location().url}`)));
    page.on('pageerror', (e) => problems.push(e.message));

    await signInFirstTime(page, h.url, 'dev@example.com', password, 'a browser test password');
    t.equal(await page.textContent('main h1'), 'Profiles', 'signed in, on the profiles page');
    t.ok(await page.isVisible(`a[href="/profiles/${h.profileNumber}"]`), 'the profile is listed');

    // The fourth run, as a zip through the browser form: the coupon test fails again (a flip), and
    // the login test fails with a screenshot that sits in the zip.
    const zip = await zipOf([
      { name: 'results/TEST-shop.xml', data: demoJunit(demoRun(3, { failLogin: true }), new Date().toISOString()) },
      { name: 'results/screenshots/login-failed.png', data: demoScreenshot(), compress: false },
    ]);
    await page.goto(`${h.url}/profiles/${h.profileId}/upload`);
    t.match(
      await page.textContent('#curl-command'),
      `/api/v2/profile/${h.profileNumber}/import`,
      'the personalised curl command',
    );
    await page.selectOption('#upload-formatter', 'junit');
    await page.fill('input[name="tag[]"] >> nth=0', 'branch:main');
    await page.setInputFiles('#upload-files', { name: 'results.zip', mimeType: 'application/zip', buffer: zip });
    await page.click('#upload-form button[type=submit]');
    await page.waitForSelector('#upload-result .report-link', { timeout: 30_000 });
    t.equal(await page.getAttribute('#upload-progress', 'value'), '100', 'the progress bar went to the end');
    t.match(await page.textContent('#upload-result'), /Imported 14 tests/, 'the answer is shown');
    t.match(
      await page.textContent('#upload-result'),
      'files_moved_to_attachments',
      "and its messages (the zip's PNG became an attachment)",
    );

    await Promise.all([page.waitForURL(/\/reports\/\d+$/), page.click('#upload-result .report-link')]);
    t.match(await page.textContent('.report-head h1'), 'failed', 'the report page');
    t.match(await page.textContent('.report-head'), 'branch:main', 'with its tag');
    await page.click('summary:has-text("shop.auth.LoginTest")');
    const failed = page.locator('details.node-failed:has(> summary:has-text("logs in with a password"))');
    await failed.locator('> summary').click();
    await failed.locator('.failure-message').waitFor();
    t.match(await failed.locator('.failure-message').textContent(), 'Timed out after 5000 ms', 'the failure message');
    const img = failed.locator('.attachment img');
    await img.waitFor();
    await page.waitForFunction((el) => (el as HTMLImageElement).complete, await img.elementHandle());
    t.equal(
      await img.evaluate((el) => (el as HTMLImageElement).naturalWidth),
      320,
      'the screenshot is shown as an image',
    );

    await page.goto(`${h.url}/profiles/${h.profileId}/history?n=10`);
    t.match(await page.textContent('.summary'), '4 reports compared');
    const row = page.locator('#history tr:has-text("applies a coupon")');
    t.ok(await row.locator('.badge.flaky').isVisible(), 'the coupon test is marked flaky');
    t.equal(await page.locator('#history .badge.flaky').count(), 1, 'and it is the only one');
    t.equal(await row.locator('td.cell').count(), 4, 'a cell per report');
    await Promise.all([page.waitForURL(/show=flaky/), page.click('a.flaky-count')]);
    t.equal(await page.locator('#history tbody tr').count(), 1, 'the flaky filter shows it alone');
    await Promise.all([page.waitForURL(/\/history\/\d+/), page.click('#history a:has-text("applies a coupon")')]);
    t.ok(await page.isVisible('svg.chart circle'), 'its duration trend');
    t.strictSame(problems, [], 'no script errors and no CSP violations');
  });
}
