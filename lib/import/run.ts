/**
 * One import, from the request to the answer. The import record is created first and keeps the
 * request; parts stream through the file processor (or, with process_async, into the blob store for
 * a worker); finalize settles what needs the whole request. Any failure ends the record `failed`
 * with its messages, removes the report's containers and the blobs written so far, so no half
 * report is ever shown.
 */
import type { Readable } from 'node:stream';
import type { Config } from '../config.js';
import type { Formatter } from '../formatter/api.js';
import { applyFlags, ImportFault, message, statusOf } from '../messages.js';
import type { Registry } from '../formatter/registry.js';
import type { ImportRecord, Message, Profile, Report, StoredFile } from '../store/types.js';
import type { Store } from '../store/store.js';
import { answerBody, type ImportResponseBody, type ReportSummary } from './finalize/answer.js';
import { finalize } from './finalize/finalize.js';
import { FileProcessor, type FileProcessorOptions } from './uploads.js';
import { readMultipart } from './receive/multipart.js';
import { ImportParams } from './receive/params.js';
import { RequestStore } from './queue/stored-request.js';
import { ByteCounter } from './streams.js';
import type { ParsePool } from './parse/pool.js';
import { ReceiveWatchdog } from './receive/watchdog.js';
import { isStorageFull } from '../store/faults.js';
import { SpanStatusCode } from '@opentelemetry/api';
import { bindToActive, inSpan } from '../telemetry/spans.js';
import { recordImport } from '../telemetry/metrics.js';

export type ImportRoute = 'import' | 'import/{formatter}' | 'report/import' | 'testresult';
export type { ImportResponseBody };

export interface ImportDeps {
  store: Store;
  registry: Registry;
  config: Config;
  tmpDir: string;
  log(event: string, data: Record<string, unknown>): void;
  /** Told when an import was queued (process_async), so a worker can pick it up at once. */
  onQueued?(): void;
  /** Imports being answered: shutdown waits for them (and their clean-up) before closing the store. */
  inflight?: Set<Promise<unknown>>;
  /** Parse workers shared by all imports. */
  pool?: ParsePool;
}

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

export interface ImportAnswer {
  status: number;
  body: ImportResponseBody;
}

const PROGRESS_EVERY_MS = 1000;
const MULTIPART = 'multipart/form-data';

