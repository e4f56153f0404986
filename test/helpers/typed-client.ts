/**
 * The Go typed client (typed-client/main.go), built once with the machine's Go and cached in
 * `~/.cache/tally/typed-client-<hash>/` by the hash of its source and the Go version, as
 * scripts/mongo-wire.ts caches FerretDB. Null when Go is not installed; any other failure to build
 * is an error.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SOURCE = fileURLToPath(new URL('./typed-client/main.go', import.meta.url));

export async function typedClientBinary(): Promise<string | null> {
  const version = await run('go', ['version']).then(
    (r) => r.stdout.trim(),
    () => null,
  );
  if (version === null) return null;
  const source = await readFile(SOURCE);
  const hash = createHash('sha256').update(source).update(version).digest('hex').slice(0, 16);
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  const dir = path.join(cache, 'tally', `typed-client-${hash}`);
  const bin = path.join(dir, 'typed-client');
  if (existsSync(bin)) return bin;
  await mkdir(dir, { recursive: true });
  const work = await mkdtemp(path.join(dir, 'build-'));
  try {
    // Standard library only, so no module download; GOTOOLCHAIN=local keeps Go from fetching another.
    await run('go', ['build', '-o', path.join(work, 'typed-client'), SOURCE], {
      env: { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '', GO111MODULE: 'off' },
    });
    // Renamed into place whole: two test files building at once never run a half-written binary.
    await rename(path.join(work, 'typed-client'), bin);
    return bin;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
