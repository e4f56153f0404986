/**
 * The end of a run whose files are all in (at request time or replayed by the queue runner):
 * finalize settles what needs the whole request, the flags are applied, and the report is
 * completed, or, when an error message remains, the run fails with those messages (fail.ts).
 */
import { applyFlags } from '../messages.js';
import { answerBody, type ReportSummary } from './finalize/answer.js';
import { tellEnded } from './ended.js';
import { finalize } from './finalize/finalize.js';
import { ErrorOutcome, type ImportAnswer, type Run } from './run-state.js';
import type { Uploads } from './uploads.js';

export async function complete(run: Run, uploads: Uploads, bytes: number): Promise<ImportAnswer> {
  const { store, registry, config } = run.deps;
  const report = run.report!;
  const { params } = run;
  await uploads.finish();
  await store.imports.update(run.record.id, { status: 'processing' });
  const now = new Date();
  const done = await finalize({
    store,
    reportId: report.id,
    files: uploads.processed,
    flags: params.flags,
    formatterNamed: uploads.formatter !== null,
    mergeByDefault: new Set(
      registry
        .all()
        .filter((f) => f.mergeContainersByDefault === true)
        .map((f) => f.key),
    ),
    limits: config.limits,
    now,
    date: params.date === 'now' ? now.toISOString() : params.date,
  });
  const messages = applyFlags(
    [...run.early, ...params.messages(), ...uploads.messages, ...done.messages],
    params.flags,
  );
  if (messages.some((m) => m.severity === 'error')) throw new ErrorOutcome(messages);

  const files = uploads.assembly.parsed.map((f) => ({
    name: f.name,
    formatter: f.formatter,
    producer: f.producer,
    tests: f.tests,
  }));
  const totals = uploads.assembly.totals;
  await store.reports.complete(report.id, {
    date: done.date,
    totals,
    files,
    messages,
    tags: params.tags,
    ci: params.ciContext(),
  });
  const progress = { bytes, files: uploads.fileCount, containers: uploads.assembly.containers };
  await store.imports.update(run.record.id, {
    status: 'completed',
    finishedAt: new Date().toISOString(),
    formatter: uploads.formatter?.key ?? null,
    params: params.received,
    tags: params.tags,
    files: uploads.uploads,
    attachments: done.attachments,
    messages,
    progress,
  });
  run.deps.log('import.completed', { import_id: run.record.id, report_id: report.number, tests: totals.tests, bytes });
  try {
    run.deps.onCompleted?.({ profileId: run.record.profileId, reportId: report.id, baseUrl: run.baseUrl });
  } catch (e) {
    // Whatever listens must not turn a completed import into a failed one.
    run.deps.log('import.on_completed_failed', { import_id: run.record.id, error: (e as Error).message });
  }
  await tellEnded(run, 'completed', report.id);
  const summary: ReportSummary = {
    date: done.date,
    url: `${run.baseUrl}/api/v2/reports/${report.number}`,
    tags: params.tags,
    files,
    totals,
  };
  return {
    status: 201,
    body: answerBody({
      importId: run.record.id,
      reportNumber: report.number,
      profileNumber: run.profileNumber,
      status: 'completed',
      messages,
      report: summary,
      baseUrl: run.baseUrl,
      progress,
    }),
  };
}
