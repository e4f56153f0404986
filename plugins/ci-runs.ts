/**
 * What a profile's CI link does through its provider: start a run, list the recent runs (each with
 * the report it produced, when one came here), read a run's log a chunk at a time, list the
 * schedules. Every provider call goes through `callForLink` (lib/ci/call.ts), so the token is opened
 * for that call only and each request has its time limit; a provider's fault comes back as its code,
 * for the API and the pages to answer with, never a 500. The JSON routes
 * (`/api/v2/profiles/{id}/ci/runs`, `.../runs/{run}/log`, `.../schedules`) are registered by the CI
 * plugin (plugins/ci.ts); the pages (plugins/web/pages/ci-runs.ts) use the same functions.
 */
import type { Request, ResponseObject, ResponseToolkit, Server } from '@hapi/hapi';
import Joi from 'joi';
import { isCiFault, MAX_LOG_CHUNK_BYTES, type CiLogChunk, type CiRun, type CiSchedule } from '../lib/ci/api.js';
import { callForLink, type LinkCall } from '../lib/ci/call.js';
import type { CiRegistry } from '../lib/ci/registry.js';
import type { SecretBox } from '../lib/ci/secret-box.js';
import type { MessageCode } from '../lib/messages.js';
import type { Store } from '../lib/store/store.js';
import type { Profile, Report } from '../lib/store/types.js';
import { profileFor } from './profiles.js';
import { queryFailAction } from './query-fault.js';
import { fault } from './replies.js';

export interface CiRunsDeps {
  store: Store;
  providers: CiRegistry;
  box: SecretBox | null;
}

/** A link that cannot be used, or a provider's fault: a code and what the provider said. */
export interface CiProblem {
  code: Extract<
    MessageCode,
    | 'ci_link_not_found'
    | 'ci_secret_key_missing'
    | 'ci_bad_token'
    | 'ci_unknown_job'
    | 'ci_provider_down'
    | 'ci_rate_limited'
  >;
  detail?: string;
  /** Seconds, for ci_rate_limited when the provider said. */
  retryAfter?: number | null;
}

export type CiOutcome<T> = { ok: T } | { problem: CiProblem };

/** The runs a list may ask for at most. */
export const MAX_RUNS = 50;
/** The newest reports a run list is matched against: enough for the runs shown, bounded. */
export const MATCHED_REPORTS = 200;
/** What a page reads of a log at once. */
export const PAGE_LOG_CHUNK_BYTES = 64 * 1024;

