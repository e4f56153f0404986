/**
 * Buildbot, over its REST data API v2 (`<url>/api/v2`). A link's `repository` is the builder's name,
 * its `job` the force scheduler that starts it, its `branch` the branch handed to that force
 * scheduler; its token is a web login, `user:password`. The request shapes, with the documentation
 * pages they follow, are in README.md beside this file.
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

const base = (call: CiCall): string => call.target.url.replace(/\/+$/, '');

/**
 * Buildbot's REST API reads the user from the session cookie only, so a call first logs in as the
 * web interface does (HTTP basic on `/auth/login`, answered by a redirect that sets the cookie). An
 * empty token is for a master open to anonymous users.
 */
async function login(call: CiCall): Promise<string | null> {
  const token = call.target.token;
  if (token === '') return null;
  if (!token.includes(':')) throw new CiFault('ci_bad_token', 'the Buildbot token must be user:password');
  const r = await request(
    call,
    `${base(call)}/auth/login`,
    { headers: { authorization: `Basic ${Buffer.from(token).toString('base64')}` }, redirect: 'manual' },
    'GET /auth/login',
  );
  await r.body?.cancel();
  // The login sets the cookie twice (anonymous, then the user): the last one is the session.
  const cookie = r.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .filter((c) => c.startsWith('TWISTED_SESSION'))
    .at(-1);
  if (!cookie) throw new CiFault('ci_bad_token', 'GET /auth/login: Buildbot did not open a session for the token');
  return cookie;
}

/** One REST call; `what` names the route without its query, for a fault's text. */
async function api<T>(call: CiCall, cookie: string | null, path: string, init: RequestInit = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (cookie) headers.cookie = cookie;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const method = init.method ?? 'GET';
  const r = await request(call, `${base(call)}/api/v2${path}`, { ...init, headers }, `${method} ${path.split('?')[0]}`);
  return (await r.json()) as T;
}

const seg = encodeURIComponent;

interface BuildJson {
  buildid: number;
  number: number;
  builderid: number;
  complete: boolean;
  results: number | null;
  started_at: number | null;
  complete_at: number | null;
  properties?: Record<string, [unknown, string]>;
}

interface BuildRequestJson {
  buildrequestid: number;
  builderid: number;
  complete: boolean;
  results: number;
  submitted_at: number | null;
}

/**
 * Buildbot's results codes (buildbot.process.results): success and warnings passed; failure and
 * exception failed; skipped, retry (the request is queued again) and cancelled ended without a verdict.
 */
export function statusOf(b: { complete: boolean; results: number | null; started_at?: number | null }): CiRunStatus {
  if (!b.complete) return b.started_at ? 'running' : 'queued';
  switch (b.results) {
    case 0:
    case 1:
      return 'passed';
    case 2:
    case 4:
      return 'failed';
    case 3:
    case 5:
    case 6:
      return 'cancelled';
    default:
      return 'unknown';
  }
}

const iso = (seconds: number | null | undefined): string | null =>
  typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : null;

function propertyOf(b: BuildJson, name: string): string | null {
  const value = b.properties?.[name]?.[0];
  return typeof value === 'string' && value !== '' ? value : null;
}

function toRun(call: CiCall, b: BuildJson): CiRun {
  const ended = b.complete && b.started_at !== null && b.complete_at !== null;
  return {
    id: String(b.buildid),
    number: b.number,
    status: statusOf(b),
    branch: propertyOf(b, 'branch'),
    commit: propertyOf(b, 'got_revision') ?? propertyOf(b, 'revision'),
    webUrl: `${base(call)}/#/builders/${b.builderid}/builds/${b.number}`,
    startedAt: iso(b.started_at),
    durationMs: ended ? Math.max(0, (b.complete_at! - b.started_at!) * 1000) : null,
  };
}

