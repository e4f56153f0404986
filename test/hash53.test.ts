/** HashSet53 (lib/hash53.ts) agrees with a Set through growth, with 0 and the largest 53-bit hash. */
import t from 'tap';
import { HashSet53 } from '../lib/hash53.js';

t.test('HashSet53 matches a Set through growth, with 0 and large hashes', async (t) => {
  const set = new HashSet53(4);
  const reference = new Set<number>();
  let seed = 7;
  const next = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed * 4194304 + (seed % 4194304);
  };
  const values = [0, 1, 2 ** 53 - 1, ...Array.from({ length: 50_000 }, next)];
  for (const v of [...values, ...values.slice(0, 1000)]) {
    const expected = !reference.has(v === 0 ? 1 : v);
    reference.add(v === 0 ? 1 : v);
    if (set.add(v) !== expected) t.fail(`add(${v})`);
  }
  t.equal(set.size, reference.size);
});
