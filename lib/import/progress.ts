/**
 * Progress writes on the import record while a request is received: at most one a second, one at a
 * time, and none racing the record's final write (some stores refuse concurrent writes to one
 * document; a lost final write would leave the record looking alive).
 */
import type { Store } from '../store/store.js';
import type { ImportRecord } from '../store/types.js';

const PROGRESS_EVERY_MS = 1000;

export interface ProgressWriter {
  /** Something moved: writes the progress if the last write is a second old and none is in flight. */
  tick(): void;
  /** No more writes; resolves once the one in flight (if any) is done. */
  settle(): Promise<void>;
}

export function progressWriter(
  store: Pick<Store, 'imports'>,
  importId: string,
  read: () => ImportRecord['progress'],
): ProgressWriter {
  let last = 0;
  let write: Promise<void> | null = null;
  return {
    tick(): void {
      const now = Date.now();
      if (now - last < PROGRESS_EVERY_MS || write) return;
      last = now;
      write = store.imports
        .update(importId, { progress: read() })
        .catch(() => undefined)
        .finally(() => {
          write = null;
        });
    },
    async settle(): Promise<void> {
      last = Number.POSITIVE_INFINITY;
      await write;
    },
  };
}
