/**
 * The CI context of an upload, read from the environment variables CI systems set for every job:
 * which system, which build (number and the URL of its page), the branch and commit tested, and the
 * job. `tally upload` and the served upload client send it as the `ci_*` fields of the import, so a
 * report says which run produced it. Anything a system does not say is null.
 *
 * On a pull or merge request the branch is the request's source (head) branch: the one a person
 * pushed to, not the merge ref the system builds; the commit is its head commit where the system
 * says it, and `pull_request` the request's number, so the verdict can go back to it.
 */
import { readFileSync } from 'node:fs';

export type Env = Readonly<Record<string, string | undefined>>;

export interface CiContext {
  provider: string | null;
  build_number: string | null;
  build_url: string | null;
  branch: string | null;
  commit: string | null;
  job: string | null;
  /** The pull or merge request's number (its IID on GitLab), as text. */
  pull_request: string | null;
}

export const NO_CI: CiContext = {
  provider: null,
  build_number: null,
  build_url: null,
  branch: null,
  commit: null,
  job: null,
  pull_request: null,
};

/** Reads the event file of a GitHub-like job; a test gives its own. */
export type ReadText = (path: string) => string;
const readText: ReadText = (path) => readFileSync(path, 'utf8');

/** The first of `values` that is set and not blank, trimmed. */
function first(...values: (string | undefined)[]): string | null {
  for (const v of values) if (v !== undefined && v.trim() !== '') return v.trim();
  return null;
}

