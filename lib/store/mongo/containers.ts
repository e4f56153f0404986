/**
 * Containers in MongoDB. Each document copies its report's profile and creation time (for the
 * history-of-a-title index). Containers come back to the import thread to be written: BSON and the
 * driver's pool stay in one place, so this store offers no row writer.
 */
import type { Filter } from 'mongodb';
import type { ContainerRecords } from '../containers.js';
import { containerDoc, toContainer, type ContainerDoc } from './collections.js';
import type { MongoConnection } from './connection.js';
import type { ReportFacts, ReportFactsCache } from './report-facts.js';

export function containerRecords(conn: MongoConnection, facts: ReportFactsCache): ContainerRecords {
  return {
    async insert(batch) {
      const c = conn.c;
      const of = new Map<string, ReportFacts>();
      for (const x of batch) if (!of.has(x.reportId)) of.set(x.reportId, await facts.of(x.reportId));
      // Unordered: the server may apply the batch in parallel; (reportId, seq) is unique either way.
      await c.containers.insertMany(
        batch.map((x) => containerDoc(x, of.get(x.reportId)!)),
        { ordered: false },
      );
    },
    async get(reportId, seq) {
      const doc = await conn.c.containers.findOne({ reportId, seq });
      return doc ? toContainer(doc) : null;
    },
    async list(reportId, query) {
      const filter: Filter<ContainerDoc> = { reportId, parentSeq: query.parentSeq };
      if (query.afterSeq !== undefined) filter.seq = { $gt: query.afterSeq };
      const docs = await conn.c.containers.find(filter).sort({ seq: 1 }).limit(query.limit).toArray();
      return docs.map(toContainer);
    },
    async find(reportId, search) {
      const filter: Filter<ContainerDoc> = { reportId };
      if (search.afterSeq !== undefined) filter.seq = { $gt: search.afterSeq };
      const statuses = [...new Set(search.statuses ?? [])];
      if (statuses.length > 0) filter.status = { $in: statuses };
      if (search.testsOnly) filter.type = { $in: ['test', 'scenario'] };
      // Escaped: the search text is matched literally, never as a pattern.
      if (search.text) filter.title = { $regex: search.text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'), $options: 'i' };
      const docs = await conn.c.containers.find(filter).sort({ seq: 1 }).limit(search.limit).toArray();
      return docs.map(toContainer);
    },
    async reparent(reportId, fromParents, toParent) {
      await conn.c.containers.updateMany(
        { reportId, parentSeq: { $in: fromParents } },
        { $set: { parentSeq: toParent } },
      );
    },
    async delete(reportId, seqs) {
      await conn.c.containers.deleteMany({ reportId, seq: { $in: seqs } });
    },
    async update(reportId, seq, patch, fields) {
      const set: Partial<ContainerDoc> = Object.fromEntries(fields.map((f) => [f, patch[f]]));
      await conn.c.containers.updateOne({ reportId, seq }, { $set: set });
    },
    rowWriter: () => null,
  };
}
