/** Records every adapter creates the same way: one definition of their starting state. */
import { randomUUID } from 'node:crypto';
import type { ImportRecord, NewImport, Report } from './store.js';

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

/** A new report: `building` (invisible to readers), zero totals. */
export function newReportRecord(
  input: Pick<Report, 'profileId' | 'importId' | 'tags' | 'date'>,
  createdAt: string,
): Report {
  return {
    id: randomUUID(),
    profileId: input.profileId,
    importId: input.importId,
    status: 'building',
    createdAt,
    date: input.date,
    tags: input.tags,
    totals: { containers: 0, tests: 0, passed: 0, failed: 0, errored: 0, skipped: 0, pending: 0, unknown: 0, flaky: 0 },
    files: [],
    messages: [],
  };
}
