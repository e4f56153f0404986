/**
 * GitLab CI: pipelines, the named job's trace, pipeline schedules, commit statuses and merge request
 * notes, through the REST API v4 with a `PRIVATE-TOKEN`. A link's `repository` is the project's path
 * (`group/sub/project`) or its numeric id, `branch` the ref pipelines run on, `job` the name of the
 * pipeline job whose log Tally shows. The requests, with the documentation pages they follow, are in
 * README.md beside this file.
 */
import {
  CiFault,
  isCiFault,
  MAX_LOG_CHUNK_BYTES,
  request,
  type CiCall,
  type CiLogChunk,
  type CiProvider,
  type CiRun,
  type CiRunStatus,
  type CiSchedule,
  type CiVerdict,
} from '../../lib/ci/api.js';

/** The project as the API addresses it: a numeric id as it is, a path URL-encoded into one segment. */
export function projectPath(repository: string): string {
  const r = repository.trim().replace(/^\/+|\/+$/g, '');
  if (!r) throw new CiFault('ci_unknown_job', 'the repository must be a GitLab project path or id');
  return `/projects/${/^\d+$/.test(r) ? r : encodeURIComponent(r)}`;
}

const apiRoot = (url: string): string => `${url.replace(/\/+$/, '')}/api/v4`;

/** Pages read at most when following `x-next-page`, so a runaway answer cannot loop for ever. */
const MAX_PAGES = 50;

interface ApiOptions {
  body?: unknown;
  /** Answers other than 2xx the caller handles itself (their body is left unread). */
  allow?: (status: number) => boolean;
  /** The media type asked for: JSON but for the trace, which is plain text. */
  accept?: string;
  /** The caller follows a redirect itself (the trace); any other is refused. */
  redirects?: boolean;
}

async function api(call: CiCall, method: string, path: string, o: ApiOptions = {}): Promise<Response> {
  const headers: Record<string, string> = {
    accept: o.accept ?? 'application/json',
    'private-token': call.target.token,
  };
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  const init: RequestInit = {
    method,
    headers,
    ...(o.body === undefined ? {} : { body: JSON.stringify(o.body) }),
    // fetch would follow a redirect to any host with PRIVATE-TOKEN still on it (only Authorization
    // is dropped across origins): no redirect is followed blindly.
    redirect: 'manual',
  };
  // The route names the call in a fault: never the query, never the token.
  const what = `${method} ${path.split('?')[0]}`;
  const r = await watched(call, `${apiRoot(call.target.url)}${path}`, init, what);
  if (r.ok || o.allow?.(r.status)) return r;
  if (r.status >= 300 && r.status < 400) {
    if (o.redirects) return r;
    await r.body?.cancel();
    throw movedFault(r, what);
  }
  throw await refusal(r, what, call.target.token);
}

/** A redirect of an API call: most often `http://` answered by `https://`, so the link's URL is off. */
function movedFault(r: Response, what: string): CiFault {
  let where = '';
  try {
    where = new URL(r.headers.get('location') ?? '', r.url || undefined).origin;
  } catch {
    // No usable Location: say only that it moved.
  }
  const to = where && where !== 'null' ? ` to ${where}` : '';
  return new CiFault(
    'ci_provider_down',
    `${what}: GitLab answered with a redirect${to} (HTTP ${r.status}); give that address as the link's URL`,
  );
}

/**
 * `request()` with GitLab's own rate-limit header read too: a 429 names the second the quota comes
 * back in `RateLimit-Reset` (Unix time), and not every limit sends `Retry-After` beside it.
 */
async function watched(call: CiCall, url: string, init: RequestInit, what: string): Promise<Response> {
  let last: Response | undefined;
  const seen: CiCall = { ...call, fetch: async (input, i) => (last = await call.fetch(input, i)) };
  try {
    return await request(seen, url, init, what);
  } catch (e) {
    if (!isCiFault(e) || e.code !== 'ci_rate_limited' || e.retryAfter !== null || !last) throw e;
    const reset = Number(last.headers.get('ratelimit-reset'));
    if (!Number.isFinite(reset) || reset <= 0) throw e;
    throw new CiFault('ci_rate_limited', e.message, {
      retryAfter: Math.max(0, Math.ceil(reset - Date.now() / 1000)),
      cause: e,
    });
  }
}