/** What one run of an import shares between its steps (request time or worker). */
interface Run {
  deps: ImportDeps;
  record: ImportRecord;
  report: Report | null;
  params: ImportParams;
  early: Message[];
  processor: FileProcessor | null;
  queued: RequestStore | null;
  profileId: string;
  baseUrl: string;
}

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
  const { store, registry, config } = deps;
  const early: Message[] = [];
  if (req.route === 'report/import') early.push(message('report_endpoint_deprecated'));

  let record: ImportRecord;
  try {
    record = await store.imports.create({
      profileId: req.profile.id,
      accountId: req.accountId,
      endpoint: req.route,
      formatter: req.formatterKey,
    });
  } catch (cause) {
    deps.log('import.record_failed', { error: String(cause) });
    const messages = [...early, message('import_generating_error')];
    return {
      status: statusOf(messages),
      body: answerBody({
        importId: null,
        reportId: null,
        profileId: req.profile.id,
        status: 'failed',
        messages,
        report: null,
        baseUrl: req.baseUrl,
      }),
    };
  }

  const run: Run = {
    deps,
    record,
    report: null,
    params: new ImportParams(),
    early,
    processor: null,
    queued: null,
    profileId: req.profile.id,
    baseUrl: req.baseUrl,
  };
  const { params } = run;
  let counter: ByteCounter | null = null;
  let watchdog: ReceiveWatchdog | null = null;
  const progress = progressWriter(store, record.id, () => ({
    bytes: counter?.bytes ?? 0,
    files: run.processor?.fileCount ?? run.queued?.uploads.length ?? 0,
    containers: run.processor?.containers ?? 0,
    totalBytes: req.contentLength,
  }));

  const abort = (): void => {
    counter?.destroy(new ImportFault('upload_aborted'));
    req.body.destroy();
  };
  req.signal.addEventListener('abort', abort, { once: true });
  // The client may have left before this import started listening.
  if (req.signal.aborted) abort();

  try {
    for (const [name, value] of req.query) params.addValue(name, value);
    let formatter: Formatter | null = null;
    if (req.formatterKey !== null) formatter = lookupFormatter(registry, req.formatterKey);
    run.report = await store.reports.create({
      profileId: req.profile.id,
      importId: record.id,
      tags: [],
      date: record.createdAt,
    });
    await store.imports.update(record.id, { reportId: run.report.id });

    if (!req.contentType) throw new ImportFault('import_missing_media_type');
    // A declared length over the limit is refused before a byte is read; chunked bodies are counted below.
    if (req.contentLength !== null && req.contentLength > config.limits.maxUploadBytes) {
      throw new ImportFault('payload_too_large', {
        detail: `The limit is ${config.limits.maxUploadBytes} bytes (TALLY_MAX_UPLOAD_BYTES).`,
        details: { limit: config.limits.maxUploadBytes },
      });
    }
    const mediaType = req.contentType.split(';')[0]!.trim().toLowerCase();
    await store.imports.update(record.id, { contentType: mediaType });
    // A client gone before the body was piped would leave the pipe waiting for ever.
    if (req.signal.aborted) throw new ImportFault('upload_aborted');
    counter = new ByteCounter(config.limits.maxUploadBytes, progress.tick);
    req.body.on('error', (e) => counter?.destroy(e));
    req.body.pipe(counter);
    const c = counter;
    watchdog = new ReceiveWatchdog(
      req.body,
      () => c.bytes,
      config.limits,
      (fault) => c.destroy(fault),
    );
    const processorOptions = (candidates: readonly Formatter[]): FileProcessorOptions => ({
      store,
      registry,
      limits: config.limits,
      tmpDir: deps.tmpDir,
      reportId: run.report!.id,
      importId: record.id,
      onProgress: progress.tick,
      formatter,
      candidates,
      smart: params.smart,
      pool: deps.pool ?? null,
    });

    if (mediaType === MULTIPART) {
      // process_async is honoured when it is known before the first file (query string or an earlier field).
      const receiver = (): FileProcessor | RequestStore =>
        run.processor ??
        run.queued ??
        (params.processAsync
          ? (run.queued = new RequestStore(store, record.id))
          : (run.processor = new FileProcessor(processorOptions(registry.all()))));
      const nameFormatter = (): void => {
        if (!formatter && params.formatterField) {
          const named = lookupFormatter(registry, params.formatterField);
          if (run.processor) run.processor.useFormatter(named);
          else formatter = named;
        }
      };
      let emptyParts = 0;
      await readMultipart(counter, req.contentType, config.limits, {
        field: (name, value) => {
          params.addValue(name, value);
          nameFormatter();
        },
        // Parts arrive on the request stream's events: their spans belong under this import.
        file: bindToActive(
          async (name: string, fileName: string | undefined, stream: Readable, mime: string | undefined) => {
            const n = params.notePart(name, fileName);
            if (n.role === 'file') {
              const added = await receiver().addUpload(stream, fileName ?? 'file', mime ?? null);
              if (!added) emptyParts++;
            } else if (n.role === 'attachment') {
              await receiver().addAttachment(stream, fileName ?? 'attachment', mime ?? null);
            } else if (n.role === 'unknown') {
              stream.resume();
            } else {
              // Real uploaders send flags and tags as file parts (`-F merge_containers=@flag.txt`).
              params.addValue(name, await smallText(stream, config.limits.maxFieldBytes, name));
              nameFormatter();
            }
          },
        ),
      });
      if ((run.processor?.uploads.length ?? run.queued?.uploads.length ?? 0) === 0) {
        if (emptyParts > 0) early.push(message('parameter_file_empty', { detail: 'The file[] parts were empty.' }));
        throw new ImportFault('import_missing_file');
      }
    } else {
      early.push(message('invalid_content_type'), message('parameter_file_empty'));
      const candidates = rawBodyCandidates(registry, formatter, mediaType);
      let added: boolean;
      if (params.processAsync) {
        run.queued = new RequestStore(store, record.id);
        added = await run.queued.addUpload(counter, 'request-body', mediaType);
      } else {
        run.processor = new FileProcessor(processorOptions(candidates));
        added = await run.processor.addUpload(counter, 'request-body', mediaType);
      }
      if (!added) throw new ImportFault('missing_file_and_body');
    }

    await progress.settle();
    if (run.queued) return await queue(run, run.queued, formatter, counter.bytes);
    return await complete(run, counter.bytes);
  } catch (e) {
    await progress.settle();
    const answer = await fail(run, e);
    if (counter && !counter.readableEnded) {
      // Leave the rest of the body unread without destroying the request, so hapi can still answer.
      req.body.unpipe(counter);
      req.body.resume();
    }
    return answer;
  } finally {
    received.bytes = counter?.bytes ?? 0;
    watchdog?.stop();
    req.signal.removeEventListener('abort', abort);
  }
}

/**
 * Processes an import a worker claimed: its stored parts are replayed through the same file
 * processor and finalize, so the same messages end up on the record.
 */
