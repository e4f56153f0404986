/**
 * The Retention page and pins in a real browser (Debian's chromium via playwright-core), on both
 * stores: a policy typed in the form is previewed (which reports would go, their tests and space) and
 * nothing is deleted; a report pinned from its page says so and leaves the preview; saving applies the
 * policy. A policy the form refuses, over plain HTTP, is its coded message with what was typed kept. A
 * missing chromium is a failure, never a skip.
 */
import t from 'tap';
import { createUserWithPassword } from '../../lib/users.js';
import { signInFirstTime } from '../../scripts/browser.js';
import { fileBrowser, signedIn, WebClient } from '../helpers/web.js';
import { junitXml } from '../helpers/junit.js';
import { file, multipart } from '../helpers/multipart.js';
import { startTally, storeKinds, type Harness } from '../helpers/tally.js';

const browser = await fileBrowser(t);

async function importReport(h: Harness, profile: number, tests: number): Promise<number> {
  const cases = Array.from({ length: tests }, (_, i) => ({ name: `case ${i}` }));
  const { body, contentType } = multipart([file('file[]', 'TEST-r.xml', junitXml({ cases }), 'application/xml')]);
  const r = await h.send({
    path: `/api/v2/profile/${profile}/import/junit`,
    headers: { 'content-type': contentType },
    body,
  });
  if (r.status !== 201) throw new Error(`import answered ${r.status}`);
  await new Promise((resolve) => setTimeout(resolve, 5));
  return r.json.report_id as number;
}

for (const kind of browser ? storeKinds(t) : []) {
  t.test(`${kind}: preview a policy, pin a report, save`, async (t) => {
    const h = await startTally(t, { store: kind });
    const p = h.profileNumber;
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) ids.push(await importReport(h, p, i + 1));
    const { password } = await createUserWithPassword(h.store, h.accountId, 'keeper@example.com');
    const page = await browser!.context.newPage();
    t.teardown(() => page.close());
    const problems: string[] = [];
    page.on('console', (m) => void (m.type() === 'error' && problems.push(`${m.text()} ${m.location().url}`)));
    page.on('pageerror', (e) => problems.push(e.message));
    await signInFirstTime(page, h.url, 'keeper@example.com', password, 'a browser test password');

    await page.goto(`${h.url}/profiles/${p}`);
    await Promise.all([page.waitForURL(/\/retention$/), page.click('nav.tabs a:has-text("Retention")')]);
    t.equal(await page.textContent('#retention-policy'), 'Every report is kept.');
    await page.fill('#retention-form input[name=keep_reports]', '2');
    await Promise.all([page.waitForLoadState('load'), page.click('#retention-form button[value=preview]')]);
    const preview = page.locator('#retention-preview');
    t.match(await preview.textContent(), /deletes\s+2 reports\s+of “main” now, with\s+3 tests/, 'what would go');
    t.match(await preview.textContent(), /about\s+[\d.]+ (B|KiB|MiB)/, 'and the space it takes');
    t.strictSame(
      await preview.locator('tbody a').allTextContents(),
      [`#${ids[0]}`, `#${ids[1]}`],
      'the two oldest reports, oldest first',
    );
    t.equal(
      await page.inputValue('#retention-form input[name=keep_reports]'),
      '2',
      'the typed policy stays in the form',
    );
    t.equal((await h.store.reports.list(h.profileId, { limit: 10 })).length, 4, 'a preview deletes nothing');
    t.equal(await page.textContent('#retention-policy'), 'Every report is kept.', 'nor saves the policy');

    // Pin the second oldest from its page.
    await preview.locator(`a:has-text("#${ids[1]}")`).click();
    await page.waitForURL(new RegExp(`/reports/${ids[1]}$`));
    await Promise.all([page.waitForURL(new RegExp(`/reports/${ids[1]}$`)), page.click('#pin-form button')]);
    t.equal(await page.textContent('.flash'), 'Report pinned: retention keeps it.');
    t.equal(await page.textContent('#pinned'), 'Pinned: retention never deletes this report.', 'the page says so');

    await page.goto(`${h.url}/profiles/${p}/retention`);
    await page.fill('#retention-form input[name=keep_reports]', '2');
    await Promise.all([page.waitForLoadState('load'), page.click('#retention-form button[value=preview]')]);
    t.match(await preview.textContent(), /deletes\s+1 report\s+of “main” now/);
    t.match(await preview.textContent(), /1 pinned report it would take is kept/);
    t.strictSame(await preview.locator('tbody a').allTextContents(), [`#${ids[0]}`]);

    await Promise.all([page.waitForURL(/\/retention$/), page.click('#retention-form button[value=save]')]);
    t.match(await page.textContent('.flash'), /^Retention saved\. Reports past the newest 2 reports are deleted/);
    await h.tally.retention.idle();
    const left = (await h.store.reports.list(h.profileId, { limit: 10 })).map((r) => r.number);
    t.strictSame(left, [ids[3], ids[2], ids[1]], 'the 2 newest and the pinned one are left');
    await page.goto(`${h.url}/profiles/${p}`);
    t.equal(await page.locator('table.reports tbody tr').count(), 3);
    t.equal(await page.locator('.badge.pinned').count(), 1, 'the reports list marks the pinned one');
    t.strictSame(problems, [], 'no script errors');
  });

  t.test(`${kind}: a policy the form refuses`, async (t) => {
    const h = await startTally(t, { store: kind });
    const { client } = await signedIn(h);
    const form = await client.get(`/profiles/${h.profileNumber}/retention`);
    const refused = await client.post(`/profiles/${h.profileNumber}/retention`, {
      csrf: WebClient.csrfOf(form),
      keep_reports: '0',
      keep_days: 'soon',
      action: 'save',
    });
    t.equal(refused.status, 400);
    t.match(refused.text, 'retention_policy_invalid');
    t.match(refused.text, /keep_reports \(the number of newest reports to keep\) is 0/);
    t.match(refused.text, /name="keep_days" min="1" step="1" value="soon"/, 'what was typed is shown back');
    t.strictSame(await h.store.retention.get(h.profileId), { keepReports: null, keepDays: null }, 'nothing saved');
    const other = await client.post(`/reports/999999/pin`, { csrf: WebClient.csrfOf(form), pinned: 'true' });
    t.equal(other.status, 404, 'an unknown report is not pinned');
  });
}
