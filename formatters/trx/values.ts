/** TRX attribute values. Pure functions; unreadable values become null rather than a guess. */

/** A .NET TimeSpan (`hh:mm:ss.fffffff`, `d.hh:mm:ss.fffffff`) as in `duration` → milliseconds. */
export function parseTimeSpan(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const m = /^(?:(\d+)\.)?(\d{1,2}):(\d{2}):(\d{2})(?:\.(\d+))?$/.exec(raw.trim());
  if (!m) return null;
  const seconds = ((Number(m[1] ?? 0) * 24 + Number(m[2])) * 60 + Number(m[3])) * 60 + Number(m[4]) + Number(`0.${m[5] ?? '0'}`);
  // Ticks are 100 ns; microseconds are plenty and hide binary noise.
  return Math.round(seconds * 1e6) / 1e3;
}

/**
 * A result file's path as the TRX writes it (`MACHINE\shot.png`, relative to the result's own
 * folder `In/<relativeResultsDirectory>/`) → a reference Tally can match by suffix. The result
 * folder is kept in front so two tests' `screenshot.png` stay apart; an absolute path stays as is.
 */
export function resultFileRef(path: string, resultsDirectory: string | undefined): string | null {
  const p = path.trim().replace(/\\/g, '/');
  if (p === '' || /^data:/i.test(p)) return null;
  if (!resultsDirectory || /^(\/|[A-Za-z]:\/|[A-Za-z][\w+.-]*:\/\/)/.test(p)) return p;
  return `${resultsDirectory.trim().replace(/\\/g, '/').replace(/\/+$/, '')}/${p.replace(/^(\.\/)+/, '')}`;
}
