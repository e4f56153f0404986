/**
 * The Playwright vote: the report starts with `config` (an object with `rootDir`, `projects`,
 * `version`…) and has a top-level `suites` array. mochawesome < 4 also has `suites`, but as an
 * object and without `config`.
 */
import { jsonValueStart, safeSniff } from '../../lib/formatter/api.js';

const FOREIGN_KEYS = ['testResults', 'results', 'tests', 'examples', 'uuid', 'allTests', 'copyrightYear'];
const CONFIG_KEYS =
  /"(?:rootDir|projects|configFile|forbidOnly|fullyParallel|globalSetup|reportSlowTests|workers)"\s*:/g;

export const sniff = safeSniff((head) => {
  if (head.kind !== 'json') return 0;
  const keys = head.topLevelKeys;
  if (!keys.includes('config') || jsonValueStart(head.text, 'config') !== '{') return 0;
  if (FOREIGN_KEYS.some((k) => keys.includes(k))) return 0;
  const configHits = new Set(head.text.slice(0, 65536).match(CONFIG_KEYS) ?? []).size;
  if (keys.includes('suites')) return jsonValueStart(head.text, 'suites') === '[' ? (configHits >= 2 ? 0.95 : 0.8) : 0;
  // A very long `config` (many projects, metadata) can push `suites` past the head.
  return configHits >= 3 && !head.complete ? 0.7 : 0;
});
