/**
 * The CI context read from each system's environment, one table row per system with the variables
 * its documentation lists (the pages are cited in lib/client/ci-env.ts), including pull-request
 * jobs, where the branch must be the head branch and not the merge ref.
 */
import path from 'node:path';
import t from 'tap';
import { ciContext, ciFields, NO_CI, type CiContext, type Env } from '../../lib/client/ci-env.js';

const SHA = '9fceb02d0ae598e95dc970b74767f19372d61af8';
const MERGE_SHA = '1111111111111111111111111111111111111111';

const rows: { name: string; env: Env; want: CiContext }[] = [
  {
    name: 'GitHub Actions, a push',
    env: {
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_REPOSITORY: 'octo/app',
      GITHUB_RUN_ID: '1658821493',
      GITHUB_RUN_NUMBER: '42',
      GITHUB_REF: 'refs/heads/main',
      GITHUB_REF_NAME: 'main',
      GITHUB_HEAD_REF: '',
      GITHUB_SHA: SHA,
      GITHUB_JOB: 'test',
      GITHUB_WORKFLOW: 'CI',
    },
    want: {
      provider: 'github',
      build_number: '42',
      build_url: 'https://github.com/octo/app/actions/runs/1658821493',
      branch: 'main',
      commit: SHA,
      job: 'test',
      pull_request: null,
    },
  },
  {
    name: 'GitHub Actions, a pull request',
    env: {
      GITHUB_ACTIONS: 'true',
      GITHUB_SERVER_URL: 'https://github.example.com/',
      GITHUB_REPOSITORY: 'octo/app',
      GITHUB_RUN_ID: '77',
      GITHUB_RUN_NUMBER: '7',
      GITHUB_REF: 'refs/pull/12/merge',
      GITHUB_REF_NAME: '12/merge',
      GITHUB_HEAD_REF: 'feature/login',
      GITHUB_BASE_REF: 'main',
      GITHUB_SHA: MERGE_SHA,
      GITHUB_JOB: 'unit',
    },
    want: {
      provider: 'github',
      build_number: '7',
      build_url: 'https://github.example.com/octo/app/actions/runs/77',
      branch: 'feature/login',
      commit: MERGE_SHA,
      job: 'unit',
      pull_request: null,
    },
  },
  {
    name: 'Gitea Actions',
    env: {
      GITEA_ACTIONS: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_SERVER_URL: 'http://gitea.local:3000',
      GITHUB_REPOSITORY: 'team/svc',
      GITHUB_RUN_ID: '981',
      GITHUB_RUN_NUMBER: '5',
      GITHUB_REF_NAME: 'develop',
      GITHUB_SHA: SHA,
      GITHUB_JOB: 'build',
    },
    want: {
      provider: 'gitea',
      build_number: '5',
      build_url: 'http://gitea.local:3000/team/svc/actions/runs/5',
      branch: 'develop',
      commit: SHA,
      job: 'build',
      pull_request: null,
    },
  },
  {
    name: 'Forgejo Actions',
    env: {
      FORGEJO_ACTIONS: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_SERVER_URL: 'https://codeberg.org',
      GITHUB_REPOSITORY: 'team/svc',
      GITHUB_RUN_ID: '981',
      GITHUB_RUN_NUMBER: '6',
      GITHUB_REF_NAME: 'main',
      GITHUB_SHA: SHA.toUpperCase(),
      GITHUB_JOB: 'build',
    },
    want: {
      provider: 'forgejo',
      build_number: '6',
      build_url: 'https://codeberg.org/team/svc/actions/runs/6',
      branch: 'main',
      commit: SHA,
      job: 'build',
      pull_request: null,
    },
  },
  {
    name: 'GitLab CI, a branch pipeline',
    env: {
      GITLAB_CI: 'true',
      CI_PIPELINE_ID: '1000123',
      CI_PIPELINE_IID: '311',
      CI_PIPELINE_URL: 'https://gitlab.com/grp/app/-/pipelines/1000123',
      CI_JOB_URL: 'https://gitlab.com/grp/app/-/jobs/555',
      CI_COMMIT_BRANCH: 'main',
      CI_COMMIT_REF_NAME: 'main',
      CI_COMMIT_SHA: SHA,
      CI_JOB_NAME: 'rspec 1/3',
    },
    want: {
      provider: 'gitlab',
      build_number: '311',
      build_url: 'https://gitlab.com/grp/app/-/pipelines/1000123',
      branch: 'main',
      commit: SHA,
      job: 'rspec 1/3',
      pull_request: null,
    },
  },
  {
    name: 'GitLab CI, a merged-results pipeline',
    env: {
      GITLAB_CI: 'true',
      CI_PIPELINE_IID: '312',
      CI_PIPELINE_URL: 'https://gitlab.com/grp/app/-/pipelines/1000124',
      CI_COMMIT_REF_NAME: 'refs/merge-requests/9/merge',
      CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'fix/crash',
      CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: SHA,
      CI_MERGE_REQUEST_IID: '9',
      CI_COMMIT_SHA: MERGE_SHA,
      CI_JOB_NAME: 'test',
    },
    want: {
      provider: 'gitlab',
      build_number: '312',
      build_url: 'https://gitlab.com/grp/app/-/pipelines/1000124',
      branch: 'fix/crash',
      commit: SHA,
      job: 'test',
      pull_request: '9',
    },
  },
  {
    name: 'Jenkins, a freestyle job with the git plugin',
    env: {
      JENKINS_URL: 'https://ci.example.com/',
      BUILD_NUMBER: '128',
      BUILD_URL: 'https://ci.example.com/job/app/128/',
      JOB_NAME: 'app',
      GIT_COMMIT: SHA,
      GIT_BRANCH: 'origin/release/2.x',
    },
    want: {
      provider: 'jenkins',
      build_number: '128',
      build_url: 'https://ci.example.com/job/app/128/',
      branch: 'release/2.x',
      commit: SHA,
      job: 'app',
      pull_request: null,
    },
  },
  {
    name: 'Jenkins, a multibranch pull request',
    env: {
      JENKINS_URL: 'https://ci.example.com/',
      BUILD_NUMBER: '3',
      BUILD_URL: 'https://ci.example.com/job/app/job/PR-17/3/',
      JOB_NAME: 'app/PR-17',
      BRANCH_NAME: 'PR-17',
      CHANGE_ID: '17',
      CHANGE_BRANCH: 'feature/x',
      CHANGE_TARGET: 'main',
      GIT_COMMIT: SHA,
    },
    want: {
      provider: 'jenkins',
      build_number: '3',
      build_url: 'https://ci.example.com/job/app/job/PR-17/3/',
      branch: 'feature/x',
      commit: SHA,
      job: 'app/PR-17',
      pull_request: '17',
    },
  },
  {
    name: 'Buildkite, commit not yet resolved',
    env: {
      BUILDKITE: 'true',
      CI: 'true',
      BUILDKITE_BUILD_NUMBER: '1514',
      BUILDKITE_BUILD_URL: 'https://buildkite.com/acme/app/builds/1514',
      BUILDKITE_BRANCH: 'feature/y',
      BUILDKITE_PULL_REQUEST: '33',
      BUILDKITE_COMMIT: 'HEAD',
      BUILDKITE_LABEL: ':test_tube: Tests',
      BUILDKITE_PIPELINE_SLUG: 'app',
    },
    want: {
      provider: 'buildkite',
      build_number: '1514',
      build_url: 'https://buildkite.com/acme/app/builds/1514',
      branch: 'feature/y',
      commit: null,
      job: ':test_tube: Tests',
      pull_request: '33',
    },
  },
  {
    name: 'CircleCI',
    env: {
      CIRCLECI: 'true',
      CI: 'true',
      CIRCLE_BUILD_NUM: '2048',
      CIRCLE_BUILD_URL: 'https://circleci.com/gh/acme/app/2048',
      CIRCLE_BRANCH: 'main',
      CIRCLE_SHA1: SHA,
      CIRCLE_JOB: 'test',
      CIRCLE_PULL_REQUEST: 'https://github.com/acme/app/pull/88',
    },
    want: {
      provider: 'circleci',
      build_number: '2048',
      build_url: 'https://circleci.com/gh/acme/app/2048',
      branch: 'main',
      commit: SHA,
      job: 'test',
      pull_request: '88',
    },
  },
  {
    name: 'Azure Pipelines, a pull request',
    env: {
      TF_BUILD: 'True',
      SYSTEM_COLLECTIONURI: 'https://dev.azure.com/acme/',
      SYSTEM_TEAMPROJECT: 'My Project',
      BUILD_BUILDID: '4711',
      BUILD_BUILDNUMBER: '20261125.3',
      BUILD_SOURCEBRANCH: 'refs/pull/5/merge',
      BUILD_SOURCEBRANCHNAME: 'merge',
      BUILD_SOURCEVERSION: MERGE_SHA,
      SYSTEM_PULLREQUEST_SOURCEBRANCH: 'refs/heads/topic/nested',
      SYSTEM_PULLREQUEST_SOURCECOMMITID: SHA,
      SYSTEM_PULLREQUEST_PULLREQUESTNUMBER: '5',
      SYSTEM_JOBDISPLAYNAME: 'Run tests',
    },
    want: {
      provider: 'azure',
      build_number: '20261125.3',
      build_url: 'https://dev.azure.com/acme/My%20Project/_build/results?buildId=4711',
      branch: 'topic/nested',
      commit: SHA,
      job: 'Run tests',
      pull_request: '5',
    },
  },
  {
    name: 'Azure Pipelines, a branch build',
    env: {
      TF_BUILD: 'True',
      SYSTEM_COLLECTIONURI: 'https://dev.azure.com/acme/',
      SYSTEM_TEAMPROJECT: 'app',
      BUILD_BUILDID: '4712',
      BUILD_BUILDNUMBER: '20261125.4',
      BUILD_SOURCEBRANCH: 'refs/heads/feature/a',
      BUILD_SOURCEBRANCHNAME: 'a',
      BUILD_SOURCEVERSION: SHA,
      AGENT_JOBNAME: 'Job',
    },
    want: {
      provider: 'azure',
      build_number: '20261125.4',
      build_url: 'https://dev.azure.com/acme/app/_build/results?buildId=4712',
      branch: 'feature/a',
      commit: SHA,
      job: 'Job',
      pull_request: null,
    },
  },
  { name: 'no CI at all', env: { HOME: '/home/me', PATH: '/usr/bin' }, want: NO_CI },
  { name: 'GITHUB_ACTIONS not "true"', env: { GITHUB_ACTIONS: 'false', GITHUB_SHA: SHA }, want: NO_CI },
];

