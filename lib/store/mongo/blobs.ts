/** Blobs of the MongoDB store: the GridFS bucket of blob-bucket.ts. */
import type { BlobStore } from '../blobs.js';
import type { MongoConnection } from './connection.js';

export function blobStore(conn: MongoConnection): BlobStore {
  return {
    put: (source, meta) =>
      conn.blobs.put(source, { name: meta.name, contentType: meta.contentType, importId: meta.importId ?? null }),
    open: (id) => conn.blobs.open(id),
    delete: (id) => conn.blobs.remove(id),
    idsOfImport: (importId) => conn.blobs.idsOfImport(importId),
  };
}
