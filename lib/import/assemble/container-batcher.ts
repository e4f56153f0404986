/**
 * Buffers containers into bulk writes, by count and by bytes. One write is in flight at a time;
 * `ready()` hands its promise to the parser, so a slow store slows the upload instead of growing memory.
 */
import type { StoredContainer } from '../../store/types.js';
import type { Store } from '../../store/store.js';
import { ImportFault } from '../../messages.js';
import { inSpan } from '../../telemetry/spans.js';

export const BATCH_COUNT = 1000;
export const BATCH_BYTES = 4 * 1024 * 1024;

export class ContainerBatcher {
  private batch: StoredContainer[] = [];
  private bytes = 0;
  private inFlight: Promise<void> | null = null;
  private failure: unknown = null;

  constructor(private readonly store: Pick<Store, 'containers'>) {}

  push(c: StoredContainer): void {
    this.batch.push(c);
    this.bytes += estimateBytes(c);
    if (this.batch.length >= BATCH_COUNT || this.bytes >= BATCH_BYTES) this.startFlush();
  }

  /** Null when the caller may go on; a promise to await when a write is in flight and the next batch is full. */
  ready(): Promise<void> | null {
    if (this.failure) return Promise.reject(this.failure);
    if (!this.inFlight) return null;
    if (this.batch.length < BATCH_COUNT && this.bytes < BATCH_BYTES) return null;
    return this.inFlight.then(() => {
      if (this.failure) throw this.failure;
    });
  }

  async flush(): Promise<void> {
    while (this.inFlight) await this.inFlight;
    if (this.batch.length > 0) {
      this.startFlush();
      while (this.inFlight) await this.inFlight;
    }
    if (this.failure) throw this.failure;
  }

  /** Drops what is buffered and waits out the write in flight, so nothing lands after a failed report is purged. */
  async abandon(): Promise<void> {
    this.batch = [];
    this.bytes = 0;
    while (this.inFlight) await this.inFlight.catch(() => undefined);
  }

  private startFlush(): void {
    if (this.inFlight || this.failure) return;
    const batch = this.batch;
    this.batch = [];
    this.bytes = 0;
    // Started from the parser's push(), so the span is a child of the formatter's (one per batch).
    this.inFlight = inSpan('tally.store.batch', { 'tally.containers': batch.length }, () =>
      this.store.containers.insert(batch),
    ).then(
      () => {
        this.inFlight = null;
        if (this.batch.length >= BATCH_COUNT || this.bytes >= BATCH_BYTES) this.startFlush();
      },
      (cause: unknown) => {
        this.inFlight = null;
        this.failure = new ImportFault('store_unavailable', { detail: 'Writing containers failed.', cause });
      },
    );
  }
}

/** What a container weighs in a batch, roughly: its texts and a fixed share for the rest. */
export function estimateBytes(c: StoredContainer): number {
  let n = 200 + c.title.length;
  if (c.output) n += (c.output.stdout?.length ?? 0) + (c.output.stderr?.length ?? 0);
  if (c.failure) n += (c.failure.message?.length ?? 0) + (c.failure.stack?.length ?? 0);
  for (const p of c.properties) n += p.name.length + p.value.length;
  return n;
}