/** A build request no build has taken yet: its id is `request-<id>`, which `readLog` also takes. */
function toQueued(call: CiCall, r: BuildRequestJson): CiRun {
  return {
    id: `request-${r.buildrequestid}`,
    number: null,
    status: r.complete ? statusOf({ complete: true, results: r.results }) : 'queued',
    branch: call.target.branch || null,
    commit: null,
    webUrl: `${base(call)}/#/buildrequests/${r.buildrequestid}`,
    startedAt: null,
    durationMs: null,
  };
}

const BUILD_PROPERTIES = 'property=branch&property=revision&property=got_revision';

/**
 * The link's builder, checked against its force scheduler: a builder or scheduler that does not
 * exist, or a scheduler that does not build that builder, is an unknown job.
 */
async function builderOf(call: CiCall, cookie: string | null): Promise<number> {
  // Found by a filter on its name, not `/builders/{name}`, which takes an all-digit name for an id.
  const { builders } = await api<{ builders: { builderid: number; name: string }[] }>(
    call,
    cookie,
    `/builders?name=${seg(call.target.repository)}`,
  );
  const builder = builders.find((b) => b.name === call.target.repository);
  if (!builder) throw new CiFault('ci_unknown_job', `Buildbot has no builder ${call.target.repository}`);
  const { forceschedulers } = await api<{ forceschedulers: { builder_names: string[] }[] }>(
    call,
    cookie,
    `/forceschedulers/${seg(call.target.job)}`,
  );
  if (!forceschedulers[0]?.builder_names.includes(call.target.repository))
    throw new CiFault(
      'ci_unknown_job',
      `the force scheduler ${call.target.job} does not build ${call.target.repository}`,
    );
  return builder.builderid;
}

async function listRuns(call: CiCall, { limit }: { limit: number }): Promise<CiRun[]> {
  const cookie = await login(call);
  const builderid = await builderOf(call, cookie);
  const n = Math.max(1, Math.min(limit, 100));
  const { buildrequests } = await api<{ buildrequests: BuildRequestJson[] }>(
    call,
    cookie,
    `/buildrequests?builderid=${builderid}&claimed=false&complete=false&order=-buildrequestid&limit=${n}`,
  );
  const { builds } = await api<{ builds: BuildJson[] }>(
    call,
    cookie,
    `/builders/${builderid}/builds?order=-number&limit=${n}&${BUILD_PROPERTIES}`,
  );
  // Requests not yet taken by a build are newer than every build.
  return [...buildrequests.map((r) => toQueued(call, r)), ...builds.map((b) => toRun(call, b))].slice(0, limit);
}

