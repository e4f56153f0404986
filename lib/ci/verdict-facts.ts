/**
 * What the verdict says about a report, read from the history columns (lib/history/column.ts)
 * rather than the container rows: new failures (failed now, not in the previous completed report of
 * the branch), fixed tests (failed there, passed now) and flaky tests, as the history page tells
 * flakiness (lib/history/compare.ts: marked flaky by its format, or its outcome flipped twice or
 * more over the last reports). A 100,000-test report is a few typed-array passes and one map per
 * compared report; titles are decoded only for the tests a list keeps.
 */
import { isFlakyFlag, statusOf, type HistoryColumn } from '../history/column.js';
import { DEFAULT_HISTORY_REPORTS } from '../history/compare.js';
import type { Store } from '../store/store.js';
import type { Profile, Report } from '../store/types.js';
import type { VerdictFacts, VerdictList, VerdictTest } from './verdict-comment.js';

/** Tests gathered per list: far more than a comment can show, so its "… and N more" is the cut. */
export const MAX_LISTED = 2_000;

const isFailure = (flags: number): boolean => {
  const s = statusOf(flags);
  return s === 'failed' || s === 'errored';
};

/** Key → index of its first test in the column (a column keeps duplicates; readers take the first). */
function indexOf(c: HistoryColumn): Map<number, number> {
  const m = new Map<number, number>();
  for (let i = 0; i < c.keys.length; i++) if (!m.has(c.keys[i]!)) m.set(c.keys[i]!, i);
  return m;
}

export async function verdictFacts(
  store: Store,
  o: { profile: Profile; report: Report; commit: string; reportUrl(number: number, seq?: number): string },
): Promise<VerdictFacts> {
  const { profile, report } = o;
  const branch = report.ci?.branch ?? null;
  // The reports of the branch up to this one, newest first; without a branch there is nothing to compare with.
  const listed = branch
    ? (await store.reports.list(profile.id, { branch, limit: DEFAULT_HISTORY_REPORTS + 20 })).filter(
        (r) => r.createdAt < report.createdAt || (r.createdAt === report.createdAt && r.id < report.id),
      )
    : [];
  const older = listed.slice(0, DEFAULT_HISTORY_REPORTS - 1);
  const columns = await store.history.columns([report.id, ...older.map((r) => r.id)]);
  const current = columns[0]?.reportId === report.id ? columns[0] : null;
  const history = current ? columns.slice(1) : columns;
  const byId = new Map(older.map((r) => [r.id, r]));
  const previous = history[0] ? byId.get(history[0].reportId)! : null;

  const newFailures: VerdictList & { tests: VerdictTest[] } = { tests: [], total: 0 };
  const fixed: VerdictList & { tests: VerdictTest[] } = { tests: [], total: 0 };
  const flaky: VerdictList & { tests: VerdictTest[] } = { tests: [], total: 0 };
  if (current) {
    const n = current.keys.length;
    const first = indexOf(current);
    // Per test of this report: its last decided outcome going back (1 failed, 0 passed, -1 none),
    // how often it flipped, whether a format marked it flaky, and its outcome in the previous report.
    const last = new Int8Array(n).fill(-1);
    const flips = new Uint16Array(n);
    const marked = new Uint8Array(n);
    const before = new Int16Array(n).fill(-1);
    const see = (i: number, flags: number) => {
      if (isFlakyFlag(flags)) marked[i] = 1;
      const s = statusOf(flags);
      if (s !== 'passed' && s !== 'failed' && s !== 'errored') return;
      const failed = s === 'passed' ? 0 : 1;
      if (last[i] !== -1 && last[i] !== failed) flips[i]!++;
      last[i] = failed;
    };
    for (let i = 0; i < n; i++) see(i, current.flags[i]!);
    history.forEach((c, j) => {
      const at = indexOf(c);
      for (let i = 0; i < n; i++) {
        const k = at.get(current.keys[i]!);
        if (k === undefined) continue;
        see(i, c.flags[k]!);
        if (j === 0) before[i] = c.flags[k]!;
      }
    });
    const add = (list: VerdictList & { tests: VerdictTest[] }, i: number) => {
      list.total++;
      if (list.tests.length < MAX_LISTED)
        list.tests.push({ path: current.pathOf(i), url: o.reportUrl(report.number, current.seqs[i]!) });
    };
    for (let i = 0; i < n; i++) {
      // A second test of the same path in this report is the same row of the history.
      if (first.get(current.keys[i]!) !== i) continue;
      const flags = current.flags[i]!;
      const was = before[i]!;
      if (isFailure(flags) && (previous === null || was === -1 || !isFailure(was))) add(newFailures, i);
      if (statusOf(flags) === 'passed' && was !== -1 && isFailure(was)) add(fixed, i);
      if (marked[i] || flips[i]! >= 2) add(flaky, i);
    }
  }
  return {
    profile: { number: profile.number, name: profile.name },
    branch,
    commit: o.commit,
    report: { number: report.number, url: o.reportUrl(report.number), totals: report.totals },
    previous: previous ? { number: previous.number, url: o.reportUrl(previous.number) } : null,
    newFailures,
    fixed,
    flaky,
  };
}
