/**
 * The mochawesome vote. Like Mocha's JSON it starts with `stats`; mochawesome has `results` (an
 * array of suite trees) or, before version 4, a single `suites` object with `allTests`/
 * `copyrightYear`, and its `stats` carries `passPercent`, `testsRegistered`, `other`….
 */
import { flatObjectText, jsonValueStart, safeSniff } from '../../lib/formatter/api.js';

const FOREIGN_KEYS = ['testResults', 'config', 'tests', 'passes', 'failures', 'examples', 'uuid', 'reportFormat'];
const OWN_STATS = /"(?:passPercent|pendingPercent|testsRegistered|hasOther|hasSkipped|other)"\s*:/;

export const sniff = safeSniff((head) => {
  if (head.kind !== 'json') return 0;
  const keys = head.topLevelKeys;
  if (!keys.includes('stats') || FOREIGN_KEYS.some((k) => keys.includes(k))) return 0;
  const tree =
    (keys.includes('results') && jsonValueStart(head.text, 'results') === '[') ||
    (keys.includes('suites') && jsonValueStart(head.text, 'suites') === '{');
  const legacy = keys.includes('allTests') || keys.includes('copyrightYear');
  const meta = keys.includes('meta') && /"(?:mochawesome|marge)"\s*:/.test(head.text);
  const stats = flatObjectText(head.text, 'stats');
  const ownStats = OWN_STATS.test(stats);
  const mochaStats = /"tests"\s*:/.test(stats) && /"passes"\s*:/.test(stats);
  if (!tree) return ownStats && (meta || legacy) ? 0.6 : 0;
  if (ownStats || meta || legacy) return 0.95;
  return mochaStats ? 0.7 : 0;
});