/** A JSON-RPC error's message: a sentence, or the fields a force's validation refused. */
const messageOf = (m: unknown): string =>
  typeof m === 'string' ? m : m === undefined ? 'no build request made' : JSON.stringify(m).slice(0, 500);

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export const buildbot = {
  key: 'buildbot',
  title: 'Buildbot',
  docs: 'https://docs.buildbot.net/latest/developer/rest.html',

  async startRun(call) {
    const cookie = await login(call);
    const builderid = await builderOf(call, cookie);
    const params: Record<string, unknown> = { builderNames: [call.target.repository] };
    if (call.target.branch) params.branch = call.target.branch;
    const forced = await api<{ result?: [number, Record<string, number>]; error?: { message?: unknown } }>(
      call,
      cookie,
      `/forceschedulers/${seg(call.target.job)}`,
      { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', method: 'force', id: 1, params }) },
    );
    const brid = forced.result?.[1]?.[String(builderid)];
    // A force the scheduler's fields refuse is answered 400 with a JSON-RPC error, no request made.
    if (brid === undefined)
      throw new CiFault(
        'ci_unknown_job',
        `the force scheduler ${call.target.job} refused the build: ${messageOf(forced.error?.message)}`,
      );
    // A free worker takes the request within a moment; a busy one leaves it queued.
    for (let i = 0; i < 5; i++) {
      const { builds } = await api<{ builds: BuildJson[] }>(
        call,
        cookie,
        `/buildrequests/${brid}/builds?${BUILD_PROPERTIES}`,
      );
      if (builds[0]) return toRun(call, builds[0]);
      await sleep(200);
    }
    const { buildrequests } = await api<{ buildrequests: BuildRequestJson[] }>(call, cookie, `/buildrequests/${brid}`);
    return toQueued(
      call,
      buildrequests[0] ?? { buildrequestid: brid, builderid, complete: false, results: -1, submitted_at: null },
    );
  },

  listRuns,

  async readLog(call, run, fromOffset, maxBytes) {
    const cookie = await login(call);
    const size = Math.max(1, Math.min(maxBytes, MAX_LOG_CHUNK_BYTES));
    const empty: CiLogChunk = { text: '', nextOffset: fromOffset, complete: false };
    let buildid = /^\d+$/.test(run) ? Number(run) : null;
    const queued = /^request-(\d+)$/.exec(run);
    if (queued) {
      const { builds } = await api<{ builds: BuildJson[] }>(call, cookie, `/buildrequests/${queued[1]}/builds`);
      // The request's first build: a follower's offsets stay in the log they were made in. A retried
      // request's later builds are runs of their own in the list.
      buildid = builds.length ? Math.min(...builds.map((b) => b.buildid)) : null;
      if (buildid === null) {
        const { buildrequests } = await api<{ buildrequests: BuildRequestJson[] }>(
          call,
          cookie,
          `/buildrequests/${queued[1]}`,
        );
        return { ...empty, complete: buildrequests[0]?.complete === true };
      }
    }
    if (buildid === null) throw new CiFault('ci_unknown_job', `Buildbot has no run ${JSON.stringify(run)}`);
    return readBuildLog(call, cookie, buildid, fromOffset, size);
  },

  async listSchedules(call) {
    const cookie = await login(call);
    const [{ schedulers }, { forceschedulers }] = await Promise.all([
      api<{ schedulers: { schedulerid: number; name: string; enabled: boolean }[] }>(call, cookie, '/schedulers'),
      api<{ forceschedulers: { name: string }[] }>(call, cookie, '/forceschedulers'),
    ]);
    const forced = new Set(forceschedulers.map((f) => f.name));
    // Buildbot's API names a scheduler and says whether it is enabled, nothing of when it fires or
    // what it builds: that lives in master.cfg. Tally shows so rather than a made-up cron.
    return schedulers
      .filter((s) => !forced.has(s.name))
      .map((s): CiSchedule => ({
        id: String(s.schedulerid),
        cron: SCHEDULE_NOT_EXPOSED,
        branch: null,
        nextRunAt: null,
        description: `${s.name}${s.enabled ? '' : ' (disabled)'}`,
      }));
  },
} satisfies CiProvider;

/** The `cron` of a Buildbot schedule: its timing is not in Buildbot's API. */
export const SCHEDULE_NOT_EXPOSED = 'set in master.cfg';

/**
 * A position in a build's log, one number across all its steps' logs: the log is read a line at a
 * time (Buildbot serves lines, not bytes), so an offset is `line × LINE_SLOT + byte in that line`.
 * Lines are counted over the build's logs in step order, each log led by one heading line. Buildbot
 * cuts a log line at 4,096 characters, so one line never fills a slot.
 */
export const LINE_SLOT = 65_536;

interface LogJson {
  logid: number;
  name: string;
  type: string;
  num_lines: number;
  complete: boolean;
}

/**
 * The lines asked for per request are the room left over the mean line length seen so far (a guess
 * at first), at most MAX_LINES_PER_REQUEST: Buildbot serves whole lines, so a batch sized this way
 * overshoots the chunk by little even when lines are long.
 */
const FIRST_LINE_GUESS_BYTES = 80;
const MAX_LINES_PER_REQUEST = 1000;

async function readBuildLog(
  call: CiCall,
  cookie: string | null,
  buildid: number,
  fromOffset: number,
  size: number,
): Promise<CiLogChunk> {
  // The build first: when it has ended, every log read after this is whole.
  const { builds } = await api<{ builds: BuildJson[] }>(call, cookie, `/builds/${buildid}`);
  const buildComplete = builds[0]?.complete === true;
  const { steps } = await api<{ steps: { stepid: number; number: number; name: string }[] }>(
    call,
    cookie,
    `/builds/${buildid}/steps`,
  );
  const target = Math.floor(fromOffset / LINE_SLOT);
  let within = fromOffset % LINE_SLOT;
  const parts: Buffer[] = [];
  let bytes = 0;
  let line = 0; // the first line of the log being walked
  let at = target; // the line being read
  let mean = FIRST_LINE_GUESS_BYTES;

  /** Adds what fits of one line from byte `within`; false when the chunk is full. */
  const take = (text: string): boolean => {
    const whole = Buffer.from(text);
    const rest = whole.subarray(Math.min(within, whole.length));
    if (rest.length <= size - bytes) {
      parts.push(rest);
      bytes += rest.length;
      at++;
      within = 0;
      return true;
    }
    const part = trimPartial(rest.subarray(0, size - bytes));
    parts.push(part);
    bytes += part.length;
    within += part.length;
    return false;
  };

  // True when every log was read to its end; false when the chunk is full or a log is still growing.
  const walk = async (): Promise<boolean> => {
    for (const step of [...steps].sort((a, b) => a.number - b.number)) {
      const { logs } = await api<{ logs: LogJson[] }>(call, cookie, `/steps/${step.stepid}/logs`);
      // HTML logs are pages, not text; the rest are read in the order they were opened.
      for (const log of logs.filter((l) => l.type !== 'h').sort((a, b) => a.logid - b.logid)) {
        const final = buildComplete || log.complete;
        const slots = 1 + log.num_lines;
        if (at >= line + slots) {
          if (!final) return false; // an offset past a growing log: nothing new there yet
          line += slots;
          continue;
        }
        if (at === line && !take(`── ${step.name} · ${log.name} ──\n`)) return false;
        while (at < line + slots) {
          const first = at - line - 1;
          const guess = Math.ceil((size - bytes) / mean);
          const count = Math.min(line + slots - at, Math.max(1, Math.min(MAX_LINES_PER_REQUEST, guess)));
          const { logchunks } = await api<{ logchunks: { content: string }[] }>(
            call,
            cookie,
            `/logs/${log.logid}/contents?offset=${first}&limit=${count}`,
          );
          const lines = (logchunks[0]?.content ?? '').split(/(?<=\n)/).filter((l) => l !== '');
          if (lines.length === 0) return false; // the count said more than the log gave: ask again later
          mean = Math.max(1, Buffer.byteLength(logchunks[0]!.content) / lines.length);
          for (const raw of lines.slice(0, count)) {
            // A stdio line starts with its stream's letter (o, e, h): not part of the text.
            if (!take(log.type === 's' ? raw.slice(1) : raw)) return false;
          }
        }
        if (!final) return false;
        line += slots;
      }
    }
    return true;
  };
  const ended = await walk();
  const text = Buffer.concat(parts).toString('utf8');
  return {
    text,
    nextOffset: at * LINE_SLOT + within,
    complete: buildComplete && ended,
  };
}

/** Drops a UTF-8 sequence cut at the chunk's end, so the next chunk starts on a character. */
function trimPartial(bytes: Buffer): Buffer {
  const end = bytes.length;
  let back = 0;
  while (end - back - 1 >= 0 && back < 3 && (bytes[end - back - 1]! & 0xc0) === 0x80) back++;
  const lead = bytes[end - back - 1];
  if (lead === undefined || lead < 0xc0) return bytes;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
  return back + 1 < need ? bytes.subarray(0, end - back - 1) : bytes;
}
