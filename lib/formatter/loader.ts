/**
 * External formatters named in config (`TALLY_FORMATTERS=./my-formatters,tally-formatter-foo`):
 * a folder (a module itself, or a folder of formatter folders) or an npm package. Whatever they
 * export that has the shape of a Formatter goes through the same registry as the built-ins; a
 * module that exports none is a start-up error with a precise sentence.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Formatter } from './types.js';

const ENTRY_FILES = ['index.js', 'index.mjs', 'index.cjs'];

function looksLikeFormatter(value: unknown): value is Formatter {
  const f = value as Partial<Formatter> | null;
  return (
    !!f &&
    typeof f === 'object' &&
    typeof f.key === 'string' &&
    typeof f.sniff === 'function' &&
    typeof f.parse === 'function'
  );
}

/** Formatter objects among a module's exports: `default`, named exports, or an exported array. */
export function formattersOf(mod: Record<string, unknown>): Formatter[] {
  const found = new Set<Formatter>();
  const visit = (value: unknown): void => {
    if (looksLikeFormatter(value)) found.add(value);
    else if (Array.isArray(value)) value.forEach(visit);
  };
  for (const value of Object.values(mod)) visit(value);
  if (mod.default && typeof mod.default === 'object')
    for (const value of Object.values(mod.default as object)) visit(value);
  return [...found];
}

function entryOf(dir: string): string | null {
  if (existsSync(path.join(dir, 'package.json'))) return dir;
  for (const name of ENTRY_FILES) if (existsSync(path.join(dir, name))) return path.join(dir, name);
  return null;
}

/** Module files or package folders a spec names. */
export function resolveSpec(spec: string, cwd: string): string[] {
  const isPath = spec.startsWith('.') || spec.startsWith('/') || path.isAbsolute(spec);
  if (!isPath) return [createRequire(path.join(cwd, 'noop.js')).resolve(spec)];
  const full = path.resolve(cwd, spec);
  if (!existsSync(full)) throw new Error(`TALLY_FORMATTERS: ${spec} does not exist (resolved to ${full})`);
  if (statSync(full).isFile()) return [full];
  const own = entryOf(full);
  if (own) return [own];
  const subfolders = readdirSync(full, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => entryOf(path.join(full, d.name)))
    .filter((e): e is string => e !== null);
  if (subfolders.length === 0)
    throw new Error(`TALLY_FORMATTERS: ${spec} has no index.js and no formatter folders with one`);
  return subfolders.sort();
}

export async function loadFormatters(specs: readonly string[], cwd = process.cwd()): Promise<Formatter[]> {
  const out: Formatter[] = [];
  for (const spec of specs) {
    for (const entry of resolveSpec(spec, cwd)) {
      const target = statSync(entry).isDirectory() ? createRequire(path.join(entry, 'noop.js')).resolve(entry) : entry;
      let mod: Record<string, unknown>;
      try {
        mod = (await import(pathToFileURL(target).href)) as Record<string, unknown>;
      } catch (cause) {
        throw new Error(`TALLY_FORMATTERS: ${spec} could not be loaded (${target}): ${(cause as Error).message}`, {
          cause,
        });
      }
      const found = formattersOf(mod);
      if (found.length === 0)
        throw new Error(`TALLY_FORMATTERS: ${target} exports no formatter (an object with key, sniff and parse)`);
      out.push(...found);
    }
  }
  return out;
}