/**
 * A 4xx that is not the token, the project or a limit: GitLab refused the request itself (a ref that
 * does not exist, a pipeline its rules leave empty). Its message says why, and is kept short.
 */
async function refusal(r: Response, what: string, token: string): Promise<CiFault> {
  const text = (await r.text().catch(() => '')).slice(0, 2000);
  let message: unknown = text;
  try {
    const json = JSON.parse(text) as { message?: unknown; error?: unknown };
    message = json.message ?? json.error;
  } catch {
    // Not JSON: the text as it came.
  }
  const said = (typeof message === 'string' ? message : JSON.stringify(message ?? '')).slice(0, 300);
  const detail = `${what}: GitLab refused the request (HTTP ${r.status})${said ? `: ${said}` : ''}`;
  return new CiFault('ci_unknown_job', token ? detail.split(token).join('[token]') : detail);
}

/** Every item of a list, page after page as `x-next-page` names them (empty on the last page). */
async function* listed<T>(call: CiCall, path: string): AsyncGenerator<T> {
  let page = '';
  for (let n = 0; n < MAX_PAGES; n++) {
    const r = await api(call, 'GET', page ? `${path}&page=${encodeURIComponent(page)}` : path);
    const items = (await r.json()) as T[];
    if (!Array.isArray(items)) return;
    yield* items;
    page = r.headers.get('x-next-page') ?? '';
    if (!page) return;
  }
}

interface PipelineJson {
  id: number;
  iid?: number;
  status?: string;
  ref?: string | null;
  sha?: string | null;
  web_url?: string | null;
  created_at?: string | null;
  updated_at?: string | null;
  started_at?: string | null;
  duration?: number | null;
}

/** GitLab's pipeline statuses (the `status` list of "List project pipelines") as Tally's. */
const STATUSES: Record<string, CiRunStatus> = {
  created: 'queued',
  waiting_for_resource: 'queued',
  preparing: 'queued',
  pending: 'queued',
  scheduled: 'queued',
  // Waiting for someone to play a manual job: not running, not ended.
  manual: 'queued',
  running: 'running',
  // Its jobs are still being stopped; the log is not final yet.
  canceling: 'running',
  success: 'passed',
  failed: 'failed',
  canceled: 'cancelled',
  skipped: 'cancelled',
};

export const statusOf = (status: string | undefined): CiRunStatus =>
  (status !== undefined && Object.hasOwn(STATUSES, status) ? STATUSES[status] : undefined) ?? 'unknown';

export function toRun(p: PipelineJson): CiRun {
  const status = statusOf(p.status);
  const ended = status === 'passed' || status === 'failed' || status === 'cancelled';
  const started = p.started_at ?? p.created_at ?? null;
  // A single pipeline carries `duration` (seconds); the list does not, so there it is the time from
  // creation to the last update, queueing included.
  let duration = typeof p.duration === 'number' ? p.duration * 1000 : NaN;
  if (!Number.isFinite(duration) && ended && p.created_at && p.updated_at)
    duration = Date.parse(p.updated_at) - Date.parse(p.created_at);
  return {
    id: String(p.id),
    number: typeof p.iid === 'number' ? p.iid : null,
    status,
    branch: p.ref ?? null,
    commit: p.sha ?? null,
    webUrl: p.web_url ?? null,
    startedAt: started,
    durationMs: ended && Number.isFinite(duration) && duration >= 0 ? Math.round(duration) : null,
  };
}

interface JobJson {
  id: number;
  name?: string;
  status?: string;
}

/** The newest pipelines searched for the link's job before it is called unknown. */
const JOB_SEARCH_PIPELINES = 3;

/** The link's job in a pipeline (its latest attempt: retried jobs are not listed), or null. */
async function jobOf(call: CiCall, pipeline: string): Promise<JobJson | null> {
  const path = `${projectPath(call.target.repository)}/pipelines/${pipeline}/jobs?per_page=100`;
  for await (const job of listed<JobJson>(call, path)) if (job.name === call.target.job) return job;
  return null;
}

