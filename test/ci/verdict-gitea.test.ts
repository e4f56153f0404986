/**
 * The verdict back against a real Gitea (scripts/gitea.ts), through the github provider: an import
 * on a pull request's head commit sets the commit status `tally/<profile>` and posts one comment on
 * the pull request; a second import (queued this time, with a test fixed and one newly failing)
 * edits the same comment. Test names that are HTML stay text once Gitea renders the comment. A
 * token Gitea refuses is one `ci.verdict_failed` line and the import still completes; the token is
 * in no answer and no log line. One Gitea for the whole file.
 */
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { github } from '../../ci-providers/github/index.js';
import { createRepoWithWorkflow, openPullRequest } from '../../scripts/gitea.js';
import { FIRST_BUILD_TIMEOUT, giteaForTest } from '../helpers/ci-servers.js';
import { junitXml } from '../helpers/junit.js';
import { field, file, multipart } from '../helpers/multipart.js';
import { startTally, type Harness, type Reply } from '../helpers/tally.js';

t.setTimeout(FIRST_BUILD_TIMEOUT);
const gitea = await giteaForTest(t);

type Case = { name: string; status?: 'passed' | 'failed' };

t.test('an import on a pull request sets the status and one comment; the next edits it', async (t) => {
  if (!gitea) return;
  const { fullName } = await createRepoWithWorkflow(gitea, { name: 'verdict' });
  const pull = await openPullRequest(gitea, { fullName, branch: 'feature' });

  const lines: string[] = [];
  const h = await startTally(t, {
    secretKey: randomBytes(32).toString('hex'),
    ciProviders: [github],
    log: (event, data) => lines.push(JSON.stringify({ event, ...data })),
  });
  const answers: Reply[] = [];
  const linked = await h.send({
    method: 'PUT',
    path: `/api/v2/profiles/${h.profileNumber}/ci`,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      provider: 'github',
      url: gitea.url,
      repository: fullName,
      branch: 'feature',
      job: 'tests.yml',
      token: gitea.token,
      verdict: true,
    }),
  });
  answers.push(linked);
  t.equal(linked.status, 200);
  t.equal(linked.json.verdict, true);

  const upload = async (cases: Case[], query = '') => {
    const { body, contentType } = multipart([
      field('ci_provider', 'gitea'),
      field('ci_branch', 'feature'),
      field('ci_commit', pull.headSha),
      field('ci_pull_request', String(pull.number)),
      file('file[]', 'TEST-web.xml', junitXml({ suite: 'web', cases })),
    ]);
    const r = await h.send({
      path: `/api/v2/profile/${h.profileId}/import/junit${query}`,
      headers: { 'content-type': contentType },
      body,
    });
    answers.push(r);
    return r;
  };
  const settled = async () => {
    await h.tally.queue.idle();
    await h.tally.verdicts.idle();
  };
  const status = () =>
    gitea.api<{
      state: string;
      statuses: { context: string; status: string; description: string; target_url: string }[];
    }>('GET', `/repos/${fullName}/commits/${pull.headSha}/status`);
  const comments = () =>
    gitea.api<{ id: number; body: string }[]>('GET', `/repos/${fullName}/issues/${pull.number}/comments`);

  // JUnit names are XML attributes: the test is called `<img src=x> | cell`.
  const html = '&lt;img src=x&gt; | cell';
  const first = await upload([
    { name: 'logs in' },
    { name: 'logs out', status: 'failed' },
    { name: 'renders', status: 'failed' },
    { name: html, status: 'failed' },
  ]);
  t.equal(first.status, 201, 'the import completes');
  await settled();

  const s1 = await status();
  t.equal(s1.state, 'failure');
  t.same(
    s1.statuses.map((s) => [s.context, s.status, s.description]),
    [['tally/main', 'failure', '1 passed, 3 failed']],
    'one status, tally/<profile>, with the counts',
  );
  t.equal(s1.statuses[0]!.target_url, `${h.url}/reports/${first.json.report_id}`, 'linking the report');

  const c1 = await comments();
  t.equal(c1.length, 1, 'one comment on the pull request');
  const body1 = c1[0]!.body;
  t.match(body1, `tally-verdict profile=${h.profileNumber} branch=feature`, 'its marker');
  t.match(body1, '#### New failures (3)');
  t.match(body1, 'No earlier report of this branch');
  t.match(body1, `[\`web › logs out\`](${h.url}/reports/${first.json.report_id}/nodes/`);
  t.match(body1, '#### Fixed (0)');

  const rendered = await fetch(`${gitea.url}api/v1/markdown`, {
    method: 'POST',
    headers: { authorization: `token ${gitea.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ Text: body1, Mode: 'comment', Context: fullName }),
  }).then((r) => r.text());
  t.notMatch(rendered, /<img/i, 'Gitea renders the HTML test name as text');
  t.match(rendered, /<code>web › &lt;img src=x&gt; \| cell<\/code>/, 'inside a code span, its | too');

  // Queued this time: `logs out` fixed, `renders` still failing, `logs in` newly failing.
  const second = await upload(
    [
      { name: 'logs in', status: 'failed' },
      { name: 'logs out' },
      { name: 'renders', status: 'failed' },
      { name: html, status: 'failed' },
    ],
    '?process_async=true',
  );
  t.equal(second.status, 202);
  await settled();

  const c2 = await comments();
  t.equal(c2.length, 1, 'still exactly one comment');
  t.equal(c2[0]!.id, c1[0]!.id, 'the same one, edited');
  const body2 = c2[0]!.body;
  t.not(body2, body1, 'with a new body');
  t.match(body2, `compared with [report #${first.json.report_id}]`);
  t.match(body2, /#### New failures \(1\)\n- \[`web › logs in`\]/);
  t.match(body2, /#### Fixed \(1\)\n- \[`web › logs out`\]/);
  t.match(body2, '#### Flaky (0)');
  const s2 = await status();
  t.equal(s2.statuses.length, 1, 'the status of the context is replaced, not added');
  t.equal(s2.statuses[0]!.target_url, `${h.url}/reports/${second.json.report_id}`, 'now linking the new report');
  t.equal(lines.filter((l) => l.includes('"event":"ci.verdict_sent"')).length, 2, 'ci.verdict_sent, twice');

  // A token Gitea refuses: the import completes, the fault is one line with its code.
  const relinked = await h.send({
    method: 'PUT',
    path: `/api/v2/profiles/${h.profileNumber}/ci`,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      provider: 'github',
      url: gitea.url,
      repository: fullName,
      branch: 'feature',
      job: 'tests.yml',
      token: 'f'.repeat(40),
      verdict: true,
    }),
  });
  answers.push(relinked);
  const third = await upload([{ name: 'logs in' }]);
  t.equal(third.status, 201, 'the import completes whatever the provider says');
  await settled();
  const failed = lines.filter((l) => l.includes('"event":"ci.verdict_failed"'));
  t.equal(failed.length, 2, 'one line for the status, one for the comment');
  for (const l of failed) t.match(JSON.parse(l), { code: 'ci_bad_token', report_id: third.json.report_id });
  t.equal((await comments())[0]!.body, body2, 'the comment is as it was');

  for (const r of answers) t.notOk(r.text.includes(gitea.token), `no answer carries the token (${r.status})`);
  t.notOk(lines.join('\n').includes(gitea.token), 'no log line carries the token');
  t.notOk(lines.join('\n').includes('f'.repeat(40)), 'nor the refused one');
});

t.test('no verdict without the opt-in, or without a commit', async (t) => {
  if (!gitea) return;
  const { fullName } = await createRepoWithWorkflow(gitea, { name: 'quiet' });
  const pull = await openPullRequest(gitea, { fullName, branch: 'feature' });
  const h: Harness = await startTally(t, { secretKey: randomBytes(32).toString('hex'), ciProviders: [github] });
  const link = {
    provider: 'github',
    url: gitea.url,
    repository: fullName,
    branch: 'feature',
    job: 'tests.yml',
    token: gitea.token,
  };
  const put = (verdict: boolean) =>
    h.send({
      method: 'PUT',
      path: `/api/v2/profiles/${h.profileNumber}/ci`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...link, verdict }),
    });
  const upload = async (fields: [string, string][]) => {
    const { body, contentType } = multipart([
      ...fields.map(([n, v]) => field(n, v)),
      file('file[]', 'TEST-a.xml', junitXml()),
    ]);
    const r = await h.send({
      path: `/api/v2/profile/${h.profileId}/import/junit`,
      headers: { 'content-type': contentType },
      body,
    });
    t.equal(r.status, 201);
    await h.tally.verdicts.idle();
  };
  t.equal((await put(false)).status, 200);
  await upload([
    ['ci_commit', pull.headSha],
    ['ci_pull_request', String(pull.number)],
  ]);
  t.equal((await put(true)).status, 200);
  await upload([['ci_pull_request', String(pull.number)]]);
  const s = await gitea.api<{ statuses: unknown[] | null }>('GET', `/repos/${fullName}/commits/${pull.headSha}/status`);
  t.same(s.statuses ?? [], [], 'no status: opt-in off, then no commit');
  t.same(await gitea.api('GET', `/repos/${fullName}/issues/${pull.number}/comments`), [], 'no comment');
});
