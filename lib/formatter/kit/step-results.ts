/**
 * Cucumber's step result words (`passed`, `failed`, `ambiguous`, `undefined`, `pending`,
 * `skipped`, `unknown`), which Cucumber JSON writes in lower case and Cucumber Messages in upper
 * case, and the status a scenario takes from its steps.
 */
import type { ContainerStatus } from '../types.js';

/** A step's own status from its result word (lower case); a missing or unknown word is `unknown`. */
export function stepResultStatus(word: string | null): ContainerStatus {
  switch (word) {
    case 'passed':
      return 'passed';
    case 'failed':
    case 'ambiguous':
      return 'failed';
    case 'undefined':
    case 'pending':
      return 'pending';
    case 'skipped':
      return 'skipped';
    default:
      return 'unknown';
  }
}

/** How far a step decides its scenario: 0 passed, 1 skipped (also unknown, no result), 2 pending, 3 failed. */
function weight(word: string | null): number {
  switch (word) {
    case 'passed':
      return 0;
    case 'failed':
    case 'ambiguous':
      return 3;
    case 'undefined':
    case 'pending':
      return 2;
    default:
      return 1;
  }
}

const BY_WEIGHT: readonly ContainerStatus[] = ['passed', 'skipped', 'pending', 'failed'];

/**
 * A scenario's status from its steps and hooks, in order: the first step of the most decisive
 * result decides (failed, then pending or undefined, then skipped or no result); all passed is
 * passed, no steps at all is passed too.
 */
export class ScenarioVerdict<S> {
  private weight = 0;
  /** The step that decided the status; null while every step passed. */
  decisive: S | null = null;

  /** One step's result word (lower case; null when the step has no result). */
  add(step: S, word: string | null): void {
    const w = weight(word);
    if (w > this.weight) {
      this.weight = w;
      this.decisive = step;
    }
  }

  get status(): ContainerStatus {
    return BY_WEIGHT[this.weight]!;
  }
}

/**
 * Cucumber ranks a scenario left pending (an undefined or pending step) above one that was
 * skipped: the order for a feature's worst status (see `worstStatus`).
 */
export const SCENARIO_SEVERITY: readonly ContainerStatus[] = [
  'errored',
  'failed',
  'passed',
  'pending',
  'skipped',
  'unknown',
];
