/**
 * The GitLab provider against a real HTTP server answering as GitLab's documentation says it does
 * (test/fixtures/ci/gitlab/, each recording naming its page): the conformance kit, the log read a
 * chunk at a time, schedules, the verdict, and each fault. With TALLY_TEST_GITLAB_URL, _TOKEN and
 * _PROJECT set, the kit runs against that GitLab too.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { gitlab, projectPath, rangeOf, statusOf, toRun, trimPartial } from './index.js';
import { isCiFault, type CiCall, type CiFaultCode } from '../../lib/ci/api.js';
import { checkProvider } from '../../lib/ci/check.js';
import { assertProvider } from '../../lib/ci/registry.js';
import { liveEnv } from '../../test/helpers/ci-providers.js';
import { loadRecordings, startRecordedServer, type RecordedServer } from '../../test/helpers/recorded-ci.js';

const TOKEN = 'glpat-tally-test-5f2c9d1e8a7b';
const PROJECT = 'acme/platform/web';
const P = '/api/v4/projects/acme%2Fplatform%2Fweb';
const recordings = loadRecordings(fileURLToPath(new URL('../../test/fixtures/ci/gitlab/', import.meta.url)));
const recording = (name: string) => {
  const r = recordings.get(name);
  if (!r) throw new Error(`no recording ${name}`);
  return r;
};
const traceOf = (job: number): string => recording(`job-${job}-trace`).response.body as string;

async function gitlabServer(t: Test): Promise<RecordedServer> {
  const exchanges = [...recordings].filter(([name]) => !name.startsWith('fault-')).map(([, e]) => e);
  const server = await startRecordedServer(t, exchanges, {
    authorized: (headers) => headers['private-token'] === TOKEN,
    unauthorized: recording('fault-unauthorized').response,
  });
  return server;
}

/** Every request the provider made is one the documentation describes (a recording matched it). */
function onlyDocumented(t: Test, server: RecordedServer): void {
  const stray = server.seen.filter((s) => !s.matched).map((s) => `${s.method} ${s.path}`);
  t.strictSame(stray, [], 'the server saw only documented requests');
}

const callOn = (url: string, change: Partial<CiCall['target']> = {}): CiCall => ({
  target: { url, repository: PROJECT, branch: 'main', job: 'test', token: TOKEN, ...change },
  fetch,
});

async function closedPort(): Promise<string> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

async function faultOf(body: () => Promise<unknown>) {
  try {
    await body();
  } catch (e) {
    if (isCiFault(e)) return e;
    throw e;
  }
  throw new Error('expected a fault, the call succeeded');
}

t.test('a well-formed provider; the project as the API addresses it', async (t) => {
  t.doesNotThrow(() => assertProvider(gitlab));
  t.equal(projectPath('acme/platform/web'), '/projects/acme%2Fplatform%2Fweb');
  t.equal(projectPath('/acme/web/'), '/projects/acme%2Fweb');
  t.equal(projectPath('4390'), '/projects/4390');
  t.throws(() => projectPath(' '), { code: 'ci_unknown_job' });
});

t.test("pipeline statuses as Tally's", async (t) => {
  const table: [string | undefined, string][] = [
    ['created', 'queued'],
    ['waiting_for_resource', 'queued'],
    ['preparing', 'queued'],
    ['pending', 'queued'],
    ['scheduled', 'queued'],
    ['manual', 'queued'],
    ['running', 'running'],
    ['canceling', 'running'],
    ['success', 'passed'],
    ['failed', 'failed'],
    ['canceled', 'cancelled'],
    ['skipped', 'cancelled'],
    ['something_new', 'unknown'],
    [undefined, 'unknown'],
  ];
  for (const [gitlabStatus, tally] of table) t.equal(statusOf(gitlabStatus), tally, `${gitlabStatus} → ${tally}`);
});

