/**
 * The dry run of a policy: which reports it would delete now (oldest first, the first LIST_LIMIT of
 * them by name), how many tests they hold, how much space they take (their stored files exactly,
 * their rows as the store estimates them), and how many pinned reports it would have taken but keeps.
 * Nothing is changed.
 */
import type { RetentionPolicy, ReportKey } from '../store/retention.js';
import type { Store } from '../store/store.js';
import type { Report } from '../store/types.js';

/** Reports named one by one in a preview; the counts cover them all. */
export const LIST_LIMIT = 100;
/** Reports read per query. */
const PAGE = 500;

export interface RetentionPreview {
  /** The first LIST_LIMIT reports that would go, oldest first. */
  reports: Report[];
  /** All of them: */
  count: number;
  tests: number;
  fileBytes: number;
  rowBytes: number;
  /** Reports the policy would take but keeps, pinned. */
  pinned: number;
}

export async function previewRetention(
  store: Pick<Store, 'retention'>,
  profileId: string,
  policy: RetentionPolicy,
  now: Date,
): Promise<RetentionPreview> {
  const preview: RetentionPreview = { reports: [], count: 0, tests: 0, fileBytes: 0, rowBytes: 0, pinned: 0 };
  let after: ReportKey | null = null;
  for (;;) {
    const page = await store.retention.expired(profileId, policy, now, after, PAGE);
    const going = page.filter((r) => !r.pinned);
    preview.pinned += page.length - going.length;
    preview.count += going.length;
    for (const r of going) {
      preview.tests += r.totals.tests;
      if (preview.reports.length < LIST_LIMIT) preview.reports.push(r);
    }
    const footprint = await store.retention.footprint(going);
    preview.fileBytes += footprint.fileBytes;
    preview.rowBytes += footprint.rowBytes;
    if (page.length < PAGE) return preview;
    const last = page[page.length - 1]!;
    after = { createdAt: last.createdAt, id: last.id };
  }
}
