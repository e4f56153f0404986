/**
 * A zip upload spooled to a temp file: yauzl reads the central directory (the truth of a zip) from
 * it. The file is the import's own (a fresh name, created exclusively) and is removed whatever
 * happens; files left by a process that died are cleared at start (plugins/server.ts).
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export async function withSpooledZip<T>(
  source: AsyncIterable<Buffer>,
  tmpDir: string,
  use: (spool: string) => Promise<T>,
): Promise<T> {
  const spool = path.join(tmpDir, `upload-${randomUUID()}.zip`);
  try {
    await pipeline(Readable.from(source), createWriteStream(spool, { flags: 'wx' }));
    return await use(spool);
  } finally {
    await rm(spool, { force: true });
  }
}