t.test('a run from a pipeline: number, duration once ended', async (t) => {
  const base = { id: 47, iid: 12, ref: 'main', sha: 'a919', web_url: 'https://example.com/p/47' };
  const times = { created_at: '2016-08-11T11:28:34.085Z', updated_at: '2016-08-11T11:32:35.169Z' };
  t.strictSame(toRun({ ...base, ...times, status: 'success' }), {
    id: '47',
    number: 12,
    status: 'passed',
    branch: 'main',
    commit: 'a919',
    webUrl: 'https://example.com/p/47',
    startedAt: '2016-08-11T11:28:34.085Z',
    durationMs: 241_084,
  });
  t.equal(toRun({ ...base, ...times, status: 'running' }).durationMs, null, 'no duration while it runs');
  const single = { ...base, ...times, status: 'failed', started_at: '2016-08-11T11:28:40.000Z', duration: 34 };
  t.equal(toRun(single).durationMs, 34_000, "a single pipeline's own duration");
  t.equal(toRun(single).startedAt, '2016-08-11T11:28:40.000Z');
});

t.test('the conformance kit passes against the recorded GitLab', async (t) => {
  const server = await gitlabServer(t);
  const checks = await checkProvider(gitlab, {
    call: callOn(server.url),
    downUrl: await closedPort(),
    start: true,
    chunkBytes: 16,
  });
  for (const c of checks) t.ok(c.ok, `${c.name}${c.detail ? `: ${c.detail}` : ''}`);
  t.strictSame(
    checks.map((c) => c.name),
    ['shape', 'startRun', 'listRuns', 'readLog', 'listSchedules', 'bad token', 'unknown job', 'provider down'],
  );
  t.ok(
    server.seen.every((s) => s.headers['private-token'] === TOKEN || s.headers['private-token'] === `${TOKEN}-not-it`),
    'every request carries PRIVATE-TOKEN',
  );
  onlyDocumented(t, server);
});

t.test('start and list: the pipeline created on the branch, the branch pipelines', async (t) => {
  const server = await gitlabServer(t);
  const call = callOn(server.url);
  const run = await gitlab.startRun(call);
  t.match(run, { id: '61', number: 21, status: 'queued', branch: 'main', durationMs: null });
  t.equal(server.seen[0]?.path, `${P}/pipeline?ref=main`);
  const runs = await gitlab.listRuns(call, { limit: 2 });
  t.strictSame(
    runs.map((r) => [r.id, r.number, r.status, r.durationMs]),
    [
      ['48', 13, 'running', null],
      ['47', 12, 'passed', 241_084],
    ],
  );
  t.ok(server.seen.some((s) => s.path === `${P}/pipelines?ref=main&per_page=2`));

  // A branch without pipelines: nothing to list, and no job to look for.
  const before = server.seen.length;
  server.once('GET', `${P}/pipelines?ref=main&per_page=5`, { status: 200, body: [] });
  t.strictSame(await gitlab.listRuns(call, { limit: 5 }), []);
  t.equal(server.seen.length, before + 1, 'no jobs asked for');

  // GitLab refusing the pipeline: its message, coded.
  server.once('POST', `${P}/pipeline?ref=main`, { status: 400, body: { message: { base: ['Reference not found'] } } });
  t.match(await faultOf(() => gitlab.startRun(call)), { code: 'ci_unknown_job', message: /Reference not found/ });
  onlyDocumented(t, server);
});

t.test('a job name no recent pipeline has is ci_unknown_job, from the list of runs', async (t) => {
  const server = await gitlabServer(t);
  const fault = await faultOf(() => gitlab.listRuns(callOn(server.url, { job: 'deploy' }), { limit: 5 }));
  t.equal(fault.code, 'ci_unknown_job');
  t.match(fault.message, /no job named "deploy"/);
  const searched = server.seen.filter((s) => /\/pipelines\/\d+\/jobs/.test(s.path)).map((s) => s.path);
  t.strictSame(
    searched,
    [48, 47, 46].map((id) => `${P}/pipelines/${id}/jobs?per_page=100`),
    'the three newest pipelines are searched, no more',
  );
  // A job that only the third newest pipeline has is found.
  t.equal((await gitlab.listRuns(callOn(server.url, { job: 'lint' }), { limit: 5 })).length, 3);
  onlyDocumented(t, server);
});

async function readAll(call: CiCall, run: string, size: number) {
  const chunks: { text: string; from: number; next: number; complete: boolean }[] = [];
  let offset = 0;
  for (let i = 0; i < 10_000; i++) {
    const c = await gitlab.readLog(call, run, offset, size);
    chunks.push({ text: c.text, from: offset, next: c.nextOffset, complete: c.complete });
    if (c.complete || c.nextOffset === offset) break;
    offset = c.nextOffset;
  }
  return chunks;
}

