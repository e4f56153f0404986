/**
 * A set of 53-bit hashes in one Float64Array (open addressing, linear probing). A JS Set of numbers
 * costs ~70 bytes an entry; this costs 16 at most, which keeps the duplicate-title check of a
 * million-test file at ~16 MiB instead of ~90 MiB.
 */
export class HashSet53 {
  private table: Float64Array;
  private mask: number;
  size = 0;

  constructor(initialCapacity = 1024) {
    let cap = 16;
    while (cap < initialCapacity * 2) cap *= 2;
    this.table = new Float64Array(cap);
    this.mask = cap - 1;
  }

  /** Adds the hash; false when it was already there. 0 is stored as 1 (0 marks an empty slot). */
  add(hash: number): boolean {
    const h = hash === 0 ? 1 : hash;
    let i = (h % 4294967296) & this.mask;
    for (;;) {
      const v = this.table[i]!;
      if (v === 0) break;
      if (v === h) return false;
      i = (i + 1) & this.mask;
    }
    this.table[i] = h;
    this.size++;
    if (this.size * 2 > this.table.length) this.grow();
    return true;
  }

  private grow(): void {
    const old = this.table;
    this.table = new Float64Array(old.length * 2);
    this.mask = this.table.length - 1;
    for (const v of old) {
      if (v === 0) continue;
      let i = (v % 4294967296) & this.mask;
      while (this.table[i] !== 0) i = (i + 1) & this.mask;
      this.table[i] = v;
    }
  }
}

/**
 * 53-bit hash of a string: a safe integer in JS, an integer column in SQLite, a double in MongoDB.
 * Two 32-bit multiply-xorshift lanes. History keys are made with it and stored, so it never changes.
 */
export function hash53(s: string): number {
  let h1 = 0x9e3779b9;
  let h2 = 0x85ebca6b;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 0x5bd1e995);
    h2 = Math.imul(h2 ^ ch, 0x27d4eb2f);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 15), 0x2c1b3c6d) ^ Math.imul(h2 ^ (h2 >>> 13), 0x297a2d39);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 0x85ebca6b) ^ Math.imul(h1 ^ (h1 >>> 13), 0xc2b2ae35);
  return 0x100000 * (h2 & 0xfffff) + (h1 >>> 0);
}
