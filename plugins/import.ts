/**
 * The import routes of SPEC part 4. The payload is a raw stream (never parsed or held by hapi);
 * the import run (lib/import) streams it through its stages and answers once finalize is done.
 */
import type { Plugin, Request, ResponseObject, ResponseToolkit } from '@hapi/hapi';
import type { Readable } from 'node:stream';
import { runImport, type ImportDeps, type ImportRoute } from '../lib/import/index.js';
import { accountOf, baseUrl, profileFor } from './profiles.js';
import { fault } from './replies.js';
import { ConcurrencyLimiter } from '../lib/limits/rate.js';

const BASE = '/api/v2/profile/{profile_id}';
const PATHS: { path: string; route: ImportRoute }[] = [
  { path: `${BASE}/import/{formatter}`, route: 'import/{formatter}' },
  { path: `${BASE}/import`, route: 'import' },
  { path: `${BASE}/report/import`, route: 'report/import' },
  // Older clients post a raw Cucumber JSON body here.
  { path: `${BASE}/testresult`, route: 'testresult' },
];

// One limiter per Tally: the import routes and the web upload form count against the same limit.
const limiters = new WeakMap<ImportDeps, ConcurrencyLimiter>();

function limiterOf(deps: ImportDeps): ConcurrencyLimiter {
  let limiter = limiters.get(deps);
  if (!limiter) {
    limiter = new ConcurrencyLimiter(deps.config.limits.maxConcurrentImportsPerAccount);
    limiters.set(deps, limiter);
  }
  return limiter;
}

/**
 * Runs one import from a request whose payload is a raw stream, for any route that authenticated
 * the account (API key, or a web session): profile check, the per-account limit, the import, the answer.
 */
export async function serveImport(
  deps: ImportDeps,
  request: Request,
  h: ResponseToolkit,
  o: { profileId: string; route: ImportRoute; formatterKey: string | null; query: URLSearchParams },
): Promise<ResponseObject> {
  const perAccount = limiterOf(deps);
  // Listen for the client going away first: it may leave while the profile is looked up.
  const controller = new AbortController();
  const onClose = (): void => {
    if (!request.raw.res.writableEnded) controller.abort();
  };
  request.raw.req.once('aborted', onClose);
  request.raw.res.once('close', onClose);
  if (request.raw.req.destroyed || request.raw.res.destroyed) controller.abort();
  try {
    const profile = await profileFor(deps.store, request, h, o.profileId);
    if (!('accountId' in profile)) return profile;
    const release = perAccount.acquire(profile.accountId);
    if (!release)
      return fault(
        h,
        'too_many_imports',
        `The limit is ${deps.config.limits.maxConcurrentImportsPerAccount} (TALLY_MAX_CONCURRENT_IMPORTS).`,
      ).header('retry-after', '5');
    try {
      const running = runImport(deps, {
        profile,
        accountId: accountOf(request),
        route: o.route,
        formatterKey: o.formatterKey,
        query: o.query,
        contentType: request.headers['content-type'] as string | undefined,
        contentLength: request.headers['content-length'] ? Number(request.headers['content-length']) : null,
        body: request.payload as Readable,
        baseUrl: baseUrl(request, deps.config.publicUrl),
        signal: controller.signal,
      });
      deps.inflight.add(running);
      const answer = await running.finally(() => deps.inflight.delete(running));
      // hapi closes the connection itself when the body was not read to its end.
      return h.response(answer.body).code(answer.status);
    } finally {
      release();
    }
  } finally {
    request.raw.req.off('aborted', onClose);
    request.raw.res.off('close', onClose);
  }
}

export const importPlugin: Plugin<ImportDeps> = {
  name: 'tally-import',
  register(server, deps) {
    for (const { path, route } of PATHS) {
      server.route({
        method: 'POST',
        path,
        options: {
          auth: 'api-key',
          // Never buffered: the stream graph reads it and enforces the size limit itself (Content-Length
          // up front, chunked bodies as they arrive). hapi's own check would first drain the whole body.
          payload: { output: 'stream', parse: false, maxBytes: Number.MAX_SAFE_INTEGER, timeout: false },
          timeout: { server: false, socket: false },
        },
        handler: (request: Request, h: ResponseToolkit) => {
          const params = request.params as { profile_id: string; formatter?: string };
          // hapi has decoded the path segment already; decoding it twice failed on a literal `%` (500).
          const formatterKey =
            route === 'testresult'
              ? 'cucumber'
              : route === 'import/{formatter}' && params.formatter
                ? params.formatter
                : null;
          return serveImport(deps, request, h, {
            profileId: params.profile_id,
            route: formatterKey === null && route === 'import/{formatter}' ? 'import' : route,
            formatterKey,
            query: new URL(request.raw.req.url ?? '/', 'http://x').searchParams,
          });
        },
      });
      // SPEC 4.5 rule 1: any other method gets invalid_request_method.
      server.route({
        method: '*',
        path,
        options: { auth: false, payload: { parse: false, output: 'stream' } },
        handler: (_r, h) => fault(h, 'invalid_request_method', 'Use POST.').header('allow', 'POST'),
      });
    }
  },
};