t.test('the log of a finished job, a chunk at a time, byte offsets, complete at its end', async (t) => {
  const server = await gitlabServer(t);
  const call = callOn(server.url);
  const whole = traceOf(7);
  for (const size of [5, 16, 100, 1 << 20]) {
    const chunks = await readAll(call, '47', size);
    t.equal(chunks.map((c) => c.text).join(''), whole, `read in chunks of ${size} bytes, the trace whole`);
    t.ok(
      chunks.every((c) => Buffer.byteLength(c.text) <= size && c.next - c.from === Buffer.byteLength(c.text)),
      'no chunk over the size asked, and each offset moves by its bytes',
    );
    t.ok(!chunks.some((c) => c.text.includes('\uFFFD')), 'no character split');
    t.equal(chunks.at(-1)?.complete, true, 'complete once read to its end');
    t.equal(chunks.at(-1)?.next, Buffer.byteLength(whole));
    t.ok(
      chunks.slice(0, -1).every((c) => !c.complete),
      'not complete before',
    );
  }
  const past = await gitlab.readLog(call, '47', Buffer.byteLength(whole) + 10, 64);
  t.strictSame(past, { text: '', nextOffset: Buffer.byteLength(whole) + 10, complete: true }, 'past the end');
  onlyDocumented(t, server);
});

t.test('a chunk ending inside a multi-byte character stops before it', async (t) => {
  const server = await gitlabServer(t);
  const call = callOn(server.url);
  const log = Buffer.from(traceOf(9));
  for (const [ch, bytes] of [
    ['é', 2],
    ['日', 3],
    ['🎉', 4],
  ] as const) {
    const at = log.indexOf(Buffer.from(ch));
    for (let cut = 1; cut < bytes; cut++) {
      const c = await gitlab.readLog(call, '48', 0, at + cut);
      t.equal(c.nextOffset, at, `${ch} cut after ${cut} of its ${bytes} bytes: the chunk ends before it`);
      t.equal(c.text, log.subarray(0, at).toString());
      const next = await gitlab.readLog(call, '48', c.nextOffset, 8);
      t.ok(next.text.startsWith(ch), 'the next chunk starts with the whole character');
    }
  }
  onlyDocumented(t, server);
});

t.test('a long trace: one chunk from its middle, the rest of the answer left unread', async (t) => {
  const server = await gitlabServer(t);
  const line = 'ok - a line of a long log, with ünïcödé\n';
  const long = line.repeat(Math.ceil((8 << 20) / Buffer.byteLength(line)));
  server.once('GET', `${P}/jobs/7/trace`, { status: 200, body: long });
  const from = 5 * Buffer.byteLength(line) * 1000;
  const c = await gitlab.readLog(callOn(server.url), '47', from, 4096);
  t.equal(c.text, Buffer.from(long).subarray(from, c.nextOffset).toString());
  t.ok(c.nextOffset - from <= 4096 && c.nextOffset - from > 4090, 'a chunk of the size asked');
  t.equal(c.complete, false, 'a finished job, but the trace is not read to its end');
  onlyDocumented(t, server);
});

t.test('a running job: never complete, nothing new past its end', async (t) => {
  const server = await gitlabServer(t);
  const call = callOn(server.url);
  const chunks = await readAll(call, '48', 10);
  t.equal(chunks.map((c) => c.text).join(''), traceOf(9));
  t.ok(
    chunks.every((c) => !c.complete),
    'not complete while the job runs',
  );
  const end = Buffer.byteLength(traceOf(9));
  t.strictSame(await gitlab.readLog(call, '48', end, 10), { text: '', nextOffset: end, complete: false });
  onlyDocumented(t, server);
});

t.test('a job not started yet has no trace to ask for; a trace not written yet (404) is empty', async (t) => {
  const server = await gitlabServer(t);
  const call = callOn(server.url);
  const jobs = recording('pipeline-48-jobs').response;
  const pending = (jobs.body as { status: string }[]).map((j) => ({ ...j, status: 'pending' }));
  server.once('GET', `${P}/pipelines/48/jobs?per_page=100`, { ...jobs, body: pending });
  t.strictSame(await gitlab.readLog(call, '48', 0, 100), { text: '', nextOffset: 0, complete: false });
  t.notOk(
    server.seen.some((s) => s.path.endsWith('/trace')),
    'no trace asked for',
  );

  server.once('GET', `${P}/jobs/9/trace`, { status: 404, body: { message: '404 Not found' } });
  t.strictSame(await gitlab.readLog(call, '48', 0, 100), { text: '', nextOffset: 0, complete: false });

  t.equal((await faultOf(() => gitlab.readLog(call, 'latest', 0, 100))).code, 'ci_unknown_job');
  const other = callOn(server.url, { job: 'deploy' });
  t.match(await faultOf(() => gitlab.readLog(other, '47', 0, 100)), {
    code: 'ci_unknown_job',
    message: /pipeline 47 has no job named "deploy"/,
  });
  onlyDocumented(t, server);
});

