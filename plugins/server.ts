/**
 * Assembles Tally: a hapi server on an http listener whose request timeout fits long uploads
 * (Node's default 300 s would answer 408 mid-upload), with the auth, import, read, manage (profiles and
 * reports created, renamed, deleted), page API (the pages' JSON twins), health and web plugins.
 */
import Hapi, { type Request, type ResponseToolkit } from '@hapi/hapi';
import type { Boom } from '@hapi/boom';
import http from 'node:http';
import os from 'node:os';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../lib/config.js';
import type { Formatter } from '../lib/formatter/api.js';
import { requestContext, type Logger } from '../lib/log.js';
import { message, type MessageCode } from '../lib/messages.js';
import { createRegistry, type Registry } from '../lib/formatter/registry.js';
import type { Store } from '../lib/store/store.js';
import { authPlugin } from './auth.js';
import { healthPlugin } from './health.js';
import { uploadClientPlugin } from './upload-client.js';
import { importPlugin } from './import.js';
import { readPlugin } from './read.js';
import { managePlugin } from './manage.js';
import { ciPlugin } from './ci.js';
import { pageApiPlugin } from './page-api.js';
import { webPlugin } from './web/index.js';
import { openapiPlugin } from './openapi/index.js';
import { answerClientError } from './client-error.js';
import { logFailure } from './failure-log.js';
import { securityHeadersPlugin } from './security-headers.js';
import { lingerPlugin } from './linger.js';
import type { CiProvider } from '../lib/ci/api.js';
import { createCiRegistry } from '../lib/ci/registry.js';
import { createSecretBox } from '../lib/ci/secret-box.js';
import { verdictSender, type VerdictSender } from '../lib/ci/verdict.js';
import { builtinCiProviders } from '../ci-providers/index.js';
import { addressGuard } from '../lib/notify/address-guard.js';
import { NotificationSender } from '../lib/notify/sender.js';
import { notificationsPlugin } from './notifications.js';
import { createImports, ParsePool, type FormatterModule, type QueueRunner } from '../lib/import/index.js';
import { retentionRunner, type RetentionRunner } from '../lib/retention/runner.js';
import { retentionPlugin } from './retention.js';

export interface TallyOptions {
  config: Config;
  store: Store;
  /** Every formatter imports may use (the registry). */
  formatters: readonly Formatter[];
  /**
   * The modules the parse threads load their formatters from (default: the built-in formatters);
   * files of other formatters are parsed on the request thread.
   */
  threadFormatters?: readonly FormatterModule[];
  log: Logger;
  /** The CI providers links may name (default: the built-in ones, ci-providers/). */
  ciProviders?: readonly CiProvider[];
  /** Certificate authorities the mail sender trusts beside the system's (tests with their own CA). */
  mailCa?: string;
}

/** Where the parse threads find the built-in formatters: `formatters/index.ts`, export `builtinFormatters`. */
export const BUILTIN_FORMATTER_MODULE: FormatterModule = Object.freeze({
  url: import.meta.resolve('../formatters/index.js'),
  exportName: 'builtinFormatters',
});

/** Imports older than this that are still running belong to a process or store that went away. */
const SWEEP_EVERY_MS = 10 * 60 * 1000;

export interface Tally {
  server: Hapi.Server;
  registry: Registry;
  config: Config;
  /** Runs process_async imports. */
  queue: QueueRunner;
  /** Parse threads (TALLY_PARSE_WORKERS). */
  pool: ParsePool;
  /** Verdicts being sent back to CI providers (tests wait on `idle()`). */
  verdicts: VerdictSender;
  /** Retention passes: after imports, saved policies and each sweep (tests wait on `idle()`). */
  retention: RetentionRunner;
  /** Notifications: queued at each import's end, sent beside (tests wait on `idle()`). */
  notifications: NotificationSender;
  /**
   * Ends imports that cannot still be running at `now`, then finishes deletions cut short, then queues
   * a retention pass for every profile with a policy (runs at start and every 10 minutes); resolves to
   * how many imports it ended.
   */
  sweep(now?: Date): Promise<number>;
  start(): Promise<void>;
  stop(): Promise<void>;
  url(): string;
}

const BOOM_CODES: Record<number, MessageCode> = {
  400: 'malformed_request',
  404: 'not_found',
  405: 'invalid_request_method',
  413: 'payload_too_large',
  415: 'import_content_type_error',
  503: 'store_unavailable',
};

/**
 * What the server listens on, and the URLs a person can open: on a wildcard address (0.0.0.0, ::)
 * localhost and each of the machine's network addresses; TALLY_PUBLIC_URL first when it is set.
 */