export async function processQueuedImport(
  deps: ImportDeps,
  record: ImportRecord,
  baseUrl: string,
): Promise<ImportAnswer> {
  const { store, registry, config } = deps;
  const run: Run = {
    deps,
    record,
    report: null,
    params: new ImportParams(),
    early: [...record.messages],
    processor: null,
    queued: null,
    profileId: record.profileId,
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
    run.processor = new FileProcessor({
      store,
      registry,
      limits: config.limits,
      tmpDir: deps.tmpDir,
      reportId: run.report.id,
      importId: record.id,
      onProgress: () => undefined,
      formatter,
      candidates: raw ? rawBodyCandidates(registry, formatter, record.contentType ?? '') : registry.all(),
      smart: run.params.smart,
      pool: deps.pool ?? null,
    });
    for (const file of record.files) await run.processor.addStoredUpload(file);
    for (const file of record.attachments) run.processor.adoptAttachment(file);
    return await complete(
      run,
      record.files.reduce((n, f) => n + f.size, 0),
    );
  } catch (e) {
    return fail(run, e);
  }
}

/** process_async: the request is stored whole; the answer is 202 and the status URL. */
async function queue(
  run: Run,
  queued: RequestStore,
  formatter: Formatter | null,
  bytes: number,
): Promise<ImportAnswer> {
  const { store } = run.deps;
  const messages = applyFlags([...run.early, ...run.params.messages()], run.params.flags);
  await store.imports.update(run.record.id, {
    status: 'queued',
    formatter: formatter?.key ?? null,
    params: run.params.received,
    tags: run.params.tags,
    files: queued.uploads,
    attachments: queued.attachments,
    // Only the messages of the request itself: the worker adds the parameter messages again.
    messages: run.early,
    progress: { bytes, files: queued.uploads.length, containers: 0 },
  });
  run.deps.onQueued?.();
  run.deps.log('import.queued', { importId: run.record.id, files: queued.uploads.length, bytes });
  return {
    status: 202,
    body: answerBody({
      importId: run.record.id,
      reportId: run.report!.id,
      profileId: run.profileId,
      status: 'queued',
      messages,
      report: null,
      baseUrl: run.baseUrl,
    }),
  };
}

/** Finalize and complete the report (request time or worker). */
async function complete(run: Run, bytes: number): Promise<ImportAnswer> {
  const { store, registry, config } = run.deps;
  const processor = run.processor!;
  const report = run.report!;
  const { params } = run;
  await processor.finish();
  await store.imports.update(run.record.id, { status: 'processing' });
  const used = new Set(processor.parsed.map((f) => f.formatter));
  const now = new Date();
  const done = await finalize({
    store,
    reportId: report.id,
    processor,
    flags: params.flags,
    formatterNamed: processor.formatter !== null,
    mergeByDefault: registry.all().some((f) => used.has(f.key) && f.mergeContainersByDefault === true),
    limits: config.limits,
    now,
    date: params.date === 'now' ? now.toISOString() : params.date,
  });
  const messages = applyFlags(
    [...run.early, ...params.messages(), ...processor.messages, ...done.messages],
    params.flags,
  );
  if (messages.some((m) => m.severity === 'error')) throw new Outcome(messages);

  const files = processor.parsed.map((f) => ({
    name: f.name,
    formatter: f.formatter,
    producer: f.producer,
    tests: f.tests,
  }));
  const totals = processor.totals;
  await store.reports.complete(report.id, { date: done.date, totals, files, messages, tags: params.tags });
  const progress = { bytes, files: processor.fileCount, containers: processor.containers };
  await store.imports.update(run.record.id, {
    status: 'completed',
    finishedAt: new Date().toISOString(),
    formatter: processor.formatter?.key ?? null,
    params: params.received,
    tags: params.tags,
    files: processor.uploads,
    attachments: done.attachments,
    messages,
    progress,
  });
  run.deps.log('import.completed', { importId: run.record.id, reportId: report.id, tests: totals.tests, bytes });
  const summary: ReportSummary = {
    date: done.date,
    url: `${run.baseUrl}/api/v2/reports/${report.id}`,
    tags: params.tags,
    files,
    totals,
  };
  return {
    status: 201,
    body: answerBody({
      importId: run.record.id,
      reportId: report.id,
      profileId: run.profileId,
      status: 'completed',
      messages,
      report: summary,
      baseUrl: run.baseUrl,
      progress,
    }),
  };
}

