/**
 * The seeded random source of Tally's generators, fuzzer and hostile-input tests (mulberry32:
 * small and fast), so a generated archive, a fuzz run or a "random" cut offset repeats exactly.
 */
export type Random = () => number;

export function rng(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
