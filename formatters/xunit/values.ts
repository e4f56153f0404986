/**
 * Attribute values whose spelling differs per writer. Pure functions; unreadable values become null
 * rather than a guess. (`parseSeconds` also lives beside the JUnit and NUnit formatters: a formatter may
 * import only the formatter API, so each keeps its own copy.)
 */

/**
 * Seconds as written in `time="…"` → milliseconds. Runners under a comma-decimal culture write
 * `0,288`: a single comma alone is a decimal comma; with a dot, commas group thousands.
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
  // .NET writes up to 7 fractional digits; microseconds are plenty and hide binary noise.
  return Math.round(seconds * 1e6) / 1e3;
}

/** The last segment of a path written with `/` or `\`. */
export function baseName(p: string): string {
  const parts = p.split(/[\\/]/);
  return parts[parts.length - 1] || p;
}

/** A .NET TimeSpan (`hh:mm:ss.fffffff`, `d.hh:mm:ss.fffffff`) as in `time-rtf` → milliseconds. */
export function parseTimeSpan(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const m = /^(?:(\d+)\.)?(\d{1,2}):(\d{2}):(\d{2})(?:\.(\d+))?$/.exec(raw.trim());
  if (!m) return null;
  const seconds = ((Number(m[1] ?? 0) * 24 + Number(m[2])) * 60 + Number(m[3])) * 60 + Number(m[4]) + Number(`0.${m[5] ?? '0'}`);
  return Math.round(seconds * 1e6) / 1e3;
}
