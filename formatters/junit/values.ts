/**
 * Attribute values whose spelling differs per emitter: `time` (seconds) and `timestamp`.
 * Pure functions; unreadable values become null rather than a guess.
 */

/**
 * Seconds as written in `time="…"` → milliseconds. Surefire groups thousands (`1,234.567`), .NET and
 * Unity writers use a decimal comma (`0,123`), Perl and CUnit write exponents (`1.7e-05`).
 */
export function parseSeconds(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  let s = raw.trim();
  if (s === '') return null;
  const commas = s.split(',').length - 1;
  // With a dot present, or more than one comma, commas group thousands; a single comma alone is a
  // decimal comma (Jenkins strips it and reads `0,123` as 123 s, which is wrong for those writers).
  if (commas > 0) s = s.includes('.') || commas > 1 ? s.replaceAll(',', '') : s.replace(',', '.');
  if (!/^[+]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(s)) return null;
  const seconds = Number(s);
  if (!Number.isFinite(seconds)) return null;
  // Microsecond precision is all any emitter writes; rounding hides binary noise like 0.30000000000000004.
  return Math.round(seconds * 1e6) / 1e3;
}
