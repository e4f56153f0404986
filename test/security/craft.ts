/**
 * Hostile inputs made by code, byte for byte: zip archives with any name, flag, attribute or offset
 * (yazl refuses to write most of them), a deflate bomb streamed from zeros, and readers of the
 * process's memory. Nothing here touches the network; the tests send what it builds.
 */
import { crc32, createDeflateRaw } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface ZipEntrySpec {
  /** Written as given: no validation, no normalisation (`../x`, `C:\x`, `/etc/x` are all fine). */
  name: string;
  /** The uncompressed content (for the CRC and the sizes). */
  data?: Buffer;
  /** Already-compressed bytes (method 8); then `uncompressedSize` and `crc` should be given. */
  compressed?: Buffer;
  method?: 0 | 8;
  /** General purpose bit flag (bit 0: encrypted, bit 11: UTF-8 names). */
  flags?: number;
  /** Made-by version: 3 << 8 (Unix) for external attributes that carry a mode. */
  versionMadeBy?: number;
  /** External attributes; a Unix mode sits in the upper 16 bits. */
  externalAttributes?: number;
  /** Overrides for the recorded sizes and CRC (a zip that lies). */
  uncompressedSize?: number;
  compressedSize?: number;
  crc?: number;
}

interface Laid {
  spec: ZipEntrySpec;
  body: Buffer;
  crc: number;
  compressedSize: number;
  uncompressedSize: number;
  method: number;
  flags: number;
  name: Buffer;
}

function lay(spec: ZipEntrySpec): Laid {
  const method = spec.method ?? (spec.compressed ? 8 : 0);
  const data = spec.data ?? Buffer.alloc(0);
  const body = spec.compressed ?? data;
  return {
    spec,
    body,
    crc: spec.crc ?? crc32(data),
    compressedSize: spec.compressedSize ?? body.length,
    uncompressedSize: spec.uncompressedSize ?? data.length,
    method,
    flags: spec.flags ?? 0x800,
    name: Buffer.from(spec.name, 'utf8'),
  };
}

function localHeader(e: Laid): Buffer {
  const h = Buffer.alloc(30);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(20, 4); // version needed
  h.writeUInt16LE(e.flags, 6);
  h.writeUInt16LE(e.method, 8);
  h.writeUInt16LE(0, 10); // time
  h.writeUInt16LE(0x5a21, 12); // date (2025-01-01)
  h.writeUInt32LE(e.crc >>> 0, 14);
  h.writeUInt32LE(e.compressedSize, 18);
  h.writeUInt32LE(e.uncompressedSize, 22);
  h.writeUInt16LE(e.name.length, 26);
  h.writeUInt16LE(0, 28);
  return Buffer.concat([h, e.name]);
}

function centralHeader(e: Laid, offset: number): Buffer {
  const h = Buffer.alloc(46);
  h.writeUInt32LE(0x02014b50, 0);
  h.writeUInt16LE(e.spec.versionMadeBy ?? 20, 4);
  h.writeUInt16LE(20, 6);
  h.writeUInt16LE(e.flags, 8);
  h.writeUInt16LE(e.method, 10);
  h.writeUInt16LE(0, 12);
  h.writeUInt16LE(0x5a21, 14);
  h.writeUInt32LE(e.crc >>> 0, 16);
  h.writeUInt32LE(e.compressedSize, 20);
  h.writeUInt32LE(e.uncompressedSize, 24);
  h.writeUInt16LE(e.name.length, 28);
  h.writeUInt16LE(0, 30); // extra
  h.writeUInt16LE(0, 32); // comment
  h.writeUInt16LE(0, 34); // disk
  h.writeUInt16LE(0, 36); // internal attributes
  h.writeUInt32LE((e.spec.externalAttributes ?? 0) >>> 0, 38);
  h.writeUInt32LE(offset, 42);
  return Buffer.concat([h, e.name]);
}

function endOfCentralDirectory(count: number, cdSize: number, cdOffset: number): Buffer {
  const h = Buffer.alloc(22);
  h.writeUInt32LE(0x06054b50, 0);
  h.writeUInt16LE(count, 8);
  h.writeUInt16LE(count, 10);
  h.writeUInt32LE(cdSize, 12);
  h.writeUInt32LE(cdOffset, 16);
  return h;
}

