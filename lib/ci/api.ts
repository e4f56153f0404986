/**
 * The public CI provider API: the one module a provider in `ci-providers/` may import.
 *
 * A provider is a plain object (`satisfies CiProvider`) that speaks one CI system's HTTP API for a
 * profile's link: start the linked job, list its recent runs, read a run's log a bounded chunk at a
 * time, list its schedules, and send a verdict back (commit status, one comment per pull request).
 * Tally owns the link, the token's storage and the pages; the provider owns only the requests. It
 * is given `fetch` rather than reaching for the global one so a test, a proxy or a time limit can
 * sit in between without the provider knowing.
 */

/** What a profile's CI link says, with the token already decrypted for this one call. */
export interface CiTarget {
  /** The CI system's base URL, without a trailing slash (e.g. `https://gitea.example.org`). */
  url: string;
  /** Repository or project, as the provider names it (`owner/name`, a GitLab path or id, a builder). */
  repository: string;
  branch: string;
  /** Job, workflow file or builder the link starts. */
  job: string;
  token: string;
}

export type CiFetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** What every provider method is given. */
export interface CiCall {
  target: CiTarget;
  fetch: CiFetch;
  signal?: AbortSignal;
}

export type CiRunStatus = 'queued' | 'running' | 'passed' | 'failed' | 'cancelled' | 'unknown';

export interface CiRun {
  /** The provider's own id of the run, opaque to Tally, given back to `readLog`. */
  id: string;
  /** The run number people see, when the provider has one. */
  number: number | null;
  status: CiRunStatus;
  branch: string | null;
  commit: string | null;
  /** A link to the run in the provider's own interface. */
  webUrl: string | null;
  /** ISO 8601. */
  startedAt: string | null;
  /** Milliseconds, once the run has ended. */
  durationMs: number | null;
}

export interface CiLogChunk {
  /** At most `maxBytes` of the log from the offset asked for, as text (ANSI escapes left in). */
  text: string;
  /** The offset to ask for next; equal to the one asked for when nothing new came. */
  nextOffset: number;
  /** The run has ended and the log has no more to give. */
  complete: boolean;
}

export interface CiSchedule {
  id: string;
  /**
   * The cron expression as the provider shows it; null when the provider's API does not tell when
   * the schedule fires (Buildbot keeps that in its master.cfg), so a page says so instead of a cron.
   */
  cron: string | null;
  branch: string | null;
  /** ISO 8601, when the provider tells it. */
  nextRunAt: string | null;
  description: string | null;
}

export type CiVerdict = 'passed' | 'failed' | 'pending' | 'error';

export interface CiCommitStatus {
  commit: string;
  verdict: CiVerdict;
  /** One line: counts, e.g. "120 passed, 2 failed". */
  description: string;
  /** A link to the report. */
  targetUrl: string;
  /** The name the status is shown under (e.g. "tally"). */
  context: string;
}

export interface CiComment {
  /** Pull or merge request number. */
  request: number;
  /** A marker the provider finds its earlier comment by, so a second verdict edits it in place. */
  marker: string;
  body: string;
}

/** The largest log chunk a provider hands back at once; a page reads a long log in many chunks. */
export const MAX_LOG_CHUNK_BYTES = 256 * 1024;

export interface CiProvider {
  /** Lower-case letters, digits and dashes: the `provider` of a link. */
  key: string;
  title: string;
  /** Where its API is documented: the set-up and the token scopes are read from there. */
  docs: string;
  startRun(call: CiCall): Promise<CiRun>;
  listRuns(call: CiCall, options: { limit: number }): Promise<CiRun[]>;
  readLog(call: CiCall, run: string, fromOffset: number, maxBytes: number): Promise<CiLogChunk>;
  listSchedules(call: CiCall): Promise<CiSchedule[]>;
  /**
   * The verdict back, for providers that host the code (GitHub, Gitea, GitLab). A build server that
   * does not (Jenkins, Buildbot) leaves both out, and the link page says the verdict cannot go there.
   */
  setCommitStatus?(call: CiCall, status: CiCommitStatus): Promise<void>;
  upsertComment?(call: CiCall, comment: CiComment): Promise<void>;
}

export type CiFaultCode = 'ci_bad_token' | 'ci_unknown_job' | 'ci_provider_down' | 'ci_rate_limited';

/**
 * A provider's fault, typed so Tally can answer with a coded message instead of a 500. `detail` is
 * shown to the user: it must never carry the token or a header that holds it.
 */
export class CiFault extends Error {
  readonly code: CiFaultCode;
  /** Seconds to wait, when the provider said (rate limits). */
  readonly retryAfter: number | null;
  constructor(code: CiFaultCode, detail: string, options: { retryAfter?: number | null; cause?: unknown } = {}) {
    super(detail, { cause: options.cause });
    this.name = 'CiFault';
    this.code = code;
    this.retryAfter = options.retryAfter ?? null;
  }
}

export function isCiFault(e: unknown): e is CiFault {
  return e instanceof CiFault;
}

/**
 * The fault an HTTP answer means, or null when it is not one: what every provider would write
 * alike. 401 and 403 are the token (403 with a rate-limit header is a limit, as GitHub and Gitea
 * answer), 404 the job or repository, 429 a limit, 5xx the provider.
 */
export function faultOf(response: Response, what: string): CiFault | null {
  const s = response.status;
  if (s < 400) return null;
  const retry = retryAfterOf(response);
  if (s === 429 || (s === 403 && response.headers.get('x-ratelimit-remaining') === '0'))
    return new CiFault('ci_rate_limited', `${what}: the provider limits requests (HTTP ${s})`, { retryAfter: retry });
  if (s === 401 || s === 403) return new CiFault('ci_bad_token', `${what}: the provider refused the token (HTTP ${s})`);
  if (s === 404) return new CiFault('ci_unknown_job', `${what}: the provider has no such repository or job (HTTP 404)`);
  if (s >= 500) return new CiFault('ci_provider_down', `${what}: the provider failed (HTTP ${s})`);
  return null;
}

function retryAfterOf(response: Response): number | null {
  const raw = response.headers.get('retry-after');
  if (raw === null) return null;
  const n = Number(raw);
  if (Number.isFinite(n) && n >= 0) return Math.ceil(n);
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** A request that never reached an answer (refused, reset, timed out) is the provider being down. */
export async function request(call: CiCall, input: string, init: RequestInit, what: string): Promise<Response> {
  let response: Response;
  try {
    response = await call.fetch(input, { ...init, signal: init.signal ?? call.signal });
  } catch (e) {
    if (call.signal?.aborted) throw e;
    throw new CiFault('ci_provider_down', `${what}: the provider did not answer`, { cause: e });
  }
  const fault = faultOf(response, what);
  if (fault) {
    await response.body?.cancel();
    throw fault;
  }
  return response;
}
