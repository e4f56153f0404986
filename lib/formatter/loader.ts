/**
 * External formatters named in config (`TALLY_FORMATTERS=./my-formatters,tally-formatter-foo`) or
 * checked by `tally formatter check PATH`: a folder (a module itself, or a folder of formatter
 * folders), a module file, or an npm package. A spec that names an existing file or folder is a
 * path, `./` or not; any other spec is a package. Whatever they export that has the shape of a
 * Formatter goes through the same registry as the built-ins; a module that exports none is an error
 * with a precise sentence, which names where the spec came from.
 *
 * A plugin imports the API as `tally/formatter-api`, wherever it lives on disk: a resolve hook maps
 * that name to this Tally's own module, so a plugin needs no install of Tally beside it and shares
 * the running Tally's classes (`FormatError`).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Formatter } from './types.js';

const ENTRY_FILES = ['index.js', 'index.mjs', 'index.cjs'];

/** The name a plugin imports the formatter API by. */
export const FORMATTER_API_SPECIFIER = 'tally/formatter-api';

/** Where a spec came from, as error messages name it: the variable, or the command. */
export type SpecOrigin = 'TALLY_FORMATTERS' | 'tally formatter check';

export class FormatterLoadError extends Error {}

/** One module a spec named, and the formatters it exports. */
export interface LoadedModule {
  spec: string;
  /** The module file that was imported. */
  file: string;
  /** The formatter's folder: where its `fixtures/` sit. */
  dir: string;
  formatters: Formatter[];
}

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

const HOOK = `
let target;
export function initialize(data) { target = data; }
export async function resolve(specifier, context, next) {
  if (specifier === target.specifier) return { url: target.url, shortCircuit: true };
  return next(specifier, context);
}
`;

let apiMapped = false;

/** From now on `tally/formatter-api` is this Tally's formatter API, for every module the process imports. */
export function mapFormatterApi(): void {
  if (apiMapped) return;
  apiMapped = true;
  register(`data:text/javascript,${encodeURIComponent(HOOK)}`, {
    data: { specifier: FORMATTER_API_SPECIFIER, url: import.meta.resolve('./api.js') },
  });
}

/** A package's entry for `import`, read from its package.json (`exports`, then `main`, then index.js). */
function packageEntry(dir: string): string | null {
  const pkgFile = path.join(dir, 'package.json');
  if (!existsSync(pkgFile)) return null;
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { exports?: unknown; main?: string };
  const pick = (value: unknown): string | null => {
    if (typeof value === 'string') return value;
    if (Array.isArray(value)) return value.map(pick).find((v) => v !== null) ?? null;
    if (!value || typeof value !== 'object') return null;
    const map = value as Record<string, unknown>;
    if ('.' in map) return pick(map['.']);
    for (const condition of ['import', 'node', 'default']) if (condition in map) return pick(map[condition]);
    return null;
  };
  const target = pick(pkg.exports) ?? pkg.main ?? 'index.js';
  const file = path.resolve(dir, target);
  if (existsSync(file) && statSync(file).isFile()) return file;
  for (const name of ENTRY_FILES) if (existsSync(path.join(file, name))) return path.join(file, name);
  return null;
}

/** The module file of a folder that is a formatter itself (a package.json, or an index file), or null. */
function entryOf(dir: string): string | null {
  const fromPackage = packageEntry(dir);
  if (fromPackage) return fromPackage;
  for (const name of ENTRY_FILES) if (existsSync(path.join(dir, name))) return path.join(dir, name);
  return null;
}

/** The installed package a spec names, resolved from `cwd` as Node would for an import. */
function resolvePackage(spec: string, cwd: string, origin: SpecOrigin, full: string): { file: string; dir: string } {
  const require = createRequire(path.join(cwd, 'noop.js'));
  let file: string | null = null;
  try {
    file = require.resolve(spec);
  } catch {
    // An ES-only package exports no `require` entry: find its folder and read its `import` entry.
    const name = /^(@[^/]+\/[^/]+|[^/]+)/.exec(spec)?.[1] ?? spec;
    for (let dir = cwd; ; dir = path.dirname(dir)) {
      const candidate = path.join(dir, 'node_modules', name);
      if (existsSync(path.join(candidate, 'package.json'))) {
        file = spec === name ? packageEntry(candidate) : null;
        break;
      }
      if (path.dirname(dir) === dir) break;
    }
  }
  if (!file)
    throw new FormatterLoadError(
      `${origin}: ${spec} is neither a file or folder (there is no ${full}) nor an installed package`,
    );
  // Fixtures sit at the package's root, above whatever folder its entry is built into.
  let dir = path.dirname(file);
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return { file, dir };
}

/** The module files a spec names, each with its formatter's folder. */
export function resolveSpec(
  spec: string,
  cwd: string,
  origin: SpecOrigin = 'TALLY_FORMATTERS',
): { file: string; dir: string }[] {
  const full = path.resolve(cwd, spec);
  if (!existsSync(full)) {
    // `./x`, `../x`, `/x` can only be paths; `x` or `@scope/x` may be a package.
    if (/^\.{1,2}([/\\]|$)/.test(spec) || path.isAbsolute(spec))
      throw new FormatterLoadError(`${origin}: ${spec} does not exist (resolved to ${full})`);
    return [resolvePackage(spec, cwd, origin, full)];
  }
  if (statSync(full).isFile()) return [{ file: full, dir: path.dirname(full) }];
  const own = entryOf(full);
  if (own) return [{ file: own, dir: full }];
  const subfolders = readdirSync(full, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => ({ file: entryOf(path.join(full, d.name)), dir: path.join(full, d.name) }))
    .filter((e): e is { file: string; dir: string } => e.file !== null)
    .sort((a, b) => a.dir.localeCompare(b.dir));
  if (subfolders.length === 0)
    throw new FormatterLoadError(
      `${origin}: ${spec} has no index.js (or index.mjs, or a package.json) and no formatter folders with one`,
    );
  return subfolders;
}

/** Loads every module the specs name; each must export at least one formatter. */
export async function loadFormatterModules(
  specs: readonly string[],
  cwd = process.cwd(),
  origin: SpecOrigin = 'TALLY_FORMATTERS',
): Promise<LoadedModule[]> {
  if (specs.length > 0) mapFormatterApi();
  const out: LoadedModule[] = [];
  for (const spec of specs) {
    for (const { file, dir } of resolveSpec(spec, cwd, origin)) {
      let mod: Record<string, unknown>;
      try {
        mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      } catch (cause) {
        throw new FormatterLoadError(`${origin}: ${spec} could not be loaded (${file}): ${(cause as Error).message}`, {
          cause,
        });
      }
      const formatters = formattersOf(mod);
      if (formatters.length === 0)
        throw new FormatterLoadError(
          `${origin}: ${file} exports no formatter (an object with key, title, extensions, mediaTypes, sniff ` +
            `and parse)`,
        );
      out.push({ spec, file, dir, formatters });
    }
  }
  return out;
}

export async function loadFormatters(
  specs: readonly string[],
  cwd = process.cwd(),
  origin: SpecOrigin = 'TALLY_FORMATTERS',
): Promise<Formatter[]> {
  return (await loadFormatterModules(specs, cwd, origin)).flatMap((m) => m.formatters);
}