/** Calls the profile's linked provider; a missing link, key or a provider's fault is a problem. */
export async function withLink<T>(
  deps: CiRunsDeps,
  profile: Profile,
  body: (link: LinkCall) => Promise<T>,
): Promise<CiOutcome<T>> {
  const link = await deps.store.ciLinks.get(profile.id);
  if (!link) return { problem: { code: 'ci_link_not_found' } };
  if (!deps.box) return { problem: { code: 'ci_secret_key_missing' } };
  try {
    return { ok: await body(callForLink(link, { providers: deps.providers, box: deps.box })) };
  } catch (e) {
    if (isCiFault(e)) return { problem: { code: e.code, detail: e.message, retryAfter: e.retryAfter } };
    // A time limit cut the call (lib/ci/call.ts): the provider did not answer in time.
    if (e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError'))
      return { problem: { code: 'ci_provider_down', detail: 'the provider did not answer in time' } };
    // Anything else a provider throws is an answer it could not read (not JSON, not the shape its
    // API documents): the provider failing, as far as a person can act on it. Its text is not shown,
    // as it may quote the answer.
    return { problem: { code: 'ci_provider_down', detail: "the provider's answer could not be read" } };
  }
}

/** A run with the number of the report it produced, when one of the newest reports came from it. */
export interface MatchedRun {
  run: CiRun;
  report: number | null;
}

/**
 * Which report came from which run, by the report's CI context: the build URL when both have one,
 * else the build number with the same commit (or, when either lacks a commit, the same branch).
 * The newest matching report wins.
 */
export function matchReports(runs: readonly CiRun[], reports: readonly Report[]): MatchedRun[] {
  return runs.map((run) => {
    const hit = reports.find((r) => {
      const ci = r.ci;
      if (!ci) return false;
      if (run.webUrl && ci.buildUrl) return ci.buildUrl === run.webUrl;
      if (run.number === null || ci.buildNumber !== String(run.number)) return false;
      if (run.commit && ci.commit) return run.commit === ci.commit;
      return run.branch !== null && run.branch === ci.branch;
    });
    return { run, report: hit ? hit.number : null };
  });
}

export async function recentRuns(deps: CiRunsDeps, profile: Profile, limit: number): Promise<CiOutcome<MatchedRun[]>> {
  const runs = await withLink(deps, profile, ({ provider, call }) => provider.listRuns(call, { limit }));
  if ('problem' in runs) return runs;
  const reports = await deps.store.reports.list(profile.id, { limit: MATCHED_REPORTS });
  return { ok: matchReports(runs.ok, reports) };
}

export const startRun = (deps: CiRunsDeps, profile: Profile): Promise<CiOutcome<CiRun>> =>
  withLink(deps, profile, ({ provider, call }) => provider.startRun(call));

export const readLog = (
  deps: CiRunsDeps,
  profile: Profile,
  run: string,
  offset: number,
  maxBytes: number,
): Promise<CiOutcome<CiLogChunk>> =>
  // The chunk as the provider gives it: its offsets are its own (bytes for most, lines for some), so
  // Tally cannot cut it; the kit (lib/ci/check.ts) holds every provider to the size asked.
  withLink(deps, profile, ({ provider, call }) =>
    provider.readLog(call, run, offset, Math.min(maxBytes, MAX_LOG_CHUNK_BYTES)),
  );

export const schedules = (deps: CiRunsDeps, profile: Profile): Promise<CiOutcome<CiSchedule[]>> =>
  withLink(deps, profile, ({ provider, call }) => provider.listSchedules(call));

export function runJson(m: MatchedRun | CiRun) {
  const run = 'run' in m ? m.run : m;
  return {
    id: run.id,
    number: run.number,
    status: run.status,
    branch: run.branch,
    commit: run.commit,
    web_url: run.webUrl,
    started_at: run.startedAt,
    duration_ms: run.durationMs,
    ...('run' in m ? { report_id: m.report } : {}),
  };
}

export const scheduleJson = (s: CiSchedule) => ({
  id: s.id,
  cron: s.cron,
  branch: s.branch,
  next_run_at: s.nextRunAt,
  description: s.description,
});

/** A problem as the API's answer: its coded message, Retry-After on a rate limit. */
export function problemReply(h: ResponseToolkit, p: CiProblem): ResponseObject {
  const reply = fault(h, p.code, p.detail);
  return p.code === 'ci_rate_limited' && p.retryAfter != null
    ? reply.header('retry-after', String(p.retryAfter))
    : reply;
}

/** The log query both the API and the page's JSON route take. */
export const LOG_QUERY = Joi.object({
  offset: Joi.number()
    .integer()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .default(0)
    .description("where to read from: 0, or a chunk's next_offset"),
  max_bytes: Joi.number()
    .integer()
    .min(1)
    .default(PAGE_LOG_CHUNK_BYTES)
    .description(`the most bytes to read (an integer of at least 1; more than ${MAX_LOG_CHUNK_BYTES} reads that many)`),
});

/** A run's id in a path: the provider's own, opaque, short. */
export const RUN_PARAMS = Joi.object({
  id: Joi.string().required(),
  run: Joi.string()
    .min(1)
    .max(200)
    .pattern(/^[\w.:@-]+$/)
    .required(),
});

export function registerRunRoutes(server: Server, deps: CiRunsDeps): void {
  const base = '/api/v2/profiles/{id}/ci';
  const profileOf = (request: Request, h: ResponseToolkit) =>
    profileFor(deps.store, request, h, (request.params as { id: string }).id);
  const paramsFail = (_request: Request, h: ResponseToolkit) =>
    fault(h, 'ci_unknown_job', 'a run id is letters, digits and . _ : @ - only, at most 200').takeover();

  server.route({
    method: 'POST',
    path: `${base}/runs`,
    options: { auth: 'api-key' },
    handler: async (request, h) => {
      const profile = await profileOf(request, h);
      if (!('accountId' in profile)) return profile;
      const run = await startRun(deps, profile);
      return 'problem' in run ? problemReply(h, run.problem) : h.response(runJson(run.ok)).code(201);
    },
  });

  server.route({
    method: 'GET',
    path: `${base}/runs`,
    options: {
      auth: 'api-key',
      validate: {
        query: Joi.object({ limit: Joi.number().integer().min(1).max(MAX_RUNS).default(20) }),
        failAction: queryFailAction,
      },
    },
    handler: async (request, h) => {
      const profile = await profileOf(request, h);
      if (!('accountId' in profile)) return profile;
      const runs = await recentRuns(deps, profile, (request.query as { limit: number }).limit);
      return 'problem' in runs
        ? problemReply(h, runs.problem)
        : { profile_id: profile.number, runs: runs.ok.map(runJson) };
    },
  });

  server.route({
    method: 'GET',
    path: `${base}/runs/{run}/log`,
    options: {
      auth: 'api-key',
      validate: { params: RUN_PARAMS, query: LOG_QUERY, failAction: queryOrParamsFail(paramsFail) },
    },
    handler: async (request, h) => {
      const profile = await profileOf(request, h);
      if (!('accountId' in profile)) return profile;
      const q = request.query as { offset: number; max_bytes: number };
      const chunk = await readLog(deps, profile, (request.params as { run: string }).run, q.offset, q.max_bytes);
      if ('problem' in chunk) return problemReply(h, chunk.problem);
      return { text: chunk.ok.text, next_offset: chunk.ok.nextOffset, complete: chunk.ok.complete };
    },
  });

  server.route({
    method: 'GET',
    path: `${base}/schedules`,
    options: { auth: 'api-key' },
    handler: async (request, h) => {
      const profile = await profileOf(request, h);
      if (!('accountId' in profile)) return profile;
      const list = await schedules(deps, profile);
      return 'problem' in list
        ? problemReply(h, list.problem)
        : { profile_id: profile.number, schedules: list.ok.map(scheduleJson) };
    },
  });
}

/** A validation failure of the params is the run's, of the query `invalid_query` as elsewhere. */
export function queryOrParamsFail(paramsFail: (request: Request, h: ResponseToolkit) => ResponseObject | symbol) {
  return (request: Request, h: ResponseToolkit, err?: Error) =>
    (err as (Error & { output?: { payload?: { validation?: { source?: string } } } }) | undefined)?.output?.payload
      ?.validation?.source === 'params'
      ? paramsFail(request, h)
      : queryFailAction(request, h, err);
}
