/**
 * Byte-level mutations of a corpus entry, with a seeded random source so a run can be repeated:
 * bit flips, interesting bytes, deletions, duplications, insertions of dictionary tokens (the
 * target's syntax: tags, quotes, boundaries, zip signatures) and splices with other entries.
 */
import type { Random } from '../../bench/random.js';

export type { Random };
export { rng as seeded } from '../../bench/random.js';

const INTERESTING = [
  0x00, 0x01, 0x7f, 0x80, 0xff, 0x0a, 0x0d, 0x22, 0x27, 0x3c, 0x3e, 0x26, 0x5c, 0x7b, 0x7d, 0x5b, 0x5d, 0xef, 0xbb,
  0xbf, 0xfe,
];
const MAX_BYTES = 256 * 1024;

export function mutate(input: Buffer, corpus: readonly Buffer[], dictionary: readonly Buffer[], rnd: Random): Buffer {
  let out: Buffer = Buffer.from(input);
  const n = 1 + Math.floor(rnd() * 4);
  for (let i = 0; i < n; i++) out = once(out, corpus, dictionary, rnd);
  return out.length > MAX_BYTES ? out.subarray(0, MAX_BYTES) : out;
}

function once(b: Buffer, corpus: readonly Buffer[], dictionary: readonly Buffer[], rnd: Random): Buffer {
  const at = (len: number) => Math.floor(rnd() * (len + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  switch (Math.floor(rnd() * 9)) {
    case 0: {
      if (b.length === 0) return Buffer.from([pick(INTERESTING)]);
      const i = Math.floor(rnd() * b.length);
      b[i] = b[i]! ^ (1 << Math.floor(rnd() * 8));
      return b;
    }
    case 1: {
      if (b.length === 0) return b;
      b[Math.floor(rnd() * b.length)] = pick(INTERESTING);
      return b;
    }
    case 2: {
      const start = at(b.length);
      const len = Math.floor(rnd() * Math.min(64, b.length - start + 1));
      return Buffer.concat([b.subarray(0, start), b.subarray(start + len)]);
    }
    case 3: {
      const start = at(b.length);
      const len = Math.floor(rnd() * Math.min(256, b.length - start + 1));
      const where = at(b.length);
      return Buffer.concat([b.subarray(0, where), b.subarray(start, start + len), b.subarray(where)]);
    }
    case 4:
    case 5: {
      if (dictionary.length === 0) return b;
      const where = at(b.length);
      return Buffer.concat([b.subarray(0, where), pick(dictionary), b.subarray(where)]);
    }
    case 6: {
      // Cut short: truncated files are what CI jobs that die mid-write produce.
      return b.subarray(0, at(b.length));
    }
    case 7: {
      const other = pick(corpus);
      const cut = at(b.length);
      return Buffer.concat([b.subarray(0, cut), other.subarray(at(other.length))]);
    }
    default: {
      // Repeat a slice many times: deep nesting, long runs.
      const start = at(b.length);
      const len = 1 + Math.floor(rnd() * Math.min(32, Math.max(1, b.length - start)));
      const times = 2 + Math.floor(rnd() * 200);
      const slice = b.subarray(start, start + len);
      return Buffer.concat([b.subarray(0, start), ...Array.from({ length: times }, () => slice), b.subarray(start)]);
    }
  }
}
