/**
 * The CI provider kit: the registry's rules, what an HTTP answer means as a fault, and the
 * conformance checks, run against a small provider and a real HTTP server on 127.0.0.1 that speaks
 * its API. A provider that gets a fault wrong, or leaks the token into one, fails the checks.
 */
import t from 'tap';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CiFault, faultOf, request, type CiCall, type CiProvider, type CiRun } from '../../lib/ci/api.js';
import { checkProvider } from '../../lib/ci/check.js';
import { createCiRegistry, sendsVerdict } from '../../lib/ci/registry.js';

const TOKEN = 'tok-3f9a1c-secret';
const LOG = Array.from({ length: 300 }, (_, i) => `\u001b[32mline ${i}\u001b[0m`).join('\n');

async function startServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `token ${TOKEN}`) return send(401, { message: 'bad credentials' });
    if (u.pathname === '/limited') return send(429, {}, { 'retry-after': '7' });
    const m = /^\/repos\/([^/]+)\/jobs\/([^/]+)\/(runs|schedules)$/.exec(u.pathname);
    if (m && m[2] !== 'tests') return send(404, { message: 'not found' });
    if (m?.[3] === 'runs' && req.method === 'POST') return send(201, { id: 8, state: 'queued' });
    if (m?.[3] === 'runs') return send(200, [{ id: 7, state: 'success', took: 1500 }]);
    if (m?.[3] === 'schedules') return send(200, [{ id: 1, cron: '0 3 * * *' }]);
    const log = /^\/runs\/7\/log$/.exec(u.pathname);
    if (log) {
      const bytes = Buffer.from(LOG);
      const from = Number(u.searchParams.get('from'));
      const part = bytes.subarray(from, from + Number(u.searchParams.get('max')));
      return send(200, {
        text: part.toString('latin1'),
        next: from + part.length,
        done: from + part.length >= bytes.length,
      });
    }
    send(404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const STATES: Record<string, CiRun['status']> = { success: 'passed', failure: 'failed', queued: 'queued' };
const toRun = (r: { id: number; state: string; took?: number }): CiRun => ({
  id: String(r.id),
  number: r.id,
  status: STATES[r.state] ?? 'unknown',
  branch: null,
  commit: null,
  webUrl: null,
  startedAt: null,
  durationMs: r.took ?? null,
});

function toy(overrides: Partial<CiProvider> = {}): CiProvider {
  const get = async (call: CiCall, path: string, init: RequestInit = {}): Promise<unknown> => {
    const headers = { authorization: `token ${call.target.token}` };
    return (await request(call, `${call.target.url}${path}`, { ...init, headers }, `GET ${path}`)).json();
  };
  const jobPath = (call: CiCall): string => `/repos/${call.target.repository}/jobs/${call.target.job}`;
  return {
    key: 'toy',
    title: 'Toy CI',
    docs: 'https://example.org/toy-ci/api',
    startRun: async (call) => toRun((await get(call, `${jobPath(call)}/runs`, { method: 'POST' })) as never),
    listRuns: async (call, { limit }) =>
      ((await get(call, `${jobPath(call)}/runs`)) as { id: number; state: string }[]).slice(0, limit).map(toRun),
    readLog: async (call, run, from, max) => {
      const r = (await get(call, `/runs/${run}/log?from=${from}&max=${max}`)) as {
        text: string;
        next: number;
        done: boolean;
      };
      return { text: r.text, nextOffset: r.next, complete: r.done };
    },
    listSchedules: async (call) =>
      ((await get(call, `${jobPath(call)}/schedules`)) as { id: number; cron: string }[]).map((s) => ({
        id: String(s.id),
        cron: s.cron,
        branch: null,
        nextRunAt: null,
        description: null,
      })),
    setCommitStatus: async () => {},
    upsertComment: async () => {},
    ...overrides,
  };
}

t.test('a provider that speaks its API right passes every check', async (t) => {
  const server = await startServer();
  t.teardown(server.close);
  const call: CiCall = {
    target: { url: server.url, repository: 'acme', branch: 'main', job: 'tests', token: TOKEN },
    fetch,
  };
  const checks = await checkProvider(toy(), { call, downUrl: 'http://127.0.0.1:1', start: true, chunkBytes: 500 });
  t.same(
    checks.filter((c) => !c.ok),
    [],
  );
  t.same(
    checks.map((c) => c.name),
    ['shape', 'startRun', 'listRuns', 'readLog', 'listSchedules', 'bad token', 'unknown job', 'provider down'],
  );
});

t.test('the checks catch a wrong fault, a leaked token and an oversized log chunk', async (t) => {
  const server = await startServer();
  t.teardown(server.close);
  const call: CiCall = {
    target: { url: server.url, repository: 'acme', branch: 'main', job: 'tests', token: TOKEN },
    fetch,
  };
  const base = toy();
  const failing = async (p: CiProvider): Promise<string[]> =>
    (await checkProvider(p, { call, downUrl: 'http://127.0.0.1:1' })).filter((c) => !c.ok).map((c) => c.name);

  const allDown = toy({
    listRuns: async (c, o) => {
      try {
        return await base.listRuns(c, o);
      } catch {
        throw new CiFault('ci_provider_down', 'down');
      }
    },
  });
  t.same(await failing(allDown), ['bad token', 'unknown job'], 'every fault called "down"');

  const leaky = toy({
    listRuns: async (c, o) => {
      try {
        return await base.listRuns(c, o);
      } catch (e) {
        throw new CiFault((e as CiFault).code, `failed with ${c.target.token}`);
      }
    },
  });
  t.same(await failing(leaky), ['bad token', 'unknown job', 'provider down'], 'the token in a fault');

  const greedy = toy({ readLog: async (c, run, from) => base.readLog(c, run, from, 1 << 20) });
  t.same(await failing(greedy), ['readLog'], 'a chunk larger than asked');
});

t.test('an HTTP answer as a fault', async (t) => {
  const r = (status: number, headers: Record<string, string> = {}): Response => new Response(null, { status, headers });
  t.equal(faultOf(r(200), 'x'), null);
  t.equal(faultOf(r(401), 'x')?.code, 'ci_bad_token');
  t.equal(faultOf(r(403), 'x')?.code, 'ci_bad_token');
  t.equal(faultOf(r(403, { 'x-ratelimit-remaining': '0' }), 'x')?.code, 'ci_rate_limited');
  t.equal(faultOf(r(404), 'x')?.code, 'ci_unknown_job');
  t.equal(faultOf(r(503), 'x')?.code, 'ci_provider_down');
  const limited = faultOf(r(429, { 'retry-after': '7' }), 'x');
  t.equal(limited?.code, 'ci_rate_limited');
  t.equal(limited?.retryAfter, 7);
  t.equal(faultOf(r(422), 'x'), null, "other 4xx are the provider code's to read");
});

t.test('the registry refuses a malformed provider and a key twice', async (t) => {
  t.throws(() => createCiRegistry([toy(), toy()]), /registered twice/);
  t.throws(() => createCiRegistry([toy({ key: 'Toy' })]), /lower-case/);
  t.throws(() => createCiRegistry([toy({ docs: 'http://x' })]), /https URL/);
  t.throws(() => createCiRegistry([toy({ readLog: undefined as never })]), /readLog must be a function/);
  t.throws(() => createCiRegistry([toy({ upsertComment: undefined })]), /come together or not at all/);
  t.throws(() => createCiRegistry([toy({ setCommitStatus: 'no' as never })]), /setCommitStatus must be a function/);
  const builder = toy({ setCommitStatus: undefined, upsertComment: undefined });
  t.doesNotThrow(() => createCiRegistry([builder]), 'a build server sends no verdict');
  t.notOk(sendsVerdict(builder));
  t.ok(sendsVerdict(toy()));
  const reg = createCiRegistry([toy({ key: 'b' }), toy({ key: 'a' })]);
  t.same(
    reg.all().map((p) => p.key),
    ['a', 'b'],
  );
  t.equal(reg.get('nope'), undefined);
});
