/** TestNG attribute values whose spelling depends on the reporter's configuration. */
import { parseTimestamp } from '../../lib/formatter/api.js';
import type { Instant } from '../../lib/formatter/api.js';

/**
 * `started-at` → instant. TestNG's default pattern `yyyy-MM-dd'T'HH:mm:ss z` writes a zone
 * abbreviation (`UTC`, `IST`, `CEST`); those other than UTC/GMT are ambiguous, so the local time is
 * kept and flagged naive rather than dropped or guessed. Old versions wrote a literal `Z`.
 */
export function parseStartedAt(raw: string | undefined): Instant | null {
  if (raw === undefined) return null;
  const exact = parseTimestamp(raw);
  if (exact) return exact;
  const m = /^(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)\s*[A-Za-z]{2,5}$/.exec(raw.trim());
  return m ? parseTimestamp(m[1]) : null;
}

/** `duration-ms` is whole milliseconds; anything else is unreadable, not a guess. */
export function parseDurationMs(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const s = raw.trim();
  if (!/^\d+(\.\d+)?$/.test(s)) return null;
  return Number(s);
}
