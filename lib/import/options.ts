/**
 * What every import run is given. Built whole, once, by `createImports` (index.ts) and frozen: the
 * queue runner's kick is in it from the start, and nothing changes it after.
 */
import type { Config } from '../config.js';
import type { Registry } from '../formatter/registry.js';
import type { Store } from '../store/store.js';
import type { ParsePool } from './parse/pool.js';

/** A completed import's report, told to whoever asked (the verdict back, lib/ci/verdict.ts). */
export interface CompletedImport {
  profileId: string;
  reportId: string;
  /** The base URL the answer's links use: the request's, or TALLY_PUBLIC_URL (may be empty when queued). */
  baseUrl: string;
}

export interface ImportDeps {
  readonly store: Store;
  readonly registry: Registry;
  readonly config: Config;
  /** Spool files (zips) go here. */
  readonly tmpDir: string;
  log(event: string, data: Record<string, unknown>): void;
  /** Told when an import was queued (process_async), so the queue runner picks it up at once. */
  onQueued(): void;
  /** Imports being answered: shutdown waits for them (and their clean-up) before closing the store. */
  readonly inflight: Set<Promise<unknown>>;
  /** Parse threads shared by all imports; null parses every file on the import thread. */
  readonly pool: ParsePool | null;
  /**
   * Told when an import completed, at request time and from the queue alike. It must return at
   * once and never throw into the import: what it starts runs after the answer, beside it.
   */
  readonly onCompleted?: (done: CompletedImport) => void;
}
