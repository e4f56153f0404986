/** Import records in the embedded database. */
import type { ImportField, ImportRecords } from '../imports.js';
import type { Message } from '../types.js';
import type { EmbeddedDatabase } from './database.js';
import { toImport } from './rows.js';

// Patchable fields → column, and whether the value is stored as JSON text.
const IMPORT_COLUMNS: Record<ImportField, { column: string; json: boolean }> = {
  status: { column: 'status', json: false },
  finishedAt: { column: 'finished_at', json: false },
  formatter: { column: 'formatter', json: false },
  contentType: { column: 'content_type', json: false },
  params: { column: 'params', json: true },
  tags: { column: 'tags', json: true },
  files: { column: 'files', json: true },
  attachments: { column: 'attachments', json: true },
  messages: { column: 'messages', json: true },
  reportId: { column: 'report_id', json: false },
  progress: { column: 'progress', json: true },
};

export function importRecords(d: EmbeddedDatabase): ImportRecords {
  return {
    async insert(r) {
      d.s.insertImport.run(
        r.id,
        r.profileId,
        r.accountId,
        r.status,
        r.createdAt,
        r.finishedAt,
        r.endpoint,
        r.formatter,
        JSON.stringify(r.params),
        JSON.stringify(r.tags),
        JSON.stringify(r.files),
        JSON.stringify(r.attachments),
        JSON.stringify(r.messages),
        r.reportId,
        JSON.stringify(r.progress),
        r.contentType,
      );
    },
    async get(id) {
      const row = d.s.getImport.get(id);
      return row ? toImport(row) : null;
    },
    async update(id, patch, fields) {
      const values = fields.map((f) => (IMPORT_COLUMNS[f].json ? JSON.stringify(patch[f]) : patch[f]));
      const sql = `update imports set ${fields.map((f) => `${IMPORT_COLUMNS[f].column} = ?`).join(', ')} where id = ?`;
      d.shaped(sql).run(...values, id);
    },
    async claimQueued() {
      // One statement: two queue runners (or processes on one data dir) never take the same import.
      const row = d.s.claimQueued.get();
      return row ? toImport(row) : null;
    },
    async stale(olderThan) {
      return d.s.staleImports.pluck().all(olderThan) as unknown as string[];
    },
    async end(id, message, finishedAt) {
      let ended: { reportId: string | null } | null = null;
      d.transaction(() => {
        const live = d.s.liveImport.get(id);
        if (!live) return;
        const messages = [...(JSON.parse(live.messages) as Message[]), message];
        d.s.endImport.run(finishedAt, JSON.stringify(messages), id);
        ended = { reportId: live.report_id };
      });
      return ended;
    },
  };
}
