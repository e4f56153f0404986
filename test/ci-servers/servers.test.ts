/**
 * The CI servers the provider tests use answer as the providers expect: Gitea with a repository whose
 * workflow can be dispatched (a run appears) and is scheduled, and a pull request that takes a commit
 * status and comments; Buildbot with a force scheduler, a
 * nightly scheduler and a build whose log lines can be read back.
 */
import t from 'tap';
import { BUILDER, FORCE_SCHEDULER, NIGHTLY_SCHEDULER, STEP_LINES } from '../../scripts/buildbot.js';
import { createRepoWithWorkflow, openPullRequest } from '../../scripts/gitea.js';
import { buildbotForTest, FIRST_BUILD_TIMEOUT, giteaForTest } from '../helpers/ci-servers.js';

t.setTimeout(FIRST_BUILD_TIMEOUT);

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

t.test('Gitea: a repository with a workflow, dispatched, and a pull request', async (t) => {
  const gitea = await giteaForTest(t);
  if (!gitea) return;
  const { fullName, workflow } = await createRepoWithWorkflow(gitea, { name: 'project' });

  const repo = await gitea.api<{ full_name: string; default_branch: string }>('GET', `/repos/${fullName}`);
  t.equal(repo.full_name, fullName);
  t.equal(repo.default_branch, 'main');
  const file = await gitea.api<{ content: string }>('GET', `/repos/${fullName}/contents/.gitea/workflows/${workflow}`);
  t.match(Buffer.from(file.content, 'base64').toString(), /cron: '30 2 \* \* \*'/, 'the workflow carries its schedule');

  const listed = await gitea.api<{ workflows: { id: string; path: string; state: string }[] }>(
    'GET',
    `/repos/${fullName}/actions/workflows`,
  );
  t.ok(
    listed.workflows.some((w) => w.path.endsWith(workflow)),
    'the Actions API lists the workflow',
  );

  await gitea.api('POST', `/repos/${fullName}/actions/workflows/${workflow}/dispatches`, { ref: 'main' });
  const run = await until('a run of the dispatched workflow', async () => {
    const runs = await gitea.api<{
      workflow_runs: { id: number; event: string; head_branch: string; status: string }[];
    }>('GET', `/repos/${fullName}/actions/runs`);
    return runs.workflow_runs.find((r) => r.event === 'workflow_dispatch');
  });
  t.equal(run.head_branch, 'main', 'the run is on the branch it was started on');
  t.ok(run.status, `the run has a status (${run.status})`);
  // No Actions runner builds here (see docs/testing.md), so the run waits: its log is not tested here.

  const pull = await openPullRequest(gitea, { fullName, branch: 'feature' });
  await gitea.api('POST', `/repos/${fullName}/statuses/${pull.headSha}`, {
    state: 'failure',
    context: 'tally',
    description: '3 passed, 1 failed',
  });
  const combined = await gitea.api<{ state: string; statuses: { context: string }[] }>(
    'GET',
    `/repos/${fullName}/commits/${pull.headSha}/status`,
  );
  t.equal(combined.state, 'failure', "the pull request's head commit takes a status");
  t.same(
    combined.statuses.map((s) => s.context),
    ['tally'],
  );
  await gitea.api('POST', `/repos/${fullName}/issues/${pull.number}/comments`, { body: 'Tally: 1 new failure' });
  const comments = await gitea.api<{ body: string }[]>('GET', `/repos/${fullName}/issues/${pull.number}/comments`);
  t.same(
    comments.map((c) => c.body),
    ['Tally: 1 new failure'],
    'the pull request takes a comment',
  );
});

t.test('Buildbot: schedulers, a forced build and its log', async (t) => {
  const buildbot = await buildbotForTest(t);
  if (!buildbot) return;
  const { builders } = await buildbot.get<{ builders: { builderid: number; name: string }[] }>('/builders');
  const builder = builders.find((b) => b.name === BUILDER);
  if (!builder) return t.fail(`no builder ${BUILDER}: ${JSON.stringify(builders)}`);
  const { schedulers } = await buildbot.get<{ schedulers: { name: string }[] }>('/schedulers');
  t.same(schedulers.map((s) => s.name).sort(), [FORCE_SCHEDULER, NIGHTLY_SCHEDULER].sort(), 'both schedulers');

  await buildbot.force();
  type Build = { buildid: number; complete: boolean; results: number | null };
  const started = await until('the forced build', async () => {
    const { builds } = await buildbot.get<{ builds: Build[] }>(`/builders/${builder.builderid}/builds`);
    return builds[0];
  });
  const stdio = await until("the running step's stdio log", async () => {
    const { steps } = await buildbot.get<{ steps: { stepid: number; name: string }[] }>(
      `/builds/${started.buildid}/steps`,
    );
    const step = steps.find((s) => s.name === 'print_lines');
    if (!step) return undefined;
    const { logs } = await buildbot.get<{ logs: { logid: number; slug: string }[] }>(`/steps/${step.stepid}/logs`);
    return logs.find((l) => l.slug === 'stdio');
  });

  // Followed as a live log is: only the lines after those already read, until the build ends. Asking
  // past the log's end is a 404, so the log's line count comes first.
  let text = '';
  let read = 0;
  const follow = async (): Promise<void> => {
    const { logs } = await buildbot.get<{ logs: { num_lines: number }[] }>(`/logs/${stdio.logid}`);
    if ((logs[0]?.num_lines ?? 0) <= read) return;
    const { logchunks } = await buildbot.get<{ logchunks: { firstline: number; content: string }[] }>(
      `/logs/${stdio.logid}/contents?offset=${read}`,
    );
    for (const chunk of logchunks) {
      if (chunk.firstline !== read) t.fail(`a chunk starts at line ${chunk.firstline}, not ${read}`);
      text += chunk.content;
      read += chunk.content.split('\n').length - 1;
    }
  };
  const linesRead = (): number => text.match(/^oline \d+$/gm)?.length ?? 0;
  const seenWhileRunning: number[] = [];
  const done = await until('the forced build to finish', async () => {
    const { builds } = await buildbot.get<{ builds: Build[] }>(`/builds/${started.buildid}`);
    await follow();
    if (!builds[0]?.complete) seenWhileRunning.push(linesRead());
    return builds[0]?.complete ? builds[0] : undefined;
  });
  t.equal(done.results, 0, 'the build succeeded');
  // The worker sends output every 5 s (buildbot-worker's buffer_timeout), so a step printing for longer
  // shows some lines, not all, while it runs.
  t.ok(
    seenWhileRunning.some((n) => n > 0 && n < STEP_LINES),
    `some lines were read while the build ran (${[...new Set(seenWhileRunning)].join(', ')})`,
  );
  // The last lines may land after the final poll: read the rest once the build is complete.
  await follow();
  // Buildbot keeps each stdio line with its stream's letter in front (o: stdout).
  for (let i = 1; i <= STEP_LINES; i++) t.match(text, new RegExp(`^o?line ${i}$`, 'm'), `log line ${i}`);
});
