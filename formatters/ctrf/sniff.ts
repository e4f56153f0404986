/**
 * The CTRF vote: `"reportFormat": "CTRF"` settles it; older reports have only a top-level
 * `results` object holding `tool`, `summary` and `tests`. mochawesome also has `results`, but as
 * an array and next to `stats`.
 */
import { jsonValueStart, safeSniff } from '../../lib/formatter/api.js';

const FOREIGN_KEYS = ['stats', 'testResults', 'config', 'suites', 'examples', 'uuid', 'tests'];

export const sniff = safeSniff((head) => {
  if (head.kind !== 'json') return 0;
  const keys = head.topLevelKeys;
  if (/"reportFormat"\s*:\s*"CTRF"/i.test(head.text.slice(0, 4096)) && keys.includes('reportFormat')) return 0.98;
  if (!keys.includes('results') || FOREIGN_KEYS.some((k) => keys.includes(k))) return 0;
  if (jsonValueStart(head.text, 'results') !== '{') return 0;
  const inner = ['tool', 'summary', 'tests'].filter((k) => new RegExp(`"${k}"\\s*:\\s*[{[]`).test(head.text)).length;
  if (inner === 3) return 0.9;
  return inner === 2 && /"tool"\s*:\s*\{\s*"name"/.test(head.text) ? 0.8 : 0;
});
