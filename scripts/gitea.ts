/**
 * A Gitea server for the CI-provider tests: built from the Go module proxy on first use and cached
 * under ~/.cache/tally/gitea-<version>/, started from a generated app.ini (SQLite, install lock,
 * offline, Actions on, no mailer) in a temp dir on 127.0.0.1 and a free port, with an admin user and
 * an access token. Gitea serves the same Actions API as GitHub, so the `github` provider is tested
 * against it. Nothing here is a fake: the provider talks to a real Gitea over a socket.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildOnce } from './cache-lock.js';
import { freePort } from './mongo-wire.js';

const run = promisify(execFile);
export const GITEA_VERSION = 'v1.26.0';
const MODULE = 'code.gitea.io/gitea';
/** SQLite needs CGO; unlock_notify keeps concurrent writers from failing with "database is locked". */
const TAGS = 'sqlite sqlite_unlock_notify';

export interface Gitea {
  url: string;
  port: number;
  dir: string;
  admin: { username: string; password: string };
  /** An access token of the admin user with every scope. */
  token: string;
  /** Calls the REST API (`/api/v1` + path) as the admin user; throws on a non-2xx answer. */
  api<T = unknown>(method: string, apiPath: string, body?: unknown): Promise<T>;
  stop(): Promise<void>;
}

function cacheDir(): string {
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'tally', `gitea-${GITEA_VERSION}`);
}

/**
 * The Gitea binary and the folder it reads templates and options from: TALLY_GITEA_BIN (with its
 * folder as that root), else the cache, else built with Go. Gitea's go.mod has replace directives, so
 * `go install …@version` refuses it; the build runs inside the module's own source instead. Without
 * the `bindata` tag (which needs the frontend built with pnpm) Gitea reads templates and options from
 * disk, so they are copied next to the binary.
 */
export async function giteaBinary(
  log: (line: string) => void = () => undefined,
): Promise<{ bin: string; root: string }> {
  if (process.env.TALLY_GITEA_BIN)
    return { bin: process.env.TALLY_GITEA_BIN, root: path.dirname(process.env.TALLY_GITEA_BIN) };
  const root = cacheDir();
  const bin = path.join(root, 'gitea');
  return buildOnce(root, {
    ready: () => (existsSync(bin) ? { bin, root } : null),
    build: () => buildGitea(root, bin, log),
    log,
  });
}

