/**
 * `npm run screenshots`: starts Tally on a temp data dir with demo data (six runs of a small suite,
 * a flaky test, a failure with a screenshot), signs in with chromium and writes a 1280×800 PNG of
 * each page to docs/screenshots/.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinFormatters } from '../formatters/index.js';
import { createAccountWithKey } from '../lib/api-keys.js';
import { loadConfig } from '../lib/config.js';
import { silentLogger } from '../lib/log.js';
import { createEmbeddedStore } from '../lib/store/embedded/index.js';
import { createUserWithPassword } from '../lib/users.js';
import { createTally } from '../plugins/server.js';
import { launchBrowser, signInFirstTime } from './browser.js';
import { importDemoRun } from './demo-data.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'docs', 'screenshots');
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tally-screenshots-'));
const store = createEmbeddedStore({ dataDir });
await store.init();
const tally = await createTally({
  config: { ...loadConfig({ TALLY_DATA_DIR: dataDir }), port: 0, host: '127.0.0.1' },
  store,
  formatters: builtinFormatters,
  log: silentLogger,
});
await tally.start();
const browser = await launchBrowser({ width: 1280, height: 800 });
try {
  const base = tally.url();
  const { accountId, apiKey } = await createAccountWithKey(store, 'acme');
  const profile = await store.profiles.create(accountId, 'shop web tests');
  await store.profiles.create(accountId, 'shop api tests');
  const { user, password } = await createUserWithPassword(store, accountId, 'dev@acme.example');
  const runs = 8;
  let last = 0;
  for (let i = 0; i < runs; i++) {
    const answer = await importDemoRun({
      url: base,
      apiKey,
      profileId: profile.id,
      i,
      failLogin: i === runs - 1,
      tags: [i % 3 === 2 ? 'branch:feature-coupons' : 'branch:main', 'os:linux'],
      timestamp: new Date(Date.now() - (runs - i) * 3_600_000).toISOString(),
    });
    last = answer.body.report_id ?? last;
  }
  await mkdir(out, { recursive: true });
  const page = await browser.context.newPage();
  const shot = async (name: string) => {
    await page.screenshot({ path: path.join(out, `${name}.png`) });
    process.stdout.write(`docs/screenshots/${name}.png\n`);
  };
  await page.goto(`${base}/signin`);
  await page.fill('input[name=email]', user.email);
  await shot('signin');
  await signInFirstTime(page, base, user.email, password, 'a long demo password');
  await shot('profiles');
  await page.goto(`${base}/profiles/${profile.id}`);
  await shot('reports');
  await page.goto(`${base}/reports/${last}`);
  await page.click('summary:has-text("shop.auth.LoginTest")');
  await page.click('summary:has-text("logs in with a password")');
  await page.waitForSelector('.attachment img');
  await page.evaluate(() => document.querySelector('.attachment img')?.scrollIntoView({ block: 'center' }));
  await shot('report');
  await page.goto(`${base}/profiles/${profile.id}/history?n=20`);
  await shot('history');
  await page.click('a:has-text("suggests while typing")');
  await shot('test-history');
  await page.goto(`${base}/profiles/${profile.id}/upload`);
  await shot('upload');
  await page.goto(`${base}/account`);
  await shot('account');
} finally {
  await browser.close();
  await tally.stop();
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
}
