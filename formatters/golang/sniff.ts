/**
 * The Go vote: a line of the head is a test2json event — a JSON object with a known TitleCase
 * `Action` and `Package`, `ImportPath` or `Test`, or with test2json's fields only (a stream
 * without `Package` starts `{"Action":"start"}`). Output captured with `2>&1` may start with go's
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

/** What a package-level event without `Package` may hold (`go tool test2json` without -p). */
const BARE: Record<string, ReadonlySet<string>> = {
  start: new Set(['Time', 'Action']),
  output: new Set(['Time', 'Action', 'Output']),
  pass: new Set(['Time', 'Action', 'Elapsed']),
  fail: new Set(['Time', 'Action', 'Elapsed']),
  skip: new Set(['Time', 'Action', 'Elapsed']),
};

function isEvent(e: Record<string, unknown>): boolean {
  const action = e['Action'];
  if (typeof action !== 'string' || !ACTIONS.has(action)) return false;
  if (typeof e['Package'] === 'string' || typeof e['ImportPath'] === 'string' || typeof e['Test'] === 'string')
    return true;
  // `go tool test2json` without -p: `{"Action":"start"}`, `{"Action":"output","Output":"…"}`, `{"Action":"fail"}`.
  const fields = BARE[action];
  if (!fields || !Object.keys(e).every((k) => fields.has(k))) return false;
  return action !== 'output' || typeof e['Output'] === 'string';
}
