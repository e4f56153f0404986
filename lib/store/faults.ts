/**
 * Store faults that are the operator's to fix rather than the import's: a full disk (ENOSPC, EDQUOT
 * from the file system) or a full database (SQLite's SQLITE_FULL, also what `max_page_count`
 * gives). Found anywhere on an error's `cause` chain, since stages wrap what they catch.
 */
const FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

export function isStorageFull(e: unknown): boolean {
  for (let cur = e, depth = 0; cur && depth < 8; cur = (cur as { cause?: unknown }).cause, depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && FULL_CODES.has(code)) return true;
    // The MongoDB driver reports a full disk as an OutOfDiskSpace server error (code 14031).
    if (code === 14031) return true;
  }
  return false;
}
