/**
 * The Jenkins provider against Jenkins' documented answers, served by a real HTTP server from the
 * recordings in test/fixtures/ci/jenkins/ (each names its documentation page), and against a real
 * Jenkins when TALLY_TEST_JENKINS_URL, TALLY_TEST_JENKINS_TOKEN and TALLY_TEST_JENKINS_JOB are set.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { CONFIG_MAX_BYTES, jenkins, schedulesOf, statusOf } from './index.js';
import { isCiFault, type CiCall, type CiFaultCode } from '../../lib/ci/api.js';
import { checkProvider } from '../../lib/ci/check.js';
import { assertProvider, createCiRegistry } from '../../lib/ci/registry.js';
import { builtinCiProviders } from '../index.js';
import { liveEnv } from '../../test/helpers/ci-providers.js';
import { loadRecordings, startRecordedServer, type RecordedServer } from '../../test/helpers/recorded-ci.js';

const TOKEN = 'tally:11d4c2f0a9b8e7d6c5b4a3928170f6e5d4';
const recordings = loadRecordings(new URL('../../test/fixtures/ci/jenkins/', import.meta.url).pathname);
const LOG = '/job/tally/job/tests/8/logText/progressiveText';

async function jenkinsServer(t: Test): Promise<RecordedServer> {
  return startRecordedServer(t, recordings.values(), {
    authorized: (h) => h.authorization === `Basic ${Buffer.from(TOKEN).toString('base64')}`,
    // https://www.jenkins.io/doc/book/system-administration/authenticating-scripted-clients/: a wrong
    // user or API token is refused with 401 and a Basic challenge.
    unauthorized: {
      status: 401,
      headers: { 'www-authenticate': 'Basic realm="Jenkins"' },
      body: '<html><body><h2>HTTP ERROR 401 Unauthorized</h2></body></html>',
    },
  });
}

const callOf = (url: string, change: Partial<CiCall['target']> = {}): CiCall => ({
  target: { url, repository: 'tally/tests', branch: 'main', job: 'tests', token: TOKEN, ...change },
  fetch,
});

async function closedPortUrl(): Promise<string> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** Every request was one the recordings (the documentation) describe. */
function allDocumented(t: Test, server: RecordedServer): void {
  const stray = server.seen.filter((s) => !s.matched).map((s) => `${s.method} ${s.path}`);
  t.strictSame(stray, [], 'every request is a documented one');
}

async function faultOf(body: () => Promise<unknown>): Promise<{ code: CiFaultCode; text: string } | null> {
  try {
    await body();
    return null;
  } catch (e) {
    if (!isCiFault(e)) throw e;
    return { code: e.code, text: `${e.message}\n${e.stack ?? ''}\n${JSON.stringify(e)}` };
  }
}

t.test('a well-formed provider without a verdict (Jenkins hosts no code)', async (t) => {
  t.doesNotThrow(() => assertProvider(jenkins));
  t.equal('setCommitStatus' in jenkins, false);
  t.equal('upsertComment' in jenkins, false);
  t.equal(createCiRegistry(builtinCiProviders).get('jenkins'), jenkins, 'registered as a built-in');
});

t.test('the conformance kit passes against the documented answers', async (t) => {
  const server = await jenkinsServer(t);
  const checks = await checkProvider(jenkins, {
    call: callOf(server.url),
    downUrl: await closedPortUrl(),
    start: true,
  });
  t.strictSame(
    checks.filter((c) => !c.ok),
    [],
    'no check fails',
  );
  t.strictSame(
    checks.map((c) => c.name),
    ['shape', 'startRun', 'listRuns', 'readLog', 'listSchedules', 'bad token', 'unknown job', 'provider down'],
  );
  allDocumented(t, server);
});

t.test("a build's status from building and result", async (t) => {
  const table: [boolean, string | null, string][] = [
    [true, null, 'running'],
    [false, 'SUCCESS', 'passed'],
    [false, 'FAILURE', 'failed'],
    [false, 'UNSTABLE', 'failed'],
    [false, 'ABORTED', 'cancelled'],
    [false, 'NOT_BUILT', 'cancelled'],
    [false, null, 'unknown'],
    [false, 'SOMETHING_NEW', 'unknown'],
  ];
  for (const [building, result, status] of table)
    t.equal(statusOf({ building, result }), status, `${building ? 'building' : 'ended'}, ${result}`);
});