export function addressesOf(server: Hapi.Server, publicUrl: string | null): { listening: string; urls: string[] } {
  const { address, port, protocol } = server.info;
  const host = (a: string) => (a.includes(':') ? `[${a}]` : a);
  const url = (a: string) => `${protocol}://${host(a)}:${port}`;
  const wildcard = address === '0.0.0.0' || address === '::';
  const urls = wildcard
    ? [
        url('localhost'),
        ...Object.values(os.networkInterfaces())
          .flat()
          .filter(
            (i) => i && !i.internal && (i.family === 'IPv4' || (address === '::' && !i.address.startsWith('fe80'))),
          )
          .map((i) => url(i!.address)),
      ]
    : [url(address ?? 'localhost')];
  if (publicUrl) urls.unshift(publicUrl.replace(/\/+$/, ''));
  return { listening: url(address ?? ''), urls: [...new Set(urls)] };
}

/** The POST routes of SPEC part 4 (plugins/import.ts). */
function isImportRoute(request: Request): boolean {
  return (
    request.route.method === 'post' &&
    /\/(import(\/\{formatter\})?|report\/import|testresult)$/.test(request.route.path)
  );
}

export async function createTally(o: TallyOptions): Promise<Tally> {
  const registry = createRegistry(o.formatters);
  const ciProviders = createCiRegistry(o.ciProviders ?? builtinCiProviders);
  const secretBox = o.config.secretKey ? createSecretBox(o.config.secretKey) : null;
  const tmpDir = path.join(o.config.dataDir, 'tmp');
  await mkdir(tmpDir, { recursive: true });
  const listener = http.createServer({ requestTimeout: o.config.limits.requestTimeoutMs, headersTimeout: 60_000 });
  listener.on('clientError', answerClientError);
  const server = Hapi.server({
    listener,
    port: o.config.port,
    host: o.config.host,
    router: { stripTrailingSlash: true },
    routes: { response: { emptyStatusCode: 204 } },
  });

  // Every request runs in its own log context, so each log line it causes carries its id.
  for (const dispatch of listener.listeners('request') as ((
    req: http.IncomingMessage,
    res: http.ServerResponse,
  ) => void)[]) {
    listener.off('request', dispatch);
    listener.on('request', (req, res) => requestContext.run({}, () => dispatch(req, res)));
  }
  server.ext('onRequest', (request: Request, h: ResponseToolkit) => {
    const context = requestContext.getStore();
    if (context) context.requestId = request.info.id;
    return h.continue;
  });

  // Faults hapi answers itself (unknown route, Content-Length over the limit, ...) get our shape too;
  // every failed JSON answer (an import, a refusal) is logged once with its request id.
  server.ext('onPreResponse', (request: Request, h: ResponseToolkit) => {
    const response = request.response as Boom | Hapi.ResponseObject;
    if (!('isBoom' in response) || !response.isBoom) {
      const ok = response as Hapi.ResponseObject;
      ok.header('x-request-id', request.info.id);
      if (ok.variety === 'plain') logFailure(o.log, request, ok.statusCode, ok.source);
      return h.continue;
    }
    // Pages answer faults as pages (plugins/web); this shape is the API's.
    if ((request.route.settings.plugins as Record<string, unknown> | undefined)?.['tally-web']) return h.continue;
    const status = response.output.statusCode;
    // A 400 hapi gives an import (a multipart type without a boundary) is about the import request; on
    // any other route it is about the HTTP request itself (a cookie or URL hapi cannot read).
    const code =
      status === 400 && isImportRoute(request) ? 'import_validation_error' : (BOOM_CODES[status] ?? 'internal_error');
    if (code === 'internal_error')
      o.log('request.internal_error', { path: request.path, error: response.stack ?? response.message });
    const body = { status: 'failed', messages: [message(code)] };
    logFailure(o.log, request, status, body);
    return h.response(body).code(status).header('x-request-id', request.info.id);
  });

  const pool = await ParsePool.create(o.config.parseWorkers, o.threadFormatters ?? [BUILTIN_FORMATTER_MODULE]);
  // The verdict back (lib/ci/verdict.ts) hears of every completed import; report links need an
  // absolute base, the public URL or else the address the server listens on.
  const verdicts = verdictSender({
    store: o.store,
    providers: ciProviders,
    box: secretBox,
    log: o.log,
    publicBase: () => o.config.publicUrl ?? server.info.uri.replace('0.0.0.0', '127.0.0.1'),
  });
  const retention = retentionRunner({ store: o.store, log: o.log });
  // Notifications hear of every import's end, completed or failed (lib/notify/sender.ts).
  const guard = addressGuard(o.config.notify);
  const notifications = new NotificationSender({
    store: o.store,
    box: secretBox,
    config: o.config.notify,
    guard,
    log: o.log,
    publicBase: () => o.config.publicUrl ?? server.info.uri.replace('0.0.0.0', '127.0.0.1'),
    ...(o.mailCa ? { mailCa: o.mailCa } : {}),
  });
  const saving = { store: o.store, box: secretBox, guard, smtp: o.config.notify.smtp !== null };
  const { deps, queue } = createImports({
    store: o.store,
    registry,
    config: o.config,
    tmpDir,
    log: o.log,
    pool,
    onCompleted: (done) => {
      verdicts.completed(done);
      retention.profileChanged(done.profileId);
    },
    onEnded: (ended) => notifications.ended(ended),
  });
  await server.register([
    { plugin: securityHeadersPlugin, options: { publicUrl: o.config.publicUrl } },
    { plugin: lingerPlugin, options: {} },
    { plugin: authPlugin, options: { store: o.store, maxFailuresPerMinute: o.config.limits.maxKeyFailuresPerMinute } },
    { plugin: importPlugin, options: deps },
    { plugin: readPlugin, options: { store: o.store, registry, publicUrl: o.config.publicUrl } },
    { plugin: managePlugin, options: { store: o.store } },
    { plugin: ciPlugin, options: { store: o.store, providers: ciProviders, box: secretBox } },
    { plugin: retentionPlugin, options: { store: o.store, runner: retention } },
    { plugin: notificationsPlugin, options: { saving, sender: notifications } },
    { plugin: healthPlugin, options: { store: o.store } },
    { plugin: uploadClientPlugin, options: { log: o.log } },
    { plugin: pageApiPlugin, options: { store: o.store, registry, publicUrl: o.config.publicUrl } },
    {
      plugin: webPlugin,
      options: {
        store: o.store,
        registry,
        publicUrl: o.config.publicUrl,
        importDeps: deps,
        signinFailuresPerMinute: o.config.limits.maxKeyFailuresPerMinute,
        log: o.log,
        ci: { providers: ciProviders, box: secretBox },
        retention,
        notify: { saving, sender: notifications },
      },
    },
    { plugin: openapiPlugin, options: { log: o.log } },
  ]);

  let sweeper: NodeJS.Timeout | null = null;
  const sweep = async (now = new Date()): Promise<number> => {
    // No request lives longer than the request timeout, so an older unfinished import is dead.
    const cutoff = new Date(now.getTime() - o.config.limits.requestTimeoutMs - 60_000).toISOString();
    let ended = 0;
    try {
      ended = await o.store.imports.failStale(cutoff, message('import_interrupted'));
      if (ended > 0) o.log('imports.swept', { ended });
    } catch (e) {
      o.log('imports.sweep_failed', { error: (e as Error).message });
    }
    // After the stale imports: a profile deletion waits for its imports to end.
    try {
      const finished = await o.store.resumeDeletions();
      if (finished > 0) o.log('deletions.resumed', { finished });
    } catch (e) {
      o.log('deletions.resume_failed', { error: (e as Error).message });
    }
    // Queued only: the passes run beside the server, each bounded.
    try {
      await retention.sweep(now);
    } catch (e) {
      o.log('retention.sweep_failed', { error: (e as Error).message });
    }
    return ended;
  };

  return {
    server,
    registry,
    config: o.config,
    queue,
    pool,
    verdicts,
    retention,
    notifications,
    sweep,
    async start() {
      // A link's token cannot be opened without the key: refuse to run rather than fail every CI call.
      const links = secretBox ? 0 : await o.store.ciLinks.count();
      if (links > 0)
        throw new Error(
          `TALLY_SECRET_KEY is not set, but ${links} profile(s) have a CI link whose token it encrypted; ` +
            'set it to the key those links were saved with (README "CI links").',
        );
      // Webhook URLs are sealed with the same key: their deliveries would all fail without it.
      const webhooks = secretBox ? 0 : await o.store.notificationRules.countSealed();
      if (webhooks > 0)
        throw new Error(
          `TALLY_SECRET_KEY is not set, but ${webhooks} notification rule(s) have a webhook URL it encrypted; ` +
            'set it to the key those rules were saved with (README "Notifications").',
        );
      // Spool files of a process that died are no one's: clear them at start.
      await rm(tmpDir, { recursive: true, force: true });
      await mkdir(tmpDir, { recursive: true });
      await pool.warm();
      try {
        await server.start();
      } catch (e) {
        // A server that did not start never stops: its parse workers must not keep the process up.
        await pool.close();
        throw e;
      }
      await sweep();
      sweeper = setInterval(() => void sweep(), SWEEP_EVERY_MS).unref();
      queue.start();
      notifications.start();
      const { listening, urls } = addressesOf(server, o.config.publicUrl);
      o.log('server.started', { listening, urls, store: o.store.kind, data_dir: o.config.dataDir });
    },
    async stop() {
      if (sweeper) clearInterval(sweeper);
      // No new connections; in-flight requests get the grace period, then their connections close
      // (an upload cut off this way ends its import `failed` with upload_aborted).
      await server.stop({ timeout: o.config.shutdownGraceMs });
      await Promise.allSettled([...deps.inflight]);
      await queue.stop();
      await retention.stop();
      await verdicts.idle();
      await notifications.stop();
      await pool.close();
    },
    url: () => server.info.uri.replace('0.0.0.0', '127.0.0.1'),
  };
}
