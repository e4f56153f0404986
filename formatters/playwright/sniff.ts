/**
 * The Playwright vote: the report starts with `config` (an object with `rootDir`, `projects`,
 * `version`…) and has a top-level `suites` array. mochawesome < 4 also has `suites`, but as an
 * object and without `config`.
 */
import type { Head } from '../../lib/formatter-api.js';

const FOREIGN_KEYS = ['testResults', 'results', 'tests', 'examples', 'uuid', 'allTests', 'copyrightYear'];
const CONFIG_KEYS = /"(?:rootDir|projects|configFile|forbidOnly|fullyParallel|globalSetup|reportSlowTests|workers)"\s*:/g;

export function sniff(head: Head): number {
  try {
    if (head.kind !== 'json') return 0;
    const keys = head.topLevelKeys;
    if (!keys.includes('config') || valueStarts(head.text, 'config') !== '{') return 0;
    if (FOREIGN_KEYS.some((k) => keys.includes(k))) return 0;
    const configHits = new Set(head.text.slice(0, 65536).match(CONFIG_KEYS) ?? []).size;
    if (keys.includes('suites')) return valueStarts(head.text, 'suites') === '[' ? (configHits >= 2 ? 0.95 : 0.8) : 0;
    // A very long `config` (many projects, metadata) can push `suites` past the head.
    return configHits >= 3 && !head.complete ? 0.7 : 0;
  } catch {
    return 0;
  }
}

/** First character of the value of a top-level key (`{`, `[`, `"`, a digit…), read from the head text. */
export function valueStarts(text: string, key: string): string | null {
  let depth = 0;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      if (end < 0) return null;
      if (depth === 1 && expectKey) {
        const m = /^\s*:\s*(\S)/.exec(text.slice(end + 1, end + 64));
        if (m && text.slice(i + 1, end) === key) return m[1]!;
      }
      expectKey = false;
      i = end;
      continue;
    }
    if (c === '{' || c === '[') {
      depth++;
      expectKey = c === '{' && depth === 1;
    } else if (c === '}' || c === ']') depth--;
    else if (c === ',' && depth === 1) expectKey = true;
  }
  return null;
}

function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}