t.test('the runs: newest first, durations once ended, a queued start listed first', async (t) => {
  const server = await jenkinsServer(t);
  const runs = await jenkins.listRuns(callOf(server.url), { limit: 5 });
  t.strictSame(
    runs.map((r) => [r.id, r.status, r.durationMs]),
    [
      ['8', 'running', null],
      ['7', 'passed', 81234],
      ['6', 'failed', 60500],
      ['5', 'failed', 70100],
      ['4', 'cancelled', 1200],
    ],
  );
  t.equal(runs[1]!.startedAt, '2025-11-25T05:00:00.000Z');
  t.equal(runs[1]!.webUrl, 'https://jenkins.example.org/job/tally/job/tests/7/');
  t.equal(runs[0]!.branch, null, "a plain job's builds may be of any branch: not told");
  t.match(server.seen[0]!.path, /\{0,5\},queueItem\[id\]$/, 'the tree asks for no more builds than the limit');

  const queued = await jenkins.listRuns(callOf(server.url, { repository: 'tally/queued', job: 'queued' }), {
    limit: 1,
  });
  t.strictSame(
    queued.map((r) => [r.id, r.status]),
    [['queue-43', 'queued']],
    'the queue item comes first and the limit holds',
  );
  allDocumented(t, server);
});

t.test('starting: the queue item becomes a build, or stays a queued run that the log copes with', async (t) => {
  const server = await jenkinsServer(t);
  const started = await jenkins.startRun(callOf(server.url));
  t.match(started, {
    id: '8',
    number: 8,
    status: 'running',
    webUrl: 'https://jenkins.example.org/job/tally/job/tests/8/',
  });
  t.equal(server.seen[0]!.path, '/job/tally/job/tests/buildWithParameters?BRANCH=main', 'the branch is BRANCH');
  t.equal(server.seen[1]!.path, '/queue/item/42/api/json', "the queue item's number, on the link's URL");

  server.once('POST', '/job/tally/job/tests/buildWithParameters?BRANCH=feature%2Flogin', {
    status: 201,
    headers: { location: 'https://jenkins.example.org/queue/item/43/' },
  });
  const waiting = await jenkins.startRun(callOf(server.url, { branch: 'feature/login' }));
  t.match(waiting, { id: 'queue-43', number: null, status: 'queued' });
  const polls = server.seen.filter((s) => s.path === '/queue/item/43/api/json').length;
  t.ok(polls >= 1 && polls <= 4, `the queue is polled briefly (${polls} times)`);

  t.strictSame(
    await jenkins.readLog(callOf(server.url), 'queue-43', 0, 1024),
    { text: '', nextOffset: 0, complete: false },
    'a queued run has no log yet',
  );
  const left = await jenkins.readLog(callOf(server.url), 'queue-42', 0, 1024);
  t.match(left.text, /^Started by user Tally\n/, "once out of the queue, the build's log");

  const branchJob = callOf(server.url, { repository: 'tally/web/main', job: 'main' });
  t.match(await jenkins.startRun(branchJob), { id: '3', status: 'running', branch: 'main' });
  t.ok(
    server.seen.some((s) => s.method === 'POST' && s.path === '/job/tally/job/web/job/main/build'),
    "a multibranch project's branch job is started without parameters",
  );
  allDocumented(t, server);
});

t.test('the progressive log, a chunk at a time', async (t) => {
  const server = await jenkinsServer(t);
  const call = callOf(server.url);
  const answer = (start: number, body: string, size: number, more: boolean): void =>
    server.once('GET', `${LOG}?start=${start}`, {
      status: 200,
      headers: { 'x-text-size': String(size), ...(more ? { 'x-more-data': 'true' } : {}) },
      body,
    });

  answer(100, 'abcdefghij', 110, true);
  t.strictSame(
    await jenkins.readLog(call, '8', 100, 4),
    { text: 'abcd', nextOffset: 104, complete: false },
    'cut at maxBytes',
  );

  answer(100, 'abcdefghij', 110, true);
  t.strictSame(
    await jenkins.readLog(call, '8', 100, 64),
    { text: 'abcdefghij', nextOffset: 110, complete: false },
    'read to the end: X-Text-Size is next, X-More-Data says the build runs',
  );

  answer(110, 'end\n', 114, false);
  t.strictSame(
    await jenkins.readLog(call, '8', 110, 64),
    { text: 'end\n', nextOffset: 114, complete: true },
    'no X-More-Data: complete',
  );

  // "é" is two bytes and "€" three: a limit inside either ends the chunk before it.
  answer(0, 'aé€z', 7, false);
  t.strictSame(await jenkins.readLog(call, '8', 0, 2), { text: 'a', nextOffset: 1, complete: false });
  answer(1, 'é€z', 7, false);
  t.strictSame(await jenkins.readLog(call, '8', 1, 4), { text: 'é', nextOffset: 3, complete: false });
  answer(3, '€z', 7, false);
  t.strictSame(await jenkins.readLog(call, '8', 3, 4), { text: '€z', nextOffset: 7, complete: true });

  t.strictSame(
    server.seen.map((s) => s.path.replace(LOG, '…')),
    ['…?start=100', '…?start=100', '…?start=110', '…?start=0', '…?start=1', '…?start=3'],
  );
  allDocumented(t, server);
});

