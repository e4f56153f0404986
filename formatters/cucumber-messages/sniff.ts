/**
 * The Cucumber Messages vote: NDJSON whose lines are envelopes, objects with exactly one key that
 * names a message (`meta`, `source`, `gherkinDocument`, `pickle`, `testCaseStarted`, …). Go's
 * test2json lines have several TitleCase keys and Dart's events a `type`: neither is an envelope.
 * A `source` line can be longer than the head; a cut line is judged by its opening only.
 */
import { safeSniff } from '../../lib/formatter/api.js';
import { ENVELOPES } from './parse.js';

const MAX_LINES = 20;
const OPENING = /^\{\s*"([A-Za-z]+)"\s*:\s*\{/;

export const sniff = safeSniff((head) => {
  if (head.kind !== 'json') return 0;
  const lines = head.text.split('\n');
  let hits = 0;
  let misses = 0;
  let meta = false;
  for (let i = 0, seen = 0; i < lines.length && seen < MAX_LINES; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    seen++;
    const cut = i === lines.length - 1 && !head.complete;
    const key = envelopeKey(line, cut);
    if (key === undefined) continue;
    if (key === null) {
      misses++;
      continue;
    }
    hits++;
    if (key === 'meta' && seen === 1 && /"protocolVersion"\s*:/.test(line)) meta = true;
  }
  if (hits === 0) return 0;
  if (meta && misses === 0) return 0.95;
  if (misses === 0) return hits >= 2 ? 0.85 : 0.6;
  return hits > misses ? 0.4 : 0.1;
});

/** The envelope key of a line; null when the line is not an envelope; undefined when it cannot tell. */
function envelopeKey(line: string, cut: boolean): string | null | undefined {
  if (cut) {
    const m = OPENING.exec(line);
    if (m) return ENVELOPES.has(m[1]!) ? m[1]! : null;
    return line.startsWith('{') ? undefined : null;
  }
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    // A complete line that is not JSON: junk, or a line longer than the head (then its opening tells).
    const m = OPENING.exec(line);
    return m && ENVELOPES.has(m[1]!) ? m[1]! : null;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return null;
  const keys = Object.keys(v);
  const body: unknown = keys.length === 1 ? (v as Record<string, unknown>)[keys[0]!] : null;
  return ENVELOPES.has(keys[0] ?? '') && body !== null && typeof body === 'object' && !Array.isArray(body)
    ? keys[0]!
    : null;
}
