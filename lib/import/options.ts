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

/** An import that ended, told to whoever asked (notifications, lib/notify/sender.ts). */
export interface EndedImport {
  profileId: string;
  importId: string;
  /** The completed import's report; null when it failed. */
  reportId: string | null;
  outcome: 'completed' | 'failed';
  /** The import's `suppress_notifications`. */
  suppressNotifications: boolean;
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
  /**
   * Told when an import ended, completed or failed, after its record says so and before its answer:
   * awaited, so it must be one small write (notifications queue their deliveries). It never fails
   * the import; a fault is logged (ended.ts).
   */
  readonly onEnded?: (ended: EndedImport) => Promise<void>;
}
