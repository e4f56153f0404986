/**
 * What every import run is given. Built whole, once, by `createImports` (index.ts) and frozen: the
 * queue runner's kick is in it from the start, and nothing changes it after.
 */
import type { Config } from '../config.js';
import type { Registry } from '../formatter/registry.js';
import type { Store } from '../store/store.js';
import type { ParsePool } from './parse/pool.js';

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
}
