/**
 * Jenkins, through its remote access API. A link's `repository` is the job's full name
 * (`folder/sub/job`), its `job` that name's last segment, its token `user:api-token` sent as HTTP
 * basic credentials. Jenkins hosts no code, so it takes no verdict: that goes to the code host's link.
 * The request shapes, with the documentation pages they follow, are in README.md beside this file.
 */
import {
  CiFault,
  MAX_LOG_CHUNK_BYTES,
  request,
  type CiCall,
  type CiLogChunk,
  type CiProvider,
  type CiRun,
  type CiRunStatus,
  type CiSchedule,
} from '../../lib/ci/api.js';

/** The build parameter a plain job reads its branch from. */
export const BRANCH_PARAMETER = 'BRANCH';
/** How long startRun waits for the queue to hand its item to an executor before answering `queued`. */
const QUEUE_POLLS = 4;
const QUEUE_POLL_MS = 500;
/** A job's config.xml is read this far at most: the triggers sit near its top, a pipeline's script after. */
export const CONFIG_MAX_BYTES = 512 * 1024;
/** A run still in the queue is named by its queue item, since it has no build number yet. */
const QUEUED = /^queue-(\d+)$/;

interface Job {
  /** `/job/a/job/b`, each segment encoded. */
  path: string;
  /** A multibranch project's branch job: the branch is the job, no parameter is sent. */
  branchJob: boolean;
}

/** The job's path from the link, refusing a link whose `job` is not its repository's last segment. */
export function jobOf(call: CiCall): Job {
  const segments = call.target.repository.split('/');
  // A dot segment would be resolved away by the URL and name some other Jenkins route.
  if (segments.some((s) => s.trim() === '' || s === '.' || s === '..'))
    throw new CiFault('ci_unknown_job', "the repository must be the job's full name, folder/sub/job");
  const last = segments[segments.length - 1]!;
  if (call.target.job !== last)
    throw new CiFault('ci_unknown_job', "the job must be the last segment of the repository (the job's name)");
  return {
    path: segments.map((s) => `/job/${encodeURIComponent(s)}`).join(''),
    branchJob: safeDecode(last) === call.target.branch,
  };
}

const safeDecode = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** `user:api-token` as a basic credential; a token without its user cannot be sent. */
export function authorizationOf(token: string): string {
  const colon = token.indexOf(':');
  if (colon <= 0 || colon === token.length - 1)
    throw new CiFault('ci_bad_token', 'a Jenkins token is written user:api-token (the user, a colon, the API token)');
  return `Basic ${Buffer.from(token, 'utf8').toString('base64')}`;
}

async function api(call: CiCall, method: string, path: string): Promise<Response> {
  const init: RequestInit = { method, headers: { authorization: authorizationOf(call.target.token) } };
  // The route names the call in a fault: never the query, never the credentials.
  const what = `${method} ${path.split('?')[0]}`;
  const r = await request(call, `${call.target.url.replace(/\/+$/, '')}${path}`, init, what);
  if (r.ok) return r;
  await r.body?.cancel();
  // Jenkins answers 400 to buildWithParameters on a job that declares no parameters.
  if (r.status === 400 && method === 'POST')
    throw new CiFault('ci_unknown_job', `${what}: Jenkins refused the build (HTTP 400); the job must declare BRANCH`);
  throw new CiFault('ci_provider_down', `${what}: Jenkins answered HTTP ${r.status}`);
}

/** A JSON answer; anything else (a proxy's sign-in page) is a provider that did not answer as Jenkins. */
async function jsonOf<T>(r: Response, what: string): Promise<T> {
  try {
    return (await r.json()) as T;
  } catch (e) {
    throw new CiFault('ci_provider_down', `${what}: the answer is not Jenkins' JSON`, { cause: e });
  }
}

interface BuildJson {
  number: number;
  url?: string | null;
  result?: string | null;
  building?: boolean;
  timestamp?: number | null;
  duration?: number | null;
}

/** A build's status from Jenkins' `building` and `result`. UNSTABLE is Jenkins' word for failed tests. */
export function statusOf(b: Pick<BuildJson, 'building' | 'result'>): CiRunStatus {
  if (b.building) return 'running';
  switch (b.result) {
    case 'SUCCESS':
      return 'passed';
    case 'FAILURE':
    case 'UNSTABLE':
      return 'failed';
    case 'ABORTED':
    case 'NOT_BUILT':
      return 'cancelled';
    default:
      return 'unknown';
  }
}

