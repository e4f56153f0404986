/** Blobs: the bytes of uploads and attachments, written whole or not at all. */
import type { Readable } from 'node:stream';
import type { BlobMeta, BlobRef } from './types.js';

export interface BlobStore {
  /**
   * Streams `source` into a new blob; rejects (and keeps nothing) if the source errors.
   * `meta.importId` ties the blob to the import that wrote it, so a sweep can remove it if that import dies.
   */
  put(source: Readable, meta: BlobMeta): Promise<BlobRef>;
  /** The blob's bytes, or null when there is no such blob. */
  open(id: string): Promise<Readable | null>;
  /** Removes the blob if it exists (a missing one is not an error). */
  delete(id: string): Promise<void>;
  /** The blobs written for an import (`meta.importId`). */
  idsOfImport(importId: string): Promise<string[]>;
}
