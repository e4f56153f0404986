/**
 * A retention policy as people give it (the API's JSON body, the Retention page's form): checked once,
 * for every way in. Each limit is a whole number or null (not set); both null keep everything.
 */
import type { RetentionPolicy } from '../store/retention.js';

export const MAX_KEEP_REPORTS = 1_000_000;
/** A hundred years: more is keeping everything. */
export const MAX_KEEP_DAYS = 36_500;

const FIELDS = {
  keep_reports: { max: MAX_KEEP_REPORTS, what: 'the number of newest reports to keep' },
  keep_days: { max: MAX_KEEP_DAYS, what: 'the days of reports to keep' },
} as const;
type Field = keyof typeof FIELDS;

/**
 * The policy a body asks for, or what is wrong with it (`retention_policy_invalid`): not an object, a
 * field the policy does not have, or a limit that is not a whole number from 1 to its maximum.
 */
export function checkRetentionPolicy(body: unknown): { policy: RetentionPolicy } | { problem: string } {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return { problem: 'The body is not a JSON object like {"keep_reports": 30, "keep_days": null}.' };
  const given = body as Record<string, unknown>;
  const unknown = Object.keys(given).filter((k) => !(k in FIELDS));
  if (unknown.length > 0)
    return {
      problem: `Unknown field ${unknown.map((k) => JSON.stringify(k)).join(', ')}: use keep_reports and keep_days.`,
    };
  const limits: Partial<Record<Field, number | null>> = {};
  for (const field of Object.keys(FIELDS) as Field[]) {
    const value = given[field] ?? null;
    const { max, what } = FIELDS[field];
    if (value !== null && (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max))
      return {
        problem:
          `${field} (${what}) is ${JSON.stringify(value)}: ` +
          `it must be a whole number from 1 to ${max}, or null for no limit.`,
      };
    limits[field] = value;
  }
  return { policy: { keepReports: limits.keep_reports ?? null, keepDays: limits.keep_days ?? null } };
}
