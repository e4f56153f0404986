/** Conformance cases for blobs: bytes in and out, failed puts, deletes. */
import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { readAll, sha256, type Cases } from './fixtures.js';

export const blobCases: Cases = {
  blobs: async (t, h, store) => {
    const chunks = [...Array.from({ length: 5 }, () => randomBytes(64 * 1024)), randomBytes(1), randomBytes(100_003)];
    const bytes = Buffer.concat(chunks);
    const ref = await store.blobs.put(Readable.from(chunks), { name: 'out ü.log', contentType: 'text/plain' });
    t.equal(ref.size, bytes.length, 'size counted as bytes pass');
    t.equal(ref.sha256, sha256(bytes), 'sha256 of the bytes');
    t.ok((await readAll(await store.blobs.open(ref.id)))?.equals(bytes), 'the bytes read back are the bytes written');

    const empty = await store.blobs.put(Readable.from([]), { name: 'empty', contentType: null });
    t.strictSame(
      { size: empty.size, sha256: empty.sha256 },
      { size: 0, sha256: sha256(Buffer.alloc(0)) },
      'an empty blob',
    );
    t.equal((await readAll(await store.blobs.open(empty.id)))?.length, 0);
    t.not(empty.id, ref.id);

    const filesBefore = await h.listBlobFiles?.();
    async function* breaksMidway(): AsyncGenerator<Buffer> {
      yield randomBytes(64 * 1024);
      yield randomBytes(64 * 1024);
      throw new Error('source broke');
    }
    await t.rejects(
      store.blobs.put(Readable.from(breaksMidway()), { name: 'x', contentType: null }),
      { message: 'source broke' },
      'a source that throws rejects with its error',
    );
    const destroyed = new Readable({ read() {} });
    destroyed.push(randomBytes(1000));
    setImmediate(() => destroyed.destroy(new Error('client went away')));
    await t.rejects(
      store.blobs.put(destroyed, { name: 'y', contentType: null }),
      { message: 'client went away' },
      'a destroyed source rejects with its error',
    );
    if (h.listBlobFiles)
      t.strictSame(await h.listBlobFiles(), filesBefore, 'a failed put leaves no file, temporary or not');
    const after = await store.blobs.put(Readable.from([Buffer.from('still works')]), { name: 'z', contentType: null });
    t.equal(
      (await readAll(await store.blobs.open(after.id)))?.toString(),
      'still works',
      'the store works after a failed put',
    );

    t.equal(await store.blobs.open(randomUUID()), null, 'unknown id');
    t.equal(await store.blobs.open('no-such-blob'), null, 'an id of another shape');
    t.equal(await store.blobs.open('../../etc/passwd'), null, 'an id is never a path');

    await store.blobs.delete(ref.id);
    t.equal(await store.blobs.open(ref.id), null, 'deleted');
    await store.blobs.delete(ref.id);
    await store.blobs.delete(randomUUID());
    t.pass('deleting a missing blob is not an error');
    t.ok((await readAll(await store.blobs.open(empty.id))) !== null, 'other blobs stay');
  },
};
