/**
 * What changed in a completed report, for the events "a new failure", "a fix" and "newly flaky":
 * the one function notifications read it through. Its shape is the report diff's (lib/analysis/diff.ts
 * on the diff branch: `newFailures`, `fixed`, `newlyFlaky`, each `{ total, tests }` with each test's
 * title path), so when that lands this body becomes one call of `reportDiff(store, report)`.
 *
 * Until then it reads lib/ci/verdict-facts.ts, which the pull-request comment uses: the report's
 * history column against the previous completed reports of its CI branch (without a branch there is
 * nothing to compare with, and every failure is new). Newly flaky is what verdict-facts calls flaky
 * now and did not for the previous report of the branch.
 */
import { verdictFacts } from '../ci/verdict-facts.js';
import type { Store } from '../store/store.js';
import type { Profile, Report } from '../store/types.js';

export interface ChangedTest {
  /** Outermost first: file or suite, class, test. */
  titlePath: string[];
  /** The test's container in the report (its page is `/reports/{n}/nodes/{seq}`); null when unknown. */
  seq: number | null;
}

export interface ChangeList {
  total: number;
  /** The first of them, at most `MAX_CHANGED`. */
  tests: ChangedTest[];
}

export interface ReportChanges {
  /** The report compared with (its public number); null when there was none. */
  base: { number: number } | null;
  newFailures: ChangeList;
  fixed: ChangeList;
  newlyFlaky: ChangeList;
}

/** Tests kept per list: far more than any message shows, so its "… and N more" is the cut. */
export const MAX_CHANGED = 100;

const seqOf = (url: string | null): number | null => {
  const m = url ? /\/nodes\/(\d+)$/.exec(url) : null;
  return m ? Number(m[1]) : null;
};

export async function changesOf(store: Store, profile: Profile, report: Report): Promise<ReportChanges> {
  const link = (n: number, seq?: number) => (seq === undefined ? `/reports/${n}` : `/reports/${n}/nodes/${seq}`);
  const facts = await verdictFacts(store, { profile, report, commit: report.ci?.commit ?? '', reportUrl: link });
  const list = (l: { total: number; tests: readonly { path: readonly string[]; url: string | null }[] }) => ({
    total: l.total,
    tests: l.tests.slice(0, MAX_CHANGED).map((x) => ({ titlePath: [...x.path], seq: seqOf(x.url) })),
  });
  let newlyFlaky = list(facts.flaky);
  if (facts.previous && facts.flaky.total > 0) {
    const previous = await store.reports.get(facts.previous.number);
    if (previous) {
      const before = await verdictFacts(store, { profile, report: previous, commit: '', reportUrl: link });
      const was = new Set(before.flaky.tests.map((x) => x.path.join('\u0000')));
      const now = facts.flaky.tests.filter((x) => !was.has(x.path.join('\u0000')));
      newlyFlaky = list({ total: now.length, tests: now });
    }
  }
  return {
    base: facts.previous ? { number: facts.previous.number } : null,
    newFailures: list(facts.newFailures),
    fixed: list(facts.fixed),
    newlyFlaky,
  };
}
