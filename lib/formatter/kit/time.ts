/**
 * Timestamps as result files write them → UTC instants. A time without a zone is read as UTC and
 * flagged `naive`, never shifted to the server's local zone.
 */
export interface Instant {
  /** ISO 8601 in UTC with milliseconds. */
  iso: string;
  /** The text had no zone; it was read as UTC, not shifted to any local zone. */
  naive: boolean;
}

/** When something ran, each part null when the file does not say; it spreads into newContainer's fields. */
export interface Timing {
  startedAt: Instant | null;
  durationMs: number | null;
}

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?$/i;
// TestNG's JUnitReportReporter and old Ant write `26 Jun 2018 15:41:26 GMT`.
const RFC =
  /^(?:[A-Za-z]{3},?\s+)?(\d{1,2})\s+([A-Za-z]{3})\s+(\d{4})\s+(\d{2}):(\d{2})(?::(\d{2}))?\s*(Z|UTC|GMT|[+-]\d{4})?$/i;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** A `timestamp` attribute → UTC instant. Never uses the server's local zone. */
export function parseTimestamp(raw: string | undefined): Instant | null {
  if (raw === undefined) return null;
  const s = raw.trim();
  let m = ISO.exec(s);
  if (m) {
    const ms = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
    return build(+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, m[6] ? +m[6] : 0, ms, m[8]);
  }
  m = RFC.exec(s);
  if (m) {
    const month = MONTHS.indexOf(m[2]!.toLowerCase()) + 1;
    if (month === 0) return null;
    return build(+m[3]!, month, +m[1]!, +m[4]!, +m[5]!, m[6] ? +m[6] : 0, 0, m[7]);
  }
  return null;
}

function build(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  sec: number,
  ms: number,
  zone: string | undefined,
): Instant | null {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60) return null;
  const local = Date.UTC(y, mo - 1, d, h, mi, Math.min(sec, 59), ms);
  const check = new Date(local);
  // Date.UTC rolls 31 Feb over to March; such a date is unreadable, not a different day.
  if (check.getUTCDate() !== d) return null;
  // jest-junit writes the epoch for suites that never ran: a placeholder, not a time.
  if (local === 0 && zone === undefined) return null;
  const offset = zoneOffsetMinutes(zone);
  if (offset === null) return null;
  return { iso: new Date(local - offset * 60_000).toISOString(), naive: zone === undefined };
}

function zoneOffsetMinutes(zone: string | undefined): number | null {
  if (zone === undefined || /^(z|utc|gmt)$/i.test(zone)) return 0;
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone);
  if (!m) return null;
  const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
  if (minutes > 18 * 60) return null;
  return m[1] === '-' ? -minutes : minutes;
}

/** Milliseconds since the epoch (Jest, Playwright, CTRF) → an instant; 0 and nonsense are null. */
export function fromEpochMs(ms: number | null | undefined): Instant | null {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms <= 0 || ms > 8.64e15) return null;
  return { iso: new Date(ms).toISOString(), naive: false };
}
