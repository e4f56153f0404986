/**
 * The Mocha JSON vote. Mocha and mochawesome both start with `stats`: Mocha's report has the top
 * arrays `tests`/`pending`/`failures`/`passes` and a `stats` of eight counters; mochawesome adds
 * `results` or a `suites` tree, and `passPercent`, `testsRegistered`, `other`… to `stats`.
 */
import { flatObjectText, safeSniff } from '../../lib/formatter/api.js';

const FOREIGN_KEYS = [
  'results',
  'meta',
  'suites',
  'allTests',
  'copyrightYear',
  'config',
  'testResults',
  'examples',
  'uuid',
];
const MOCHAWESOME_STATS = /"(?:passPercent|pendingPercent|testsRegistered|hasOther|hasSkipped|other)"\s*:/;
const SECTIONS = ['tests', 'pending', 'failures', 'passes'];
/** The reporter's own layout: `{` alone on a line, then `"stats": {` (JSON.stringify with 2 spaces). */
const AFTER_PREAMBLE = /(?:^|\n)\{\s*"stats"\s*:\s*\{\s*"suites"\s*:\s*\d+\s*,\s*"tests"\s*:\s*\d+\s*,\s*"passes"\s*:/;

export const sniff = safeSniff((head) => {
  if (head.kind === 'text')
    return AFTER_PREAMBLE.test(head.text) && !MOCHAWESOME_STATS.test(flatObjectText(head.text, 'stats')) ? 0.75 : 0;
  if (head.kind !== 'json') return 0;
  const keys = head.topLevelKeys;
  if (!keys.includes('stats') || FOREIGN_KEYS.some((k) => keys.includes(k))) return 0;
  if (MOCHAWESOME_STATS.test(flatObjectText(head.text, 'stats'))) return 0;
  const sections = SECTIONS.filter((k) => keys.includes(k)).length;
  if (!keys.includes('tests')) return sections > 0 ? 0.3 : 0;
  // A big `tests` array pushes the other sections out of the head; `stats` + `tests` is enough.
  return sections >= 3 ? 0.95 : 0.85;
});
