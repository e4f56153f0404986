/**
 * What `tally upload`'s arguments name: a file, a directory (every file under it, at any depth), or
 * a glob. Hidden files and folders (`.git`, `.DS_Store`) are left out of directories and globs, as
 * a shell's glob would.
 */
import { statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { glob } from 'tinyglobby';

/** An argument that names no file: the step fails before anything is sent. */
export class NoFilesError extends Error {}

function statOf(file: string): Stats | null {
  try {
    return statSync(file);
  } catch {
    return null;
  }
}

/** Paths, directories and globs → files, in a stable order; an argument that matches nothing is an error. */
export async function expand(patterns: string[], cwd: string): Promise<string[]> {
  const files = new Set<string>();
  for (const p of patterns) {
    let matched: string[];
    let nothing = `no file matches ${p}`;
    if (/[*?[{]/.test(p)) matched = await glob(p, { cwd, absolute: true, onlyFiles: true, dot: false });
    else {
      const full = path.resolve(cwd, p);
      const stats = statOf(full);
      if (!stats) throw new NoFilesError(`${nothing} (there is no ${full})`);
      if (stats.isDirectory()) {
        matched = await glob('**/*', { cwd: full, absolute: true, onlyFiles: true, dot: false });
        nothing = `no file under the directory ${p}`;
      } else matched = [full];
    }
    // Only regular files: a glob may also name sockets or fifos, or files that vanished since.
    const existing = matched.map((m) => path.normalize(m)).filter((f) => statOf(f)?.isFile());
    if (existing.length === 0) throw new NoFilesError(nothing);
    for (const f of existing.sort()) files.add(f);
  }
  return [...files];
}