t.test('a trace sent from elsewhere: the redirect is followed, the token stays with GitLab', async (t) => {
  const server = await gitlabServer(t);
  const asked: IncomingHttpHeaders[] = [];
  const storage = createServer((req, res) => {
    asked.push(req.headers);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('from object storage\n');
  });
  await new Promise<void>((resolve) => storage.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => storage.close(() => resolve())));
  const where = `http://127.0.0.1:${(storage.address() as AddressInfo).port}/job.log?X-Amz-Signature=abc`;
  server.once('GET', `${P}/jobs/7/trace`, { status: 302, headers: { location: where } });
  const c = await gitlab.readLog(callOn(server.url), '47', 0, 1000);
  t.strictSame(c, { text: 'from object storage\n', nextOffset: 20, complete: true });
  t.equal(asked.length, 1);
  t.equal(asked[0]?.['private-token'], undefined, 'the token is not sent to another origin');

  // Any other call redirected is refused, not followed: its token would go along.
  server.once('GET', `${P}/pipelines?ref=main&per_page=5`, { status: 301, headers: { location: where } });
  const moved = await faultOf(() => gitlab.listRuns(callOn(server.url), { limit: 5 }));
  t.equal(moved.code, 'ci_provider_down');
  t.match(moved.message, `redirect to ${new URL(where).origin}`);
  t.equal(asked.length, 1, 'the redirect of an API call is not followed');
  onlyDocumented(t, server);
});

t.test('the byte range reader holds the chunk and one read, and cancels the rest', async (t) => {
  let pulled = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(new Uint8Array(1000).fill(0x61));
    },
    cancel() {
      cancelled = true;
    },
  });
  const { bytes, ended } = await rangeOf(new Response(body), 2500, 1200);
  t.equal(bytes.length, 1200);
  t.equal(ended, false);
  t.ok(cancelled, 'the body is cancelled at the chunk end');
  t.ok(pulled <= 5, `read ${pulled} network chunks of 1000 bytes for bytes 2500..3700`);

  const exact = await rangeOf(new Response('abcdef'), 2, 4);
  t.strictSame([Buffer.from(exact.bytes).toString(), exact.ended], ['cdef', true], 'full to the byte at the end');
  t.strictSame(Buffer.from(trimPartial(Buffer.from('a\xe2\x82', 'latin1'))).toString('latin1'), 'a');
});

t.test("schedules: each active one's cron, branch, next run and description", async (t) => {
  const server = await gitlabServer(t);
  t.strictSame(await gitlab.listSchedules(callOn(server.url)), [
    {
      id: '13',
      cron: '30 2 * * *',
      branch: 'main',
      nextRunAt: '2017-05-20T02:30:00.000Z',
      description: 'Nightly tests',
    },
    { id: '15', cron: '0 6 * * 1', branch: 'main', nextRunAt: '2017-05-22T06:00:00.000Z', description: null },
  ]);
  onlyDocumented(t, server);
});

t.test('the commit status: state, name, link and description as documented', async (t) => {
  const server = await gitlabServer(t);
  const call = callOn(server.url);
  const status = {
    commit: '18f3e63d05582537db6d183d9d557be09e1f90c8',
    context: 'tally',
    targetUrl: 'https://tally.example.org/reports/17',
  };
  await gitlab.setCommitStatus(call, { ...status, verdict: 'failed', description: '120 passed, 2 failed' });
  // Pending twice: GitLab refuses to move a status to the state it has, which is no fault.
  await gitlab.setCommitStatus(call, { ...status, verdict: 'pending', description: 'running' });
  t.equal(server.seen.length, 2);
  server.once('POST', `${P}/statuses/${status.commit}`, {
    status: 400,
    body: { message: { target_url: ['must be a valid URL'] } },
  });
  t.match(await faultOf(() => gitlab.setCommitStatus(call, { ...status, verdict: 'passed', description: 'x' })), {
    code: 'ci_unknown_job',
    message: /HTTP 400.*must be a valid URL/,
  });
  onlyDocumented(t, server);
});

