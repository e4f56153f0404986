/**
 * GitHub Actions, and Gitea and Forgejo, which serve the same Actions, status and comment API under
 * `/api/v1`. A link's `repository` is `owner/name`, its `job` the workflow file (`tests.yml`).
 * The request shapes, with the documentation pages they follow, are in README.md beside this file.
 */
import {
  CiFault,
  MAX_LOG_CHUNK_BYTES,
  request,
  type CiCall,
  type CiProvider,
  type CiRun,
  type CiRunStatus,
  type CiSchedule,
} from '../../lib/ci/api.js';

/** The API root: api.github.com for github.com, `<url>/api/v1` for Gitea and Forgejo. */
export function apiRoot(url: string): string {
  const u = new URL(url);
  return u.hostname === 'github.com' ? 'https://api.github.com' : `${url.replace(/\/+$/, '')}/api/v1`;
}

const repoPath = (call: CiCall): string => {
  const [owner, name] = call.target.repository.split('/');
  if (!owner || !name) throw new CiFault('ci_unknown_job', 'the repository must be owner/name');
  return `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
};

async function api(call: CiCall, method: string, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = {
    accept: 'application/vnd.github+json',
    authorization: `Bearer ${call.target.token}`,
  };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const init: RequestInit = { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
  // The route's pattern names the call in a fault, never the URL's query or the token.
  return request(call, `${apiRoot(call.target.url)}${path}`, init, `${method} ${path.split('?')[0]}`);
}

interface RunJson {
  id: number;
  run_number?: number;
  status?: string;
  conclusion?: string | null;
  head_branch?: string | null;
  head_sha?: string | null;
  html_url?: string | null;
  path?: string | null;
  run_started_at?: string | null;
  created_at?: string | null;
  updated_at?: string | null;
  /** Gitea's names for the start and end; the zero time (1970) until the run has them. */
  started_at?: string | null;
  completed_at?: string | null;
}

/** A time, or null for none: Gitea says 1970-01-01 for a time not reached yet. */
const timeOf = (t: string | null | undefined): string | null => (t && Date.parse(t) > 0 ? t : null);

function statusOf(r: RunJson): CiRunStatus {
  if (r.status === 'queued' || r.status === 'waiting' || r.status === 'pending' || r.status === 'requested')
    return 'queued';
  if (r.status === 'in_progress' || r.status === 'running') return 'running';
  if (r.status !== 'completed') return 'unknown';
  if (r.conclusion === 'success') return 'passed';
  if (r.conclusion === 'cancelled' || r.conclusion === 'skipped') return 'cancelled';
  return r.conclusion ? 'failed' : 'unknown';
}

function toRun(r: RunJson): CiRun {
  const started = timeOf(r.run_started_at) ?? timeOf(r.started_at) ?? timeOf(r.created_at);
  const status = statusOf(r);
  const ended = status === 'passed' || status === 'failed' || status === 'cancelled';
  const end = timeOf(r.completed_at) ?? timeOf(r.updated_at);
  const duration = ended && started && end ? Date.parse(end) - Date.parse(started) : NaN;
  return {
    id: String(r.id),
    number: typeof r.run_number === 'number' ? r.run_number : null,
    status,
    branch: r.head_branch ?? null,
    commit: r.head_sha ?? null,
    webUrl: r.html_url ?? null,
    startedAt: started,
    durationMs: Number.isFinite(duration) && duration >= 0 ? duration : null,
  };
}

const ENDED = new Set(['completed', 'success', 'failure', 'cancelled', 'skipped']);
const STARTED = new Set(['in_progress', 'running', ...ENDED]);

/** The `cron:` entries of a workflow's `on.schedule`, read line by line (no YAML parser needed). */
export function cronsOf(workflow: string): string[] {
  const crons: string[] = [];
  for (const m of workflow.matchAll(/^\s*-?\s*cron:\s*['"]?([^'"#\n]+?)['"]?\s*(?:#.*)?$/gm)) crons.push(m[1]!.trim());
  return crons;
}

/** The link's workflow, which also says where its file is (`.github/workflows/` or `.gitea/workflows/`). */
async function workflowOf(call: CiCall): Promise<{ path: string }> {
  const r = await api(call, 'GET', `${repoPath(call)}/actions/workflows/${encodeURIComponent(call.target.job)}`);
  const body = (await r.json()) as { path?: string };
  return { path: body.path || `.github/workflows/${call.target.job}` };
}

/** Whether a run (Gitea: `tests.yml@refs/heads/main`, GitHub: `.github/workflows/tests.yml`) is of the job. */
const ofJob = (r: RunJson, job: string): boolean => {
  const file = (r.path ?? '').split('@')[0]!;
  return file === job || file.endsWith(`/${job}`);
};

async function listRuns(call: CiCall, { limit }: { limit: number }): Promise<CiRun[]> {
  const workflow = encodeURIComponent(call.target.job);
  const branch = encodeURIComponent(call.target.branch);
  const per = Math.min(limit, 100);
  try {
    const query = `branch=${branch}&per_page=${per}`;
    const r = await api(call, 'GET', `${repoPath(call)}/actions/workflows/${workflow}/runs?${query}`);
    const body = (await r.json()) as { workflow_runs?: RunJson[] };
    return (body.workflow_runs ?? []).slice(0, limit).map(toRun);
  } catch (e) {
    if (!(e instanceof CiFault) || e.code !== 'ci_unknown_job') throw e;
  }
  // Gitea (1.26) has no per-workflow run list: a 404 there is the route, not the job. The workflow
  // itself says whether the job exists (and whether the token is good, which the missing route
  // never checked); the repository's runs on the branch are then filtered to it.
  await workflowOf(call);
  const query = `branch=${branch}&per_page=100&limit=100`;
  const r = await api(call, 'GET', `${repoPath(call)}/actions/runs?${query}`);
  const body = (await r.json()) as { workflow_runs?: RunJson[] };
  return (body.workflow_runs ?? [])
    .filter((run) => ofJob(run, call.target.job))
    .slice(0, limit)
    .map(toRun);
}

export const github = {
  key: 'github',
  title: 'GitHub Actions (and Gitea, Forgejo)',
  docs: 'https://docs.github.com/en/rest/actions',

  async startRun(call) {
    const workflow = encodeURIComponent(call.target.job);
    await api(call, 'POST', `${repoPath(call)}/actions/workflows/${workflow}/dispatches`, { ref: call.target.branch });
    // A dispatch answers 204 without the run: the newest run of the workflow on the branch is it.
    const [run] = await listRuns(call, { limit: 1 });
    return (
      run ?? {
        id: '',
        number: null,
        status: 'queued',
        branch: call.target.branch,
        commit: null,
        webUrl: null,
        startedAt: null,
        durationMs: null,
      }
    );
  },

  listRuns,

  async readLog(call, run, fromOffset, maxBytes) {
    const size = Math.min(maxBytes, MAX_LOG_CHUNK_BYTES);
    const jobs = (await (
      await api(call, 'GET', `${repoPath(call)}/actions/runs/${encodeURIComponent(run)}/jobs`)
    ).json()) as {
      jobs?: { id: number; status?: string }[];
    };
    const job = jobs.jobs?.[0];
    // Gitea lists no jobs (200) for a run that does not exist: the run itself answers 404 then.
    if (!job) await api(call, 'GET', `${repoPath(call)}/actions/runs/${encodeURIComponent(run)}`);
    // A job not started has no log yet (Gitea answers 404 "job not started" for it).
    if (!job || !STARTED.has(job.status ?? '')) return { text: '', nextOffset: fromOffset, complete: false };
    const r = await api(call, 'GET', `${repoPath(call)}/actions/jobs/${job.id}/logs`);
    // Read up to the chunk's end and no further: a long log is never held whole.
    const bytes = await rangeOf(r, fromOffset, size);
    const text = new TextDecoder().decode(trimPartial(bytes));
    const nextOffset = fromOffset + Buffer.byteLength(text);
    return { text, nextOffset, complete: ENDED.has(job.status ?? '') && bytes.length < size };
  },

  async listSchedules(call) {
    const file = (await workflowOf(call)).path.split('/').map(encodeURIComponent).join('/');
    const ref = encodeURIComponent(call.target.branch);
    const r = await api(call, 'GET', `${repoPath(call)}/contents/${file}?ref=${ref}`);
    const body = (await r.json()) as { content?: string; encoding?: string };
    const workflow = body.encoding === 'base64' ? Buffer.from(body.content ?? '', 'base64').toString('utf8') : '';
    return cronsOf(workflow).map((cron, i): CiSchedule => ({
      id: `${call.target.job}#${i}`,
      cron,
      branch: call.target.branch,
      nextRunAt: null,
      description: null,
    }));
  },

  async setCommitStatus(call, status) {
    const state = status.verdict === 'passed' ? 'success' : status.verdict === 'failed' ? 'failure' : status.verdict;
    await api(call, 'POST', `${repoPath(call)}/statuses/${encodeURIComponent(status.commit)}`, {
      state,
      target_url: status.targetUrl,
      description: status.description.slice(0, 140),
      context: status.context,
    });
  },

  async upsertComment(call, comment) {
    const base = `${repoPath(call)}/issues/${comment.request}/comments`;
    const list = (await (await api(call, 'GET', `${base}?per_page=100`)).json()) as { id: number; body?: string }[];
    const body = `${comment.body}\n\n<!-- ${comment.marker} -->`;
    const mine = list.find((c) => c.body?.includes(`<!-- ${comment.marker} -->`));
    if (mine) await api(call, 'PATCH', `${repoPath(call)}/issues/comments/${mine.id}`, { body });
    else await api(call, 'POST', base, { body });
  },
} satisfies CiProvider;