/** A plain zip of the given entries, each with its own local header and data. */
export function craftZip(specs: ZipEntrySpec[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const spec of specs) {
    const e = lay(spec);
    const local = Buffer.concat([localHeader(e), e.body]);
    central.push(centralHeader(e, offset));
    parts.push(local);
    offset += local.length;
  }
  const cd = Buffer.concat(central);
  return Buffer.concat([...parts, cd, endOfCentralDirectory(specs.length, cd.length, offset)]);
}

/**
 * The overlapping-entry bomb (Fifield's "better zip bomb", in its simplest form): one local header
 * and its data, and `names.length` central-directory records that all point at it.
 */
export function overlappingZip(names: string[], data: Buffer): Buffer {
  const first = lay({ name: names[0]!, data });
  const local = Buffer.concat([localHeader(first), first.body]);
  const cd = Buffer.concat(names.map((name) => centralHeader({ ...lay({ name, data }) }, 0)));
  return Buffer.concat([local, cd, endOfCentralDirectory(names.length, cd.length, local.length)]);
}

/** Offset of the first central-directory record of a zip made by `craftZip` (or any zip without a comment). */
export function centralDirectoryOffset(zip: Buffer): number {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  return zip.readUInt32LE(eocd + 16);
}

/** `bytes` of zeros, deflated as they stream (never held uncompressed), with their CRC. */
export async function deflatedZeros(bytes: number): Promise<{ compressed: Buffer; crc: number; size: number }> {
  const deflate = createDeflateRaw({ level: 9, memLevel: 9 });
  const zeros = Buffer.alloc(1024 * 1024);
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  let crc = 0;
  for (let left = bytes; left > 0; left -= zeros.length) {
    const piece = left >= zeros.length ? zeros : zeros.subarray(0, left);
    crc = crc32(piece, crc);
    if (!deflate.write(piece)) await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await done;
  return { compressed: Buffer.concat(out), crc, size: bytes };
}

/** Resident set size of this process (the server runs in it), from /proc. */
export function rssBytes(): number {
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : process.memoryUsage().rss;
}

/** Samples RSS every few milliseconds while `work` runs; returns its result and the peak growth. */
export async function peakRssDuring<T>(work: () => Promise<T>): Promise<{ value: T; growth: number }> {
  const base = rssBytes();
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssBytes());
  }, 5);
  try {
    const value = await work();
    peak = Math.max(peak, rssBytes());
    return { value, growth: peak - base };
  } finally {
    clearInterval(timer);
  }
}

/** A deterministic PRNG, so "random" offsets are the same on every run. */
export { rng as seeded } from '../../bench/random.js';

let collect: (() => void) | null = null;
/** A full garbage collection (V8's gc, exposed at run time: the test runner's flags are not ours to set). */
export function fullGc(): void {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}

/**
 * Peak growth of the live JavaScript heap (heapUsed right after a full GC, sampled every 50 ms) and of
 * RSS while `work` runs. The live heap says what was held (strings live there); RSS also counts the
 * garbage the test runner's hooks leave around until the next GC, which makes it noisy.
 */
export async function peakMemoryDuring<T>(
  work: () => Promise<T>,
): Promise<{ value: T; liveGrowth: number; rssGrowth: number; ms: number }> {
  fullGc();
  const live = (): number => process.memoryUsage().heapUsed;
  const baseLive = live();
  const baseRss = rssBytes();
  let peakLive = baseLive;
  let peakRss = baseRss;
  const timer = setInterval(() => {
    peakRss = Math.max(peakRss, rssBytes());
    fullGc();
    peakLive = Math.max(peakLive, live());
  }, 50);
  const started = Date.now();
  try {
    const value = await work();
    peakRss = Math.max(peakRss, rssBytes());
    return { value, liveGrowth: peakLive - baseLive, rssGrowth: peakRss - baseRss, ms: Date.now() - started };
  } finally {
    clearInterval(timer);
  }
}
