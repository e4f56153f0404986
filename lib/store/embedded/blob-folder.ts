/**
 * The blob folder: one file per blob, `<root>/<first two chars of id>/<id>`. Bytes are written to a
 * `.tmp-<uuid>` file beside the fan-out folders and renamed into place only once the source ended,
 * so a blob file, once visible, is always whole.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { blobDigest } from '../blob-digest.js';
import type { BlobRef } from '../types.js';

export const TEMP_PREFIX = '.tmp-';

// Security: ids reach blobs.open from URLs; only this shape may ever become part of a path.
const BLOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export class BlobFolder {
  constructor(readonly root: string) {}

  async init(): Promise<void> {
    await mkdir(this.root, { recursive: true });
  }

  /** Writes the whole source, then names it; on any error the temp file is removed and the error rethrown. */
  async write(source: Readable): Promise<BlobRef> {
    const id = randomUUID();
    const temp = join(this.root, `${TEMP_PREFIX}${randomUUID()}`);
    const digest = blobDigest();
    const out = createWriteStream(temp, { flags: 'wx' });
    try {
      await pipeline(source, digest.stream, out);
      await mkdir(this.dirOf(id), { recursive: true });
      await rename(temp, this.pathOf(id));
    } catch (err) {
      // A source that fails early can end the pipeline while the file is still being opened; the open
      // then creates it after an rm() here (a temp file left behind, seen under load). Wait for the
      // stream to close.
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      await rm(temp, { force: true });
      throw err;
    }
    return { id, ...digest.result() };
  }

  /** The blob's bytes, or null when there is no such blob. The stream owns the file handle. */
  async read(id: string): Promise<Readable | null> {
    if (!BLOB_ID.test(id)) return null;
    try {
      const handle = await open(this.pathOf(id), 'r');
      return handle.createReadStream();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async remove(id: string): Promise<void> {
    if (!BLOB_ID.test(id)) return;
    await rm(this.pathOf(id), { force: true });
  }

  /** Every file under the root, as paths relative to it; temp files included. For tests and sweeps. */
  async list(): Promise<string[]> {
    const entries = await readdir(this.root, { recursive: true, withFileTypes: true });
    return entries
      .filter((e) => e.isFile())
      .map((e) => relative(this.root, join(e.parentPath, e.name)))
      .sort();
  }

  private dirOf(id: string): string {
    return join(this.root, id.slice(0, 2));
  }

  private pathOf(id: string): string {
    return join(this.dirOf(id), id);
  }
}
