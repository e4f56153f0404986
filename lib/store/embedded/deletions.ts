/** Deletions in the embedded database: the marks and last steps of lib/store/deletions.ts. */
import type { DeletionRecords } from '../deletions.js';
import type { EmbeddedDatabase } from './database.js';
import { purgeContainers } from './reports.js';

export function deletionRecords(d: EmbeddedDatabase): DeletionRecords {
  const doomed = (r: { id: string; import_id: string }) => ({ id: r.id, importId: r.import_id });
  return {
    async markReport(id, keepPinned) {
      return d.s.markReport.run(id, keepPinned ? 1 : 0).changes > 0;
    },
    async markReportsOfProfile(profileId) {
      d.s.markReportsOfProfile.run(profileId);
    },
    async markedReports() {
      return d.s.markedReports.all().map(doomed);
    },
    async reportsOfProfile(profileId, limit) {
      return d.s.reportsOfProfile.all(profileId, limit).map(doomed);
    },
    removeOfReport: {
      async historyColumn(reportId) {
        d.s.clearHistoryColumn.run(reportId);
      },
      // In chunks: the report's delete below would otherwise cascade over all of them in one statement.
      containers: (reportId) => purgeContainers(d, reportId),
    },
    async removeReport(report) {
      // One transaction: the report refers to its import record, and neither is left without the other.
      d.transaction(() => {
        d.s.deleteReport.run(report.id);
        d.s.deleteImport.run(report.importId);
      });
    },
    async markProfile(id) {
      return d.s.markProfile.run(id).changes > 0;
    },
    async unmarkProfile(id) {
      d.s.unmarkProfile.run(id);
    },
    async markedProfiles() {
      return d.s.markedProfiles.pluck().all() as unknown as string[];
    },
    async liveImports(profileId) {
      return d.s.liveImportsOfProfile.get(profileId)!.n;
    },
    async importsOfProfile(profileId, limit) {
      return d.s.importsOfProfile.pluck().all(profileId, limit) as unknown as string[];
    },
    async removeImport(id) {
      d.s.deleteImport.run(id);
    },
    // Both would cascade with the profile; removed by name, so what a profile owns is listed in one place.
    removeOfProfile: {
      async ciLink(profileId) {
        d.s.deleteCiLink.run(profileId);
      },
      async retentionPolicy(profileId) {
        d.s.deleteRetentionPolicy.run(profileId);
      },
      async notifications(profileId) {
        d.s.deleteNotificationDeliveries.run(profileId);
        d.s.deleteNotificationRules.run(profileId);
      },
    },
    async removeProfile(id) {
      d.s.deleteProfile.run(id);
    },
  };
}
