/**
 * A CI link's runs, log and schedules over the JSON API, against a real Gitea: a run started appears
 * in the list (with the report that came from it), its log is read (empty: no runner builds here),
 * the workflow's schedule is listed; a wrong token, an unknown job and a closed port answer their
 * codes, never a 500; the token is in no answer and no log line. A rate limit's Retry-After is
 * checked against a real HTTP server on 127.0.0.1 answering 429, and the report matching by table.
 */
import t from 'tap';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { request, type CiProvider, type CiRun } from '../../lib/ci/api.js';
import type { Report, ReportCi } from '../../lib/store/types.js';
import { matchReports } from '../../plugins/ci-runs.js';
import { createRepoWithWorkflow } from '../../scripts/gitea.js';
import { freePort } from '../../scripts/mongo-wire.js';
import { FIRST_BUILD_TIMEOUT, giteaForTest } from '../helpers/ci-servers.js';
import { junitXml } from '../helpers/junit.js';
import { field, file, multipart } from '../helpers/multipart.js';
import { send, startTally, type Harness, type Reply } from '../helpers/tally.js';

t.setTimeout(FIRST_BUILD_TIMEOUT);

const json = (h: Harness, method: string, p: string, body?: unknown): Promise<Reply> =>
  send(h.url, h.apiKey, {
    method,
    path: p,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });

async function importFromRun(h: Harness, ci: [string, string][]): Promise<number> {
  const { body, contentType } = multipart([
    ...ci.map(([n, v]) => field(n, v)),
    file('file[]', 'TEST-a.xml', junitXml({ suite: 'a' })),
  ]);
  const r = await h.send({
    path: `/api/v2/profile/${h.profileId}/import/junit`,
    headers: { 'content-type': contentType },
    body,
  });
  if (r.status !== 201) throw new Error(`import answered ${r.status}: ${r.text}`);
  return (r.json as { report_id: number }).report_id;
}

t.test('runs, log and schedules of a link to Gitea', async (t) => {
  const gitea = await giteaForTest(t);
  if (!gitea) return;
  const { fullName, workflow } = await createRepoWithWorkflow(gitea, { name: 'project' });
  const lines: string[] = [];
  const h = await startTally(t, {
    secretKey: randomBytes(32).toString('hex'),
    log: (event, data) => lines.push(JSON.stringify({ event, ...data })),
  });
  const answers: Reply[] = [];
  const call = async (method: string, p: string, body?: unknown): Promise<Reply> => {
    const r = await json(h, method, p, body);
    answers.push(r);
    t.not(r.status, 500, `${method} ${p} is never a 500`);
    return r;
  };
  const ci = `/api/v2/profiles/${h.profileNumber}/ci`;
  const link = {
    provider: 'github',
    url: gitea.url,
    repository: fullName,
    branch: 'main',
    job: workflow,
    token: gitea.token,
  };

  t.equal((await call('GET', `${ci}/runs`)).json.messages[0].code, 'ci_link_not_found', 'no link yet');
  t.equal((await call('POST', `${ci}/runs`)).json.messages[0].code, 'ci_link_not_found');
  t.equal((await call('GET', `${ci}/schedules`)).json.messages[0].code, 'ci_link_not_found');
  t.equal((await call('GET', `${ci}/runs/1/log`)).json.messages[0].code, 'ci_link_not_found');
  t.equal((await call('PUT', ci, link)).status, 200);
  t.strictSame((await call('GET', `${ci}/runs`)).json, { profile_id: h.profileNumber, runs: [] }, 'no run yet');

  const started = await call('POST', `${ci}/runs`);
  t.equal(started.status, 201);
  const run = started.json as { id: string; number: number; web_url: string; commit: string };
  t.match(run, { id: /^\d+$/, number: 1, status: 'queued', branch: 'main', started_at: null, duration_ms: null });
  t.equal(run.web_url, `${gitea.url}${fullName}/actions/runs/${run.id}`);
  t.match(run.commit, /^[0-9a-f]{40}$/);

  const listed = await call('GET', `${ci}/runs?limit=5`);
  t.equal(listed.status, 200);
  t.strictSame(listed.json.runs, [{ ...run, report_id: null }], 'the run started is listed, no report yet');
  // A report uploaded by that run, telling its URL: the list links it.
  const fromRun = await importFromRun(h, [
    ['ci_provider', 'gitea'],
    ['ci_build_url', run.web_url],
    ['ci_build_number', String(run.number)],
  ]);
  await importFromRun(h, [['ci_build_number', '7']]);
  t.equal((await call('GET', `${ci}/runs`)).json.runs[0].report_id, fromRun, "the run's report");

  t.strictSame(
    (await call('GET', `${ci}/runs/${run.id}/log?offset=0&max_bytes=1024`)).json,
    { text: '', next_offset: 0, complete: false },
    'a queued run: no log yet, not complete',
  );
  t.equal((await call('GET', `${ci}/runs/${run.id}/log?max_bytes=999999999`)).status, 200, 'max_bytes capped');
  for (const q of ['max_bytes=0', 'offset=-1', 'max_bytes=many', 'offset=1.5', 'other=1']) {
    const r = await call('GET', `${ci}/runs/${run.id}/log?${q}`);
    t.equal(r.status, 400, q);
    t.equal(r.json.messages[0].code, 'invalid_query', q);
  }
  t.equal((await call('GET', `${ci}/runs?limit=0`)).json.messages[0].code, 'invalid_query');
  t.equal((await call('GET', `${ci}/runs/999/log`)).json.messages[0].code, 'ci_unknown_job', 'no such run');
  t.equal((await call('GET', `${ci}/runs/a%20b/log`)).json.messages[0].code, 'ci_unknown_job', 'not a run id');

  const schedules = await call('GET', `${ci}/schedules`);
  t.strictSame(schedules.json, {
    profile_id: h.profileNumber,
    schedules: [{ id: `${workflow}#0`, cron: '30 2 * * *', branch: 'main', next_run_at: null, description: null }],
  });

  t.equal((await call('GET', `/api/v2/profiles/${h.foreignProfileId}/ci/runs`)).status, 403);
  t.equal((await call('POST', `/api/v2/profiles/999999/ci/runs`)).status, 404);

  // Faults: each the provider's code, with the run routes and the start alike.
  const faults: [string, Partial<typeof link>, string, number][] = [
    ['a wrong token', { token: `${gitea.token.slice(0, -4)}beef` }, 'ci_bad_token', 422],
    ['an unknown job', { job: 'nope.yml' }, 'ci_unknown_job', 422],
    ['an unknown repository', { repository: 'tally-admin/nope' }, 'ci_unknown_job', 422],
    ['a closed port', { url: `http://127.0.0.1:${await freePort()}` }, 'ci_provider_down', 502],
  ];
  for (const [what, change, code, status] of faults) {
    t.equal((await call('PUT', ci, { ...link, ...change })).status, 200);
    for (const [method, p] of [
      ['GET', `${ci}/runs`],
      ['POST', `${ci}/runs`],
      ['GET', `${ci}/schedules`],
      ['GET', `${ci}/runs/${run.id}/log`],
    ] as const) {
      // A run is read by its id, whatever job the link names now.
      if (change.job && p.endsWith('/log')) continue;
      const r = await call(method, p);
      t.equal(r.status, status, `${what}: ${method} ${p}`);
      t.equal(r.json.messages?.[0]?.code, code, `${what}: ${method} ${p}`);
    }
  }
  const runs = await gitea.api<{ total_count: number }>('GET', `/repos/${fullName}/actions/runs`);
  t.equal(runs.total_count, 1, 'the refused starts started nothing');

  for (const r of answers) t.notOk(r.text.includes(gitea.token), `no answer carries the token (${r.status})`);
  t.ok(lines.length > 0, 'the faults were logged');
  t.notOk(lines.join('\n').includes(gitea.token), 'no log line carries the token');
});