for (const row of rows)
  t.test(row.name, async (t) => {
    t.same(ciContext(row.env), row.want);
  });

t.test('a GitHub job without its repository has no run URL rather than a wrong one', async (t) => {
  const ctx = ciContext({ GITHUB_ACTIONS: 'true', GITHUB_RUN_ID: '1', GITHUB_REF_NAME: 'main' });
  t.equal(ctx.build_url, null);
  t.equal(ctx.branch, 'main');
});

t.test('a pull_request event: the head commit and the number from the event file', async (t) => {
  const dir = t.testdir({
    'event.json': JSON.stringify({ action: 'synchronize', pull_request: { number: 12, head: { sha: SHA } } }),
  });
  const env: Env = {
    GITHUB_ACTIONS: 'true',
    GITEA_ACTIONS: 'true',
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: path.join(dir, 'event.json'),
    GITHUB_HEAD_REF: 'feature/login',
    GITHUB_SHA: MERGE_SHA,
  };
  const ctx = ciContext(env);
  t.equal(ctx.commit, SHA, 'the head commit, not the merge commit GITHUB_SHA names');
  t.equal(ctx.pull_request, '12');
  t.equal(ctx.branch, 'feature/login');

  const push = ciContext({ ...env, GITHUB_EVENT_NAME: 'push' });
  t.equal(push.commit, MERGE_SHA, 'another event: the file is not read, GITHUB_SHA is the commit');
  t.equal(push.pull_request, null);

  const unreadable = ciContext({ ...env, GITHUB_EVENT_PATH: path.join(dir, 'missing.json') });
  t.equal(unreadable.commit, MERGE_SHA, 'an event file that cannot be read leaves GITHUB_SHA');
  t.equal(unreadable.pull_request, null);
  t.equal(ciContext(env, () => '{"pull_request": {"number": "x"}}').pull_request, null, 'a number must be one');
});

t.test('a request number is digits only', async (t) => {
  t.equal(ciContext({ BUILDKITE: 'true', BUILDKITE_PULL_REQUEST: 'false' }).pull_request, null);
  t.equal(ciContext({ CIRCLECI: 'true', CIRCLE_PULL_REQUEST: 'https://github.com/a/b' }).pull_request, null);
  t.equal(ciContext({ JENKINS_URL: 'https://ci', CHANGE_ID: '17' }).pull_request, '17');
});

t.test('ciFields names the import fields and leaves out what is unknown', async (t) => {
  t.same(ciFields({ ...NO_CI, provider: 'circleci', build_number: '9' }), [
    ['ci_provider', 'circleci'],
    ['ci_build_number', '9'],
  ]);
  t.same(ciFields(NO_CI), []);
});
