/**
 * One import at request time, from the request to the answer. The import record is created first
 * and keeps the request; the report is created next; the body is received (receive/): each file
 * goes its way through the uploads (uploads.ts), or, with process_async, the request is stored for
 * the queue (queue/). Then the run completes (complete.ts) or is queued; any failure ends it
 * `failed` with its messages, its report's containers and its blobs removed (fail.ts), so no half
 * report is ever shown.
 */
import type { Readable } from 'node:stream';
import { SpanStatusCode } from '@opentelemetry/api';
import type { Formatter } from '../formatter/api.js';
import { ImportFault, message, statusOf } from '../messages.js';
import type { ImportRecord, Message, Profile } from '../store/types.js';
import { recordImport } from '../telemetry/metrics.js';
import { inSpan } from '../telemetry/spans.js';
import { complete } from './complete.js';
import { lookupFormatter, rawBodyCandidates } from './detect/formatter-choice.js';
import { fail } from './fail.js';
import { answerBody } from './finalize/answer.js';
import type { ImportDeps } from './options.js';
import { progressWriter, type ProgressWriter } from './progress.js';
import { enqueue } from './queue/enqueue.js';
import { StoredRequest } from './queue/stored-request.js';
import { receiveBody, receiveFault, type ReceivedBody } from './receive/body.js';
import { emptyFilesFault, emptyFilesSkipped } from './receive/empty-files.js';
import { readForm, type PartReceiver } from './receive/form.js';
import { ImportParams } from './receive/params.js';
import type { ImportAnswer, Run } from './run-state.js';
import { Uploads, type UploadOptions } from './uploads.js';

export type ImportRoute = 'import' | 'import/{formatter}' | 'report/import' | 'testresult';

export interface ImportRequest {
  profile: Profile;
  accountId: string;
  route: ImportRoute;
  formatterKey: string | null;
  query: URLSearchParams;
  contentType: string | undefined;
  /** The Content-Length header, when the client sent one. */
  contentLength: number | null;
  body: Readable;
  baseUrl: string;
  /** Fires when the client goes away before the answer. */
  signal: AbortSignal;
}

const MULTIPART = 'multipart/form-data';

/** One import in a `tally.import` span, with its metrics recorded once it is answered. */
export function runImport(deps: ImportDeps, req: ImportRequest): Promise<ImportAnswer> {
  const started = performance.now();
  const received = { bytes: 0 };
  const attributes = {
    'tally.profile_id': req.profile.id,
    'tally.route': req.route,
    ...(req.formatterKey ? { 'tally.formatter': req.formatterKey } : {}),
  };
  return inSpan('tally.import', attributes, async (span) => {
    const answer = await receiveImport(deps, req, received);
    const error = answer.body.messages.find((m) => m.severity === 'error');
    span?.setAttributes({
      'tally.import_id': answer.body.import_id ?? '',
      'tally.status': answer.body.status,
      'tally.bytes': received.bytes,
      'http.response.status_code': answer.status,
    });
    if (error) span?.setStatus({ code: SpanStatusCode.ERROR, message: error.code ?? 'error' });
    recordImport({
      status: answer.body.status,
      store: deps.store.kind,
      bytes: received.bytes,
      containers: answer.body.report?.totals.containers ?? 0,
      seconds: (performance.now() - started) / 1000,
      messages: answer.body.messages,
    });
    return answer;
  });
}

async function receiveImport(deps: ImportDeps, req: ImportRequest, received: { bytes: number }): Promise<ImportAnswer> {
  const early: Message[] = [];
  if (req.route === 'report/import') early.push(message('report_endpoint_deprecated'));
  let record: ImportRecord;
  try {
    record = await deps.store.imports.create({
      profileId: req.profile.id,
      accountId: req.accountId,
      endpoint: req.route,
      formatter: req.formatterKey,
    });
  } catch (cause) {
    deps.log('import.record_failed', { error: String(cause) });
    return recordFailed(req, [...early, message('import_generating_error')]);
  }
  const run: Run = {
    deps,
    record,
    report: null,
    params: new ImportParams(),
    early,
    uploads: null,
    stored: null,
    profileNumber: req.profile.number,
    baseUrl: req.baseUrl,
  };
  let body: ReceivedBody | null = null;
  const progress = progressWriter(deps.store, record.id, () => ({
    bytes: body?.stream.bytes ?? 0,
    files: run.uploads?.fileCount ?? run.stored?.uploads.length ?? 0,
    containers: run.uploads?.assembly.containers ?? 0,
    totalBytes: req.contentLength,
  }));
  try {
    const { formatter, mediaType } = await start(run, req);
    body = receiveBody(req.body, { limits: deps.config.limits, signal: req.signal }, progress.tick);
    const named =
      mediaType === MULTIPART
        ? await receiveForm(run, req, body, formatter, progress)
        : await receiveRawBody(run, body, formatter, mediaType, progress);
    await progress.settle();
    if (run.stored) return await enqueue(run, run.stored, named, body.stream.bytes);
    return await complete(run, run.uploads!, body.stream.bytes);
  } catch (e) {
    await progress.settle();
    return await fail(run, receiveFault(e, req.signal));
  } finally {
    received.bytes = body?.stream.bytes ?? 0;
    body?.stop();
  }
}

