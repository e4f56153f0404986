/** Retention in MongoDB (lib/store/retention.ts): a document per policy, reports in import order. */
import type { Filter } from 'mongodb';
import type { ReportKey, RetentionRecords } from '../retention.js';
import { BLOB_BUCKET, toReport, type ReportDoc } from './collections.js';
import { IN_CHUNK, type MongoConnection } from './connection.js';

/** Reports ordered above `key` (`$gt`) or below it (`$lt`), by (createdAt, _id). */
function beyond(key: ReportKey, op: '$gt' | '$lt'): Filter<ReportDoc> {
  return { $or: [{ createdAt: { [op]: key.createdAt } }, { createdAt: key.createdAt, _id: { [op]: key.id } }] };
}

export function retentionRecords(conn: MongoConnection): RetentionRecords {
  return {
    async get(profileId) {
      const doc = await conn.c.retentionPolicies.findOne({ _id: profileId });
      return doc ? { keepReports: doc.keepReports, keepDays: doc.keepDays } : null;
    },
    async put(profileId, policy, updatedAt) {
      await conn.c.retentionPolicies.replaceOne({ _id: profileId }, { ...policy, updatedAt }, { upsert: true });
    },
    async remove(profileId) {
      await conn.c.retentionPolicies.deleteOne({ _id: profileId });
    },
    async profiles() {
      const ids = (await conn.c.retentionPolicies.find({}, { projection: { _id: 1 } }).toArray()).map((d) => d._id);
      if (ids.length === 0) return [];
      // A profile being deleted takes its policy with it: not one to apply.
      const live = await conn.c.profiles
        .find({ _id: { $in: ids }, deleting: { $ne: true } }, { projection: { _id: 1 } })
        .toArray();
      return live.map((d) => d._id);
    },
    async nth(profileId, offset) {
      const [doc] = await conn.c.reports
        .find({ profileId, status: 'completed' }, { projection: { _id: 1, createdAt: 1 } })
        .sort({ createdAt: -1, _id: -1 })
        .skip(offset)
        .limit(1)
        .toArray();
      return doc ? { createdAt: doc.createdAt, id: doc._id } : null;
    },
    async between(profileId, after, bound, limit) {
      const filter: Filter<ReportDoc> = {
        profileId,
        status: 'completed',
        $and: after ? [beyond(after, '$gt'), beyond(bound, '$lt')] : [beyond(bound, '$lt')],
      };
      const docs = await conn.c.reports.find(filter).sort({ createdAt: 1, _id: 1 }).limit(limit).toArray();
      return docs.map(toReport);
    },
    async fileBytes(importIds) {
      const files = conn.db.collection<{ _id: string; length?: number }>(`${BLOB_BUCKET}.files`);
      let bytes = 0;
      for (let i = 0; i < importIds.length; i += IN_CHUNK) {
        const ids = importIds.slice(i, i + IN_CHUNK);
        for await (const doc of files.find({ 'metadata.importId': { $in: ids } }, { projection: { length: 1 } }))
          bytes += doc.length ?? 0;
      }
      return bytes;
    },
    async bytesPerContainer() {
      // The server's own figures for the containers collection, documents and indexes.
      const stats = await conn.db.command({ collStats: conn.c.containers.collectionName }).catch(() => null);
      const count = Number(stats?.count ?? 0);
      return count === 0 ? 0 : (Number(stats?.size ?? 0) + Number(stats?.totalIndexSize ?? 0)) / count;
    },
  };
}
