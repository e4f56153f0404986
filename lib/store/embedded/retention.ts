/** Retention in the embedded database (lib/store/retention.ts): a row per policy, reports in import order. */
import type { RetentionRecords } from '../retention.js';
import type { EmbeddedDatabase } from './database.js';
import { toReport } from './rows.js';

export function retentionRecords(d: EmbeddedDatabase): RetentionRecords {
  return {
    async get(profileId) {
      const row = d.s.getRetentionPolicy.get(profileId);
      return row ? { keepReports: row.keep_reports, keepDays: row.keep_days } : null;
    },
    async put(profileId, policy, updatedAt) {
      d.s.putRetentionPolicy.run(profileId, policy.keepReports, policy.keepDays, updatedAt);
    },
    async remove(profileId) {
      d.s.deleteRetentionPolicy.run(profileId);
    },
    async profiles() {
      return d.s.retentionProfiles.pluck().all() as unknown as string[];
    },
    async nth(profileId, offset) {
      const row = d.s.nthCompleted.get(profileId, offset);
      return row ? { createdAt: row.created_at, id: row.id } : null;
    },
    async between(profileId, after, bound, limit) {
      // '' sorts below every stored time and id: no lower bound.
      const from = after ?? { createdAt: '', id: '' };
      return d.s.completedBetween
        .all(profileId, from.createdAt, from.id, bound.createdAt, bound.id, limit)
        .map(toReport);
    },
    async fileBytes(importIds) {
      return d.s.blobBytesOfImports.get(JSON.stringify(importIds))!.n;
    },
    async bytesPerContainer() {
      // The database's pages in use over the containers its completed reports hold: containers are
      // nearly all of it (history columns, reports and the rest are small beside them).
      const db = d.db;
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      const pages =
        (db.pragma('page_count', { simple: true }) as number) -
        (db.pragma('freelist_count', { simple: true }) as number);
      const containers = d.s.storedContainers.get()!.n;
      return containers === 0 ? 0 : (pages * pageSize) / containers;
    },
  };
}