/** A server answering every request with `answer`, for bodies a recording cannot hold (bytes, no end). */
async function rawServer(t: Test, answer: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

t.test("a running build's log that ends mid-character for now: the tail is asked for again", async (t) => {
  const url = await rawServer(t, (_req, res) => {
    res.writeHead(200, { 'x-text-size': '3', 'x-more-data': 'true' });
    res.end(Buffer.from('ab\u00e9').subarray(0, 3));
  });
  t.strictSame(await jenkins.readLog(callOf(url), '8', 0, 64), { text: 'ab', nextOffset: 2, complete: false });
});

t.test('a log larger than the chunk is not read past it', async (t) => {
  // An endless log: the answer never ends, so only a reader that stops at maxBytes returns.
  let written = 0;
  const url = await rawServer(t, (req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain;charset=UTF-8', 'x-text-size': '0', 'x-more-data': 'true' });
    const line = Buffer.from('€'.repeat(1000));
    const write = (): void => {
      while (!res.destroyed && res.write(line)) written += line.length;
      if (!res.destroyed) res.once('drain', write);
    };
    req.socket.on('close', () => res.destroy());
    write();
  });
  const chunk = await jenkins.readLog(callOf(url), '8', 0, 1000);
  t.equal(Buffer.byteLength(chunk.text), 999, 'three-byte characters up to the limit');
  t.equal(chunk.nextOffset, 999);
  t.equal(chunk.complete, false);
  t.ok(written < 64 * 1024 * 1024, 'the reader stopped the answer');
});

t.test("schedules: the timer triggers' cron lines", async (t) => {
  const server = await jenkinsServer(t);
  t.strictSame(
    (await jenkins.listSchedules(callOf(server.url))).map((s) => [s.id, s.cron, s.branch, s.nextRunAt]),
    [
      ['timer-0', 'H 2 * * *', 'main', null],
      ['timer-1', 'H H(0-5) * * 6,7', 'main', null],
    ],
    'freestyle: poll-SCM triggers and comments are not schedules',
  );
  t.strictSame(
    (await jenkins.listSchedules(callOf(server.url, { repository: 'tally/web/main', job: 'main' }))).map((s) => [
      s.cron,
      s.description,
    ]),
    [['H 3 * * 1-5', 'TZ=Europe/Paris']],
    'pipeline: pipelineTriggers, with its time zone',
  );
  allDocumented(t, server);

  const several = [
    '<project><triggers>',
    '<hudson.triggers.TimerTrigger><spec>  # only comments\n\n</spec></hudson.triggers.TimerTrigger>',
    '<hudson.triggers.TimerTrigger><spec>H/30 * * * *\r\n@midnight\n  # off: 0 5 * * *\n',
    'H H 1,15 1-11 *</spec></hudson.triggers.TimerTrigger>',
    '<hudson.triggers.TimerTrigger><spec/></hudson.triggers.TimerTrigger>',
    '<hudson.triggers.TimerTrigger><spec>0 8 * * 1&#10;5 8 * * 1 &amp; more</spec></hudson.triggers.TimerTrigger>',
    '</triggers></project>',
  ].join('');
  t.strictSame(
    schedulesOf(several).map((s) => s.cron),
    ['H/30 * * * *', '@midnight', 'H H 1,15 1-11 *', '0 8 * * 1', '5 8 * * 1 & more'],
    'several triggers and lines, comments and blanks left out, entities read',
  );
  t.strictSame(schedulesOf('<project><triggers/></project>'), []);
});

t.test('a config.xml is read only up to its cap', async (t) => {
  const server = await jenkinsServer(t);
  const trigger = '<hudson.triggers.TimerTrigger><spec>H 4 * * *</spec></hudson.triggers.TimerTrigger>';
  server.once('GET', '/job/tally/job/tests/config.xml', {
    status: 200,
    body: `<project>${' '.repeat(CONFIG_MAX_BYTES)}${trigger}</project>`,
  });
  t.strictSame(await jenkins.listSchedules(callOf(server.url)), [], 'a trigger past the cap is not read');
});

t.test('faults are coded and never carry the token', async (t) => {
  const server = await jenkinsServer(t);
  const url = server.url;
  const cases: [string, CiFaultCode, () => Promise<unknown>][] = [
    ['401', 'ci_bad_token', () => jenkins.listRuns(callOf(url, { token: 'tally:not-the-token' }), { limit: 1 })],
    [
      '404',
      'ci_unknown_job',
      () => jenkins.listRuns(callOf(url, { repository: 'tally/gone', job: 'gone' }), { limit: 1 }),
    ],
    [
      '429',
      'ci_rate_limited',
      async () => {
        server.once('GET', '/job/tally/job/tests/config.xml', { status: 429, headers: { 'retry-after': '30' } });
        return jenkins.listSchedules(callOf(url));
      },
    ],
    [
      '500',
      'ci_provider_down',
      async () => {
        server.once('POST', '/job/tally/job/tests/buildWithParameters?BRANCH=main', { status: 500, body: 'oops' });
        return jenkins.startRun(callOf(url));
      },
    ],
    [
      // Jenkins' answer to buildWithParameters on a job without parameters.
      'a job without BRANCH (400)',
      'ci_unknown_job',
      async () => {
        server.once('POST', '/job/tally/job/tests/buildWithParameters?BRANCH=main', { status: 400, body: 'no params' });
        return jenkins.startRun(callOf(url));
      },
    ],
    [
      "a proxy's sign-in page instead of JSON",
      'ci_provider_down',
      async () => {
        server.once('GET', '/queue/item/42/api/json', { status: 200, body: '<html>Sign in</html>' });
        return jenkins.readLog(callOf(url), 'queue-42', 0, 64);
      },
    ],
    [
      'a dot segment',
      'ci_unknown_job',
      () => jenkins.startRun(callOf(url, { repository: 'tally/../tests', job: 'tests' })),
    ],
    ['refused', 'ci_provider_down', async () => jenkins.readLog(callOf(await closedPortUrl()), '7', 0, 64)],
    [
      'a token without its user',
      'ci_bad_token',
      () => jenkins.listRuns(callOf(url, { token: 'justatoken' }), { limit: 1 }),
    ],
    [
      'a job not in the repository',
      'ci_unknown_job',
      () => jenkins.listRuns(callOf(url, { job: 'other' }), { limit: 1 }),
    ],
  ];
  for (const [name, code, body] of cases) {
    const fault = await faultOf(body);
    t.equal(fault?.code, code, `${name}: ${code}`);
    for (const secret of [
      TOKEN,
      TOKEN.split(':')[1]!,
      'not-the-token',
      'justatoken',
      Buffer.from(TOKEN).toString('base64'),
    ])
      t.notOk(fault?.text.includes(secret), `${name}: no token in the fault`);
  }
  t.notOk(
    server.seen.some((s) => s.headers.authorization === `Basic ${Buffer.from('justatoken').toString('base64')}`),
    'a token without its user is never sent',
  );
  t.ok(
    server.seen.every((s) => !s.path.includes(TOKEN.split(':')[1]!)),
    'the token never travels in a URL',
  );
});

t.test('against a real Jenkins', async (t) => {
  const live = liveEnv(t, {
    prefix: 'TALLY_TEST_JENKINS',
    repository: 'TALLY_TEST_JENKINS_JOB',
    tokenHint: '(user:token)',
  });
  if (!live) return;
  const { url, token, repository } = live;
  const call: CiCall = {
    target: {
      url,
      repository,
      branch: process.env.TALLY_TEST_JENKINS_BRANCH ?? 'main',
      job: repository.split('/').pop()!,
      token,
    },
    fetch,
  };
  const checks = await checkProvider(jenkins, { call, downUrl: await closedPortUrl(), start: true });
  t.strictSame(
    checks.filter((c) => !c.ok),
    [],
    'no check fails',
  );
});
