/** Allure values shared by both generations: statuses and epoch-millisecond times. */
import { fromEpochMs } from '../../lib/formatter/api.js';
import type { ContainerStatus, Timing } from '../../lib/formatter/api.js';

/**
 * Allure 2 `status` and Allure 1 `status` attribute. `broken` is an unexpected exception (errored);
 * Allure 1's `canceled`/`pending` did not run. Anything else, missing or invalid is `unknown`, which
 * the totals count as skipped.
 */
export function allureStatus(raw: unknown): ContainerStatus {
  switch (typeof raw === 'string' ? raw.trim().toLowerCase() : '') {
    case 'passed':
      return 'passed';
    case 'failed':
      return 'failed';
    case 'broken':
      return 'errored';
    case 'skipped':
    case 'canceled':
    case 'pending':
      return 'skipped';
  }
  return 'unknown';
}

/** `start`/`stop` epoch milliseconds (numbers in Allure 2 JSON, strings in Allure 1 attributes). */
export function span(start: unknown, stop: unknown): Timing {
  const a = toNumber(start);
  const b = toNumber(stop);
  const startedAt = fromEpochMs(a);
  const durationMs = startedAt && b !== null && b >= a! ? b - a! : null;
  return { startedAt, durationMs };
}

function toNumber(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\d+(\.\d+)?$/.test(v.trim())) return Number(v);
  return null;
}

/** The producer as `allure-<framework>` from the `framework` label adapters write, else `allure`. */
export function producerName(framework: string | null): string {
  const f = framework
    ?.trim()
    .toLowerCase()
    .replace(/[^a-z0-9.+-]+/g, '-');
  return f ? `allure-${f}` : 'allure';
}
