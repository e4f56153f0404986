/**
 * `tally upload` in a GitHub Actions job: the runner's variables become the report's `ci`, and the
 * reports page links the run, shows the branch and the short commit, and filters by the branch.
 */
import t from 'tap';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTally } from './helpers/tally.js';
import { junitXml } from './helpers/junit.js';
import { TALLY } from './helpers/tally-command.js';
import { signedIn } from './helpers/web.js';

const exec = promisify(execFile);
const SHA = '9fceb02d0ae598e95dc970b74767f19372d61af8';
const RUN = 'https://github.com/octo/app/actions/runs/1658821493';

/** The environment without any CI system's variables (the suite itself may run in one). */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of Object.keys(env))
    if (/^(GITHUB_|GITEA_|FORGEJO_|GITLAB_|CI_|BUILDKITE|CIRCLE|TF_BUILD|SYSTEM_|BUILD_|JENKINS_|GIT_)/.test(k))
      delete env[k];
  return env;
}

t.test('tally upload in a GitHub Actions pull-request job', async (t) => {
  const h = await startTally(t);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tally-upload-ci-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeFile(path.join(dir, 'TEST-a.xml'), junitXml({ suite: 'a' }));
  // On a pull_request event GITHUB_SHA is the merge commit; the tested head is in the event file.
  const event = path.join(dir, 'event.json');
  await writeFile(event, JSON.stringify({ pull_request: { number: 12, head: { sha: SHA } } }));
  const github = {
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_REPOSITORY: 'octo/app',
    GITHUB_RUN_ID: '1658821493',
    GITHUB_RUN_NUMBER: '42',
    GITHUB_REF: 'refs/pull/12/merge',
    GITHUB_REF_NAME: '12/merge',
    GITHUB_HEAD_REF: 'feature/login',
    GITHUB_SHA: 'a'.repeat(40),
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: event,
    GITHUB_JOB: 'test',
  };
  const r = await exec(
    process.execPath,
    [...TALLY, 'upload', '--url', h.url, '--profile', h.profileId, '--formatter', 'junit', 'TEST-a.xml'],
    { cwd: dir, env: { ...cleanEnv(), ...github, TALLY_API_KEY: h.apiKey } },
  );
  t.match(r.stdout, /tally: github build 42 on feature\/login at 9fceb02d0ae5 \(pull request 12\)$/m);
  t.match(r.stdout, /tally: ok: HTTP 201, completed$/m);

  const [report] = await h.store.reports.list(h.profileId, { limit: 1 });
  const json = await h.send({ method: 'GET', path: `/api/v2/reports/${report!.number}` });
  t.same(json.json.ci, {
    provider: 'github',
    build_number: '42',
    build_url: RUN,
    branch: 'feature/login',
    commit: SHA,
    job: 'test',
    pull_request: 12,
  });

  // Outside CI nothing is sent: the report's ci is null.
  await exec(process.execPath, [...TALLY, 'upload', '--url', h.url, '--profile', h.profileId, 'TEST-a.xml'], {
    cwd: dir,
    env: { ...cleanEnv(), TALLY_API_KEY: h.apiKey },
  });
  const [plain] = await h.store.reports.list(h.profileId, { limit: 1 });
  t.not(plain!.id, report!.id);
  t.equal(plain!.ci, null);

  const { client } = await signedIn(h);
  const page = await client.get(`/profiles/${h.profileNumber}`);
  t.equal(page.status, 200);
  t.ok(page.text.includes(`href="${RUN}"`), 'the reports page links the run');
  t.match(page.text, />#42</, 'with its build number');
  t.match(page.text, /feature\/login/, 'the branch');
  t.match(page.text, />9fceb02</, 'the short commit');
  const filtered = await client.get(`/profiles/${h.profileNumber}?branch=feature%2Flogin`);
  t.ok(filtered.text.includes(`/reports/${report!.number}"`), 'the branch filter keeps its report');
  t.notOk(filtered.text.includes(`/reports/${plain!.number}"`), 'and leaves out the others');
  const one = await client.get(`/reports/${report!.number}`);
  t.ok(one.text.includes(`href="${RUN}"`), 'the report page links the run too');
});
