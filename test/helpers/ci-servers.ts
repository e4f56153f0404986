/**
 * The real CI servers the provider tests run against (scripts/gitea.ts, scripts/buildbot.ts), started
 * for one test and stopped at its end. A server that cannot be built or started here fails the test
 * with the reason, never a silent skip; `TALLY_TEST_SKIP_<NAME>=1` (GITEA, BUILDBOT) skips it on
 * purpose, with a line saying so.
 */
import type { Test } from 'tap';
import { startBuildbot, type Buildbot } from '../../scripts/buildbot.js';
import { startGitea, type Gitea } from '../../scripts/gitea.js';

/** Long enough for a first Gitea build on two cores; a cached start takes seconds. */
export const FIRST_BUILD_TIMEOUT = 30 * 60_000;

async function ciServer<S extends { stop(): Promise<void> }>(
  t: Test,
  name: 'GITEA' | 'BUILDBOT',
  label: string,
  start: (log: (line: string) => void) => Promise<S>,
): Promise<S | null> {
  const skip = `TALLY_TEST_SKIP_${name}`;
  if (process.env[skip] === '1') {
    t.pass(`${label} tests skipped: ${skip}=1`, { skip: true });
    return null;
  }
  try {
    const server = await start((line) => t.comment(line));
    t.teardown(() => server.stop());
    return server;
  } catch (e) {
    t.fail(`${label} cannot be started here (set ${skip}=1 to skip on purpose): ${(e as Error).message}`);
    return null;
  }
}

export const giteaForTest = (t: Test): Promise<Gitea | null> =>
  ciServer(t, 'GITEA', 'Gitea', (log) => startGitea({ log }));

export const buildbotForTest = (t: Test): Promise<Buildbot | null> =>
  ciServer(t, 'BUILDBOT', 'Buildbot', (log) => startBuildbot({ log }));
