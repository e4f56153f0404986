/**
 * What the profiles page (and its JSON twin) shows of each profile: the newest report's outcome,
 * its pass rate, and a trend of the last reports' passed and failed tests.
 */
import type { Totals } from '../store/types.js';
import type { Store } from '../store/store.js';
import { passRate, reportStatus } from '../totals.js';

/** What the profiles page shows of one profile: the newest report's outcome and a trend. */
export interface ProfileSummary {
  /** The profile's public number. */
  id: number;
  name: string;
  created_at: string;
  latest: {
    /** The report's public number, as every report id a client sees. */
    report_id: number;
    date: string;
    status: 'passed' | 'failed';
    totals: Totals;
    pass_rate: number | null;
  } | null;
  /** Oldest to newest: passed and failed (failed + errored) tests of each of the last reports. */
  trend: { report_id: number; passed: number; failed: number }[];
}

export async function profileSummaries(store: Store, accountId: string, trendLength = 30): Promise<ProfileSummary[]> {
  const profiles = await store.profiles.list(accountId);
  return Promise.all(
    profiles.map(async (p) => {
      const reports = await store.reports.list(p.id, { limit: trendLength });
      const newest = reports[0];
      return {
        id: p.number,
        name: p.name,
        created_at: p.createdAt,
        latest: newest
          ? {
              report_id: newest.number,
              date: newest.date,
              status: reportStatus(newest.totals),
              totals: newest.totals,
              pass_rate: passRate(newest.totals),
            }
          : null,
        trend: reports
          .map((r) => ({ report_id: r.number, passed: r.totals.passed, failed: r.totals.failed + r.totals.errored }))
          .reverse(),
      };
    }),
  );
}
