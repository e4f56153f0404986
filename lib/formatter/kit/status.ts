/** The status of a grouping from the statuses under it. */
import type { ContainerStatus } from '../types.js';

/** Most severe first: what a suite shows when its children differ. */
export const SEVERITY: readonly ContainerStatus[] = ['errored', 'failed', 'passed', 'skipped', 'pending', 'unknown'];

/**
 * The most severe status seen, or null when nothing was seen (the caller decides what empty means).
 * `severity` is the order to rank by, most severe first (Cucumber ranks `pending` above `skipped`).
 */
export function worstStatus(
  seen: Iterable<ContainerStatus>,
  severity: readonly ContainerStatus[] = SEVERITY,
): ContainerStatus | null {
  const set: ReadonlySet<ContainerStatus> = seen instanceof Set ? seen : new Set(seen);
  for (const s of severity) if (set.has(s)) return s;
  return null;
}

/** A suite's status from its children's: the worst, or `passed` for a suite with none (nothing in it failed). */
export function suiteStatus(
  seen: Iterable<ContainerStatus>,
  severity: readonly ContainerStatus[] = SEVERITY,
): ContainerStatus {
  return worstStatus(seen, severity) ?? 'passed';
}

/** The more severe of two statuses; a null one is not there. */
export function worseOf(a: ContainerStatus | null, b: ContainerStatus | null): ContainerStatus | null {
  if (a === null || b === null) return a ?? b;
  return SEVERITY.indexOf(a) <= SEVERITY.indexOf(b) ? a : b;
}