t.test('the merge request note: found by its marker on a later page and edited, else created', async (t) => {
  const server = await gitlabServer(t);
  const call = callOn(server.url);
  const comment = { marker: 'tally-verdict', body: '**Tally**: 120 passed, 2 failed' };
  await gitlab.upsertComment(call, { ...comment, request: 11 });
  t.strictSame(
    server.seen.map((s) => `${s.method} ${s.path}`),
    [
      `GET ${P}/merge_requests/11/notes?per_page=100`,
      `GET ${P}/merge_requests/11/notes?per_page=100&page=2`,
      `PUT ${P}/merge_requests/11/notes/305`,
    ],
    'the note holding the marker, on the second page, is edited in place',
  );
  await gitlab.upsertComment(call, { ...comment, request: 12 });
  t.strictSame(
    server.seen.slice(3).map((s) => `${s.method} ${s.path}`),
    [`GET ${P}/merge_requests/12/notes?per_page=100`, `POST ${P}/merge_requests/12/notes`],
    'no note holds the marker: one is created',
  );
  onlyDocumented(t, server);
});

t.test('each fault has its code, and no fault text carries the token', async (t) => {
  const server = await gitlabServer(t);
  const call = callOn(server.url);
  const list = (c: CiCall = call) => gitlab.listRuns(c, { limit: 5 });
  const cases: [string, CiFaultCode, () => Promise<unknown>][] = [
    ['a bad token (401)', 'ci_bad_token', () => list(callOn(server.url, { token: 'glpat-wrong' }))],
    [
      'a project the token cannot see (404)',
      'ci_unknown_job',
      () => {
        const r = recording('fault-project-not-found');
        server.once(r.request.method, r.request.path, r.response);
        return list(callOn(server.url, { repository: 'acme/secret' }));
      },
    ],
    [
      'GitLab failing (500)',
      'ci_provider_down',
      () => {
        const r = recording('fault-server-error');
        server.once(r.request.method, r.request.path, r.response);
        return list();
      },
    ],
  ];
  for (const [name, code, body] of cases) {
    const fault = await faultOf(body);
    t.equal(fault.code, code, name);
    t.notMatch(`${fault.message} ${fault.stack ?? ''}`, TOKEN, `${name}: the token is not in the fault`);
  }

  const limited = recording('fault-rate-limited');
  server.once(limited.request.method, limited.request.path, limited.response);
  t.match(await faultOf(list), { code: 'ci_rate_limited', retryAfter: 30 }, 'a limit: Retry-After says when');

  const reset = Math.floor(Date.now() / 1000) + 90;
  const headers: Record<string, string> = { ...limited.response.headers, 'ratelimit-reset': String(reset) };
  delete headers['retry-after'];
  server.once(limited.request.method, limited.request.path, { ...limited.response, headers });
  const fault = await faultOf(list);
  t.equal(fault.code, 'ci_rate_limited');
  t.ok(fault.retryAfter !== null && fault.retryAfter >= 88 && fault.retryAfter <= 90, 'else RateLimit-Reset');

  const nowhere = await closedPort();
  const down = await faultOf(() => list(callOn(nowhere)));
  t.equal(down.code, 'ci_provider_down', 'a refused connection');
  t.notMatch(down.message, TOKEN);
  onlyDocumented(t, server);
});

t.test('against a real GitLab, when one is named', async (t) => {
  const live = liveEnv(t, { prefix: 'TALLY_TEST_GITLAB', repository: 'TALLY_TEST_GITLAB_PROJECT' });
  if (!live) return;
  const { url, token, repository } = live;
  const call: CiCall = {
    target: {
      url,
      repository,
      branch: process.env.TALLY_TEST_GITLAB_BRANCH || 'main',
      job: process.env.TALLY_TEST_GITLAB_JOB || 'test',
      token,
    },
    fetch,
  };
  const checks = await checkProvider(gitlab, { call, downUrl: await closedPort(), start: true });
  for (const c of checks) t.ok(c.ok, `${c.name}${c.detail ? `: ${c.detail}` : ''}`);
});
