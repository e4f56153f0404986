/**
 * process_async: the parts of a request are stored whole as blobs, nothing is parsed; a worker
 * replays them later through the same file processor.
 */
import { Readable } from 'node:stream';
import { baseName } from '../../formatter/head.js';
import type { StoredFile } from '../../store/types.js';
import type { Store } from '../../store/store.js';
import { peek } from '../streams.js';

export class RequestStore {
  readonly uploads: StoredFile[] = [];
  readonly attachments: StoredFile[] = [];

  constructor(
    private readonly store: Store,
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

  blobIds(): string[] {
    return [...this.uploads, ...this.attachments].map((f) => f.blobId);
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
