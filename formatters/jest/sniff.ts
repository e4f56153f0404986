/**
 * The Jest/Vitest vote: the aggregated counters (`numTotalTests`, `numFailedTestSuites`, …) are
 * Jest's own vocabulary, written first (Jest sorts them; Vitest writes them first too), and
 * `testResults` follows them.
 */
import { safeSniff } from '../../lib/formatter/api.js';

const COUNTERS = [
  'numTotalTests',
  'numFailedTests',
  'numPassedTests',
  'numPendingTests',
  'numTotalTestSuites',
  'numFailedTestSuites',
  'numPassedTestSuites',
  'numRuntimeErrorTestSuites',
  'numTodoTests',
];
/** Jest's reporter writes one line; a preamble (npm banner, console output) may precede it. */
const AFTER_PREAMBLE = /(?:^|\n)\{\s*"num(?:Failed|Passed|Pending|Total|RuntimeError|Todo)Test\w*"\s*:\s*\d/;

export const sniff = safeSniff((head) => {
  if (head.kind === 'text') return AFTER_PREAMBLE.test(head.text) && head.text.includes('"testResults"') ? 0.75 : 0;
  if (head.kind !== 'json') return 0;
  const keys = head.topLevelKeys;
  const counters = COUNTERS.filter((k) => keys.includes(k)).length;
  if (counters === 0) return 0;
  if (keys.includes('testResults')) return counters >= 2 ? 0.95 : 0.8;
  // A long `coverageMap` or snapshot list can push `testResults` past the head.
  return counters >= 4 ? 0.8 : 0.3;
});