async function listRuns(call: CiCall, { limit }: { limit: number }): Promise<CiRun[]> {
  const per = Math.max(1, Math.min(limit, 100));
  const query = `ref=${encodeURIComponent(call.target.branch)}&per_page=${per}`;
  const r = await api(call, 'GET', `${projectPath(call.target.repository)}/pipelines?${query}`);
  const pipelines = ((await r.json()) as PipelineJson[]).slice(0, limit);
  // A pipeline names no job, so a job name that is wrong would only show when a log is asked for:
  // the newest pipelines are searched for it, and a link whose job none of them has is told so now.
  const recent = pipelines.slice(0, JOB_SEARCH_PIPELINES);
  if (recent.length > 0) {
    let found = false;
    for (const p of recent) if ((found = (await jobOf(call, String(p.id))) !== null)) break;
    if (!found)
      throw new CiFault(
        'ci_unknown_job',
        `no job named ${JSON.stringify(call.target.job)} in the newest pipelines of ${call.target.branch}`,
      );
  }
  return pipelines.map(toRun);
}

/** Job statuses before the job has run: no trace yet. */
const NOT_STARTED = new Set(['created', 'pending', 'waiting_for_resource', 'preparing', 'scheduled', 'manual']);
/** Job statuses after which the trace does not grow. */
const FINISHED = new Set(['success', 'failed', 'canceled', 'skipped']);

async function readLog(call: CiCall, run: string, fromOffset: number, maxBytes: number): Promise<CiLogChunk> {
  if (!/^\d+$/.test(run)) throw new CiFault('ci_unknown_job', `${JSON.stringify(run)} is not a GitLab pipeline id`);
  const from = Math.max(0, Math.floor(fromOffset));
  const size = Math.max(1, Math.min(maxBytes, MAX_LOG_CHUNK_BYTES));
  const job = await jobOf(call, run);
  if (!job) throw new CiFault('ci_unknown_job', `pipeline ${run} has no job named ${JSON.stringify(call.target.job)}`);
  const finished = FINISHED.has(job.status ?? '');
  const nothing = { text: '', nextOffset: from, complete: finished };
  if (NOT_STARTED.has(job.status ?? '') || job.status === 'skipped') return nothing;
  const r = await trace(call, job.id);
  if (!r) return nothing;
  const { bytes, ended } = await rangeOf(r, from, size);
  const whole = finished && ended;
  // A running job's trace may end inside a character: keep its first bytes for the next chunk.
  const kept = whole ? bytes : trimPartial(bytes);
  return { text: new TextDecoder().decode(kept), nextOffset: from + kept.length, complete: whole };
}

/**
 * The job's trace, with redirects followed by hand: GitLab may send the log from object storage,
 * and the token goes only to GitLab's own origin, never to the place a redirect names.
 */
async function trace(call: CiCall, jobId: number): Promise<Response | null> {
  const path = `${projectPath(call.target.repository)}/jobs/${jobId}/trace`;
  let r: Response;
  try {
    r = await api(call, 'GET', path, { accept: 'text/plain', redirects: true });
  } catch (e) {
    // "404: Job not found or no log file": the job has not written one yet, or it was erased.
    if (isCiFault(e) && e.code === 'ci_unknown_job') return null;
    throw e;
  }
  const origin = new URL(apiRoot(call.target.url)).origin;
  let at = new URL(`${apiRoot(call.target.url)}${path}`);
  for (let hops = 0; r.status >= 300 && r.status < 400; hops++) {
    const location = r.headers.get('location');
    await r.body?.cancel();
    if (!location || hops >= 5) throw new CiFault('ci_provider_down', `GET ${path}: GitLab redirected without end`);
    at = new URL(location, at);
    const headers: Record<string, string> = { accept: 'text/plain' };
    if (at.origin === origin) headers['private-token'] = call.target.token;
    try {
      r = await request(call, at.href, { method: 'GET', headers, redirect: 'manual' }, `GET ${path} (redirected)`);
    } catch (e) {
      if (isCiFault(e) && e.code === 'ci_unknown_job') return null;
      throw e;
    }
  }
  if (!r.ok) throw await refusal(r, `GET ${path}`, call.target.token);
  return r;
}

