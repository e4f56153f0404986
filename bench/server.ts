/**
 * How the benchmarks start Tally: the way `npm start` does (same node flags, read from
 * package.json), plus BENCH_SERVER_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Node's arguments for `tally serve`, as `npm start` gives them. */
export function serveArgs(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const words = pkg.scripts.start.split(/\s+/).filter(Boolean);
  const script = words.indexOf('dist/bin/tally.js');
  if (words[0] !== 'node' || script < 0)
    throw new Error(`package.json "start" is not "node [flags] dist/bin/tally.js serve": ${pkg.scripts.start}`);
  const extra = (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean);
  return [...words.slice(1, script), ...extra, path.join(root, 'dist/bin/tally.js'), ...words.slice(script + 1)];
}
