/**
 * The provider against a real Gitea (scripts/gitea.ts): the conformance kit with a run started, then
 * what Gitea shows differently from GitHub. Gitea has no per-workflow run list (the repository's runs
 * are filtered to the workflow), keeps workflows under `.gitea/workflows/`, says 1970 for a time not
 * reached yet and has no log for a job not started. No Actions runner builds here, so a dispatched
 * run stays queued.
 */
import t from 'tap';
import { checkProvider } from '../../lib/ci/check.js';
import type { CiCall } from '../../lib/ci/api.js';
import { createRepoWithWorkflow, TEST_WORKFLOW } from '../../scripts/gitea.js';
import { freePort } from '../../scripts/mongo-wire.js';
import { FIRST_BUILD_TIMEOUT, giteaForTest } from '../../test/helpers/ci-servers.js';
import { github } from './index.js';

t.setTimeout(FIRST_BUILD_TIMEOUT);

t.test('the github provider against Gitea', async (t) => {
  const gitea = await giteaForTest(t);
  if (!gitea) return;
  const { fullName, workflow } = await createRepoWithWorkflow(gitea, { name: 'project' });
  // A second workflow on the same branch, run once: its runs must not show as the link's.
  await gitea.api('POST', `/repos/${fullName}/contents/.gitea/workflows/lint.yml`, {
    content: Buffer.from(TEST_WORKFLOW.replace('name: tests', 'name: lint')).toString('base64'),
    message: 'Add a second workflow',
    branch: 'main',
  });
  await gitea.api('POST', `/repos/${fullName}/actions/workflows/lint.yml/dispatches`, { ref: 'main' });
  const target = { url: gitea.url.replace(/\/$/, ''), repository: fullName, branch: 'main', job: workflow };
  const call: CiCall = { target: { ...target, token: gitea.token }, fetch };

  const checks = await checkProvider(github, { call, downUrl: `http://127.0.0.1:${await freePort()}`, start: true });
  for (const c of checks) t.ok(c.ok, `${c.name}${c.detail ? `: ${c.detail}` : ''}`);
  t.same(
    checks.map((c) => c.name),
    ['shape', 'startRun', 'listRuns', 'readLog', 'listSchedules', 'bad token', 'unknown job', 'provider down'],
    'every check ran, the log read too',
  );

  const runs = await github.listRuns(call, { limit: 5 });
  t.equal(runs.length, 1, "only the link's workflow's run");
  const [run] = runs;
  // Numbered per repository: the lint workflow's run was the first.
  t.match(run, { number: 2, status: 'queued', branch: 'main', startedAt: null, durationMs: null });
  t.match(run!.commit, /^[0-9a-f]{40}$/);
  t.equal(run!.webUrl, `${gitea.url}${fullName}/actions/runs/${run!.id}`);
  t.same(
    await github.readLog(call, run!.id, 0, 1024),
    { text: '', nextOffset: 0, complete: false },
    'a queued run has no log yet, and is not complete',
  );

  await t.rejects(github.readLog(call, '999', 0, 1024), { code: 'ci_unknown_job' }, "a run that doesn't exist");

  const schedules = await github.listSchedules(call);
  t.same(
    schedules.map((s) => [s.cron, s.branch]),
    [['30 2 * * *', 'main']],
    'the schedule of .gitea/workflows/tests.yml',
  );
});
