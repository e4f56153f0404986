/**
 * The formatter registry: built-ins plus formatters named in config, one key each. A duplicate key
 * or a malformed formatter is a start-up error with a precise sentence.
 */
import type { Formatter, Head } from './types.js';

/** A score at or above this is a match. */
export const MATCH_THRESHOLD = 0.5;
/** Two matches closer than this are a tie: `multiple_formatter_match`. */
export const TIE_MARGIN = 0.1;

export interface Registry {
  all(): readonly Formatter[];
  get(key: string): Formatter | undefined;
  /** Formatters whose media types include the given one (raw-body import). */
  byMediaType(mediaType: string): Formatter[];
}

export function createRegistry(formatters: readonly Formatter[]): Registry {
  const byKey = new Map<string, Formatter>();
  for (const f of formatters) {
    assertFormatter(f);
    const existing = byKey.get(f.key);
    if (existing)
      throw new Error(
        `Formatter key "${f.key}" is registered twice ("${existing.title}" and "${f.title}"); keys must be unique`,
      );
    byKey.set(f.key, f);
  }
  const sorted = [...byKey.values()].sort((a, b) => a.key.localeCompare(b.key));
  return {
    all: () => sorted,
    get: (key) => byKey.get(key),
    byMediaType: (mediaType) => sorted.filter((f) => f.mediaTypes.includes(mediaType.toLowerCase())),
  };
}

function assertFormatter(f: Formatter): void {
  const where = `Formatter ${JSON.stringify((f as { key?: unknown }).key ?? '(no key)')}`;
  if (typeof f.key !== 'string' || !/^[a-z0-9][a-z0-9-]*$/.test(f.key))
    throw new Error(`${where}: key must be lower-case letters, digits and dashes`);
  if (typeof f.title !== 'string' || !f.title) throw new Error(`${where}: title is missing`);
  if (!Array.isArray(f.extensions) || !Array.isArray(f.mediaTypes))
    throw new Error(`${where}: extensions and mediaTypes must be arrays`);
  if (typeof f.sniff !== 'function' || typeof f.parse !== 'function')
    throw new Error(`${where}: sniff and parse must be functions`);
}

export type Vote =
  { kind: 'match'; formatter: Formatter; score: number } | { kind: 'none' } | { kind: 'tie'; formatters: Formatter[] };

/** A formatter's vote on a head; a sniff that throws (a plugin's bug) counts as 0. */
export function scoreOf(formatter: Formatter, head: Head): number {
  try {
    return formatter.sniff(head);
  } catch {
    return 0;
  }
}

/** Every candidate votes on the head; a sniff that throws counts as 0. */
export function vote(candidates: readonly Formatter[], head: Head): Vote {
  const scored: { formatter: Formatter; score: number }[] = [];
  for (const formatter of candidates) {
    const score = scoreOf(formatter, head);
    if (Number.isFinite(score) && score >= MATCH_THRESHOLD) scored.push({ formatter, score });
  }
  if (scored.length === 0) return { kind: 'none' };
  scored.sort((a, b) => b.score - a.score);
  const [best, next] = scored as [(typeof scored)[number], ...typeof scored];
  if (next && best.score - next.score < TIE_MARGIN) {
    return { kind: 'tie', formatters: scored.filter((s) => best.score - s.score < TIE_MARGIN).map((s) => s.formatter) };
  }
  return { kind: 'match', formatter: best.formatter, score: best.score };
}
