/**
 * The CI provider registry: the built-ins, one key each. A duplicate key or a malformed provider is
 * a start-up error with a precise sentence, as for formatters.
 */
import type { CiProvider } from './api.js';

export interface CiRegistry {
  all(): readonly CiProvider[];
  get(key: string): CiProvider | undefined;
}

const METHODS = ['startRun', 'listRuns', 'readLog', 'listSchedules'] as const;
/** Both or neither: a status without its comment (or the reverse) would be half a verdict. */
const VERDICT = ['setCommitStatus', 'upsertComment'] as const;

export function createCiRegistry(providers: readonly CiProvider[]): CiRegistry {
  const byKey = new Map<string, CiProvider>();
  for (const p of providers) {
    assertProvider(p);
    const existing = byKey.get(p.key);
    if (existing)
      throw new Error(
        `CI provider key "${p.key}" is registered twice ("${existing.title}" and "${p.title}"); keys must be unique`,
      );
    byKey.set(p.key, p);
  }
  const sorted = [...byKey.values()].sort((a, b) => a.key.localeCompare(b.key));
  return { all: () => sorted, get: (key) => byKey.get(key) };
}

export function assertProvider(p: CiProvider): void {
  const where = `CI provider ${JSON.stringify((p as { key?: unknown }).key ?? '(no key)')}`;
  if (typeof p.key !== 'string' || !/^[a-z0-9][a-z0-9-]*$/.test(p.key))
    throw new Error(`${where}: key must be lower-case letters, digits and dashes`);
  if (typeof p.title !== 'string' || !p.title) throw new Error(`${where}: title is missing`);
  if (typeof p.docs !== 'string' || !/^https:\/\//.test(p.docs)) throw new Error(`${where}: docs must be an https URL`);
  for (const m of METHODS)
    if (typeof (p as unknown as Record<string, unknown>)[m] !== 'function')
      throw new Error(`${where}: ${m} must be a function`);
  const verdict = VERDICT.filter((m) => (p as unknown as Record<string, unknown>)[m] !== undefined);
  if (verdict.length === 1) throw new Error(`${where}: setCommitStatus and upsertComment come together or not at all`);
  for (const m of verdict)
    if (typeof (p as unknown as Record<string, unknown>)[m] !== 'function')
      throw new Error(`${where}: ${m} must be a function`);
}

/** Whether the provider can send a verdict back (a commit status and a pull-request comment). */
export const sendsVerdict = (p: CiProvider): boolean => p.setCommitStatus !== undefined;
