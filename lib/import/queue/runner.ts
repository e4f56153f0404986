/**
 * The queue runner for process_async imports: claims queued imports from the store one at a time
 * and runs them. Kicked when an import is queued, and polls so that imports queued by another Tally
 * instance (or before a restart) are not left waiting.
 */
import { errorCodes } from '../../messages.js';
import type { ImportRecord } from '../../store/types.js';
import type { Store } from '../../store/store.js';
import type { ImportAnswer } from '../run-state.js';

const POLL_MS = 5000;

export class QueueRunner {
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly store: Pick<Store, 'imports'>,
    private readonly log: (event: string, data: Record<string, unknown>) => void,
    /** Runs one claimed import to its end (queue/replay.ts). */
    private readonly runQueued: (record: ImportRecord) => Promise<ImportAnswer>,
  ) {}

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.kick(), POLL_MS).unref();
    this.kick();
  }

  /** Runs queued imports until none is left; a second call while running is a no-op. */
  kick(): void {
    if (this.running || this.stopped) return;
    this.running = this.drain().finally(() => {
      this.running = null;
    });
  }

  /** Resolves when no import is being run (tests wait on it). */
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
        record = await this.store.imports.claimQueued();
      } catch (e) {
        // Log event names are part of the operators' interface: they keep their old `worker.` prefix.
        this.log('worker.claim_failed', { error: (e as Error).message });
        return;
      }
      if (!record) return;
      const answer = await this.runQueued(record);
      this.log('worker.processed', { import_id: record.id, status: answer.body.status });
      // A queued import has no request left to answer: its failure gets the line a failed upload gets
      // (plugins/failure-log.ts), without a request id, so an operator finds it by its import id.
      if (answer.body.status === 'failed') {
        this.log('import.failed', {
          route: 'queue',
          status: answer.status,
          codes: errorCodes(answer.body.messages),
          import_id: record.id,
          profile_id: answer.body.profile_id,
        });
      }
    }
  }
}
