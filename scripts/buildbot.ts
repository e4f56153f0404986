/**
 * A Buildbot master and worker for the CI-provider tests: installed from PyPI into a virtualenv on
 * first use and cached under ~/.cache/tally/buildbot-<version>/, started in a temp dir with a
 * generated master.cfg (a force scheduler, a nightly scheduler, one builder whose first step prints a
 * line a second and second step a summary, one worker) on 127.0.0.1 and free ports. The web server
 * requires a login (user and password, HTTP basic on `/auth/login`) for every REST call, so a wrong
 * password is really refused. Nothing here is a fake: the provider talks to a real Buildbot over its
 * REST API.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildOnce } from './cache-lock.js';
import { freePort } from './mongo-wire.js';

const run = promisify(execFile);
export const BUILDBOT_VERSION = '4.3.0';
/** buildbot-www is the web app; the master refuses to serve its REST API (`/api/v2`) without it. */
const PACKAGES = ['buildbot', 'buildbot-worker', 'buildbot-www'].map((p) => `${p}==${BUILDBOT_VERSION}`);

export const BUILDER = 'lines';
export const FORCE_SCHEDULER = 'force';
export const NIGHTLY_SCHEDULER = 'nightly';
/**
 * The lines the builder's step prints, one a second: longer than the worker's 5 s output buffer, so a
 * log followed while the build runs shows some lines before the end.
 */
export const STEP_LINES = 12;
/**
 * A second step, after the lines: one line on stdout with characters of 2 and 3 bytes in UTF-8 and
 * one on stderr, so a build's log spans two steps and both of stdio's streams.
 */
export const SUMMARY_STEP = 'summary';
/**
 * A builder with no steps that only the nightly scheduler builds (Buildbot wants every builder driven
 * by one): a link naming it with the force scheduler is refused.
 */
export const IDLE_BUILDER = 'idle';
export const SUMMARY_STDOUT = `summary: ${STEP_LINES} lines ✓ (größe)`;
export const SUMMARY_STDERR = 'note: written to stderr';
/** The one web user; the master allows it everything and anyone else nothing. */
export const WWW_USER = 'tally';

export interface Buildbot {
  url: string;
  port: number;
  dir: string;
  /** The web login as a Tally link's token holds it: `user:password`. */
  token: string;
  /** GET on the REST API (`/api/v2` + path); throws on a non-2xx answer. */
  get<T = unknown>(apiPath: string): Promise<T>;
  /** Forces a build of the builder through the force scheduler; answers the buildset's id. */
  force(): Promise<number>;
  stop(): Promise<void>;
}

function cacheDir(): string {
  return path.join(
    process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'),
    'tally',
    `buildbot-${BUILDBOT_VERSION}`,
  );
}

/**
 * The virtualenv's bin folder: the cache, else made with python3 and pip. A marker written last
 * tells a finished install from an interrupted one, which is removed and made again.
 */
export async function buildbotVenv(log: (line: string) => void = () => undefined): Promise<string> {
  const venv = cacheDir();
  const binDir = path.join(venv, 'bin');
  const marker = path.join(venv, 'tally-installed');
  return buildOnce(venv, {
    ready: () => (existsSync(marker) ? binDir : null),
    build: () => installBuildbot(venv, binDir, marker, log),
    log,
  });
}

