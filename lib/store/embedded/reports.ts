/** Reports in the embedded database: rows of `reports`, tags also in `report_tags` for the filter. */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { ReportRecords } from '../reports.js';
import { isoTime } from '../time.js';
import type { EmbeddedDatabase } from './database.js';
import { claimNextNumber } from './numbers.js';
import type { SpaceReserve } from './reserve.js';
import { toReport, type ReportRow } from './rows.js';
import { PURGE_CHUNK } from './statements.js';

export function reportRecords(d: EmbeddedDatabase, reserve: SpaceReserve): ReportRecords {
  return {
    async nextNumber() {
      return d.db.transaction(() => claimNextNumber(d.s, 'report')).immediate();
    },
    async insert(r) {
      const s = d.s;
      d.transaction(() => {
        s.insertReport.run(
          r.id,
          r.number,
          r.profileId,
          r.importId,
          r.status,
          r.createdAt,
          r.date,
          JSON.stringify(r.tags),
          JSON.stringify(r.totals),
          JSON.stringify(r.files),
          JSON.stringify(r.messages),
        );
        for (const tag of r.tags) s.addReportTag.run(r.id, tag);
      });
    },
    async get(id) {
      const row = typeof id === 'number' ? d.s.getReportByNumber.get(id) : d.s.getReport.get(id);
      return row ? toReport(row) : null;
    },
    async list(profileId, query) {
      const tags = [...new Set(query.tags ?? [])];
      const before = query.before === undefined ? null : isoTime(query.before, 'ReportQuery.before');
      let sql = "select * from reports r where r.profile_id = ? and r.status = 'completed'";
      // With beforeId the cursor is (created_at, id): reports of the same millisecond are not skipped.
      if (before !== null)
        sql +=
          query.beforeId !== undefined
            ? ' and (r.created_at < ? or (r.created_at = ? and r.id < ?))'
            : ' and r.created_at < ?';
      const since = query.since === undefined ? null : isoTime(query.since, 'ReportQuery.since');
      if (since !== null) sql += ' and r.created_at >= ?';
      if (query.branch !== undefined) sql += ' and r.ci_branch = ?';
      for (let i = 0; i < tags.length; i++) {
        sql += ' and exists (select 1 from report_tags t where t.report_id = r.id and t.tag = ?)';
      }
      sql += ' order by r.created_at desc, r.id desc limit ?';
      const cursor = before === null ? [] : query.beforeId !== undefined ? [before, before, query.beforeId] : [before];
      const values: unknown[] = [
        profileId,
        ...cursor,
        ...(since === null ? [] : [since]),
        ...(query.branch === undefined ? [] : [query.branch]),
        ...tags,
        query.limit,
      ];
      return (d.shaped(sql).all(...values) as ReportRow[]).map(toReport);
    },
    async exists(id) {
      return d.s.getReport.get(id) !== undefined;
    },
    async markCompleted(id, o) {
      const s = d.s;
      d.transaction(() => {
        s.completeReport.run(
          o.date,
          JSON.stringify(o.totals),
          JSON.stringify(o.files),
          JSON.stringify(o.messages),
          JSON.stringify(o.tags),
          o.ci ? JSON.stringify(o.ci) : null,
          o.ci?.branch ?? null,
          id,
        );
        s.clearReportTags.run(id);
        for (const tag of o.tags) s.addReportTag.run(id, tag);
      });
      // A reserve given up for a full disk comes back once imports complete again (a no-op when it is there).
      void reserve.ensure();
    },
    async markFailed(id) {
      // No mark needed: a failed report that still has containers is what cutPurges finds.
      d.s.failReport.run(id);
    },
    purgeContainers: (id) => purgeContainers(d, id),
    async cutPurges() {
      return d.s.failedWithContainers.all().map((r) => r.id);
    },
    async setPinned(id, pinned) {
      return d.s.setPinned.run(pinned ? 1 : 0, id).changes > 0;
    },
  };
}

/**
 * Deletes every container of a report, in chunks that yield to the event loop between them. Stops if
 * the store is closed meanwhile; whoever finishes the job (the next init(), the deletion sweep) runs it again.
 */
export async function purgeContainers(d: EmbeddedDatabase, reportId: string): Promise<void> {
  const db = d.db;
  const purge = d.s.purgeContainers;
  while (d.isStill(db) && purge.run(reportId, reportId, PURGE_CHUNK).changes > 0) await yieldToLoop();
}