async function listSchedules(call: CiCall): Promise<CiSchedule[]> {
  const schedules: CiSchedule[] = [];
  const path = `${projectPath(call.target.repository)}/pipeline_schedules?per_page=100`;
  for await (const s of listed<{
    id: number;
    cron?: string;
    ref?: string | null;
    next_run_at?: string | null;
    description?: string | null;
    active?: boolean;
  }>(call, path)) {
    // An inactive schedule starts nothing; its `next_run_at` would say otherwise.
    if (s.active === false || !s.cron) continue;
    schedules.push({
      id: String(s.id),
      cron: s.cron,
      branch: s.ref ? s.ref.replace(/^refs\/heads\//, '') : null,
      nextRunAt: s.next_run_at ?? null,
      description: s.description || null,
    });
  }
  return schedules;
}

/** GitLab's commit status states have no "error": a run that could not judge is a failure there. */
export const stateOf = (verdict: CiVerdict): string =>
  verdict === 'passed' ? 'success' : verdict === 'pending' ? 'pending' : 'failed';

/** The marker line a comment carries so the next verdict finds and edits it. */
export const markerOf = (marker: string): string => `<!-- ${marker} -->`;

export const gitlab = {
  key: 'gitlab',
  title: 'GitLab CI',
  docs: 'https://docs.gitlab.com/api/pipelines/',

  async startRun(call) {
    const ref = encodeURIComponent(call.target.branch);
    const r = await api(call, 'POST', `${projectPath(call.target.repository)}/pipeline?ref=${ref}`);
    return toRun((await r.json()) as PipelineJson);
  },

  listRuns,
  readLog,
  listSchedules,

  async setCommitStatus(call, status) {
    const path = `${projectPath(call.target.repository)}/statuses/${encodeURIComponent(status.commit)}`;
    const body = {
      state: stateOf(status.verdict),
      name: status.context,
      target_url: status.targetUrl,
      description: status.description.slice(0, 255),
    };
    const r = await api(call, 'POST', path, { body, allow: (s) => s === 400 });
    if (r.ok) return;
    // GitLab answers 400 "Cannot transition status via :enqueue from :pending" when a status is set
    // to the state it already has: the commit shows what was asked, so that is not a fault.
    const fault = await refusal(r, `POST ${path}`, call.target.token);
    if (!/cannot transition status/i.test(fault.message)) throw fault;
  },

  async upsertComment(call, comment) {
    const base = `${projectPath(call.target.repository)}/merge_requests/${comment.request}/notes`;
    const mark = markerOf(comment.marker);
    const body = `${comment.body}\n\n${mark}`;
    let mine: number | null = null;
    for await (const note of listed<{ id: number; body?: string; system?: boolean }>(call, `${base}?per_page=100`))
      if (!note.system && note.body?.includes(mark)) {
        mine = note.id;
        break;
      }
    if (mine !== null) await api(call, 'PUT', `${base}/${mine}`, { body: { body } });
    else await api(call, 'POST', base, { body: { body } });
  },
} satisfies CiProvider;

/**
 * The bytes [from, from + size) of an answer's body, read as they stream; the rest is cancelled, so
 * no more than the chunk and one network read are ever held. `ended` says the body had no more.
 */
export async function rangeOf(r: Response, from: number, size: number): Promise<{ bytes: Uint8Array; ended: boolean }> {
  const out = new Uint8Array(size);
  let seen = 0;
  let kept = 0;
  let ended = false;
  let leftover = false;
  const reader = r.body?.getReader();
  if (!reader) return { bytes: out.subarray(0, 0), ended: true };
  try {
    while (kept < size) {
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        break;
      }
      const start = Math.max(0, from - seen);
      if (start < value.length) {
        const part = value.subarray(start, start + (size - kept));
        out.set(part, kept);
        kept += part.length;
        leftover = start + part.length < value.length;
      }
      seen += value.length;
    }
    // Full to the byte: one more read tells whether the body ended exactly here.
    if (!ended && !leftover) ended = (await reader.read()).done;
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return { bytes: out.subarray(0, kept), ended };
}

/** Drops a UTF-8 sequence cut at the chunk's end, so the next chunk starts on a character. */
export function trimPartial(bytes: Uint8Array): Uint8Array {
  const end = bytes.length;
  let back = 0;
  while (end - back - 1 >= 0 && back < 3 && (bytes[end - back - 1]! & 0xc0) === 0x80) back++;
  const lead = bytes[end - back - 1];
  // No lead byte in reach: not a sequence cut here (or not UTF-8); leave it.
  if (lead === undefined || lead < 0xc0) return bytes;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
  return back + 1 < need ? bytes.subarray(0, end - back - 1) : bytes;
}
