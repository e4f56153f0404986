/**
 * One import, from the request to the answer. The import record is created first and keeps the
 * request; parts stream through the file processor; finalize settles what needs the whole request.
 * Any failure ends the record `failed` with its messages, removes the report's containers and the
 * blobs written so far, so no half report is ever shown.
 */
import type { Readable } from 'node:stream';
import type { Config } from '../config.js';
import type { Formatter } from '../formatter-api.js';
import { applyFlags, ImportFault, message, statusOf } from '../messages.js';
import type { Registry } from '../registry.js';
import type { ImportRecord, Message, Profile, Report, Store, StoredFile, Totals } from '../store/store.js';
import { finalize } from './finalize.js';
import { FileProcessor } from './files.js';
import { readMultipart } from './multipart.js';
import { ImportParams } from './params.js';
import { ByteCounter } from './streams.js';

export type ImportRoute = 'import' | 'import/{formatter}' | 'report/import';

export interface ImportDeps {
  store: Store;
  registry: Registry;
  config: Config;
  tmpDir: string;
  log(event: string, data: Record<string, unknown>): void;
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

export interface ImportResponseBody {
  import_id: string | null;
  report_id: string | null;
  profile_id: string;
  status: 'completed' | 'failed';
  messages: Message[];
  report: {
    date: string;
    url: string;
    tags: string[];
    files: { name: string; formatter: string; producer: string | null; tests: number }[];
    totals: Totals;
  } | null;
}

export interface ImportAnswer {
  status: number;
  body: ImportResponseBody;
}

const PROGRESS_EVERY_MS = 1000;

export async function runImport(deps: ImportDeps, req: ImportRequest): Promise<ImportAnswer> {
  const { store, registry, config } = deps;
  const early: Message[] = [];
  if (req.route === 'report/import') early.push(message('report_endpoint_deprecated'));

  let record: ImportRecord;
  try {
    record = await store.createImport({ profileId: req.profile.id, accountId: req.accountId, endpoint: req.route, formatter: req.formatterKey });
  } catch (cause) {
    deps.log('import.record_failed', { error: String(cause) });
    const messages = [...early, message('import_generating_error')];
    return { status: statusOf(messages), body: emptyBody(null, req.profile.id, messages) };
  }

  const params = new ImportParams();
  let report: Report | null = null;
  let processor: FileProcessor | null = null;
  let counter: ByteCounter | null = null;
  let lastProgress = 0;
  // One progress write at a time, and none racing the record's final write (some stores refuse
  // concurrent writes to one document; a lost final write would leave the record looking alive).
  let progressWrite: Promise<void> | null = null;
  const progress = (): void => {
    const now = Date.now();
    if (now - lastProgress < PROGRESS_EVERY_MS || !processor || progressWrite) return;
    lastProgress = now;
    progressWrite = store
      .updateImport(record.id, { progress: { bytes: counter?.bytes ?? 0, files: processor.fileCount, containers: processor.containers } })
      .catch(() => undefined)
      .finally(() => {
        progressWrite = null;
      });
  };
  const settleProgress = async (): Promise<void> => {
    lastProgress = Number.POSITIVE_INFINITY;
    await progressWrite;
  };

  const abort = (): void => {
    counter?.destroy(new ImportFault('upload_aborted'));
    req.body.destroy();
  };
  req.signal.addEventListener('abort', abort, { once: true });

  try {
    for (const [name, value] of req.query) params.addValue(name, value);
    let formatter: Formatter | null = null;
    if (req.formatterKey !== null) formatter = lookupFormatter(registry, req.formatterKey);
    report = await store.createReport({ profileId: req.profile.id, importId: record.id, tags: [], date: record.createdAt });
    await store.updateImport(record.id, { reportId: report.id });

    if (!req.contentType) throw new ImportFault('import_missing_media_type');
    // A declared length over the limit is refused before a byte is read; chunked bodies are counted below.
    if (req.contentLength !== null && req.contentLength > config.limits.maxUploadBytes) {
      throw new ImportFault('payload_too_large', { detail: `The limit is ${config.limits.maxUploadBytes} bytes (TALLY_MAX_UPLOAD_BYTES).`, details: { limit: config.limits.maxUploadBytes } });
    }
    const mediaType = req.contentType.split(';')[0]!.trim().toLowerCase();
    counter = new ByteCounter(config.limits.maxUploadBytes, progress);
    req.body.on('error', (e) => counter?.destroy(e));
    req.body.pipe(counter);
    const base = { store, registry, limits: config.limits, tmpDir: deps.tmpDir, reportId: report.id, importId: record.id, onProgress: progress };

    if (mediaType === 'multipart/form-data') {
      const p = (processor = new FileProcessor({ ...base, formatter, candidates: registry.all() }));
      let emptyParts = 0;
      await readMultipart(counter, req.contentType, config.limits, {
        field: (name, value) => {
          params.addValue(name, value);
          if (!formatter && params.formatterField) p.useFormatter(lookupFormatter(registry, params.formatterField));
        },
        file: async (name, fileName, stream, mime) => {
          const n = params.noteName(name);
          if (n.role === 'file') {
            const added = await p.addUpload(stream, fileName ?? 'file', mime ?? null);
            if (!added) emptyParts++;
          } else if (n.role === 'attachment') {
            await p.addAttachment(stream, fileName ?? 'attachment', mime ?? null);
          } else if (n.role === 'unknown') {
            stream.resume();
          } else {
            // Real uploaders send flags and tags as file parts (`-F merge_containers=@flag.txt`).
            params.addValue(name, await smallText(stream, config.limits.maxFieldBytes, name));
            if (!formatter && params.formatterField) p.useFormatter(lookupFormatter(registry, params.formatterField));
          }
        },
      });
      if (p.uploads.length === 0) {
        if (emptyParts > 0) early.push(message('parameter_file_empty', { detail: 'The file[] parts were empty.' }));
        throw new ImportFault('import_missing_file');
      }
    } else {
      early.push(message('invalid_content_type'), message('parameter_file_empty'));
      const candidates = formatter ? (formatter.mediaTypes.includes(mediaType) ? [formatter] : []) : registry.byMediaType(mediaType);
      if (candidates.length === 0) {
        const who = formatter ? `the formatter ${formatter.key} (${formatter.mediaTypes.join(', ')})` : 'any formatter';
        throw new ImportFault('import_content_type_error', { detail: `${mediaType} is not a content type of ${who}.`, details: { contentType: mediaType } });
      }
      processor = new FileProcessor({ ...base, formatter, candidates });
      const added = await processor.addUpload(counter, 'request-body', mediaType);
      if (!added) throw new ImportFault('missing_file_and_body');
    }

    await processor.finish();
    await progressWrite;
    await store.updateImport(record.id, { status: 'processing' });
    const used = new Set(processor.parsed.map((f) => f.formatter));
    const done = await finalize({
      store,
      reportId: report.id,
      processor,
      flags: params.flags,
      formatterNamed: processor.formatter !== null,
      mergeByDefault: registry.all().some((f) => used.has(f.key) && f.mergeContainersByDefault === true),
      limits: config.limits,
      now: new Date(),
    });
    const messages = applyFlags([...early, ...params.messages(), ...processor.messages, ...done.messages], params.flags);
    if (messages.some((m) => m.severity === 'error')) throw new Outcome(messages);

    await settleProgress();
    const files = processor.parsed.map((f) => ({ name: f.name, formatter: f.formatter, producer: f.producer, tests: f.tests }));
    const totals = processor.totals;
    await store.completeReport(report.id, { date: done.date, totals, files, messages, tags: params.tags });
    await store.updateImport(record.id, {
      status: 'completed',
      finishedAt: new Date().toISOString(),
      formatter: processor.formatter?.key ?? null,
      params: params.received,
      tags: params.tags,
      files: processor.uploads,
      attachments: done.attachments,
      messages,
      progress: { bytes: counter.bytes, files: processor.fileCount, containers: processor.containers },
    });
    deps.log('import.completed', { importId: record.id, reportId: report.id, tests: totals.tests, bytes: counter.bytes });
    return {
      status: 201,
      body: {
        import_id: record.id,
        report_id: report.id,
        profile_id: req.profile.id,
        status: 'completed',
        messages,
        report: { date: done.date, url: `${req.baseUrl}/api/v2/reports/${report.id}`, tags: params.tags, files, totals },
      },
    };
  } catch (e) {
    const messages = await failureMessages(e, deps, early, params, processor);
    await settleProgress();
    await cleanUp(store, record.id, report, processor, messages, params, deps);
    if (counter && !counter.readableEnded) {
      // Leave the rest of the body unread without destroying the request, so hapi can still answer.
      req.body.unpipe(counter);
      req.body.resume();
    }
    return { status: statusOf(messages), body: emptyBody(record.id, req.profile.id, messages) };
  } finally {
    req.signal.removeEventListener('abort', abort);
  }
}

/** The messages of a failed import; real bugs are logged and answered as internal_error. */
async function failureMessages(e: unknown, deps: ImportDeps, early: Message[], params: ImportParams, processor: FileProcessor | null): Promise<Message[]> {
  if (e instanceof Outcome) return e.messages;
  const before = [...early, ...safe(() => params.messages()), ...(processor?.messages ?? [])];
  let fault: Message;
  if (e instanceof ImportFault) fault = e.msg;
  else {
    const storeUp = await deps.store.ping().then(() => true, () => false);
    fault = storeUp ? message('internal_error') : message('store_unavailable');
    deps.log(storeUp ? 'import.internal_error' : 'import.store_unavailable', { error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
  // Flags still apply to warnings and notices of a failed import (SPEC 7.2 "way to silence").
  return applyFlags([...before, fault], new Set(safe(() => [...params.flags])));
}

function safe<T>(f: () => T[]): T[] {
  try {
    return f();
  } catch {
    return [];
  }
}

async function cleanUp(store: Store, importId: string, report: Report | null, processor: FileProcessor | null, messages: Message[], params: ImportParams, deps: ImportDeps): Promise<void> {
  const steps: Promise<unknown>[] = [];
  // A container write still in flight would land after the purge: let it finish first.
  await processor?.abandon();
  if (report) steps.push(store.failReport(report.id));
  for (const id of processor?.blobIds() ?? []) steps.push(store.deleteBlob(id));
  steps.push(
    store.updateImport(importId, {
      status: 'failed',
      finishedAt: new Date().toISOString(),
      messages,
      params: params.received,
      tags: params.tags,
      files: [] as StoredFile[],
      attachments: [],
    }),
  );
  const results = await Promise.allSettled(steps);
  const failed = results.filter((r) => r.status === 'rejected').length;
  if (failed > 0) deps.log('import.cleanup_incomplete', { importId, failedSteps: failed });
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
      detail: `"${key.slice(0, 60)}" is not one of: ${registry.all().map((x) => x.key).join(', ')}.`,
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
      throw new ImportFault('multipart_limit_exceeded', { detail: `The field "${name.slice(0, 60)}" is longer than ${limit} bytes.`, details: { limit: 'fieldSize' } });
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function emptyBody(importId: string | null, profileId: string, messages: Message[]): ImportResponseBody {
  return { import_id: importId, report_id: null, profile_id: profileId, status: 'failed', messages, report: null };
}
