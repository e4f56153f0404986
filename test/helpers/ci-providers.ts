/**
 * CI providers made up for tests: a toy provider that routes and pages may name but never call, a
 * bearer-token GET for providers served by a test's own HTTP server, and the environment a live test
 * against a real GitLab or Jenkins reads (skipped with a line saying what to set when it is absent).
 */
import type { Test } from 'tap';
import { request, type CiCall, type CiProvider } from '../../lib/ci/api.js';

const unused = async (): Promise<never> => {
  throw new Error('not called by these tests');
};

/**
 * A provider registered only so links can name it. With `verdict` (the default) it has the verdict
 * methods, as a code host does; without, it is a build server that takes no verdict.
 */
export function toyProvider(key = 'toy', o: { verdict?: boolean } = {}): CiProvider {
  const provider: CiProvider = {
    key,
    title: 'Toy CI',
    docs: 'https://example.org/toy-ci',
    startRun: unused,
    listRuns: unused,
    readLog: unused,
    listSchedules: unused,
  };
  return o.verdict === false ? provider : { ...provider, setCommitStatus: unused, upsertComment: unused };
}

/** GET `path` on the link's URL with its token as a bearer token, as the test servers expect. */
export const bearerGet = (call: CiCall, path: string): Promise<Response> =>
  request(
    call,
    `${call.target.url}${path}`,
    { headers: { authorization: `Bearer ${call.target.token}` } },
    `GET ${path}`,
  );

/**
 * The URL, token and repository a live test reads from the environment (`<PREFIX>_URL`, `_TOKEN`
 * and the repository's variable), or null after a skipped pass naming what to set.
 */
export function liveEnv(
  t: Test,
  o: { prefix: string; repository: string; tokenHint?: string },
): { url: string; token: string; repository: string } | null {
  const url = process.env[`${o.prefix}_URL`];
  const token = process.env[`${o.prefix}_TOKEN`];
  const repository = process.env[o.repository];
  if (!url || !token || !repository) {
    const hint = o.tokenHint ? ` ${o.tokenHint}` : '';
    t.pass(`skipped: set ${o.prefix}_URL, ${o.prefix}_TOKEN${hint} and ${o.repository}`, { skip: true });
    return null;
  }
  return { url: url.replace(/\/+$/, ''), token, repository };
}
