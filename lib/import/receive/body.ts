/**
 * The request body as the import reads it: one pipeline from the request through the byte counter
 * (TALLY_MAX_UPLOAD_BYTES), under the import's AbortSignal (the client going away) and a watchdog
 * for a client too slow to send. Whatever fails first tears the chain down. Torn down, the chain
 * holds the request without destroying it (nothing more is read while the import cleans up), and
 * once the import has answered (`stop`) the rest of the body is read and dropped, so hapi can still
 * answer (plugins/linger.ts closes the connection after the answer). Only a client that went away
 * has its request destroyed.
 */
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { Limits } from '../../config.js';
import { ImportFault } from '../../messages.js';
import { ByteCounter } from './byte-counter.js';
import { ReceiveWatchdog } from './watchdog.js';

export interface ReceivedBody {
  /** The body's bytes, counted: read it to the end (or destroy it). */
  readonly stream: ByteCounter;
  /** The import has answered: the watchdog stops, and what is left of the body is read and dropped. */
  stop(): void;
}

export function receiveBody(
  request: Readable,
  o: { limits: Pick<Limits, 'maxUploadBytes' | 'uploadTimeoutMs' | 'minUploadBytes'>; signal: AbortSignal },
  onProgress: () => void,
): ReceivedBody {
  // A client gone before the chain was built would leave it waiting for ever.
  if (o.signal.aborted) throw new ImportFault('upload_aborted');
  const counter = new ByteCounter(o.limits.maxUploadBytes, onProgress);
  const source = new RequestSource(request, o.signal);
  // Settled by whoever reads `counter`: they see the failure that tore the chain down.
  pipeline(source, counter, { signal: o.signal }).catch(() => undefined);
  const watchdog = new ReceiveWatchdog(
    request,
    () => counter.bytes,
    o.limits,
    (fault) => counter.destroy(fault),
  );
  return {
    stream: counter,
    stop() {
      watchdog.stop();
      // A chain still standing (an import that failed before reading the body, or a form whose
      // epilogue was never read) is torn down, so nothing of it stays behind.
      if (!counter.readableEnded) counter.destroy();
      source.release();
    },
  };
}

/** The AbortError a pipeline fails with when the client went away, as the import's fault. */
export function receiveFault(e: unknown, signal: AbortSignal): unknown {
  return signal.aborted && (e as Error | null)?.name === 'AbortError' ? new ImportFault('upload_aborted') : e;
}

/**
 * The request as the first stage of a pipeline: its bytes with backpressure, its end and its errors.
 * Destroyed, it holds the request (paused) instead of destroying it, unless the client went away;
 * released, it lets the rest be read and dropped.
 */
class RequestSource extends Readable {
  private released = false;

  constructor(
    private readonly request: Readable,
    private readonly signal: AbortSignal,
  ) {
    super();
    request.on('data', this.onData);
    request.on('end', this.onEnd);
    request.on('error', this.onError);
  }

  override _read(): void {
    this.request.resume();
  }

  override _destroy(err: Error | null, done: (err: Error | null) => void): void {
    this.detach();
    if (this.signal.aborted) this.request.destroy();
    // Held while the import cleans up: the client's bytes wait on the socket, not in Tally.
    else if (!this.released) this.request.pause();
    done(err);
  }

  /** The import has answered: the rest of the body is read and dropped, so hapi can still answer. */
  release(): void {
    this.released = true;
    this.detach();
    if (!this.request.readableEnded && !this.request.destroyed) this.request.resume();
  }

  private detach(): void {
    this.request.off('data', this.onData);
    this.request.off('end', this.onEnd);
    this.request.off('error', this.onError);
  }

  private readonly onData = (chunk: Buffer): void => {
    if (!this.push(chunk)) this.request.pause();
  };

  private readonly onEnd = (): void => {
    this.push(null);
  };

  private readonly onError = (e: Error): void => {
    this.destroy(e);
  };
}
