/** Deletions in MongoDB: the marks and last steps of lib/store/deletions.ts. */
import type { DeletionRecords } from '../deletions.js';
import type { ImportStatus } from '../types.js';
import type { MongoConnection } from './connection.js';

const LIVE_IMPORT: ImportStatus[] = ['queued', 'receiving', 'processing'];

export function deletionRecords(conn: MongoConnection): DeletionRecords {
  const doomed = (d: { _id: string; importId: string }) => ({ id: d._id, importId: d.importId });
  const removeImport = async (id: string): Promise<void> => {
    await conn.c.imports.deleteOne({ _id: id });
    // A queued import's claim goes with it: there is nothing left to claim.
    await conn.c.importClaims.deleteOne({ _id: id });
  };
  return {
    async markReport(id, keepPinned) {
      const done = await conn.c.reports.updateOne(
        { _id: id, status: { $in: ['completed', 'failed'] }, ...(keepPinned ? { pinned: { $ne: true } } : {}) },
        { $set: { status: 'deleting' } },
      );
      return done.modifiedCount > 0;
    },
    async markReportsOfProfile(profileId) {
      await conn.c.reports.updateMany({ profileId }, { $set: { status: 'deleting' } });
    },
    async markedReports() {
      const docs = await conn.c.reports.find({ status: 'deleting' }, { projection: { _id: 1, importId: 1 } }).toArray();
      return docs.map(doomed);
    },
    async reportsOfProfile(profileId, limit) {
      const docs = await conn.c.reports
        .find({ profileId }, { projection: { _id: 1, importId: 1 } })
        .limit(limit)
        .toArray();
      return docs.map(doomed);
    },
    removeOfReport: {
      async historyColumn(reportId) {
        await conn.c.historyColumns.deleteMany({ reportId });
      },
      async containers(reportId) {
        await conn.c.containers.deleteMany({ reportId });
      },
    },
    async removeReport(report) {
      // No transactions here: the import record goes first, the report (which holds the mark) last,
      // so a deletion cut short is found again and finished.
      await removeImport(report.importId);
      await conn.c.reports.deleteOne({ _id: report.id });
    },
    async markProfile(id) {
      const done = await conn.c.profiles.updateOne({ _id: id, deleting: { $ne: true } }, { $set: { deleting: true } });
      return done.modifiedCount > 0;
    },
    async unmarkProfile(id) {
      await conn.c.profiles.updateOne({ _id: id }, { $unset: { deleting: '' } });
    },
    async markedProfiles() {
      const docs = await conn.c.profiles.find({ deleting: true }, { projection: { _id: 1 } }).toArray();
      return docs.map((d) => d._id);
    },
    liveImports: (profileId) => conn.c.imports.countDocuments({ profileId, status: { $in: LIVE_IMPORT } }),
    async importsOfProfile(profileId, limit) {
      const docs = await conn.c.imports
        .find({ profileId }, { projection: { _id: 1 } })
        .limit(limit)
        .toArray();
      return docs.map((d) => d._id);
    },
    removeImport,
    // Before the profile's record: were it gone first, a crash in between would leave documents no
    // deletion finds again.
    removeOfProfile: {
      async ciLink(profileId) {
        await conn.c.ciLinks.deleteOne({ _id: profileId });
      },
      async retentionPolicy(profileId) {
        await conn.c.retentionPolicies.deleteOne({ _id: profileId });
      },
      // The rules (their sealed URLs), the deliveries and their claims.
      async notifications(profileId) {
        await conn.c.notificationRules.deleteMany({ profileId });
        await conn.c.notificationDeliveries.deleteMany({ profileId });
        await conn.c.notificationClaims.deleteMany({ profileId });
      },
    },
    async removeProfile(id) {
      await conn.c.profiles.deleteOne({ _id: id });
    },
  };
}
