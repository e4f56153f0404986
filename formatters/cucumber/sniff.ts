/**
 * The Cucumber JSON vote: a top-level array of feature objects. The feature `keyword` is localised
 * (`Funcionalidad`), so the vote is on key names, never on values. `[]` is what an empty run
 * writes; no other format here is a bare array, so it gets the lowest "mine" score.
 */
import { safeSniff } from '../../lib/formatter/api.js';

export const sniff = safeSniff((head) => {
  if (head.kind !== 'json') return 0;
  const text = head.text;
  if (!/^\s*\[/.test(text)) return 0;
  if (/^\s*\[\s*\]\s*$/.test(text)) return head.complete ? 0.5 : 0;
  if (!/^\s*\[\s*\{/.test(text)) return 0;
  const has = (key: string): boolean => new RegExp(`"${key}"\\s*:`).test(text);
  const elements = has('elements');
  const keyword = has('keyword');
  if (elements && keyword && (has('uri') || has('id'))) return 0.95;
  if (elements && (has('steps') || has('type'))) return 0.8;
  // A head cut inside a long first feature description may not reach `elements` yet.
  if (keyword && (has('uri') || has('id')) && (has('description') || has('line')) && !head.complete) return 0.6;
  return 0.1;
});
