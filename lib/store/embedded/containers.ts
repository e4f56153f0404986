/**
 * Containers in the embedded database: bulk inserts from the import thread, reads, finalize's
 * changes, and the row writer the parse threads write through (row-writer.ts).
 */
import type { ContainerField, ContainerRecords } from '../containers.js';
import type { EmbeddedDatabase } from './database.js';
import type { RowWriterOptions } from './row-writer.js';
import { CONTAINER_COLUMNS, listJson, toContainer, type ContainerRow } from './rows.js';

// Patchable fields → column and how the value is stored.
const PATCH_COLUMNS: Record<ContainerField, { column: string; encode: (v: never) => unknown }> = {
  attachments: { column: 'attachments', encode: (v: unknown[]) => listJson(v) },
  durationMs: { column: 'duration_ms', encode: (v: number | null) => v },
  status: { column: 'status', encode: (v: string) => v },
};

/** Parse threads run the same kind of file as this module: .js when built, .ts from the sources. */
const ROW_WRITER_URL = new URL(import.meta.url.endsWith('.ts') ? './row-writer.ts' : './row-writer.js', import.meta.url)
  .href;

export function containerRecords(d: EmbeddedDatabase): ContainerRecords {
  return {
    async insert(batch) {
      d.insertContainers(batch);
    },
    async get(reportId, seq) {
      const row = d.s.getContainer.get(reportId, seq);
      return row ? toContainer(row) : null;
    },
    async list(reportId, query) {
      const after = query.afterSeq ?? Number.MIN_SAFE_INTEGER;
      const rows =
        query.parentSeq === null
          ? d.s.listTopContainers.all(reportId, after, query.limit)
          : d.s.listChildContainers.all(reportId, query.parentSeq, after, query.limit);
      return rows.map(toContainer);
    },
    async find(reportId, search) {
      const statuses = [...new Set(search.statuses ?? [])];
      let sql = `select ${CONTAINER_COLUMNS} from containers where report_id = ? and seq > ?`;
      const values: unknown[] = [reportId, search.afterSeq ?? Number.MIN_SAFE_INTEGER];
      if (statuses.length > 0) {
        sql += ` and status in (${statuses.map(() => '?').join(', ')})`;
        values.push(...statuses);
      }
      if (search.testsOnly) sql += " and type in ('test', 'scenario')";
      if (search.text) {
        // instr on lower(): no LIKE wildcards to escape; lower() folds ASCII only, as the contract says.
        sql += ' and instr(lower(title), ?) > 0';
        values.push(asciiLower(search.text));
      }
      sql += ' order by seq limit ?';
      values.push(search.limit);
      return (d.shaped(sql).all(...values) as ContainerRow[]).map(toContainer);
    },
    async reparent(reportId, fromParents, toParent) {
      d.s.reparentContainers.run(toParent, reportId, JSON.stringify(fromParents));
    },
    async delete(reportId, seqs) {
      d.s.deleteContainers.run(reportId, JSON.stringify(seqs));
    },
    async update(reportId, seq, patch, fields) {
      const set = fields.map((f) => `${PATCH_COLUMNS[f].column} = ?`).join(', ');
      const values = fields.map((f) => PATCH_COLUMNS[f].encode(patch[f] as never));
      d.shaped(`update containers set ${set} where report_id = ? and seq = ?`).run(...values, reportId, seq);
    },
    rowWriter() {
      d.startCheckpointer();
      const options: RowWriterOptions = { databasePath: d.path };
      return { module: ROW_WRITER_URL, options };
    },
  };
}

function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}
