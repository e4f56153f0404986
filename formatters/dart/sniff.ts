/**
 * The Dart vote: JSON lines whose `type` is a Dart reporter event (`start`, `suite`, `testStart`, …)
 * with that event's own key. Go's test2json lines (TitleCase `Action`) and Cucumber Messages
 * envelopes (one camelCase key per line) never have a `type`, so they score 0.
 */
import { parseJsonObject, safeSniff } from '../../lib/formatter/api.js';

/** Event type → a key that event always carries. */
const EVENTS: Record<string, string> = {
  start: 'protocolVersion',
  suite: 'suite',
  group: 'group',
  testStart: 'test',
  print: 'testID',
  error: 'testID',
  testDone: 'testID',
  allSuites: 'count',
  debug: 'suiteID',
  done: 'success',
};
const MAX_LINES = 20;

export const sniff = safeSniff((head) => {
  if (head.kind !== 'json') return 0;
  let hits = 0;
  let misses = 0;
  let start = false;
  const lines = head.text.split('\n');
  // The last line of a cut head may be incomplete; it is not evidence either way.
  const usable = head.complete ? lines.length : lines.length - 1;
  for (let i = 0, seen = 0; i < usable && seen < MAX_LINES; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    seen++;
    const e = line.startsWith('{') ? parseJsonObject(line) : null;
    if (e === null) {
      misses++;
      continue;
    }
    const type = e['type'];
    if (typeof type === 'string' && Object.hasOwn(EVENTS, type) && EVENTS[type]! in e) {
      hits++;
      if (type === 'start') start = true;
    } else misses++;
  }
  if (hits === 0) return 0;
  if (start && hits >= misses) return 0.95;
  if (hits >= 2 && misses === 0) return 0.85;
  return hits > misses ? 0.6 : 0.2;
});