/** Builds Gitea into `root` (giteaBinary holds the lock that makes this one build at a time). */
async function buildGitea(
  root: string,
  bin: string,
  log: (line: string) => void,
): Promise<{ bin: string; root: string }> {
  await run('go', ['version']).catch(() => {
    throw new Error('Go is not installed, so Gitea cannot be built (set TALLY_GITEA_BIN to a Gitea binary)');
  });
  log(`building Gitea ${GITEA_VERSION} with Go (first run only, several minutes) …`);
  const env = { ...process.env, CGO_ENABLED: '1' };
  const { stdout } = await run('go', ['mod', 'download', '-json', `${MODULE}@${GITEA_VERSION}`], {
    env,
    maxBuffer: 16 * 1024 * 1024,
  });
  const source = (JSON.parse(stdout) as { Dir: string }).Dir;
  const partial = `${root}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  const ldflags = `-X "main.Version=${GITEA_VERSION.slice(1)}" -X "main.Tags=${TAGS}"`;
  // A Go build on a shared machine: niced, so the rest of the machine stays usable.
  await run(
    'nice',
    ['-n', '10', 'go', 'build', '-tags', TAGS, '-ldflags', ldflags, '-o', path.join(partial, 'gitea'), '.'],
    {
      cwd: source,
      env,
      maxBuffer: 64 * 1024 * 1024,
    },
  ).catch((e: Error & { stderr?: string }) => {
    throw new Error(`building Gitea ${GITEA_VERSION} failed: ${(e.stderr || e.message).slice(-2000)}`);
  });
  for (const folder of ['templates', 'options', 'public']) {
    await cp(path.join(source, folder), path.join(partial, folder), { recursive: true });
  }
  await run('chmod', ['-R', 'u+w', partial]);
  await chmod(path.join(partial, 'gitea'), 0o755);
  // Renamed whole at the end, so an interrupted build never leaves a cache that looks complete.
  await rm(root, { recursive: true, force: true });
  await run('mv', [partial, root]);
  log(`Gitea built: ${bin}`);
  return { bin, root };
}

function appIni(o: { dir: string; root: string; port: number }): string {
  return `APP_NAME = Tally test Gitea
RUN_MODE = prod
RUN_USER = ${os.userInfo().username}
WORK_PATH = ${o.dir}

[server]
PROTOCOL = http
HTTP_ADDR = 127.0.0.1
HTTP_PORT = ${o.port}
DOMAIN = 127.0.0.1
ROOT_URL = http://127.0.0.1:${o.port}/
STATIC_ROOT_PATH = ${o.root}
APP_DATA_PATH = ${o.dir}/data
DISABLE_SSH = true
START_SSH_SERVER = false
OFFLINE_MODE = true
LFS_START_SERVER = false

[database]
DB_TYPE = sqlite3
PATH = ${o.dir}/data/gitea.db
SQLITE_JOURNAL_MODE = WAL

[repository]
ROOT = ${o.dir}/repositories
DEFAULT_BRANCH = main

[security]
INSTALL_LOCK = true
SECRET_KEY = ${'tally-test-secret-'.padEnd(40, 'x')}
INTERNAL_TOKEN = ${'tally-test-internal-token-'.padEnd(105, 'x')}
PASSWORD_HASH_ALGO = pbkdf2_hi

[oauth2]
ENABLED = false

[service]
DISABLE_REGISTRATION = true
REQUIRE_SIGNIN_VIEW = false
ENABLE_NOTIFY_MAIL = false

[mailer]
ENABLED = false

[actions]
ENABLED = true
DEFAULT_ACTIONS_URL = self

[cron]
ENABLED = false

[cron.update_checker]
ENABLED = false

[log]
MODE = console
LEVEL = Warn
ROOT_PATH = ${o.dir}/log
`;
}

async function waitForApi(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Gitea exited (${child.exitCode}): ${output().slice(-2000)}`);
    const ok = await fetch(`${url}api/v1/version`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`Gitea did not answer at ${url} within 60 s: ${output().slice(-2000)}`);
}

const ADMIN_FLAGS = ['--email', 'admin@tally.test', '--admin', '--must-change-password=false'];

