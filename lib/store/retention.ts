/**
 * Retention: per profile, how many of its completed reports to keep, or for how long. Which reports a
 * policy lets go is written once here, over the adapters' primitives (RetentionRecords); deleting them
 * is lib/retention/ over deletions.ts, and the space they held comes back through `Store.reclaimSpace`.
 *
 * Each limit caps what is kept: a report goes when it is past the newest `keepReports`, or imported
 * more than `keepDays` days ago; with both, when either says so. Whatever the policy, the profile's
 * newest completed report stays (its page keeps saying where the profile stands), and so does every
 * pinned report; pinned reports count among the newest `keepReports` like any other.
 */
import { now } from './time.js';
import type { Report } from './types.js';

/** A profile's policy; a limit that is null is not set, and with neither set everything is kept. */
export interface RetentionPolicy {
  /** Keep the newest N completed reports (1 or more). */
  keepReports: number | null;
  /** Keep the reports imported in the last N days (1 or more). */
  keepDays: number | null;
}

export const KEEP_EVERYTHING: RetentionPolicy = Object.freeze({ keepReports: null, keepDays: null });

/** Where a report sorts among its profile's: by import time, ties by id (the reports list's order). */
export interface ReportKey {
  createdAt: string;
  id: string;
}

export interface RetentionStore {
  /** The profile's policy; KEEP_EVERYTHING when it has none. */
  get(profileId: string): Promise<RetentionPolicy>;
  /** Saves the profile's policy; KEEP_EVERYTHING removes it. */
  put(profileId: string, policy: RetentionPolicy): Promise<void>;
  /** Profiles with a policy that limits something (profiles being deleted left out). */
  profiles(): Promise<string[]>;
  /**
   * The completed reports the policy lets go at `now`, oldest first, a page of `limit` after `after`
   * (the last report of the previous page). Pinned reports are in it, marked, for the caller to keep and
   * tell; the newest report never is.
   */
  expired(
    profileId: string,
    policy: RetentionPolicy,
    now: Date,
    after: ReportKey | null,
    limit: number,
  ): Promise<Report[]>;
  /**
   * What deleting these reports would give back: the bytes of the files their imports stored (exact),
   * and of their rows or documents (estimated from the store's size per container).
   */
  footprint(reports: readonly Report[]): Promise<{ fileBytes: number; rowBytes: number }>;
}

/** What an adapter does for retention; the choice of reports is retentionStore(). */
export interface RetentionRecords {
  get(profileId: string): Promise<RetentionPolicy | null>;
  put(profileId: string, policy: RetentionPolicy, updatedAt: string): Promise<void>;
  remove(profileId: string): Promise<void>;
  profiles(): Promise<string[]>;
  /** The completed report at `offset` in newest-first order (0: the newest), or null past the last. */
  nth(profileId: string, offset: number): Promise<ReportKey | null>;
  /** Completed reports ordered below `bound` and above `after`, oldest first, at most `limit`. */
  between(profileId: string, after: ReportKey | null, bound: ReportKey, limit: number): Promise<Report[]>;
  /** The bytes of the blobs these imports wrote. */
  fileBytes(importIds: readonly string[]): Promise<number>;
  /** The store's bytes per stored container, rows or documents with their indexes; 0 when it holds none. */
  bytesPerContainer(): Promise<number>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

const below = (a: ReportKey, b: ReportKey): boolean =>
  a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.id < b.id);

export function keepsEverything(policy: RetentionPolicy): boolean {
  return policy.keepReports === null && policy.keepDays === null;
}

export function retentionStore(records: RetentionRecords): RetentionStore {
  /**
   * Reports ordered strictly below the key returned go: each limit gives such a key, the larger one wins
   * (either limit lets a report go), and none is above the newest report, which stays.
   */
  const boundOf = async (profileId: string, policy: RetentionPolicy, now: Date): Promise<ReportKey | null> => {
    if (keepsEverything(policy)) return null;
    const newest = await records.nth(profileId, 0);
    if (!newest) return null;
    let bound: ReportKey | null = null;
    if (policy.keepReports !== null) bound = await records.nth(profileId, policy.keepReports - 1);
    if (policy.keepDays !== null) {
      // An empty id sorts below every id: reports of exactly the cutoff's millisecond stay.
      const cutoff = { createdAt: new Date(now.getTime() - policy.keepDays * DAY_MS).toISOString(), id: '' };
      if (!bound || below(bound, cutoff)) bound = cutoff;
    }
    return bound && below(newest, bound) ? newest : bound;
  };
  return {
    async get(profileId) {
      return (await records.get(profileId)) ?? KEEP_EVERYTHING;
    },
    async put(profileId, policy) {
      if (keepsEverything(policy)) await records.remove(profileId);
      else await records.put(profileId, { keepReports: policy.keepReports, keepDays: policy.keepDays }, now());
    },
    profiles: () => records.profiles(),
    async expired(profileId, policy, now, after, limit) {
      const bound = await boundOf(profileId, policy, now);
      return bound && limit > 0 ? records.between(profileId, after, bound, limit) : [];
    },
    async footprint(reports) {
      if (reports.length === 0) return { fileBytes: 0, rowBytes: 0 };
      const containers = reports.reduce((n, r) => n + r.totals.containers, 0);
      const [fileBytes, perContainer] = await Promise.all([
        records.fileBytes(reports.map((r) => r.importId)),
        records.bytesPerContainer(),
      ]);
      return { fileBytes, rowBytes: Math.round(containers * perContainer) };
    },
  };
}
