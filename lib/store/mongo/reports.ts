/** Reports in MongoDB. */
import type { Filter } from 'mongodb';
import type { ReportRecords } from '../reports.js';
import { isoTime } from '../time.js';
import { messageDoc, reportDoc, toReport, type ReportDoc } from './collections.js';
import type { MongoConnection } from './connection.js';
import { nextNumber } from './numbers.js';
import type { ReportFactsCache } from './report-facts.js';

export function reportRecords(conn: MongoConnection, facts: ReportFactsCache): ReportRecords {
  return {
    nextNumber: () => nextNumber(conn.c, 'report'),
    async insert(report) {
      await conn.c.reports.insertOne(reportDoc(report));
      facts.remember(report.id, { profileId: report.profileId, createdAt: report.createdAt });
    },
    async get(id) {
      const doc = await conn.c.reports.findOne(typeof id === 'number' ? { number: id } : { _id: id });
      return doc ? toReport(doc) : null;
    },
    async list(profileId, query) {
      const filter: Filter<ReportDoc> = { profileId, status: 'completed' };
      const tags = [...new Set(query.tags ?? [])];
      // `$all: []` matches nothing, while no tags must filter nothing.
      if (tags.length > 0) filter.tags = { $all: tags };
      if (query.branch !== undefined) filter['ci.branch'] = query.branch;
      if (query.before !== undefined) {
        const before = isoTime(query.before, 'ReportQuery.before');
        // With beforeId the cursor is (createdAt, _id): reports of the same millisecond are not skipped.
        if (query.beforeId !== undefined)
          filter.$or = [{ createdAt: { $lt: before } }, { createdAt: before, _id: { $lt: query.beforeId } }];
        else filter.createdAt = { $lt: before };
      }
      if (query.since !== undefined) {
        const since = isoTime(query.since, 'ReportQuery.since');
        // Beside a `before` bound the two conditions share one field: combine them with $and.
        if (filter.createdAt) filter.$and = [{ createdAt: filter.createdAt }, { createdAt: { $gte: since } }];
        else filter.createdAt = { $gte: since };
        if (filter.$and) delete filter.createdAt;
      }
      const docs = await conn.c.reports.find(filter).sort({ createdAt: -1, _id: -1 }).limit(query.limit).toArray();
      return docs.map(toReport);
    },
    exists: (id) =>
      facts.of(id).then(
        () => true,
        () => false,
      ),
    async markCompleted(id, o) {
      await conn.c.reports.updateOne(
        { _id: id },
        {
          $set: {
            status: 'completed',
            date: o.date,
            totals: o.totals,
            files: o.files,
            messages: o.messages.map(messageDoc),
            tags: o.tags,
            ci: o.ci ?? null,
          },
        },
      );
    },
    async markFailed(id) {
      // `purging` marks the gap between the flip and the purge, for init() to close if the process
      // dies inside it.
      await conn.c.reports.updateOne({ _id: id }, { $set: { status: 'failed', purging: true } });
    },
    async purgeContainers(id) {
      await conn.c.containers.deleteMany({ reportId: id });
      await conn.c.reports.updateOne({ _id: id }, { $unset: { purging: '' } });
    },
    async cutPurges() {
      const docs = await conn.c.reports.find({ purging: true }, { projection: { _id: 1 } }).toArray();
      return docs.map((d) => d._id);
    },
    async setPinned(id, pinned) {
      return (await conn.c.reports.updateOne({ _id: id, status: 'completed' }, { $set: { pinned } })).matchedCount > 0;
    },
  };
}
