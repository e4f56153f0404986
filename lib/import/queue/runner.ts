/**
 * The worker for process_async imports: claims queued imports from the store one at a time and
 * processes them. Woken when an import is queued, and polls so that imports queued by another
 * Tally instance (or before a restart) are not left waiting.
 */
import type { ImportDeps } from '../run.js';
import { processQueuedImport } from '../run.js';

const POLL_MS = 5000;

export class ImportWorker {
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly deps: ImportDeps,
    private readonly baseUrl: string,
  ) {}

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.kick(), POLL_MS).unref();
    this.kick();
  }

  /** Processes queued imports until none is left; a second call while running is a no-op. */
  kick(): void {
    if (this.running || this.stopped) return;
    this.running = this.drain().finally(() => {
      this.running = null;
    });
  }

  /** Resolves when no import is being processed (tests wait on it). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.idle();
  }

  private async drain(): Promise<void> {
    while (!this.stopped) {
      let record;
      try {
        record = await this.deps.store.imports.claimQueued();
      } catch (e) {
        this.deps.log('worker.claim_failed', { error: (e as Error).message });
        return;
      }
      if (!record) return;
      const answer = await processQueuedImport(this.deps, record, this.baseUrl);
      this.deps.log('worker.processed', { importId: record.id, status: answer.body.status });
    }
  }
}
