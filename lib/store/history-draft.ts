/**
 * What the history column of a report being built needs, kept as its containers are written from
 * the import thread (and as finalize merges, deletes and updates them), so completing the report
 * reads nothing back. A store keeps one where reading back costs more than keeping: on MongoDB it
 * is three queries over the containers collection, which MongoDB answers from indexes but
 * MongoDB-wire servers without secondary indexes (FerretDB) answer by scanning every report's
 * containers. A report past DRAFT_MAX_CONTAINERS drops its draft (memory stays bounded) and its
 * column is read back at completion instead.
 */
import { isCountedTest, type ContainerStatus } from '../formatter/api.js';
import { HistoryColumnBuilder, type HistoryPart } from '../history/column.js';
import type { StoredContainer } from './types.js';

export const DRAFT_MAX_CONTAINERS = 250_000;

interface DraftNode {
  parentSeq: number | null;
  title: string;
  test: boolean;
  status: ContainerStatus;
  durationMs: number | null;
  flaky: boolean;
}

export class HistoryDraft {
  readonly #nodes = new Map<number, DraftNode>();

  /** False when the report outgrew the draft (drop it). */
  add(batch: readonly StoredContainer[]): boolean {
    for (const c of batch) {
      this.#nodes.set(c.seq, {
        parentSeq: c.parentSeq,
        title: c.title,
        test: isCountedTest(c),
        status: c.status,
        durationMs: c.durationMs,
        flaky: c.flaky,
      });
    }
    return this.#nodes.size <= DRAFT_MAX_CONTAINERS;
  }

  reparent(fromParents: readonly number[], toParent: number): void {
    const from = new Set(fromParents);
    for (const node of this.#nodes.values())
      if (node.parentSeq !== null && from.has(node.parentSeq)) node.parentSeq = toParent;
  }

  remove(seqs: readonly number[]): void {
    for (const seq of seqs) this.#nodes.delete(seq);
  }

  update(seq: number, patch: { status?: ContainerStatus; durationMs?: number | null }): void {
    const node = this.#nodes.get(seq);
    if (!node) return;
    if (patch.status !== undefined) node.status = patch.status;
    if (patch.durationMs !== undefined) node.durationMs = patch.durationMs;
  }

  /** The column's parts, tests in seq order as the read-back path gives them. */
  parts(): HistoryPart[] {
    const builder = new HistoryColumnBuilder(this.#nodes);
    const parts: HistoryPart[] = [];
    const seqs = [...this.#nodes.keys()].sort((a, b) => a - b);
    for (const seq of seqs) {
      const n = this.#nodes.get(seq)!;
      if (!n.test) continue;
      const part = builder.add({
        seq,
        parentSeq: n.parentSeq,
        title: n.title,
        status: n.status,
        durationMs: n.durationMs,
        flaky: n.flaky,
      });
      if (part) parts.push(part);
    }
    const last = builder.finish();
    if (last) parts.push(last);
    return parts;
  }
}
