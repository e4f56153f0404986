/**
 * The Store conformance suite, by noun: every adapter runs it unchanged (see embedded.test.ts and
 * mongo.test.ts). Each case gets its own empty, open store from `makeStore`, so cases never
 * depend on one another.
 */
import type { Test } from 'tap';
import { accountCases } from './accounts.js';
import { blobCases } from './blobs.js';
import { ciLinkCases } from './ci-links.js';
import { containerCases } from './containers.js';
import { deletionCases } from './deletions.js';
import type { Cases, StoreHarness } from './fixtures.js';
import { historyCases } from './history.js';
import { importCases } from './imports.js';
import { lifecycleCases } from './lifecycle.js';
import { notificationCases } from './notifications.js';
import { numberCases } from './numbers.js';
import { profileCases } from './profiles.js';
import { reportCases } from './reports.js';
import { retentionCases } from './retention.js';
import { userCases } from './users.js';

export { container, richContainers, seed, type StoreHarness } from './fixtures.js';
export { cutDeletionCase } from './deletions.js';

const NOUNS: Cases[] = [
  accountCases,
  userCases,
  profileCases,
  numberCases,
  importCases,
  reportCases,
  containerCases,
  historyCases,
  blobCases,
  ciLinkCases,
  notificationCases,
  deletionCases,
  retentionCases,
  lifecycleCases,
];

export function storeConformance(t: Test, name: string, makeStore: () => Promise<StoreHarness>): void {
  for (const cases of NOUNS) {
    for (const [title, body] of Object.entries(cases)) {
      t.test(`${name}: ${title}`, async (t) => {
        const h = await makeStore();
        t.teardown(() => h.cleanup());
        await h.store.init();
        await body(t, h, h.store);
      });
    }
  }
}
