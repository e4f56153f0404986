/** TRX attribute values. Pure functions; unreadable values become null rather than a guess. */

export { parseTimeSpan } from '../../lib/formatter/api.js';

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
