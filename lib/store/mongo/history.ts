/**
 * History columns in MongoDB: one `history_columns` document per part, read back from the
 * containers collection when there is no draft.
 */
import { Binary } from 'mongodb';
import type { ContainerStatus } from '../../formatter/api.js';
import type { HistoryTest, ParentTitle } from '../../history/column.js';
import type { HistoryRecords } from '../history-drafts.js';
import { IN_CHUNK, type MongoConnection } from './connection.js';

/** Tests handed over at a time while a column is read back. */
const HISTORY_READ_PAGE = 10_000;

export function historyRecords(conn: MongoConnection): HistoryRecords {
  return {
    async parts(reportIds) {
      const { reports, historyColumns } = conn.c;
      const found = new Map<string, { part: number; data: Uint8Array }[]>();
      for (let i = 0; i < reportIds.length; i += IN_CHUNK) {
        const ids = reportIds.slice(i, i + IN_CHUNK);
        const completed = await reports
          .find({ _id: { $in: ids }, status: 'completed' }, { projection: { _id: 1 } })
          .toArray();
        const reportIdIn = { $in: completed.map((d) => d._id) };
        for (const doc of await historyColumns.find({ reportId: reportIdIn }).toArray()) {
          const data = doc.data instanceof Binary ? doc.data.buffer.subarray(0, doc.data.length()) : doc.data;
          const list = found.get(doc.reportId) ?? [];
          list.push({ part: doc.part, data });
          found.set(doc.reportId, list);
        }
      }
      const parts = new Map<string, Uint8Array[]>();
      for (const [id, list] of found)
        parts.set(
          id,
          list.sort((a, b) => a.part - b.part).map((p) => p.data),
        );
      return parts;
    },
    async clearColumn(reportId) {
      await conn.c.historyColumns.deleteMany({ reportId });
    },
    async insertPart(reportId, part) {
      await conn.c.historyColumns.insertOne({
        _id: `${reportId}:${part.index}`,
        reportId,
        part: part.index,
        data: new Binary(part.data),
      });
    },
    async parents(reportId) {
      const { containers } = conn.c;
      const parentSeqs = (await containers.distinct('parentSeq', { reportId })).filter(
        (s): s is number => typeof s === 'number',
      );
      const parents = new Map<number, ParentTitle>();
      for (let i = 0; i < parentSeqs.length; i += IN_CHUNK) {
        const found = await containers
          .find(
            { reportId, seq: { $in: parentSeqs.slice(i, i + IN_CHUNK) } },
            { projection: { _id: 0, seq: 1, parentSeq: 1, title: 1 } },
          )
          .toArray();
        for (const d of found) parents.set(d.seq, { parentSeq: d.parentSeq, title: d.title });
      }
      return parents;
    },
    async *tests(reportId) {
      const tests = conn.c.containers
        .find(
          { reportId, type: { $in: ['test', 'scenario'] } },
          { projection: { _id: 0, seq: 1, parentSeq: 1, title: 1, status: 1, durationMs: 1, flaky: 1 } },
        )
        .sort({ seq: 1 });
      let page: HistoryTest[] = [];
      for await (const d of tests) {
        page.push({
          seq: d.seq,
          parentSeq: d.parentSeq,
          title: d.title,
          status: d.status as ContainerStatus,
          durationMs: d.durationMs,
          flaky: d.flaky,
        });
        if (page.length === HISTORY_READ_PAGE) {
          yield page;
          page = [];
        }
      }
      yield page;
    },
  };
}
