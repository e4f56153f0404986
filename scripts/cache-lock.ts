/**
 * One builder at a time for a cached tool (Gitea, Buildbot, ...): tap runs test files in parallel,
 * and on a cold machine two of them would otherwise build the same cache folder at once, each
 * removing what the other is writing. The lock is a folder made beside the cache (mkdir is atomic)
 * holding the owner's pid; a lock whose owner is gone (a killed test run) is taken over.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const POLL_MS = 2_000;

/** Where a cached tool lives: `~/.cache/tally/<name>` (or under XDG_CACHE_HOME). */
export function toolCache(name: string): string {
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'tally', name);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function ownerOf(lock: string): Promise<number | null> {
  const text = await readFile(`${lock}/pid`, 'utf8').catch(() => '');
  const pid = Number.parseInt(text, 10);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/**
 * Runs `build` holding the lock `<cache>.lock`, after `ready()` said the cache is not there yet;
 * a caller that waited for another builder finds the cache ready and does not build again.
 */
export async function buildOnce<T>(
  cache: string,
  o: { ready(): T | null; build(): Promise<T>; log?: (line: string) => void },
): Promise<T> {
  const lock = `${cache}.lock`;
  let told = false;
  let unowned = 0;
  await mkdir(path.dirname(lock), { recursive: true });
  for (;;) {
    const done = o.ready();
    if (done !== null) return done;
    try {
      await mkdir(lock);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const owner = await ownerOf(lock);
      // A lock without a pid was just made (its pid follows at once), or its maker died in between.
      unowned = owner === null ? unowned + 1 : 0;
      if ((owner !== null && owner !== process.pid && !alive(owner)) || unowned > 2) {
        await rm(lock, { recursive: true, force: true });
        continue;
      }
      if (!told) o.log?.(`waiting for another process (pid ${owner ?? '?'}) that is building ${cache} …`);
      told = true;
      await sleep(POLL_MS);
      continue;
    }
    try {
      await writeFile(`${lock}/pid`, String(process.pid));
      return o.ready() ?? (await o.build());
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
  }
}
