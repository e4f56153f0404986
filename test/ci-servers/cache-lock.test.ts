/**
 * The build lock of the cached test servers (scripts/cache-lock.ts): two processes that want the
 * same cache at once build it once, and a lock left by a killed process is taken over.
 */
import t from 'tap';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { buildOnce } from '../../scripts/cache-lock.js';

const run = promisify(execFile);
const lockModule = fileURLToPath(new URL('../../scripts/cache-lock.ts', import.meta.url));

/** A process that builds `cache` (a file written after a pause) and counts its builds in `builds`. */
function builder(cache: string, builds: string): Promise<unknown> {
  const script = `
    import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
    import { buildOnce } from ${JSON.stringify(lockModule)};
    await buildOnce(${JSON.stringify(cache)}, {
      ready: () => (existsSync(${JSON.stringify(cache)}) ? true : null),
      build: async () => {
        appendFileSync(${JSON.stringify(builds)}, 'built\\n');
        await new Promise((r) => setTimeout(r, 1500));
        writeFileSync(${JSON.stringify(cache)}, 'done');
        return true;
      },
    });`;
  return run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]);
}

t.test('two processes wanting one cache build it once', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tally-lock-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const cache = path.join(dir, 'tool');
  const builds = path.join(dir, 'builds');
  await Promise.all([builder(cache, builds), builder(cache, builds), builder(cache, builds)]);
  t.equal(await readFile(builds, 'utf8'), 'built\n', 'one build for three processes');
  t.equal(await readFile(cache, 'utf8'), 'done');
});

t.test("a dead process's lock is taken over", async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tally-lock-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const cache = path.join(dir, 'tool');
  // A pid that is not running: a finished child's.
  const gone = await run(process.execPath, ['-p', 'process.pid']);
  await mkdir(`${cache}.lock`);
  await writeFile(`${cache}.lock/pid`, gone.stdout.trim());
  let built = 0;
  const got = await buildOnce(cache, {
    ready: () => null,
    build: async () => {
      built++;
      return 'fresh';
    },
  });
  t.equal(got, 'fresh');
  t.equal(built, 1);
});
