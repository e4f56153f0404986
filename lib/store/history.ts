/**
 * History columns: one per completed report, what the history comparison reads
 * (lib/history/column.ts). How a column is made and written is history-drafts.ts.
 */
import { decodeColumn, type HistoryColumn } from '../history/column.js';
import type { FileHistory } from '../history/file-history.js';
import type { HistoryDrafts, HistoryRecords } from './history-drafts.js';

export interface HistoryStore {
  /**
   * The history columns of completed reports, in the order of `reportIds`; a report without one
   * (unknown, not completed, or completed before Tally kept them) is left out.
   */
  columns(reportIds: string[]): Promise<HistoryColumn[]>;
  /**
   * A part of the history column of a file whose rows a parse thread wrote itself (the containers'
   * row writer), its ids shifted by `base`, in id order; null when the thread gave up gathering it,
   * and the column is then read back when the report completes.
   */
  addFileHistory(reportId: string, history: FileHistory | null, base: number): Promise<void>;
}

export function historyStore(records: HistoryRecords, drafts: HistoryDrafts): HistoryStore {
  return {
    async columns(reportIds) {
      const parts = await records.parts(reportIds);
      const columns: HistoryColumn[] = [];
      for (const id of reportIds) {
        const list = parts.get(id);
        if (list) columns.push(decodeColumn(id, list));
      }
      return columns;
    },
    addFileHistory: (reportId, history, base) => drafts.addFile(reportId, history, base),
  };
}
