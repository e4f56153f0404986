/**
 * The public numbers in the embedded database (lib/store/numbers.ts): a counter row per noun, and a
 * `numbers` row for every number given or chosen, which the counter steps over. Called inside an
 * immediate transaction, so the claim and what uses the number commit together.
 */
import { checkNumber, type NumberedNoun } from '../numbers.js';
import type { Statements } from './statements.js';

/** The counter's next number that was never given nor chosen, claimed. */
export function claimNextNumber(s: Statements, noun: NumberedNoun): number {
  for (;;) {
    const n = checkNumber(noun, s.nextNumber.get(noun)!.value);
    if (s.claimNumber.run(noun, n).changes === 1) return n;
  }
}
