/**
 * The formatters a parse thread can run, as the composition root names them: modules by URL, each
 * with the export that lists its formatters (`formatters/index.ts` → `builtinFormatters`). The pool
 * loads them too, so that it parses on a thread exactly the formatter objects a thread has.
 */
import type { Formatter } from '../../formatter/api.js';

/** A module of formatters, as plain data: it reaches a parse thread through `workerData`. */
export interface FormatterModule {
  /** URL of the module (`import.meta.resolve` of it, so tsx and dist resolve it alike). */
  url: string;
  /** The export holding its list of formatters. */
  exportName: string;
}

export async function loadFormatterModules(modules: readonly FormatterModule[]): Promise<Formatter[]> {
  const all: Formatter[] = [];
  for (const m of modules) {
    const list = ((await import(m.url)) as Record<string, unknown>)[m.exportName];
    if (!Array.isArray(list))
      throw new Error(`The formatter module ${m.url} has no export ${m.exportName} listing formatters.`);
    all.push(...(list as Formatter[]));
  }
  return all;
}
