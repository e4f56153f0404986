/**
 * The tee that stores an upload while it is parsed: when the store's side fails between two chunks
 * (a full disk), the parse side gets that error instead of waiting for a drain that never comes.
 */
import t from 'tap';
import { PassThrough } from 'node:stream';
import { tee } from '../../lib/import/streams.js';
import { within } from '../security/expect.js';

t.test('a store side destroyed between chunks fails the tee with its error', async (t) => {
  async function* source(): AsyncGenerator<Buffer> {
    for (let i = 0; i < 100; i++) yield Buffer.alloc(64 * 1024, 0x61);
  }
  // Room for every chunk: the tee's writes succeed until the store side is destroyed.
  const store = new PassThrough({ highWaterMark: 16 * 1024 * 1024 });
  store.on('error', () => undefined);
  const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  const read = (async () => {
    let chunks = 0;
    for await (const _ of tee(source(), store)) {
      // The failure lands while the parse side holds a chunk, not while the tee waits for a drain.
      if (++chunks === 1) {
        store.destroy(full);
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    return chunks;
  })();
  const outcome = await within(5_000, read).then(
    (chunks) => `read to the end (${chunks} chunks)`,
    (e: Error) => e,
  );
  t.equal(outcome, full, 'the parse side sees the full disk');
});

t.test('a store side that keeps up passes every chunk through and is ended', async (t) => {
  const store = new PassThrough();
  const stored: Buffer[] = [];
  store.on('data', (c: Buffer) => stored.push(c));
  const ended = new Promise((resolve) => store.once('end', resolve));
  const seen: Buffer[] = [];
  for await (const c of tee(
    (async function* () {
      yield Buffer.from('a');
      yield Buffer.from('b');
    })(),
    store,
  ))
    seen.push(c);
  await ended;
  t.equal(Buffer.concat(seen).toString(), 'ab');
  t.equal(Buffer.concat(stored).toString(), 'ab');
});
