/**
 * Values whose spelling differs per writer, shared by the formatters. Pure functions; unreadable
 * values become null rather than a guess.
 */

/**
 * Seconds as written in `time="…"`/`duration="…"` → milliseconds. Surefire groups thousands
 * (`1,234.567`), .NET and Unity writers under a comma-decimal culture write `0,123`, Perl and CUnit
 * write exponents (`1.7e-05`): a single comma alone is a decimal comma; with a dot, or more than one
 * comma, commas group thousands. (Jenkins strips the comma and reads `0,123` as 123 s: wrong for those writers.)
 */
export function parseSeconds(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  let s = raw.trim();
  if (s === '') return null;
  const commas = s.split(',').length - 1;
  if (commas > 0) s = s.includes('.') || commas > 1 ? s.replaceAll(',', '') : s.replace(',', '.');
  if (!/^[+]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(s)) return null;
  const seconds = Number(s);
  if (!Number.isFinite(seconds)) return null;
  // Microsecond precision is all any writer needs; rounding hides binary noise like 0.30000000000000004.
  return Math.round(seconds * 1e6) / 1e3;
}

/** A .NET TimeSpan (`hh:mm:ss.fffffff`, `d.hh:mm:ss.fffffff`) → milliseconds. */
export function parseTimeSpan(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const m = /^(?:(\d+)\.)?(\d{1,2}):(\d{2}):(\d{2})(?:\.(\d+))?$/.exec(raw.trim());
  if (!m) return null;
  const seconds =
    ((Number(m[1] ?? 0) * 24 + Number(m[2])) * 60 + Number(m[3])) * 60 + Number(m[4]) + Number(`0.${m[5] ?? '0'}`);
  // Ticks are 100 ns; microseconds are plenty and hide binary noise.
  return Math.round(seconds * 1e6) / 1e3;
}

/** The last segment of a path written with `/` or `\`. */
export function lastPathSegment(p: string): string {
  const parts = p.split(/[\\/]/);
  return parts[parts.length - 1] || p;
}

/** Seconds as a JSON number (RSpec `run_time`, Go `Elapsed`) → milliseconds; negative or not a number → null. */
export function secondsToMs(v: unknown): number | null {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) return null;
  // Microsecond precision, as parseSeconds: it hides binary noise like 0.30000000000000004.
  return Math.round(v * 1e6) / 1e3;
}

/** Milliseconds to the microsecond (sums and conversions of nanoseconds leave binary noise). */
export function roundMs(ms: number): number {
  return Math.round(ms * 1e3) / 1e3;
}

/** A title from the file's name (a nameless suite, a file that is one suite): its last path segment. */
export function fileTitle(fileName: string, fallback: string): string {
  return fileName.split(/[\\/]/).pop() || fallback;
}

/** An attribute value as a word to compare: trimmed and lower-cased, `''` when absent. */
export function lowerWord(v: string | undefined): string {
  return v === undefined ? '' : v.trim().toLowerCase();
}
