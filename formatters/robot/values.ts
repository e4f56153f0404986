/** Robot Framework attribute values: statuses and the two generations of time attributes. */
import { parseTimestamp } from '../../lib/formatter/api.js';
import type { ContainerStatus, Instant, Timing } from '../../lib/formatter/api.js';

export function robotStatus(raw: string | undefined): ContainerStatus {
  switch ((raw ?? '').trim().toUpperCase()) {
    case 'PASS':
      return 'passed';
    case 'FAIL':
      return 'failed';
    case 'SKIP':
    case 'NOT RUN':
    case 'NOT_RUN':
      return 'skipped';
  }
  return 'unknown';
}

/**
 * `<status>` times. RF 7: `start` (ISO, local, no zone) + `elapsed` seconds. RF ≤ 6: `starttime`
 * and `endtime` as `20130719 14:09:09.506` (local, no zone; `N/A` in merged outputs). Both are read
 * as UTC and flagged naive: the file does not say where it ran.
 */
export function robotTiming(a: Record<string, string>): Timing {
  if (a['start'] !== undefined || a['elapsed'] !== undefined) {
    return { startedAt: parseTimestamp(a['start']), durationMs: seconds(a['elapsed']) };
  }
  const start = legacyTime(a['starttime']);
  const end = legacyTime(a['endtime']);
  let durationMs: number | null = null;
  if (start && end) {
    const d = Date.parse(end.iso) - Date.parse(start.iso);
    if (d >= 0) durationMs = d;
  }
  if (durationMs === null && a['elapsedtime'] !== undefined && /^\d+$/.test(a['elapsedtime'].trim()))
    durationMs = Number(a['elapsedtime']);
  return { startedAt: start, durationMs };
}

function legacyTime(raw: string | undefined): Instant | null {
  const m = /^(\d{4})(\d{2})(\d{2})\s+(\d{2}:\d{2}:\d{2}(?:\.\d+)?)$/.exec(raw?.trim() ?? '');
  return m ? parseTimestamp(`${m[1]}-${m[2]}-${m[3]}T${m[4]}`) : null;
}

function seconds(raw: string | undefined): number | null {
  if (raw === undefined || !/^\d+(\.\d+)?$/.test(raw.trim())) return null;
  return Math.round(Number(raw) * 1e6) / 1e3;
}
