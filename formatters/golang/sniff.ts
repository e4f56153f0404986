/**
 * The Go vote: a line of the head is a test2json event — a JSON object with a known TitleCase
 * `Action` and `Package`, `ImportPath` or `Test`. Output captured with `2>&1` may start with go's
 * own text (`go: downloading …`, build errors), so the first lines are searched, not byte 0.
 * Cucumber Messages and Dart's reporter are NDJSON too, but use camelCase keys (`type`, `meta`).
 */
import { parseJsonObject, safeSniff } from '../../lib/formatter/api.js';

const ACTIONS = new Set([
  'start',
  'run',
  'pause',
  'cont',
  'pass',
  'bench',
  'fail',
  'output',
  'skip',
  'attr',
  'artifacts',
  'build-output',
  'build-fail',
]);
/** Lines looked at; a stream whose first event comes later is not recognised. */
const MAX_LINES = 64;

export const sniff = safeSniff((head) => {
  if (head.kind === 'xml' || head.kind === 'binary') return 0;
  const lines = head.text.split('\n', MAX_LINES + 1);
  // The last piece of an incomplete head may be a cut-off line.
  if (!head.complete && lines.length > 1) lines.pop();
  let nonJsonBefore = 0;
  let jsonBefore = 0;
  for (const raw of lines.slice(0, MAX_LINES)) {
    const line = raw.trim();
    if (line === '') continue;
    if (!line.startsWith('{')) {
      nonJsonBefore++;
      continue;
    }
    const e = parseJsonObject(line);
    if (e === null) {
      jsonBefore++;
      continue;
    }
    if (isEvent(e)) {
      // Another JSON format first means a different stream that happens to mention Action.
      if (jsonBefore > 0) return 0.2;
      return nonJsonBefore === 0 ? 0.95 : 0.85;
    }
    jsonBefore++;
  }
  return 0;
});

function isEvent(e: Record<string, unknown>): boolean {
  if (typeof e['Action'] !== 'string' || !ACTIONS.has(e['Action'])) return false;
  return typeof e['Package'] === 'string' || typeof e['ImportPath'] === 'string' || typeof e['Test'] === 'string';
}
