/** What every blob store tells of the bytes it kept: their count and SHA-256, measured as they pass. */
import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';

export interface BlobDigest {
  /** Passes the bytes through unchanged, counting and hashing them. */
  readonly stream: Transform;
  /** Once the bytes have all passed. */
  result(): { size: number; sha256: string };
}

export function blobDigest(): BlobDigest {
  const hash = createHash('sha256');
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      hash.update(chunk);
      done(null, chunk);
    },
  });
  return { stream, result: () => ({ size, sha256: hash.digest('hex') }) };
}
