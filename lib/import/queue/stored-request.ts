/**
 * process_async at request time: the parts of a request are stored whole as blobs, nothing is
 * parsed; the queue runner replays them later through the same path as any upload (replay.ts).
 */
import { Readable } from 'node:stream';
import { baseName } from '../../formatter/head.js';
import type { StoredFile } from '../../store/types.js';
import type { Store } from '../../store/store.js';
import type { PartReceiver } from '../receive/form.js';
import { peek } from '../streams.js';

export class StoredRequest implements PartReceiver {
  readonly uploads: StoredFile[] = [];
  readonly attachments: StoredFile[] = [];

  constructor(
    private readonly store: Pick<Store, 'blobs'>,
    private readonly importId: string,
  ) {}

  /** False when the part held no bytes (nothing is kept). */
  async addUpload(source: AsyncIterable<Buffer>, rawName: string, contentType: string | null): Promise<boolean> {
    const file = await this.put(source, baseName(rawName) || 'file', contentType);
    if (file) this.uploads.push(file);
    return file !== null;
  }

  async addAttachment(source: AsyncIterable<Buffer>, rawName: string, contentType: string | null): Promise<void> {
    const file = await this.put(source, baseName(rawName) || 'attachment', contentType);
    if (file) this.attachments.push(file);
  }

  private async put(
    source: AsyncIterable<Buffer>,
    name: string,
    contentType: string | null,
  ): Promise<StoredFile | null> {
    const p = await peek(source, 1);
    if (p.head.length === 0 && p.complete) return null;
    const ref = await this.store.blobs.put(Readable.from(p.all), { name, contentType, importId: this.importId });
    return { name, blobId: ref.id, size: ref.size, sha256: ref.sha256, contentType, formatter: null };
  }
}