/** Makes the virtualenv (buildbotVenv holds the lock that makes this one install at a time). */
async function installBuildbot(
  venv: string,
  binDir: string,
  marker: string,
  log: (line: string) => void,
): Promise<string> {
  await run('python3', ['-m', 'venv', '--help']).catch(() => {
    throw new Error('python3 with its venv module is not installed, so Buildbot cannot be installed');
  });
  log(`installing Buildbot ${BUILDBOT_VERSION} from PyPI into ${venv} (first run only) …`);
  await rm(venv, { recursive: true, force: true });
  const step = async (cmd: string, args: string[]): Promise<void> => {
    await run(cmd, args, { maxBuffer: 64 * 1024 * 1024 }).catch((e: Error & { stderr?: string }) => {
      throw new Error(
        `installing Buildbot failed at \`${cmd} ${args.join(' ')}\`: ${(e.stderr || e.message).slice(-2000)}`,
      );
    });
  };
  await step('python3', ['-m', 'venv', venv]);
  await step(path.join(binDir, 'pip'), ['install', '--quiet', '--disable-pip-version-check', ...PACKAGES]);
  await writeFile(marker, `${PACKAGES.join('\n')}\n`);
  log(`Buildbot installed: ${binDir}`);
  return binDir;
}

function masterCfg(o: { wwwPort: number; pbPort: number; password: string; wwwPassword: string }): string {
  return `# Generated for Tally's tests.
from buildbot.plugins import schedulers, steps, util, worker

c = BuildmasterConfig = {}
c['title'] = 'Tally test'
c['buildbotURL'] = 'http://127.0.0.1:${o.wwwPort}/'
c['buildbotNetUsageData'] = None
c['db'] = {'db_url': 'sqlite:///state.sqlite'}
c['workers'] = [worker.Worker('local', '${o.password}')]
c['protocols'] = {'pb': {'port': 'tcp:${o.pbPort}:interface=127.0.0.1'}}
c['schedulers'] = [
    schedulers.ForceScheduler(name='${FORCE_SCHEDULER}', builderNames=['${BUILDER}']),
    schedulers.Nightly(
        name='${NIGHTLY_SCHEDULER}', builderNames=['${BUILDER}', '${IDLE_BUILDER}'], hour=2, minute=30,
    ),
]
factory = util.BuildFactory()
factory.addStep(steps.ShellCommand(
    name='print_lines',
    command=['sh', '-c', 'for i in $(seq 1 ${STEP_LINES}); do echo "line $i"; sleep 1; done'],
))
factory.addStep(steps.ShellCommand(
    name='${SUMMARY_STEP}',
    command=['sh', '-c', 'echo "${SUMMARY_STDOUT}"; echo "${SUMMARY_STDERR}" >&2'],
))
c['builders'] = [
    util.BuilderConfig(name='${BUILDER}', workernames=['local'], factory=factory),
    util.BuilderConfig(name='${IDLE_BUILDER}', workernames=['local'], factory=util.BuildFactory()),
]
c['www'] = {
    'port': 'tcp:${o.wwwPort}:interface=127.0.0.1',
    'plugins': {},
    'auth': util.UserPasswordAuth({'${WWW_USER}': '${o.wwwPassword}'}),
    # Every endpoint, reads included, needs the admins role, which only the logged-in user has.
    'authz': util.Authz(
        allowRules=[util.AnyEndpointMatcher(role='admins', defaultDeny=True)],
        roleMatchers=[util.RolesFromUsername(roles=['admins'], usernames=['${WWW_USER}'])],
    ),
}
`;
}

/**
 * Logs in as Buildbot's web interface does (HTTP basic on `/auth/login`) and answers the session
 * cookie to send with REST calls: Buildbot's REST API reads the user from that cookie only.
 */
export async function buildbotLogin(url: string, token: string): Promise<string> {
  const r = await fetch(`${url}auth/login`, {
    headers: { authorization: `Basic ${Buffer.from(token).toString('base64')}` },
    redirect: 'manual',
  });
  await r.body?.cancel();
  const cookie = r.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .filter((c) => c.startsWith('TWISTED_SESSION'))
    .at(-1);
  if (r.status >= 400 || !cookie) throw new Error(`Buildbot login: HTTP ${r.status}`);
  return cookie;
}

