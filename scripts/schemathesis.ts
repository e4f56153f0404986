/**
 * Finds schemathesis (the property-based OpenAPI tester, from PyPI) for the contract test, and
 * installs it into a virtualenv under ~/.cache/tally/ on first use (python3 -m venv + pip).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** The major version the contract run was written against; a new major may rename options. */
export const SCHEMATHESIS_SPEC = 'schemathesis>=4.32,<5';

export async function schemathesisBinary(log: (line: string) => void = () => undefined): Promise<string> {
  const venv = path.join(process.env.TALLY_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'tally'), 'schemathesis');
  const bin = path.join(venv, 'bin', 'schemathesis');
  if (existsSync(bin)) return bin;
  log(`installing ${SCHEMATHESIS_SPEC} into ${venv}`);
  await mkdir(path.dirname(venv), { recursive: true });
  await run('python3', ['-m', 'venv', venv]);
  await run(path.join(venv, 'bin', 'pip'), ['install', '--quiet', SCHEMATHESIS_SPEC], { maxBuffer: 16 * 1024 * 1024 });
  if (!existsSync(bin)) throw new Error(`pip installed ${SCHEMATHESIS_SPEC} but ${bin} is missing`);
  return bin;
}