function toRun(b: BuildJson, branch: string | null): CiRun {
  const status = statusOf(b);
  const ended = status !== 'running' && status !== 'unknown';
  return {
    id: String(b.number),
    number: b.number,
    status,
    branch,
    commit: null,
    webUrl: b.url ?? null,
    startedAt: typeof b.timestamp === 'number' && b.timestamp > 0 ? new Date(b.timestamp).toISOString() : null,
    durationMs: ended && typeof b.duration === 'number' && b.duration >= 0 ? b.duration : null,
  };
}

const queuedRun = (id: number, branch: string | null): CiRun => ({
  id: `queue-${id}`,
  number: null,
  status: 'queued',
  branch,
  commit: null,
  webUrl: null,
  startedAt: null,
  durationMs: null,
});

/** A plain job's builds may have other BRANCH values, which the list does not read: only a branch job knows. */
const branchOf = (call: CiCall, job: Job): string | null => (job.branchJob ? call.target.branch : null);

interface QueueItemJson {
  id: number;
  cancelled?: boolean;
  executable?: { number?: number; url?: string } | null;
}

async function queueItem(call: CiCall, id: string): Promise<QueueItemJson> {
  return jsonOf<QueueItemJson>(await api(call, 'GET', `/queue/item/${id}/api/json`), 'GET /queue/item');
}

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

export const jenkins = {
  key: 'jenkins',
  title: 'Jenkins',
  docs: 'https://www.jenkins.io/doc/book/using/remote-access-api/',

  async startRun(call) {
    const job = jobOf(call);
    const start = job.branchJob
      ? `${job.path}/build`
      : `${job.path}/buildWithParameters?${BRANCH_PARAMETER}=${encodeURIComponent(call.target.branch)}`;
    const r = await api(call, 'POST', start);
    await r.body?.cancel();
    // The answer's Location is the queue item; only its number is taken, since Jenkins writes it with its
    // own root URL, which need not be the link's (a proxy in between).
    const id = /\/queue\/item\/(\d+)\/?$/.exec(r.headers.get('location') ?? '')?.[1];
    const branch = branchOf(call, job);
    if (!id) throw new CiFault('ci_provider_down', `POST ${start.split('?')[0]}: the answer named no queue item`);
    for (let i = 0; i < QUEUE_POLLS; i++) {
      if (i > 0) await sleep(QUEUE_POLL_MS, call.signal);
      const item = await queueItem(call, id);
      const number = item.executable?.number;
      if (typeof number === 'number')
        return { ...toRun({ number, url: item.executable?.url ?? null, building: true }, branch), startedAt: null };
      if (item.cancelled) return { ...queuedRun(Number(id), branch), status: 'cancelled' };
    }
    // Still waiting (a quiet period, no free executor): the queue item stands for the run until it starts.
    return queuedRun(Number(id), branch);
  },

  async listRuns(call, { limit }) {
    const job = jobOf(call);
    const n = Math.max(0, Math.min(limit, 100));
    // Written as the documentation writes it: URLs leave brackets and braces in a query as they are.
    const tree = `builds[number,url,result,building,timestamp,duration]{0,${n}},queueItem[id]`;
    const r = await api(call, 'GET', `${job.path}/api/json?tree=${tree}`);
    const body = await jsonOf<{ builds?: BuildJson[]; queueItem?: { id?: number } | null }>(
      r,
      `GET ${job.path}/api/json`,
    );
    const branch = branchOf(call, job);
    const runs = (body.builds ?? []).map((b) => toRun(b, branch));
    // A run started but not yet out of the queue is listed first, under the id startRun gave it.
    const queued = body.queueItem?.id;
    if (typeof queued === 'number') runs.unshift(queuedRun(queued, branch));
    return runs.slice(0, limit);
  },

  async readLog(call, run, fromOffset, maxBytes) {
    const job = jobOf(call);
    let number = run;
    const queued = QUEUED.exec(run)?.[1];
    if (queued) {
      const item = await queueItem(call, queued);
      if (item.cancelled) return { text: '', nextOffset: fromOffset, complete: true };
      if (typeof item.executable?.number !== 'number') return { text: '', nextOffset: fromOffset, complete: false };
      number = String(item.executable.number);
    }
    if (!/^\d+$/.test(number)) throw new CiFault('ci_unknown_job', 'a Jenkins run is a build number');
    const size = Math.max(0, Math.min(maxBytes, MAX_LOG_CHUNK_BYTES));
    const r = await api(call, 'GET', `${job.path}/${number}/logText/progressiveText?start=${fromOffset}`);
    return chunkOf(r, fromOffset, size);
  },

  async listSchedules(call) {
    const job = jobOf(call);
    const r = await api(call, 'GET', `${job.path}/config.xml`);
    const xml = new TextDecoder().decode(await headOf(r, CONFIG_MAX_BYTES));
    return schedulesOf(xml).map((s, i): CiSchedule => ({
      id: `timer-${i}`,
      cron: s.cron,
      branch: call.target.branch,
      // Jenkins spreads H by a hash of the job's name; without its exact hash the next run is not told.
      nextRunAt: null,
      description: s.timezone ? `TZ=${s.timezone}` : null,
    }));
  },
} satisfies CiProvider;

