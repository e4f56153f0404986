/**
 * Blobs in the GridFS bucket `blobs`: one `blobs.files` document per blob (id = a random UUID string,
 * metadata { name, contentType, importId }) and its bytes in `blobs.chunks`. The files document is
 * written only after the last chunk, so a blob that `open` can find is always whole.
 */
import { randomUUID } from 'node:crypto';
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GridFSBucket, type Db, type GridFSBucketWriteStream, type ObjectId } from 'mongodb';
import { blobDigest } from '../blob-digest.js';
import type { BlobRef } from '../types.js';
import { BLOB_BUCKET } from './collections.js';

export interface GridFsMeta {
  name: string;
  contentType: string | null;
  importId: string | null;
}

interface FileDoc {
  _id: string;
  metadata?: Partial<GridFsMeta>;
}

export class BlobBucket {
  readonly #bucket: GridFSBucket;
  readonly #files;
  readonly #chunks;

  constructor(db: Db) {
    this.#bucket = new GridFSBucket(db, { bucketName: BLOB_BUCKET });
    this.#files = db.collection<FileDoc>(`${BLOB_BUCKET}.files`);
    this.#chunks = db.collection<{ files_id: string }>(`${BLOB_BUCKET}.chunks`);
  }

  /**
   * Streams the whole source into a new blob. On any failure (source or server) its chunks are
   * removed and the first error rethrown.
   */
  async put(source: Readable, meta: GridFsMeta): Promise<BlobRef> {
    const id = randomUUID();
    const digest = blobDigest();
    const upload = this.#bucket.openUploadStreamWithId(gridId(id), meta.name, { metadata: meta });
    const sink = new UploadSink(upload);
    try {
      await pipeline(source, digest.stream, sink);
    } catch (err) {
      await sink.settled();
      // abort() refuses once the upload ended (only the files insert can fail then); delete by hand.
      await upload
        .abort()
        .catch(() => this.remove(id))
        .catch(() => undefined);
      throw err;
    }
    return { id, ...digest.result() };
  }

  /** The blob's bytes, or null when no whole blob has that id. */
  async open(id: string): Promise<Readable | null> {
    // openDownloadStream would only fail on the first read; callers need the null up front.
    const found = await this.#bucket.find({ _id: gridId(id) }, { limit: 1, projection: { _id: 1 } }).toArray();
    return found.length === 0 ? null : this.#bucket.openDownloadStream(gridId(id));
  }

  /** Removes the blob if it exists: files document first, so readers stop finding it before its chunks go. */
  async remove(id: string): Promise<void> {
    await this.#files.deleteOne({ _id: id });
    await this.#chunks.deleteMany({ files_id: id });
  }

  async idsOfImport(importId: string): Promise<string[]> {
    const docs = await this.#files.find({ 'metadata.importId': importId }, { projection: { _id: 1 } }).toArray();
    return docs.map((d) => d._id);
  }
}

// GridFS ids may be any BSON value; the driver's typings only admit ObjectId.
function gridId(id: string): ObjectId {
  return id as unknown as ObjectId;
}

/**
 * Forwards writes to the GridFS upload stream without handing it to `pipeline`: when the source
 * fails, pipeline would destroy the upload while a chunk insert is still in flight, and that chunk
 * would land after abort()'s delete. Here the failure path can wait for the last write first.
 */
class UploadSink extends Writable {
  readonly #upload: GridFSBucketWriteStream;
  #last: Promise<void> = Promise.resolve();

  constructor(upload: GridFSBucketWriteStream) {
    super();
    this.#upload = upload;
    // Failures reach us through the write/end callbacks; the listener keeps 'error' from crashing the process.
    upload.on('error', () => undefined);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    this.#last = new Promise((resolve) => {
      this.#upload.write(chunk, (err) => {
        resolve();
        done(err);
      });
    });
  }

  override _final(done: (err?: Error | null) => void): void {
    this.#last = new Promise((resolve) => {
      // Node calls an end() callback with the error when the upload fails; the typings omit it.
      this.#upload.end((err?: Error | null) => {
        resolve();
        done(err);
      });
    });
  }

  /** Resolves once the write or end handed to the upload has finished, whatever its outcome. */
  settled(): Promise<void> {
    return this.#last;
  }
}
