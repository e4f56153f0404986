/** Status of a grouping from the statuses under it. */
import type { ContainerStatus } from '../types.js';

/** Most severe first: what a suite shows when its children differ. */
const SEVERITY: readonly ContainerStatus[] = ['errored', 'failed', 'passed', 'skipped', 'pending', 'unknown'];

/** The most severe status seen, or null when nothing was seen (the caller decides what empty means). */
export function worstStatus(seen: ReadonlySet<ContainerStatus>): ContainerStatus | null {
  for (const s of SEVERITY) if (seen.has(s)) return s;
  return null;
}