/**
 * What is settled before a byte of the body is read: the query string, the formatter named in the
 * path, the report, the media type, a declared length over the limit.
 */
async function start(run: Run, req: ImportRequest): Promise<{ formatter: Formatter | null; mediaType: string }> {
  const { store, registry, config } = run.deps;
  for (const [name, value] of req.query) run.params.addValue(name, value);
  const formatter = req.formatterKey !== null ? lookupFormatter(registry, req.formatterKey) : null;
  run.report = await store.reports.create({
    profileId: req.profile.id,
    importId: run.record.id,
    tags: [],
    date: run.record.createdAt,
  });
  await store.imports.update(run.record.id, { reportId: run.report.id });
  if (!req.contentType) throw new ImportFault('import_missing_media_type');
  // A declared length over the limit is refused before a byte is read; chunked bodies are counted as they come.
  if (req.contentLength !== null && req.contentLength > config.limits.maxUploadBytes) {
    throw new ImportFault('payload_too_large', {
      detail: `The limit is ${config.limits.maxUploadBytes} bytes (TALLY_MAX_UPLOAD_BYTES).`,
      details: { limit: config.limits.maxUploadBytes },
    });
  }
  const mediaType = req.contentType.split(';')[0]!.trim().toLowerCase();
  await store.imports.update(run.record.id, { contentType: mediaType });
  return { formatter, mediaType };
}

/**
 * A multipart form. process_async is honoured when it is known before the first file (query string
 * or an earlier field); a `formatter` field names the formatter, before the files.
 */
async function receiveForm(
  run: Run,
  req: ImportRequest,
  body: ReceivedBody,
  named: Formatter | null,
  progress: ProgressWriter,
): Promise<Formatter | null> {
  const { registry, config } = run.deps;
  let formatter = named;
  const receiver = (): PartReceiver =>
    run.uploads ??
    run.stored ??
    (run.params.processAsync
      ? (run.stored = new StoredRequest(run.deps.store, run.record.id))
      : (run.uploads = new Uploads(uploadOptions(run, formatter, registry.all(), progress))));
  const { emptyFiles } = await readForm(body.stream, req.contentType!, config.limits, run.params, {
    receiver,
    fieldRead() {
      if (formatter || !run.params.formatterField) return;
      const field = lookupFormatter(registry, run.params.formatterField);
      if (run.uploads) run.uploads.useFormatter(field);
      else formatter = field;
    },
  });
  const files = run.uploads?.uploads.length ?? run.stored?.uploads.length ?? 0;
  if (emptyFiles.length > 0) {
    if (files === 0) throw emptyFilesFault(emptyFiles);
    run.early.push(emptyFilesSkipped(emptyFiles));
  }
  if (files === 0) throw new ImportFault('import_missing_file');
  return formatter;
}

/** A body that is not a form is one result file, of a formatter taking its media type. */
async function receiveRawBody(
  run: Run,
  body: ReceivedBody,
  formatter: Formatter | null,
  mediaType: string,
  progress: ProgressWriter,
): Promise<Formatter | null> {
  run.early.push(message('invalid_content_type'), message('parameter_file_empty'));
  const candidates = rawBodyCandidates(run.deps.registry, formatter, mediaType);
  const receiver: PartReceiver = run.params.processAsync
    ? (run.stored = new StoredRequest(run.deps.store, run.record.id))
    : (run.uploads = new Uploads(uploadOptions(run, formatter, candidates, progress)));
  if (!(await receiver.addUpload(body.stream, 'request-body', mediaType)))
    throw new ImportFault('missing_file_and_body');
  return formatter;
}

function uploadOptions(
  run: Run,
  formatter: Formatter | null,
  candidates: readonly Formatter[],
  progress: ProgressWriter,
): UploadOptions {
  const { store, config, tmpDir, pool } = run.deps;
  return {
    store,
    limits: config.limits,
    tmpDir,
    reportId: run.report!.id,
    importId: run.record.id,
    onProgress: progress.tick,
    formatter,
    candidates,
    smart: run.params.smart,
    pool,
  };
}

/** The import record could not even be created: the answer says so, nothing was kept. */
function recordFailed(req: ImportRequest, messages: Message[]): ImportAnswer {
  return {
    status: statusOf(messages),
    body: answerBody({
      importId: null,
      reportNumber: null,
      profileNumber: req.profile.number,
      status: 'failed',
      messages,
      report: null,
      baseUrl: req.baseUrl,
    }),
  };
}
