/**
 * A full disk under the embedded store: the data dir sits on a small tmpfs filled up to a few MiB
 * by a filler file, then an import needs more. The answer is 507 storage_full, the import ends
 * `failed`, nothing half-written stays (no spool file, no blob, no container), and once room is
 * made the same process serves and imports again. The clean-up itself needs room on a full disk:
 * the store's reserve file (lib/store/embedded/reserve.ts) is given up for it, and written again
 * after the next completed import. Needs root (mount); skipped otherwise.
 */
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, stat, statfs, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import Database from 'better-sqlite3';
import { startTally, type Harness } from '../helpers/tally.js';
import { file, multipart } from '../helpers/multipart.js';
import { writeJunit } from '../../bench/generate.js';

const MiB = 1024 * 1024;

async function junitOf(bytes: number, seed: number): Promise<Buffer> {
  const pass = new PassThrough();
  const chunks: Buffer[] = [];
  pass.on('data', (c: Buffer) => chunks.push(c));
  await writeJunit(pass, bytes, seed);
  pass.end();
  return Buffer.concat(chunks);
}

function importOf(h: Harness, content: Buffer) {
  const m = multipart([file('file[]', 'TEST-big.xml', content), { name: 'ignore_old_report_date', value: 'true' }]);
  return h.send({
    path: `/api/v2/profile/${h.profileId}/import/junit`,
    headers: { 'content-type': m.contentType },
    body: m.body,
  });
}

function containers(h: Harness): number {
  const db = new Database(path.join(h.dataDir, 'tally.sqlite'), { readonly: true });
  try {
    return (db.prepare('select count(*) n from containers').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/**
 * Gives the log's disk space back: a log file keeps its length after it starts over, and rows written
 * into that length need no new room, so an earlier import's log would decide whether this one fits.
 */
async function truncateLog(h: Harness): Promise<void> {
  const db = new Database(path.join(h.dataDir, 'tally.sqlite'));
  try {
    // Busy while the checkpointer thread looks at the log: it looks again within 250 ms.
    for (let i = 0; i < 40; i++) {
      const [r] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      if (r?.busy === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the log could not be truncated');
  } finally {
    db.close();
  }
}

/** Mounts a 32 MiB tmpfs; null when this machine does not let the suite (not root). */
async function smallDisk(): Promise<{ path: string } | { unavailable: string }> {
  const mountPoint = await mkdtemp(path.join(os.tmpdir(), 'tally-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=32m', 'tally-full', mountPoint], { stdio: 'pipe' });
    return { path: mountPoint };
  } catch (e) {
    await rm(mountPoint, { recursive: true, force: true });
    return { unavailable: `cannot mount a tmpfs here (${(e as Error).message.split('\n')[0]}); this test needs root` };
  }
}

const disk = await smallDisk();

t.test(
  'a full disk answers storage_full and keeps nothing (embedded store)',
  { skip: 'unavailable' in disk ? disk.unavailable : false },
  async (t) => {
    if (!('path' in disk)) return;
    const mountPoint = disk.path;
    t.teardown(async () => {
      execFileSync('umount', ['-l', mountPoint]);
      await rm(mountPoint, { recursive: true, force: true });
    });
    const h = await startTally(t, { dataDirIn: mountPoint, reserveBytes: 8 * MiB });
    const small = await junitOf(20 * 1024, 1);
    t.equal((await importOf(h, small)).status, 201, 'imports while there is room');
    const filler = path.join(mountPoint, 'filler');

    /** Fills the file system up to `free` bytes left. */
    async function leave(free: number): Promise<void> {
      await rm(filler, { force: true });
      const fs = await statfs(mountPoint);
      await writeFile(filler, Buffer.alloc(Math.max(0, fs.bavail * fs.bsize - free)));
    }

    for (const [name, free, size] of [
      ['the upload does not fit (the blob write fails)', 1 * MiB, 4 * MiB],
      ['the upload fits, its containers do not (SQLite is full)', 5 * MiB, 3 * MiB],
    ] as const) {
      await t.test(name, async (t) => {
        const before = await h.leftovers();
        const containersBefore = containers(h);
        await truncateLog(h);
        await leave(free);
        const r = await importOf(h, await junitOf(size, 2));
        t.equal(r.status, 507, 'answered 507', { body: r.text.slice(0, 600) });
        t.equal(r.json?.messages?.find((m: { severity: string }) => m.severity === 'error')?.code, 'storage_full');
        const record = await h.send({ method: 'GET', path: `/api/v2/imports/${r.json.import_id}` });
        t.equal(record.json?.status, 'failed', 'the import ended failed');
        const after = await h.leftovers();
        t.same(after.tmp, [], 'no spool file');
        t.equal(after.blobs, before.blobs, 'no blob');
        t.equal(containers(h), containersBefore, 'no container');
        t.equal(
          (await h.send({ method: 'GET', path: '/healthz', noKey: true })).status,
          200,
          'still healthy while full',
        );
        await rm(filler, { force: true });
        const again = await importOf(h, small);
        t.equal(again.status, 201, 'imports again once there is room');
        let reserve = 0;
        for (let i = 0; i < 40 && reserve !== 8 * MiB; i++) {
          await new Promise((r) => setTimeout(r, 50));
          reserve = await stat(path.join(h.dataDir, 'reserve.bin')).then(
            (s) => s.size,
            () => 0,
          );
        }
        t.equal(reserve, 8 * MiB, 'the reserve given up for the clean-up is back');
      });
    }
  },
);