t.test('a rate limit answers ci_rate_limited with Retry-After', async (t) => {
  const server = http.createServer((_req, res) => {
    res.writeHead(429, { 'retry-after': '42', 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  const { port } = server.address() as AddressInfo;
  const ask = async (call: Parameters<CiProvider['listRuns']>[0]): Promise<never> => {
    await request(call, `${call.target.url}/runs`, {}, 'GET /runs');
    throw new Error('the server always limits');
  };
  const limited: CiProvider = {
    key: 'limited',
    title: 'A CI that limits',
    docs: 'https://example.org/limited',
    startRun: ask,
    listRuns: ask,
    readLog: ask,
    listSchedules: ask,
  };
  const h = await startTally(t, { secretKey: randomBytes(32).toString('hex'), ciProviders: [limited] });
  const ci = `/api/v2/profiles/${h.profileNumber}/ci`;
  const link = { provider: 'limited', url: `http://127.0.0.1:${port}`, repository: 'r', branch: 'b', job: 'j' };
  t.equal((await json(h, 'PUT', ci, { ...link, token: 'limited-token' })).status, 200);
  for (const [method, p] of [
    ['GET', `${ci}/runs`],
    ['POST', `${ci}/runs`],
    ['GET', `${ci}/schedules`],
    ['GET', `${ci}/runs/5/log`],
  ] as const) {
    const r = await json(h, method, p);
    t.equal(r.status, 503, `${method} ${p}`);
    t.equal(r.json.messages[0].code, 'ci_rate_limited');
    t.equal(r.headers['retry-after'], '42', 'Retry-After as the provider said');
  }
});

t.test('which report came from which run', async (t) => {
  const SHA = 'a'.repeat(40);
  const run = (o: Partial<CiRun>): CiRun => ({
    id: '1',
    number: 12,
    status: 'passed',
    branch: 'main',
    commit: SHA,
    webUrl: 'https://ci.example.org/runs/1',
    startedAt: null,
    durationMs: null,
    ...o,
  });
  const report = (number: number, ci: Partial<ReportCi> | null): Report =>
    ({
      number,
      ci: ci && { provider: null, buildNumber: null, buildUrl: null, branch: null, commit: null, job: null, ...ci },
    }) as Report;
  const table: [string, CiRun, Report[], number | null][] = [
    ['by URL', run({}), [report(1, { buildUrl: 'https://ci.example.org/runs/1' })], 1],
    ['the URL differs', run({}), [report(1, { buildUrl: 'https://ci.example.org/runs/2', buildNumber: '12' })], null],
    ['by number and commit', run({ webUrl: null }), [report(2, { buildNumber: '12', commit: SHA })], 2],
    ['number, another commit', run({ webUrl: null }), [report(2, { buildNumber: '12', commit: 'b'.repeat(40) })], null],
    ['number and branch, no commit', run({ commit: null }), [report(3, { buildNumber: '12', branch: 'main' })], 3],
    ['number, another branch', run({ commit: null }), [report(3, { buildNumber: '12', branch: 'dev' })], null],
    ['the number alone is not enough', run({ commit: null, branch: null }), [report(3, { buildNumber: '12' })], null],
    ['no CI context', run({}), [report(4, null)], null],
    [
      'the newest of two',
      run({}),
      [report(6, { buildUrl: run({}).webUrl }), report(5, { buildUrl: run({}).webUrl })],
      6,
    ],
  ];
  for (const [name, r, reports, expected] of table) t.equal(matchReports([r], reports)[0]!.report, expected, name);
});
