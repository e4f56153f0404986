/**
 * Cuts off an upload that arrives too slowly: a client sending one byte a second (or nothing)
 * would otherwise hold its connection, its per-account import slot and its spool file until the
 * one-hour request timeout. Every `uploadTimeoutMs` of time in which Tally was ready to read must
 * bring at least `minUploadBytes`. Time in which Tally itself holds the upload back (backpressure
 * from a slow store or parser pauses the request stream) is not counted against the client.
 */
import type { Readable } from 'node:stream';
import type { Limits } from '../../config.js';
import { ImportFault } from '../../messages.js';

export class ReceiveWatchdog {
  private readonly tickMs: number;
  private waitedMs = 0;
  private bytesAtStart: number;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly body: Readable,
    private readonly received: () => number,
    private readonly limits: Pick<Limits, 'uploadTimeoutMs' | 'minUploadBytes'>,
    private readonly onTimeout: (fault: ImportFault) => void,
  ) {
    this.tickMs = Math.max(10, Math.min(1000, Math.floor(limits.uploadTimeoutMs / 4)));
    this.bytesAtStart = received();
    this.timer = setInterval(() => this.tick(), this.tickMs).unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private tick(): void {
    if (this.body.readableEnded || this.body.destroyed) return this.stop();
    // Paused by the pipe: Tally is not reading, so the client is not the slow one.
    if (this.body.readableFlowing === false) return;
    this.waitedMs += this.tickMs;
    if (this.waitedMs < this.limits.uploadTimeoutMs) return;
    const got = this.received() - this.bytesAtStart;
    if (got < this.limits.minUploadBytes) {
      this.stop();
      const seconds = this.limits.uploadTimeoutMs / 1000;
      this.onTimeout(
        new ImportFault('upload_timeout', {
          detail:
            `${got} bytes arrived in the last ${seconds} s; at least ${this.limits.minUploadBytes} are needed ` +
            '(TALLY_MIN_UPLOAD_BYTES per TALLY_UPLOAD_TIMEOUT_MS).',
          details: { bytes: got, seconds, min_bytes: this.limits.minUploadBytes },
        }),
      );
      return;
    }
    this.waitedMs = 0;
    this.bytesAtStart = this.received();
  }
}