/**
 * One chunk of a progressive log. Jenkins answers from `start` to the log's current end; the body is
 * read as it streams and dropped past `size`, so a long log is never held. A chunk cut short ends on a
 * whole UTF-8 character and the next offset is where it stopped; a body read to its end takes Jenkins'
 * `X-Text-Size` as the next offset and `X-More-Data` as whether the build still writes.
 */
export async function chunkOf(r: Response, start: number, size: number): Promise<CiLogChunk> {
  const { bytes, ended } = await readUpTo(r, size);
  const more = r.headers.get('x-more-data') === 'true';
  const told = Number(r.headers.get('x-text-size'));
  if (ended) {
    // A running build's log may end mid-character for now: that tail is asked for again next time.
    const whole = more ? trimPartial(bytes) : bytes;
    const end = r.headers.has('x-text-size') && Number.isFinite(told) && told >= start ? told : start + bytes.length;
    return { text: new TextDecoder().decode(whole), nextOffset: end - (bytes.length - whole.length), complete: !more };
  }
  const whole = trimPartial(bytes);
  return { text: new TextDecoder().decode(whole), nextOffset: start + whole.length, complete: false };
}

/** The first `size` bytes of a body, and whether the body ended within them; the rest is cancelled. */
async function readUpTo(r: Response, size: number): Promise<{ bytes: Uint8Array; ended: boolean }> {
  const reader = r.body?.getReader();
  if (!reader) return { bytes: new Uint8Array(0), ended: true };
  const out = new Uint8Array(size);
  let kept = 0;
  let ended = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        break;
      }
      const room = size - kept;
      out.set(value.subarray(0, room), kept);
      kept += Math.min(room, value.length);
      // More than fits: the body goes on past the chunk.
      if (value.length > room) break;
      if (kept === size) {
        // Exactly full: whether the body ends here is the next read's answer, which may be a whole chunk.
        const next = await reader.read();
        ended = next.done;
        break;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return { bytes: out.subarray(0, kept), ended };
}

async function headOf(r: Response, size: number): Promise<Uint8Array> {
  return (await readUpTo(r, size)).bytes;
}

/** Drops a UTF-8 sequence cut at the chunk's end, so the next chunk starts on a character. */
export function trimPartial(bytes: Uint8Array): Uint8Array {
  const end = bytes.length;
  let back = 0;
  while (back < 3 && end - back - 1 >= 0 && (bytes[end - back - 1]! & 0xc0) === 0x80) back++;
  const lead = bytes[end - back - 1];
  if (lead === undefined || lead < 0xc0) return bytes;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
  return back + 1 < need ? bytes.subarray(0, end - back - 1) : bytes;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescapeXml = (s: string): string =>
  s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] !== '#') return ENTITIES[e] ?? m;
    const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : m;
  });

/**
 * The cron lines of a job's timer triggers (`hudson.triggers.TimerTrigger`, under a freestyle job's
 * `triggers` or a pipeline's `pipelineTriggers`). Each line of a spec is one schedule; `#` lines are
 * comments and a `TZ=` line sets the time zone of the lines after it, as Jenkins reads them.
 */
export function schedulesOf(xml: string): { cron: string; timezone: string | null }[] {
  const out: { cron: string; timezone: string | null }[] = [];
  for (const trigger of xml.matchAll(
    /<hudson\.triggers\.TimerTrigger(?:\s[^>]*)?>([\s\S]*?)<\/hudson\.triggers\.TimerTrigger>/g,
  )) {
    const spec = /<spec>([\s\S]*?)<\/spec>/.exec(trigger[1]!)?.[1];
    if (spec === undefined) continue;
    let timezone: string | null = null;
    for (const raw of unescapeXml(spec).split(/\r?\n/)) {
      const line = raw.trim();
      if (!line || line.startsWith('#')) continue;
      const tz = /^TZ=(\S+)$/.exec(line);
      if (tz) timezone = tz[1]!;
      else out.push({ cron: line, timezone });
    }
  }
  return out;
}