async function waitFor(what: string, ready: () => Promise<boolean>, alive: () => string | null): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const dead = alive();
    if (dead) throw new Error(dead);
    if (await ready().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} within 90 s`);
}

export async function startBuildbot(o: { log?: (line: string) => void } = {}): Promise<Buildbot> {
  const bin = await buildbotVenv(o.log);
  const [wwwPort, pbPort] = [await freePort(), await freePort()];
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tally-buildbot-'));
  const master = path.join(dir, 'master');
  const workerDir = path.join(dir, 'worker');
  const password = `w-${process.pid}-${Date.now()}`;
  const wwwPassword = `p-${randomBytes(9).toString('base64url')}`;
  const children: ChildProcess[] = [];
  let output = '';
  const keep = (c: Buffer): void => void (output = (output + c.toString()).slice(-20_000));
  const sh = async (cmd: string, args: string[]): Promise<void> => {
    await run(path.join(bin, cmd), args, { cwd: dir }).catch((e: Error & { stdout?: string; stderr?: string }) => {
      throw new Error(`${cmd} ${args[0]} failed: ${(e.stderr || e.stdout || e.message).slice(-2000)}`);
    });
  };
  const stop = async (): Promise<void> => {
    for (const child of children.reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await sh('buildbot', ['create-master', '--quiet', master]);
    await writeFile(path.join(master, 'master.cfg'), masterCfg({ wwwPort, pbPort, password, wwwPassword }));
    await sh('buildbot', ['checkconfig', master]);
    await sh('buildbot-worker', ['create-worker', '--quiet', workerDir, `127.0.0.1:${pbPort}`, 'local', password]);
    // --nodaemon keeps each one a child of this process, so stop() (or this process's end) ends it.
    // A step's log starts with the worker's whole environment: a test runner's (tap lists every test
    // file there) would make a build's log tens of KiB, read 64 bytes at a time by the log tests.
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? dir, LANG: 'C.UTF-8' };
    for (const [cmd, folder] of [
      ['buildbot', master],
      ['buildbot-worker', workerDir],
    ] as const) {
      const child = spawn(path.join(bin, cmd), ['start', '--nodaemon', folder], {
        cwd: dir,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', keep);
      child.stderr!.on('data', keep);
      children.push(child);
    }
    const url = `http://127.0.0.1:${wwwPort}/`;
    const token = `${WWW_USER}:${wwwPassword}`;
    const get = async <T>(apiPath: string): Promise<T> => {
      const cookie = await buildbotLogin(url, token);
      const r = await fetch(`${url}api/v2${apiPath}`, { headers: { accept: 'application/json', cookie } });
      const text = await r.text();
      if (!r.ok) throw new Error(`Buildbot GET ${apiPath}: ${r.status} ${text.slice(0, 500)}`);
      return JSON.parse(text) as T;
    };
    const exited = (): string | null => {
      const dead = children.find((c) => c.exitCode !== null);
      return dead ? `Buildbot exited (${dead.exitCode}): ${output.slice(-2000)}` : null;
    };
    // Ready when the REST API answers and the worker is attached, so a forced build starts at once.
    await waitFor(
      `Buildbot's REST API did not answer at ${url}api/v2/builders with its worker connected`,
      async () => {
        await get('/builders');
        const { workers } = await get<{ workers: { connected_to: unknown[] }[] }>('/workers');
        return workers.some((w) => w.connected_to.length > 0);
      },
      exited,
    );
    return {
      url,
      port: wwwPort,
      dir,
      token,
      get,
      async force() {
        const cookie = await buildbotLogin(url, token);
        const r = await fetch(`${url}api/v2/forceschedulers/${FORCE_SCHEDULER}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie },
          body: JSON.stringify({ jsonrpc: '2.0', method: 'force', id: 1, params: { builderNames: [BUILDER] } }),
        });
        const body = (await r.json()) as { result?: [number, unknown]; error?: { message: string } };
        if (!r.ok || !body.result) throw new Error(`Buildbot force: ${r.status} ${JSON.stringify(body).slice(0, 500)}`);
        return body.result[0];
      },
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
