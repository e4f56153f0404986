/**
 * The RSpec vote: a top-level object with `examples` next to RSpec's own run keys (`version`,
 * `summary`, `summary_line`, `seed`, `messages`). `examples` alone is weak evidence; an example's
 * `full_description` with `status` in the head confirms it.
 */
import { safeSniff } from '../../lib/formatter/api.js';

const RUN_KEYS = ['version', 'summary', 'summary_line', 'seed', 'messages'];

export const sniff = safeSniff((head) => {
  if (head.kind !== 'json' || !/^\s*\{/.test(head.text)) return 0;
  const keys = head.topLevelKeys;
  if (!keys.includes('examples')) return 0;
  const runKeys = RUN_KEYS.filter((k) => keys.includes(k)).length;
  const exampleShape = /"full_description"\s*:/.test(head.text) && /"status"\s*:\s*"/.test(head.text);
  if (runKeys > 0 && exampleShape) return 0.95;
  if (runKeys > 0 && /"examples"\s*:\s*\[\s*\]/.test(head.text)) return 0.9;
  if (runKeys > 0 || exampleShape) return 0.7;
  return 0.2;
});
