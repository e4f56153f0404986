/**
 * Small stream stages the import's files go through: peek at a head (detection reads it before the
 * rest), and tee into a writable with backpressure (an upload is stored as a blob while it is parsed).
 */
import type { Writable } from 'node:stream';

export interface Peeked {
  head: Buffer;
  /** The source ended within the head. */
  complete: boolean;
  /** The whole source again, head first. Must be consumed or returned. */
  all: AsyncGenerator<Buffer>;
}

export async function peek(source: AsyncIterable<Buffer>, bytes: number): Promise<Peeked> {
  const it = source[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let length = 0;
  let complete = false;
  while (length < bytes) {
    const r = await it.next();
    if (r.done) {
      complete = true;
      break;
    }
    const chunk = typeof r.value === 'string' ? Buffer.from(r.value) : r.value;
    chunks.push(chunk);
    length += chunk.length;
  }
  const head = Buffer.concat(chunks);
  async function* all(): AsyncGenerator<Buffer> {
    try {
      if (head.length > 0) yield head;
      if (complete) return;
      for (;;) {
        const r = await it.next();
        if (r.done) return;
        yield typeof r.value === 'string' ? Buffer.from(r.value) : r.value;
      }
    } finally {
      // Early exit by the consumer: release the source too.
      if (!complete) await it.return?.();
    }
  }
  return { head: head.subarray(0, Math.min(head.length, bytes)), complete, all: all() };
}

/** Waits until `w` can take more, or rejects if it fails or closes first. */
export function drained(w: Writable): Promise<void> {
  // Destroyed already (its writer failed, say a full disk, between two chunks): its 'error' and
  // 'close' have been emitted and will not come again, so waiting for them would wait for ever.
  if (w.destroyed) return Promise.reject(w.errored ?? new Error('the blob writer closed early'));
  return new Promise((resolve, reject) => {
    const cleanup = (): void => {
      w.off('drain', onDrain);
      w.off('error', onError);
      w.off('close', onClose);
    };
    const onDrain = (): void => {
      cleanup();
      resolve();
    };
    const onError = (e: Error): void => {
      cleanup();
      reject(e);
    };
    const onClose = (): void => {
      cleanup();
      reject(new Error('the blob writer closed early'));
    };
    w.on('drain', onDrain);
    w.on('error', onError);
    w.on('close', onClose);
  });
}

/** Yields the source unchanged while writing every chunk to `w`; ends `w` at the end, destroys it on failure. */
export async function* tee(source: AsyncIterable<Buffer>, w: Writable): AsyncGenerator<Buffer> {
  let ok = false;
  try {
    for await (const chunk of source) {
      if (!w.write(chunk)) await drained(w);
      yield chunk;
    }
    ok = true;
    w.end();
  } finally {
    if (!ok) w.destroy(new Error('the file was not read to its end'));
  }
}
