/**
 * Containers: the suites, tests, steps, ... of a report, numbered by `seq` within it. Written in
 * bulk while a report is built, from the import thread (`insert`) or, where the store offers a row
 * writer, from the parse threads themselves; read by report, parent and search.
 */
import type { HistoryDrafts } from './history-drafts.js';
import type { ContainerPatch, ContainerQuery, ContainerSearch, StoredContainer } from './types.js';

export interface ContainerStore {
  /** Bulk insert; the returned promise is the backpressure. */
  insert(batch: StoredContainer[]): Promise<void>;
  get(reportId: string, seq: number): Promise<StoredContainer | null>;
  list(reportId: string, query: ContainerQuery): Promise<StoredContainer[]>;
  /** Containers of a report at any depth matching the search (status filter, title search). */
  find(reportId: string, search: ContainerSearch): Promise<StoredContainer[]>;
  /** Moves every child of `fromParents` under `toParent`. */
  reparent(reportId: string, fromParents: number[], toParent: number): Promise<void>;
  delete(reportId: string, seqs: number[]): Promise<void>;
  /** Replaces selected fields of one container (used by finalize: merged durations, attachments). */
  update(reportId: string, seq: number, patch: ContainerPatch): Promise<void>;
  /**
   * How a parse thread writes this store's containers itself, from a connection of its own; null
   * when containers go back to the import thread to be written (`insert`).
   */
  rowWriter(): RowWriterDescription | null;
}

/**
 * A row writer as a parse thread receives it: plain data (it crosses threads by structured clone).
 * The thread `import()`s `module`, whose `openRowWriter(options)` returns a ContainerRowWriter.
 */
export interface RowWriterDescription {
  /** URL of the module. */
  module: string;
  options: unknown;
}

/** What a row writer module exports. */
export type OpenRowWriter = (options: unknown) => ContainerRowWriter;

/**
 * Writes a parse thread's containers. Rows are encoded as containers come (while the file waits
 * for its write turn), placed once the turn gives the file its ids and index, and written a batch
 * per transaction, so the turn, which all threads share, only copies bytes.
 */
export interface ContainerRowWriter<Row = unknown> {
  /** The container as a row of this store; its seqs are still the file's own (from 1). */
  encode(container: StoredContainer): Row;
  /** Moves the row's seq and parent seq past `base` (the ids used before the file) and sets its file index. */
  place(row: Row, base: number, fileIndex: number): void;
  /** Writes the rows in one transaction; throws what the store threw. */
  write(rows: readonly Row[]): void;
  close(): void;
}

/** What an adapter does for containers; the rest is containerStore(). Lists are never empty here. */
export interface ContainerRecords {
  insert(batch: readonly StoredContainer[]): Promise<void>;
  get(reportId: string, seq: number): Promise<StoredContainer | null>;
  /** As ContainerStore.list, with a positive limit. */
  list(reportId: string, query: ContainerQuery): Promise<StoredContainer[]>;
  /** As ContainerStore.find, with a positive limit. */
  find(reportId: string, search: ContainerSearch): Promise<StoredContainer[]>;
  reparent(reportId: string, fromParents: number[], toParent: number): Promise<void>;
  delete(reportId: string, seqs: number[]): Promise<void>;
  /** `fields`: the patch's keys that carry a value. */
  update(reportId: string, seq: number, patch: ContainerPatch, fields: readonly ContainerField[]): Promise<void>;
  rowWriter(): RowWriterDescription | null;
}

export const CONTAINER_PATCH_FIELDS = ['attachments', 'durationMs', 'status'] as const;
export type ContainerField = (typeof CONTAINER_PATCH_FIELDS)[number];

export function containerStore(records: ContainerRecords, drafts: HistoryDrafts): ContainerStore {
  return {
    async insert(batch) {
      if (batch.length === 0) return;
      await records.insert(batch);
      drafts.inserted(batch);
    },
    get: (reportId, seq) => records.get(reportId, seq),
    // MongoDB reads limit 0 as "no limit", SQLite a negative one: no limit means nothing here.
    async list(reportId, query) {
      return query.limit <= 0 ? [] : records.list(reportId, query);
    },
    async find(reportId, search) {
      return search.limit <= 0 ? [] : records.find(reportId, search);
    },
    async reparent(reportId, fromParents, toParent) {
      if (fromParents.length === 0) return;
      drafts.reparented(reportId, fromParents, toParent);
      await records.reparent(reportId, fromParents, toParent);
    },
    async delete(reportId, seqs) {
      if (seqs.length === 0) return;
      drafts.deleted(reportId, seqs);
      await records.delete(reportId, seqs);
    },
    async update(reportId, seq, patch) {
      const fields = CONTAINER_PATCH_FIELDS.filter((f) => patch[f] !== undefined);
      if (fields.length === 0) return;
      drafts.updated(reportId, seq, patch);
      await records.update(reportId, seq, patch, fields);
    },
    rowWriter: () => records.rowWriter(),
  };
}