export async function startGitea(o: { log?: (line: string) => void } = {}): Promise<Gitea> {
  const { bin, root } = await giteaBinary(o.log);
  const port = await freePort();
  const dir = await mkdtemp(path.join(existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'tally-gitea-'));
  const config = path.join(dir, 'app.ini');
  await writeFile(config, appIni({ dir, root, port }));
  // Gitea refuses to run as root unless told; test machines and CI containers often are root.
  const env = { ...process.env, GITEA_WORK_DIR: dir, GITEA_I_AM_BEING_UNSAFE_RUNNING_AS_ROOT: 'true', HOME: dir };
  const gitea = async (...args: string[]): Promise<string> => {
    try {
      return (await run(bin, ['--config', config, ...args], { env, cwd: dir })).stdout;
    } catch (e) {
      const err = e as Error & { stdout?: string; stderr?: string };
      throw new Error(
        `gitea ${args.slice(0, 3).join(' ')} failed: ${(err.stderr || err.stdout || err.message).slice(-2000)}`,
        { cause: e },
      );
    }
  };
  const admin = { username: 'tally-admin', password: 'tally-test-password-1' };
  try {
    await gitea('migrate');
    const user = ['--username', admin.username];
    await gitea('admin', 'user', 'create', ...user, '--password', admin.password, ...ADMIN_FLAGS);
    const tokenFlags = ['--token-name', 'tests', '--scopes', 'all', '--raw'];
    // Gitea's own log lines share stdout with the token; the token is the line of 40 hex digits.
    const printed = await gitea('admin', 'user', 'generate-access-token', ...user, ...tokenFlags);
    const token = printed
      .split('\n')
      .map((line) => line.trim())
      .find((line) => /^[0-9a-f]{40}$/.test(line));
    if (!token) throw new Error('gitea admin user generate-access-token printed no token');
    let output = '';
    const child = spawn(bin, ['--config', config, 'web'], { env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-20_000)));
    child.stderr!.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-20_000)));
    const url = `http://127.0.0.1:${port}/`;
    await waitForApi(url, child, () => output).catch(async (e: Error) => {
      child.kill('SIGKILL');
      throw e;
    });
    const api = async <T>(method: string, apiPath: string, body?: unknown): Promise<T> => {
      const r = await fetch(`${url}api/v1${apiPath}`, {
        method,
        headers: { authorization: `token ${token}`, 'content-type': 'application/json', accept: 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await r.text();
      if (!r.ok) throw new Error(`Gitea ${method} ${apiPath}: ${r.status} ${text.slice(0, 500)}`);
      return (text ? JSON.parse(text) : undefined) as T;
    };
    return {
      url,
      port,
      dir,
      admin,
      token,
      api,
      async stop() {
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise((r) => child.once('exit', r));
          child.kill('SIGTERM');
          await exited;
        }
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
}

/** A workflow Tally's tests start and list: dispatchable, on a nightly schedule, printing a few lines. */
export const TEST_WORKFLOW = `name: tests
on:
  workflow_dispatch:
  schedule:
    - cron: '30 2 * * *'
jobs:
  test:
    runs-on: host
    steps:
      - run: for i in 1 2 3 4 5; do echo "line $i"; sleep 1; done
`;

/**
 * Creates a repository of the admin user with a first commit on `main` and the workflow at
 * `.gitea/workflows/<file>`; answers the repository's full name.
 */
export async function createRepoWithWorkflow(
  gitea: Gitea,
  o: { name: string; file?: string; workflow?: string },
): Promise<{ owner: string; repo: string; fullName: string; workflow: string }> {
  const file = o.file ?? 'tests.yml';
  await gitea.api('POST', '/user/repos', { name: o.name, auto_init: true, default_branch: 'main', private: false });
  await gitea.api('POST', `/repos/${gitea.admin.username}/${o.name}/contents/.gitea/workflows/${file}`, {
    content: Buffer.from(o.workflow ?? TEST_WORKFLOW).toString('base64'),
    message: 'Add the test workflow',
    branch: 'main',
  });
  return { owner: gitea.admin.username, repo: o.name, fullName: `${gitea.admin.username}/${o.name}`, workflow: file };
}

/**
 * Opens a pull request from a new branch (cut from `main`, with one more commit) into `main`;
 * answers its number and head commit, on which a verdict is posted.
 */
export async function openPullRequest(
  gitea: Gitea,
  o: { fullName: string; branch: string; title?: string },
): Promise<{ number: number; headSha: string }> {
  await gitea.api('POST', `/repos/${o.fullName}/branches`, { new_branch_name: o.branch, old_branch_name: 'main' });
  await gitea.api('POST', `/repos/${o.fullName}/contents/CHANGE-${o.branch.replace(/\W/g, '-')}.md`, {
    content: Buffer.from(`A change on ${o.branch}\n`).toString('base64'),
    message: `Change on ${o.branch}`,
    branch: o.branch,
  });
  const pull = await gitea.api<{ number: number; head: { sha: string } }>('POST', `/repos/${o.fullName}/pulls`, {
    head: o.branch,
    base: 'main',
    title: o.title ?? `Change on ${o.branch}`,
  });
  return { number: pull.number, headSha: pull.head.sha };
}