/** Ends the run `failed`: messages decided, containers and blobs removed, the record written. */
async function fail(run: Run, e: unknown): Promise<ImportAnswer> {
  const { store } = run.deps;
  const messages = await failureMessages(e, run);
  // On a full disk the clean-up below needs room itself (SQLite appends even to delete).
  if (isStorageFull(e)) await store.releaseReserve().catch(() => false);
  const steps: Promise<unknown>[] = [];
  // A container write still in flight would land after the purge: let it finish first.
  await run.processor?.abandon();
  if (run.report) steps.push(store.reports.fail(run.report.id));
  const blobs = new Set([
    ...(run.processor?.blobIds() ?? []),
    ...(run.queued?.blobIds() ?? []),
    ...run.record.files.map((f) => f.blobId),
    ...run.record.attachments.map((f) => f.blobId),
  ]);
  for (const id of blobs) steps.push(store.blobs.delete(id));
  steps.push(
    store.imports.update(run.record.id, {
      status: 'failed',
      finishedAt: new Date().toISOString(),
      messages,
      params: run.params.received,
      tags: run.params.tags,
      files: [] as StoredFile[],
      attachments: [],
    }),
  );
  const results = await Promise.allSettled(steps);
  const failed = results.filter((r) => r.status === 'rejected').length;
  if (failed > 0) run.deps.log('import.cleanup_incomplete', { importId: run.record.id, failedSteps: failed });
  return {
    status: statusOf(messages),
    body: answerBody({
      importId: run.record.id,
      reportId: null,
      profileId: run.profileId,
      status: 'failed',
      messages,
      report: null,
      baseUrl: run.baseUrl,
    }),
  };
}

/** The messages of a failed import; real bugs are logged and answered as internal_error. */
async function failureMessages(e: unknown, run: Run): Promise<Message[]> {
  if (e instanceof Outcome) return e.messages;
  const before = [...run.early, ...safe(() => run.params.messages()), ...(run.processor?.messages ?? [])];
  let fault: Message;
  // Checked first: a stage may have wrapped it (the batcher reports any failed write as store_unavailable).
  if (isStorageFull(e)) {
    fault = message('storage_full');
    run.deps.log('import.storage_full', { importId: run.record.id, error: e instanceof Error ? e.message : String(e) });
  } else if (e instanceof ImportFault) fault = e.msg;
  else {
    const storeUp = await run.deps.store.ping().then(
      () => true,
      () => false,
    );
    fault = storeUp ? message('internal_error') : message('store_unavailable');
    run.deps.log(storeUp ? 'import.internal_error' : 'import.store_unavailable', {
      error: e instanceof Error ? (e.stack ?? e.message) : String(e),
    });
  }
  // Flags still apply to warnings and notices of a failed import (SPEC 7.2 "way to silence").
  return applyFlags([...before, fault], new Set(safe(() => [...run.params.flags])));
}

/**
 * Progress writes: at most one a second, one at a time, and none racing the record's final write
 * (some stores refuse concurrent writes to one document; a lost final write would leave the record
 * looking alive).
 */
function progressWriter(store: Store, importId: string, read: () => ImportRecord['progress']) {
  let last = 0;
  let write: Promise<void> | null = null;
  return {
    tick(): void {
      const now = Date.now();
      if (now - last < PROGRESS_EVERY_MS || write) return;
      last = now;
      write = store.imports
        .update(importId, { progress: read() })
        .catch(() => undefined)
        .finally(() => {
          write = null;
        });
    },
    async settle(): Promise<void> {
      last = Number.POSITIVE_INFINITY;
      await write;
    },
  };
}

function rawBodyCandidates(registry: Registry, formatter: Formatter | null, mediaType: string): readonly Formatter[] {
  const candidates = formatter
    ? formatter.mediaTypes.includes(mediaType)
      ? [formatter]
      : []
    : registry.byMediaType(mediaType);
  if (candidates.length === 0) {
    const who = formatter ? `the formatter ${formatter.key} (${formatter.mediaTypes.join(', ')})` : 'any formatter';
    throw new ImportFault('import_content_type_error', {
      detail: `${mediaType} is not a content type of ${who}.`,
      details: { contentType: mediaType },
    });
  }
  return candidates;
}

function safe<T>(f: () => T[]): T[] {
  try {
    return f();
  } catch {
    return [];
  }
}

class Outcome extends Error {
  constructor(readonly messages: Message[]) {
    super('import ended with an error message');
  }
}

function lookupFormatter(registry: Registry, key: string): Formatter {
  const f = registry.get(key);
  if (!f) {
    throw new ImportFault('invalid_formatter', {
      detail: `"${key.slice(0, 60)}" is not one of: ${registry
        .all()
        .map((x) => x.key)
        .join(', ')}.`,
      details: { formatter: key.slice(0, 60) },
    });
  }
  return f;
}

async function smallText(stream: Readable, limit: number, name: string): Promise<string> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const chunk of stream) {
    n += (chunk as Buffer).length;
    if (n > limit) {
      stream.resume();
      throw new ImportFault('multipart_limit_exceeded', {
        detail: `The field "${name.slice(0, 60)}" is longer than ${limit} bytes.`,
        details: { limit: 'fieldSize' },
      });
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
