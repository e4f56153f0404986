/** Blobs of the embedded store: bytes in the blob folder (blob-folder.ts), a row each in `blobs`. */
import type { BlobStore } from '../blobs.js';
import { now } from '../time.js';
import type { BlobFolder } from './blob-folder.js';
import type { EmbeddedDatabase } from './database.js';

export function blobStore(d: EmbeddedDatabase, folder: BlobFolder): BlobStore {
  return {
    async put(source, meta) {
      const ref = await folder.write(source);
      try {
        d.s.insertBlob.run(ref.id, meta.name, meta.contentType, ref.size, ref.sha256, now(), meta.importId ?? null);
      } catch (err) {
        // "Keeps nothing": a blob without its row would be an orphan no sweep knows the name of.
        await folder.remove(ref.id);
        throw err;
      }
      return ref;
    },
    open: (id) => folder.read(id),
    async delete(id) {
      await folder.remove(id);
      d.s.deleteBlob.run(id);
    },
    async idsOfImport(importId) {
      return d.s.blobsOfImport.pluck().all(importId) as unknown as string[];
    },
  };
}