/** `refs/heads/main` → `main`; Jenkins' `origin/main` → `main`. */
function branchName(ref: string | null): string | null {
  if (ref === null) return null;
  return ref.replace(/^refs\/heads\//, '').replace(/^origin\//, '') || null;
}

/** Buildkite may say `HEAD` before the commit is resolved: only a hex object name is a commit. */
function commitId(value: string | null): string | null {
  return value !== null && /^[0-9a-f]{7,64}$/i.test(value) ? value.toLowerCase() : null;
}

/** A request number: digits only (Buildkite says `false` outside a pull request). */
function requestNumber(value: string | null): string | null {
  return value !== null && /^[1-9][0-9]{0,9}$/.test(value) ? value : null;
}

/**
 * A pull_request event's number and head commit, from the event payload GitHub (and Gitea, Forgejo)
 * write to GITHUB_EVENT_PATH: on those events GITHUB_SHA is the merge commit the system made, not
 * the head commit that was pushed and that a status belongs on. Anything unreadable is left out.
 */
function pullRequestEvent(env: Env, read: ReadText): { number: string | null; head: string | null } {
  const none = { number: null, head: null };
  const event = first(env.GITHUB_EVENT_NAME);
  const path = first(env.GITHUB_EVENT_PATH);
  if (path === null || (event !== 'pull_request' && event !== 'pull_request_target')) return none;
  try {
    const payload = JSON.parse(read(path)) as { pull_request?: { number?: unknown; head?: { sha?: unknown } } };
    const pr = payload.pull_request;
    const number = typeof pr?.number === 'number' ? requestNumber(String(pr.number)) : null;
    const head = typeof pr?.head?.sha === 'string' ? commitId(pr.head.sha) : null;
    return { number, head };
  } catch {
    return none;
  }
}

function joinUrl(base: string | null, ...rest: string[]): string | null {
  return base === null ? null : `${base.replace(/\/+$/, '')}/${rest.join('/')}`;
}

/**
 * GitHub Actions, and Gitea and Forgejo Actions, which set the same GITHUB_* variables.
 * https://docs.github.com/en/actions/reference/workflows-and-actions/variables#default-environment-variables
 * https://docs.gitea.com/usage/actions/comparison (Gitea: GITEA_ACTIONS plus the GITHUB_* set)
 * https://forgejo.org/docs/latest/user/actions/reference/ (Forgejo: FORGEJO_ACTIONS plus GITHUB_*)
 */
function githubLike(env: Env, read: ReadText): CiContext | null {
  if (env.GITHUB_ACTIONS !== 'true') return null;
  const pull = pullRequestEvent(env, read);
  const provider = env.FORGEJO_ACTIONS === 'true' ? 'forgejo' : env.GITEA_ACTIONS === 'true' ? 'gitea' : 'github';
  const repo = first(env.GITHUB_REPOSITORY);
  // GitHub's run page is addressed by the run id; Gitea's and Forgejo's by the run's number in its
  // repository (their GITHUB_RUN_ID is a database id no page uses).
  const run = provider === 'github' ? first(env.GITHUB_RUN_ID) : first(env.GITHUB_RUN_NUMBER);
  const server = first(env.GITHUB_SERVER_URL) ?? (provider === 'github' ? 'https://github.com' : null);
  return {
    provider,
    build_number: first(env.GITHUB_RUN_NUMBER),
    build_url: repo && run ? joinUrl(server, repo, 'actions', 'runs', run) : null,
    // GITHUB_HEAD_REF is set only on pull_request events: the head branch; GITHUB_REF_NAME is then `42/merge`.
    branch: branchName(first(env.GITHUB_HEAD_REF, env.GITHUB_REF_NAME)),
    commit: pull.head ?? commitId(first(env.GITHUB_SHA)),
    job: first(env.GITHUB_JOB),
    pull_request: pull.number,
  };
}

/** GitLab CI. https://docs.gitlab.com/ci/variables/predefined_variables/ */
function gitlab(env: Env): CiContext | null {
  if (env.GITLAB_CI !== 'true') return null;
  return {
    provider: 'gitlab',
    // The pipeline's number within its project, as the pipeline list shows it.
    build_number: first(env.CI_PIPELINE_IID, env.CI_PIPELINE_ID),
    build_url: first(env.CI_PIPELINE_URL, env.CI_JOB_URL),
    branch: branchName(first(env.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME, env.CI_COMMIT_BRANCH, env.CI_COMMIT_REF_NAME)),
    // Set only in merged-results pipelines, where CI_COMMIT_SHA is the merge commit GitLab made.
    commit: commitId(first(env.CI_MERGE_REQUEST_SOURCE_BRANCH_SHA, env.CI_COMMIT_SHA)),
    job: first(env.CI_JOB_NAME),
    pull_request: requestNumber(first(env.CI_MERGE_REQUEST_IID)),
  };
}

/**
 * Jenkins. https://www.jenkins.io/doc/book/pipeline/jenkinsfile/#using-environment-variables
 * (BUILD_NUMBER, BUILD_URL, JOB_NAME, JENKINS_URL; BRANCH_NAME and CHANGE_BRANCH in multibranch
 * pipelines) and https://plugins.jenkins.io/git/#plugin-content-environment-variables (GIT_COMMIT,
 * GIT_BRANCH).
 */
function jenkins(env: Env): CiContext | null {
  if (first(env.JENKINS_URL) === null) return null;
  return {
    provider: 'jenkins',
    build_number: first(env.BUILD_NUMBER),
    build_url: first(env.BUILD_URL),
    branch: branchName(first(env.CHANGE_BRANCH, env.BRANCH_NAME, env.GIT_BRANCH)),
    commit: commitId(first(env.GIT_COMMIT)),
    job: first(env.JOB_NAME),
    // Multibranch pipelines: the change request's number (GitHub, Gitea, Bitbucket; GitLab's IID).
    pull_request: requestNumber(first(env.CHANGE_ID)),
  };
}

/** Buildkite. https://buildkite.com/docs/pipelines/configure/environment-variables */
function buildkite(env: Env): CiContext | null {
  if (env.BUILDKITE !== 'true') return null;
  return {
    provider: 'buildkite',
    build_number: first(env.BUILDKITE_BUILD_NUMBER),
    build_url: first(env.BUILDKITE_BUILD_URL),
    // On a pull request BUILDKITE_BRANCH is already the request's head branch.
    branch: branchName(first(env.BUILDKITE_BRANCH)),
    commit: commitId(first(env.BUILDKITE_COMMIT)),
    job: first(env.BUILDKITE_LABEL, env.BUILDKITE_PIPELINE_SLUG),
    pull_request: requestNumber(first(env.BUILDKITE_PULL_REQUEST)),
  };
}

/** CircleCI. https://circleci.com/docs/reference/variables/ */
function circleci(env: Env): CiContext | null {
  if (env.CIRCLECI !== 'true') return null;
  return {
    provider: 'circleci',
    build_number: first(env.CIRCLE_BUILD_NUM),
    build_url: first(env.CIRCLE_BUILD_URL),
    branch: branchName(first(env.CIRCLE_BRANCH)),
    commit: commitId(first(env.CIRCLE_SHA1)),
    job: first(env.CIRCLE_JOB),
    // The request's URL (…/pull/42); its number is the last segment.
    pull_request: requestNumber(first(env.CIRCLE_PULL_REQUEST)?.match(/\/(\d+)\/?$/)?.[1] ?? null),
  };
}

/**
 * Azure Pipelines. https://learn.microsoft.com/en-us/azure/devops/pipelines/build/variables
 * The build's page is `{collection}{project}/_build/results?buildId={id}`.
 */
function azure(env: Env): CiContext | null {
  if (first(env.TF_BUILD)?.toLowerCase() !== 'true') return null;
  const collection = first(env.SYSTEM_COLLECTIONURI);
  const project = first(env.SYSTEM_TEAMPROJECT);
  const id = first(env.BUILD_BUILDID);
  return {
    provider: 'azure',
    build_number: first(env.BUILD_BUILDNUMBER),
    build_url:
      collection && project && id
        ? joinUrl(collection, `${encodeURIComponent(project)}/_build/results?buildId=${encodeURIComponent(id)}`)
        : null,
    // BUILD_SOURCEBRANCHNAME is only the last segment of the name (feature/x → x): the full ref is used.
    branch: branchName(first(env.SYSTEM_PULLREQUEST_SOURCEBRANCH, env.BUILD_SOURCEBRANCH)),
    commit: commitId(first(env.SYSTEM_PULLREQUEST_SOURCECOMMITID, env.BUILD_SOURCEVERSION)),
    job: first(env.SYSTEM_JOBDISPLAYNAME, env.AGENT_JOBNAME),
    pull_request: requestNumber(first(env.SYSTEM_PULLREQUEST_PULLREQUESTNUMBER)),
  };
}

// Gitea and Forgejo are told apart inside githubLike; Jenkins is tried late since JENKINS_URL may
// leak into jobs of other systems started from a Jenkins agent's shell.
const READERS: ((env: Env, read: ReadText) => CiContext | null)[] = [
  githubLike,
  gitlab,
  buildkite,
  circleci,
  azure,
  jenkins,
];

/** The CI context of the job this process runs in: every field null outside CI. */
export function ciContext(env: Env = process.env, read: ReadText = readText): CiContext {
  for (const reader of READERS) {
    const ctx = reader(env, read);
    if (ctx) return ctx;
  }
  return { ...NO_CI };
}

/** The form fields of an import that carry `ctx`: `ci_provider`, `ci_build_number`, ... (set ones only). */
export function ciFields(ctx: CiContext): [string, string][] {
  return Object.entries(ctx)
    .filter((e): e is [string, string] => e[1] !== null)
    .map(([k, v]) => [`ci_${k}`, v]);
}
