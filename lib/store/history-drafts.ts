/**
 * The history columns of the reports a store is building, and the order a column is written in:
 * when its report completes, before the status flips (so the comparison never sees a completed
 * report without one), part by part in index order, the first part replacing whatever an earlier
 * attempt wrote. A report that fails never shows its column (only completed reports are read).
 *
 * A column comes from one of three places, cheapest first:
 * - parts the parse threads gathered as they wrote a file's rows (`addFile`), written as they come,
 *   so completing the report reads nothing back;
 * - a HistoryDraft kept as containers were written from the import thread, where the store keeps
 *   one (`keepRows`: where reading back costs more than keeping, see history-draft.ts);
 * - read back from the stored containers: when rows came both ways, a thread gave up a part, a
 *   test's status changed after its part was written, or another process started the report.
 * Adapters give the primitives (HistoryRecords); the choice and the order are written once here.
 */
import { HistoryColumnBuilder, type HistoryPart, type HistoryTest, type ParentTitle } from '../history/column.js';
import type { FileHistory } from '../history/file-history.js';
import { HistoryDraft } from './history-draft.js';
import type { ContainerPatch, StoredContainer } from './types.js';

/** What an adapter does for history columns; the rest is written once (here and in history.ts). */
export interface HistoryRecords {
  /** The stored parts of each completed report among `reportIds`, in part order; others left out. */
  parts(reportIds: string[]): Promise<Map<string, Uint8Array[]>>;
  /** Removes every part of the report's column. */
  clearColumn(reportId: string): Promise<void>;
  insertPart(reportId: string, part: HistoryPart): Promise<void>;
  /** For a read-back: the title and parent of every container of the report that has children. */
  parents(reportId: string): Promise<Map<number, ParentTitle>>;
  /**
   * For a read-back: the report's tests and scenarios in seq order, as they stand now (after merges),
   * a page at a time; no statement stays open while the caller writes between pages.
   */
  tests(reportId: string): AsyncIterable<readonly HistoryTest[]>;
}

type Draft = HistoryColumnBuilder | HistoryDraft | 'read-back';

export class HistoryDrafts {
  readonly #drafts = new Map<string, Draft>();

  constructor(
    private readonly records: HistoryRecords,
    /** Keep a HistoryDraft of what the import thread writes, instead of reading it back. */
    private readonly keepRows: boolean,
  ) {}

  /** A new report: where rows are kept, its draft starts empty. */
  created(reportId: string): void {
    if (this.keepRows) this.#drafts.set(reportId, new HistoryDraft());
  }

  /** Containers written from the import thread. */
  inserted(batch: readonly StoredContainer[]): void {
    // A batch is nearly always one report's: each run of one report is looked up once.
    for (let from = 0; from < batch.length;) {
      const reportId = batch[from]!.reportId;
      let to = from + 1;
      while (to < batch.length && batch[to]!.reportId === reportId) to++;
      const draft = this.#drafts.get(reportId);
      if (draft instanceof HistoryDraft) {
        if (!draft.add(to - from === batch.length ? batch : batch.slice(from, to)))
          this.#drafts.set(reportId, 'read-back');
      } else if (draft !== 'read-back') this.#drafts.set(reportId, 'read-back');
      from = to;
    }
  }

  /**
   * A part of a file's history from the parse thread that wrote its rows (ids shifted by `base`), in
   * id order; null when the thread gave it up. Full column parts are written at once.
   */
  async addFile(reportId: string, history: FileHistory | null, base: number): Promise<void> {
    let draft = this.#drafts.get(reportId);
    if (draft === 'read-back') return;
    // A draft kept from the import thread's rows lacks the rows the thread wrote: read it all back.
    if (!history || draft instanceof HistoryDraft) {
      this.#drafts.set(reportId, 'read-back');
      return;
    }
    if (!draft) this.#drafts.set(reportId, (draft = new HistoryColumnBuilder(new Map())));
    for (const part of draft.addPart(history, base)) await this.#write(reportId, part);
  }

  reparented(reportId: string, fromParents: readonly number[], toParent: number): void {
    const draft = this.#drafts.get(reportId);
    if (draft instanceof HistoryDraft) draft.reparent(fromParents, toParent);
  }

  deleted(reportId: string, seqs: readonly number[]): void {
    const draft = this.#drafts.get(reportId);
    if (draft instanceof HistoryDraft) draft.remove(seqs);
  }

  updated(reportId: string, seq: number, patch: ContainerPatch): void {
    const draft = this.#drafts.get(reportId);
    if (draft instanceof HistoryDraft) draft.update(seq, patch);
    // A test's status is in the parts written already; durations are only changed for merged
    // suites (merge.ts never merges tests), and attachments are not in the column.
    else if (draft instanceof HistoryColumnBuilder && patch.status !== undefined)
      this.#drafts.set(reportId, 'read-back');
  }

  /** Writes the column of a report that is about to complete; its draft is done with. */
  async write(reportId: string): Promise<void> {
    const draft = this.#drafts.get(reportId);
    this.#drafts.delete(reportId);
    if (draft instanceof HistoryColumnBuilder) {
      const last = draft.finish();
      if (last) await this.#write(reportId, last);
    } else if (draft instanceof HistoryDraft) {
      for (const part of draft.parts()) await this.#write(reportId, part);
    } else await this.#readBack(reportId);
  }

  /** The report is gone: nothing of its draft is written. */
  drop(reportId: string): void {
    this.#drafts.delete(reportId);
  }

  /** The report failed: its draft goes, and the parts written while its files came in. */
  async discard(reportId: string): Promise<void> {
    this.#drafts.delete(reportId);
    await this.records.clearColumn(reportId);
  }

  clear(): void {
    this.#drafts.clear();
  }

  async #readBack(reportId: string): Promise<void> {
    const builder = new HistoryColumnBuilder(await this.records.parents(reportId));
    for await (const page of this.records.tests(reportId)) {
      for (const test of page) {
        const part = builder.add(test);
        if (part) await this.#write(reportId, part);
      }
    }
    const last = builder.finish();
    if (last) await this.#write(reportId, last);
  }

  async #write(reportId: string, part: HistoryPart): Promise<void> {
    // A retried completion rewrites the column whole.
    if (part.index === 0) await this.records.clearColumn(reportId);
    await this.records.insertPart(reportId, part);
  }
}
