/** History columns in the embedded database: parts in `history_columns`, read back from `containers`. */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { ContainerStatus } from '../../formatter/api.js';
import type { ParentTitle } from '../../history/column.js';
import type { HistoryRecords } from '../history-drafts.js';
import type { EmbeddedDatabase } from './database.js';

/** Tests read per statement while a column is read back. */
const HISTORY_READ_PAGE = 10_000;
/** Parent seqs per statement (one JSON array each). */
const PARENTS_PAGE = 10_000;

export function historyRecords(d: EmbeddedDatabase): HistoryRecords {
  return {
    async parts(reportIds) {
      const parts = new Map<string, Uint8Array[]>();
      for (const id of reportIds) {
        const rows = d.s.historyParts.all(id);
        if (rows.length > 0)
          parts.set(
            id,
            rows.map((p) => p.data),
          );
      }
      return parts;
    },
    async clearColumn(reportId) {
      d.s.clearHistoryColumn.run(reportId);
    },
    async insertPart(reportId, part) {
      d.s.insertHistoryPart.run(reportId, part.index, part.data);
    },
    async parents(reportId) {
      const s = d.s;
      const parentSeqs = s.parentSeqs.pluck().all(reportId) as unknown as number[];
      const parents = new Map<number, ParentTitle>();
      for (let i = 0; i < parentSeqs.length; i += PARENTS_PAGE) {
        for (const r of s.parentTitles.all(reportId, JSON.stringify(parentSeqs.slice(i, i + PARENTS_PAGE))))
          parents.set(r.seq, { parentSeq: r.parent_seq, title: r.title });
      }
      return parents;
    },
    async *tests(reportId) {
      // Pages, not one iterate(): a connection cannot write while one of its statements iterates.
      for (let after = Number.MIN_SAFE_INTEGER; ;) {
        // Arrays, not objects: a million tests read back is a measurable share of completing a report.
        const rows = d.s.historyTests.raw(true).all(reportId, after, HISTORY_READ_PAGE) as unknown as [
          number,
          number | null,
          string,
          ContainerStatus,
          number | null,
          number,
        ][];
        yield rows.map(([seq, parentSeq, title, status, durationMs, flaky]) => ({
          seq,
          parentSeq,
          title,
          status,
          durationMs,
          flaky: flaky === 1,
        }));
        if (rows.length < HISTORY_READ_PAGE) return;
        after = rows[rows.length - 1]![0];
        await yieldToLoop();
      }
    },
  };
}
