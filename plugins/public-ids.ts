/**
 * What a client sees of a report's or a profile's id: its public number (lib/store/numbers.ts), a
 * 32-bit integer, as Calliope's clients declare it. The UUID stays the store's internal key; the
 * records shown whole carry it as `uuid`, and every route still accepts it (old links, stored URLs).
 */
import type { ImportRecord, Profile, Report, StoredContainer } from '../lib/store/types.js';

/** A report: `id` is its number and `profileId` its profile's. */
export function reportJson(report: Report, profile: Pick<Profile, 'number'>) {
  const { id, number, profileId: _uuid, ...rest } = report;
  return { id: number, uuid: id, profileId: profile.number, ...rest };
}

/** A container: `reportId` is its report's number. */
export function containerJson(container: StoredContainer, report: Pick<Report, 'number'>) {
  return { ...container, reportId: report.number };
}

/** An import record: `profileId` and `reportId` are numbers (null when the record is gone). */
export function importJson(record: ImportRecord, profile: Profile | null, report: Report | null) {
  return { ...record, profileId: profile?.number ?? null, reportId: report?.number ?? null };
}
