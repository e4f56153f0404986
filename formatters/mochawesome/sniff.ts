/**
 * The mochawesome vote. Like Mocha's JSON it starts with `stats`; mochawesome has `results` (an
 * array of suite trees) or, before version 4, a single `suites` object with `allTests`/
 * `copyrightYear`, and its `stats` carries `passPercent`, `testsRegistered`, `other`….
 */
import type { Head } from '../../lib/formatter-api.js';

const FOREIGN_KEYS = ['testResults', 'config', 'tests', 'passes', 'failures', 'examples', 'uuid', 'reportFormat'];
const OWN_STATS = /"(?:passPercent|pendingPercent|testsRegistered|hasOther|hasSkipped|other)"\s*:/;

export function sniff(head: Head): number {
  try {
    if (head.kind !== 'json') return 0;
    const keys = head.topLevelKeys;
    if (!keys.includes('stats') || FOREIGN_KEYS.some((k) => keys.includes(k))) return 0;
    const tree =
      (keys.includes('results') && valueStarts(head.text, 'results') === '[') ||
      (keys.includes('suites') && valueStarts(head.text, 'suites') === '{');
    const legacy = keys.includes('allTests') || keys.includes('copyrightYear');
    const meta = keys.includes('meta') && /"(?:mochawesome|marge)"\s*:/.test(head.text);
    const stats = statsText(head.text);
    const ownStats = OWN_STATS.test(stats);
    const mochaStats = /"tests"\s*:/.test(stats) && /"passes"\s*:/.test(stats);
    if (!tree) return ownStats && (meta || legacy) ? 0.6 : 0;
    if (ownStats || meta || legacy) return 0.95;
    return mochaStats ? 0.7 : 0;
  } catch {
    return 0;
  }
}

/** The text of the (flat) `stats` object, as far as the head holds it. */
function statsText(text: string): string {
  const at = text.indexOf('"stats"');
  if (at < 0) return '';
  const end = text.indexOf('}', at);
  return text.slice(at, end < 0 ? undefined : end);
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
