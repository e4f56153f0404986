/**
 * A queued import, claimed by the queue runner: its stored parts are replayed through the same
 * uploads, finalize and completion as at request time, so the same messages end up on the record.
 */
import type { Formatter } from '../../formatter/api.js';
import { ImportFault } from '../../messages.js';
import type { ImportRecord } from '../../store/types.js';
import { complete } from '../complete.js';
import { lookupFormatter, rawBodyCandidates } from '../detect/formatter-choice.js';
import { fail } from '../fail.js';
import type { ImportDeps } from '../options.js';
import { ImportParams } from '../receive/params.js';
import type { ImportAnswer, Run } from '../run-state.js';
import { Uploads } from '../uploads.js';

const MULTIPART = 'multipart/form-data';

export async function replayQueuedImport(
  deps: ImportDeps,
  record: ImportRecord,
  baseUrl: string,
): Promise<ImportAnswer> {
  const { store, registry, config } = deps;
  // For the answer only (the queue runner reads its status); a profile gone meanwhile fails below.
  const profile = await store.profiles.get(record.profileId).catch(() => null);
  const run: Run = {
    deps,
    record,
    report: null,
    params: new ImportParams(),
    early: [...record.messages],
    uploads: null,
    stored: null,
    profileNumber: profile?.number ?? 0,
    baseUrl,
  };
  try {
    for (const [name, values] of Object.entries(record.params))
      for (const value of values as string[]) run.params.addValue(name, value);
    run.report = record.reportId ? await store.reports.get(record.reportId) : null;
    if (!run.report) throw new ImportFault('import_validation_error', { detail: 'The queued import has no report.' });
    let formatter: Formatter | null = record.formatter ? lookupFormatter(registry, record.formatter) : null;
    if (!formatter && run.params.formatterField) formatter = lookupFormatter(registry, run.params.formatterField);
    const raw = record.contentType !== MULTIPART;
    const uploads = new Uploads({
      store,
      limits: config.limits,
      tmpDir: deps.tmpDir,
      reportId: run.report.id,
      importId: record.id,
      onProgress: () => undefined,
      formatter,
      candidates: raw ? rawBodyCandidates(registry, formatter, record.contentType ?? '') : registry.all(),
      smart: run.params.smart,
      pool: deps.pool,
    });
    run.uploads = uploads;
    for (const file of record.files) await uploads.addStoredUpload(file);
    for (const file of record.attachments) uploads.adoptAttachment(file);
    return await complete(
      run,
      uploads,
      record.files.reduce((n, f) => n + f.size, 0),
    );
  } catch (e) {
    return fail(run, e);
  }
}
