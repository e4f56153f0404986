/**
 * The request body's byte count, checked against TALLY_MAX_UPLOAD_BYTES as bytes arrive (chunked
 * bodies have no Content-Length to refuse up front).
 */
import { Transform, type TransformCallback } from 'node:stream';
import { ImportFault } from '../../messages.js';

/** Counts bytes as they pass and fails with `payload_too_large` past the limit. */
export class ByteCounter extends Transform {
  bytes = 0;
  constructor(
    private readonly limit: number,
    private readonly onProgress?: (bytes: number) => void,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limit) {
      done(
        new ImportFault('payload_too_large', {
          detail: `The limit is ${this.limit} bytes (TALLY_MAX_UPLOAD_BYTES).`,
          details: { limit: this.limit },
        }),
      );
      return;
    }
    this.onProgress?.(this.bytes);
    done(null, chunk);
  }
}
