/**
 * The table bench/formatters.ts runs: every built-in formatter of the registry with the bench
 * generator its folder owns (formatters/<key>/generate.ts, built on bench/cases.ts). No list of
 * formats is kept here: a format's folder and its registry line put it in the bench.
 */
import { builtinFormatters } from '../formatters/index.js';
import type { Formatter } from '../lib/formatter/api.js';
import type { FormatGenerator } from './cases.js';

export type { FormatGenerator } from './cases.js';

/** The generator in a built-in formatter's folder; null when the folder has no generate.ts. */
export async function generatorOf(key: string): Promise<FormatGenerator | null> {
  const url = new URL(`../formatters/${key}/generate.js`, import.meta.url);
  try {
    return ((await import(url.href)) as { generator?: FormatGenerator }).generator ?? null;
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_MODULE_NOT_FOUND') return null;
    throw e;
  }
}

/** Each built-in formatter, in registry order, with its generator (null when it has none). */
export async function formatGenerators(): Promise<{ formatter: Formatter; generator: FormatGenerator | null }[]> {
  return Promise.all(
    builtinFormatters.map(async (formatter) => ({ formatter, generator: await generatorOf(formatter.key) })),
  );
}
