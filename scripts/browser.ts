/**
 * Debian's chromium driven by playwright-core, for the browser tests and `npm run screenshots`:
 * headless, a fresh profile dir per launch, nothing phoning home.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.TALLY_CHROMIUM ?? '/usr/bin/chromium';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** One browser (a persistent context on a fresh user-data-dir); new pages come from `context`. */
export async function launchBrowser(o: { width?: number; height?: number } = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `No chromium at ${CHROMIUM}: install it (Debian: apt-get install -y chromium) or set TALLY_CHROMIUM.`,
    );
  const userDataDir = await mkdtemp(path.join(os.tmpdir(), 'tally-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: o.width ?? 1280, height: o.height ?? 800 },
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Signs in with a one-time password and chooses `newPassword` on the page that follows. */
export async function signInFirstTime(
  page: Page,
  base: string,
  email: string,
  oneTime: string,
  newPassword: string,
): Promise<void> {
  await page.goto(`${base}/profiles`);
  await page.waitForURL(/\/signin/);
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', oneTime);
  await Promise.all([page.waitForURL(/\/account\/password$/), page.click('button[type=submit]')]);
  await page.fill('input[name=current]', oneTime);
  await page.fill('input[name=password]', newPassword);
  await page.fill('input[name=confirm]', newPassword);
  await Promise.all([page.waitForURL(/\/profiles$/), page.click('main button[type=submit]')]);
}