/** The bytes [from, from + size) of an answer's body, read as they stream; the rest is cancelled. */
async function rangeOf(r: Response, from: number, size: number): Promise<Uint8Array> {
  const out = new Uint8Array(size);
  let seen = 0;
  let kept = 0;
  const reader = r.body?.getReader();
  if (!reader) return out.subarray(0, 0);
  try {
    while (kept < size) {
      const { done, value } = await reader.read();
      if (done) break;
      const start = Math.max(0, from - seen);
      if (start < value.length) {
        const part = value.subarray(start, start + (size - kept));
        out.set(part, kept);
        kept += part.length;
      }
      seen += value.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return out.subarray(0, kept);
}

/** Drops a UTF-8 sequence cut at the chunk's end, so the next chunk starts on a character. */
function trimPartial(bytes: Uint8Array): Uint8Array {
  const end = bytes.length;
  let back = 0;
  while (end - back - 1 >= 0 && back < 3 && (bytes[end - back - 1]! & 0xc0) === 0x80) back++;
  const lead = bytes[end - back - 1];
  // No lead byte in reach: not a sequence cut here (or not UTF-8); leave it.
  if (lead === undefined || lead < 0xc0) return bytes;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
  return back + 1 < need ? bytes.subarray(0, end - back - 1) : bytes;
}
