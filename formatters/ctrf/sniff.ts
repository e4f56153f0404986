/**
 * The CTRF vote: `"reportFormat": "CTRF"` settles it; older reports have only a top-level
 * `results` object holding `tool`, `summary` and `tests`. mochawesome also has `results`, but as
 * an array and next to `stats`.
 */
import type { Head } from '../../lib/formatter-api.js';

const FOREIGN_KEYS = ['stats', 'testResults', 'config', 'suites', 'examples', 'uuid', 'tests'];

export function sniff(head: Head): number {
  try {
    if (head.kind !== 'json') return 0;
    const keys = head.topLevelKeys;
    if (/"reportFormat"\s*:\s*"CTRF"/i.test(head.text.slice(0, 4096)) && keys.includes('reportFormat')) return 0.98;
    if (!keys.includes('results') || FOREIGN_KEYS.some((k) => keys.includes(k))) return 0;
    if (valueStarts(head.text, 'results') !== '{') return 0;
    const inner = ['tool', 'summary', 'tests'].filter((k) => new RegExp(`"${k}"\\s*:\\s*[{[]`).test(head.text)).length;
    if (inner === 3) return 0.9;
    return inner === 2 && /"tool"\s*:\s*\{\s*"name"/.test(head.text) ? 0.8 : 0;
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
