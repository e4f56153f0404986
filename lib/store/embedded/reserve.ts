/**
 * Room kept back on the data dir's file system for cleaning up. On a full disk SQLite cannot even
 * delete (in WAL mode a delete appends pages) or mark an import failed, so a failed import would
 * stay half-written until the disk is freed. The store keeps a file of zeros (`reserve.bin`) and
 * removes it when an import fails for a full disk, so that import's clean-up can run; it is
 * written again after the next completed import, when there is room.
 */
import { open, rm, stat } from 'node:fs/promises';

const CHUNK = Buffer.alloc(1024 * 1024);

export class SpaceReserve {
  #writing: Promise<void> | null = null;

  constructor(
    readonly path: string,
    readonly bytes: number,
  ) {}

  /** Writes the reserve if it is missing or short; gives up quietly (and keeps nothing) when there is no room. */
  ensure(): Promise<void> {
    if (this.bytes <= 0) return Promise.resolve();
    this.#writing ??= this.#write().finally(() => {
      this.#writing = null;
    });
    return this.#writing;
  }

  /** Frees the reserve; true when there was one to free. */
  async release(): Promise<boolean> {
    await this.#writing?.catch(() => undefined);
    const had = await stat(this.path).then(
      () => true,
      () => false,
    );
    await rm(this.path, { force: true });
    return had;
  }

  async #write(): Promise<void> {
    const size = await stat(this.path).then(
      (s) => s.size,
      () => -1,
    );
    if (size === this.bytes) return;
    let handle;
    try {
      handle = await open(this.path, 'w');
      // Real bytes, not a sparse file: only written blocks are really held back.
      for (let written = 0; written < this.bytes; written += CHUNK.length)
        await handle.write(CHUNK, 0, Math.min(CHUNK.length, this.bytes - written));
      await handle.sync();
      await handle.close();
    } catch {
      await handle?.close().catch(() => undefined);
      await rm(this.path, { force: true });
    }
  }
}
