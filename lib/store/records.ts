/** Records every adapter creates the same way: one definition of their starting state. */
import { randomUUID } from 'node:crypto';
import type { ImportRecord, NewImport } from './store.js';

/** A new import record: `receiving`, nothing received yet. */
export function newImportRecord(input: NewImport, createdAt: string): ImportRecord {
  return {
    id: randomUUID(),
    profileId: input.profileId,
    accountId: input.accountId,
    status: 'receiving',
    createdAt,
    finishedAt: null,
    endpoint: input.endpoint,
    formatter: input.formatter,
    contentType: null,
    params: {},
    tags: [],
    files: [],
    attachments: [],
    messages: [],
    reportId: null,
    progress: { bytes: 0, files: 0, containers: 0 },
  };
}
