/**
 * How a report's totals are told, the same way in the import's answer and on every page: each of
 * the six statuses is counted on its own (`tests` is their sum, nothing is folded into another),
 * `passed` and `failed` are always named, the other four when there are some, in one order. The
 * pass rate leaves out what did not run to a result; a failed or errored test fails the report.
 */
import type { ContainerStatus } from './formatter/types.js';
import type { Totals } from './store/types.js';

/** The order statuses are named in, everywhere a report's counts are told. */
export const TOLD_STATUSES: readonly ContainerStatus[] = [
  'passed',
  'failed',
  'errored',
  'skipped',
  'pending',
  'unknown',
];

/** Named even when none: what every reader looks for first. */
const ALWAYS_TOLD: ReadonlySet<ContainerStatus> = new Set(['passed', 'failed']);

/** The statuses to name for these totals, with their counts, in `TOLD_STATUSES` order. */
export function toldCounts(t: Totals): { status: ContainerStatus; count: number }[] {
  return TOLD_STATUSES.filter((s) => ALWAYS_TOLD.has(s) || t[s] > 0).map((status) => ({ status, count: t[status] }));
}

/** `3 passed, 1 failed, 2 skipped`: the counts of `toldCounts` as the answer and the pages write them. */
export function toldList(t: Totals): string {
  return toldCounts(t)
    .map(({ status, count }) => `${count} ${status}`)
    .join(', ');
}

/** Whether a status is named for any of these reports (a column of a table of reports). */
export function toldInAny(status: ContainerStatus, all: readonly Totals[]): boolean {
  return ALWAYS_TOLD.has(status) || all.some((t) => t[status] > 0);
}

/** `1 test`, `2 tests`, `0 tests`. */
export function counted(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/**
 * Passed ÷ (passed + failed + errored), null when no test ran to a result: skipped, pending and
 * unknown tests are neither a pass nor a failure, so they are left out rather than lowering it.
 */
export function passRate(t: Totals): number | null {
  const decided = t.passed + t.failed + t.errored;
  return decided === 0 ? null : t.passed / decided;
}

/** A report is failed when one of its tests failed or errored, else passed. */
export function reportStatus(t: Totals): 'passed' | 'failed' {
  return t.failed + t.errored > 0 ? 'failed' : 'passed';
}
