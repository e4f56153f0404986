/**
 * The import, as plugins/ and bin/ use it: `createImports` builds what every run is given and the
 * queue runner together; `runImport` runs one import from a request; `ParsePool` is the parse
 * threads the composition root starts with the formatter modules they load. The stages behind this
 * module, in the order an upload travels: receive/ → archive/ → detect/ → parse/ → assemble/ →
 * finalize/, coordinated by run.ts (one import's lifecycle), uploads.ts and result-files.ts (one
 * file's way); queue/ runs process_async imports.
 */
import type { Config } from '../config.js';
import type { Registry } from '../formatter/registry.js';
import type { Store } from '../store/store.js';
import type { CompletedImport, EndedImport, ImportDeps } from './options.js';
import type { ParsePool } from './parse/pool.js';
import { replayQueuedImport } from './queue/replay.js';
import { QueueRunner } from './queue/runner.js';

export { progressPercent, reportPageUrl, type ImportResponseBody } from './finalize/answer.js';
export type { CompletedImport, EndedImport, ImportDeps } from './options.js';
export type { FormatterModule } from './parse/formatter-modules.js';
export { ParsePool } from './parse/pool.js';
export type { QueueRunner } from './queue/runner.js';
export { runImport, type ImportRequest, type ImportRoute } from './run.js';
export type { ImportAnswer } from './run-state.js';

export interface ImportSetup {
  store: Store;
  registry: Registry;
  config: Config;
  tmpDir: string;
  log(event: string, data: Record<string, unknown>): void;
  pool: ParsePool | null;
  /** Told of each completed import (ImportDeps.onCompleted). */
  onCompleted?: (done: CompletedImport) => void;
  /** Told of each import that ended, awaited (ImportDeps.onEnded). */
  onEnded?: (ended: EndedImport) => Promise<void>;
}

/**
 * What every import run is given, and the queue runner of process_async imports, built together
 * once: the runner's kick is in the (frozen) deps from the start, and the runner runs claimed imports
 * with those same deps.
 */
export function createImports(setup: ImportSetup): { deps: ImportDeps; queue: QueueRunner } {
  // URLs in a queued import's answer are never sent; the public URL (if set) keeps them right on the record.
  const baseUrl = setup.config.publicUrl ?? '';
  const queue = new QueueRunner(setup.store, setup.log, (record) => replayQueuedImport(deps, record, baseUrl));
  const deps: ImportDeps = Object.freeze({
    ...setup,
    inflight: new Set<Promise<unknown>>(),
    onQueued: () => queue.kick(),
  });
  return { deps, queue };
}
