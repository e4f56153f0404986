/**
 * Serenity's values: its result words, times (epoch milliseconds, ISO with offset, ISO with a zone
 * id after it) and durations (a number, or in Thucydides a string), and its exceptions.
 */
import { capText, fromEpochMs, parseTimestamp } from '../../lib/formatter/api.js';
import type { ContainerStatus, FailureInfo, Instant } from '../../lib/formatter/api.js';

/**
 * Serenity's `TestResult` → Tally's status (the table is in README.md). ERROR ("broken": an
 * exception that is not an assertion) and COMPROMISED (an outside system failed) are errored;
 * PENDING (specified, not implemented) is pending; IGNORED, SKIPPED and ABORTED (a failed
 * assumption) did not run: skipped; UNDEFINED or no result is unknown.
 */
export function resultStatus(word: unknown): ContainerStatus {
  switch (typeof word === 'string' ? word.toUpperCase() : null) {
    case 'SUCCESS':
      return 'passed';
    case 'FAILURE':
    case 'UNSUCCESSFUL':
      return 'failed';
    case 'ERROR':
    case 'COMPROMISED':
      return 'errored';
    case 'PENDING':
      return 'pending';
    case 'IGNORED':
    case 'SKIPPED':
    case 'ABORTED':
      return 'skipped';
    default:
      return 'unknown';
  }
}

/** The result words Serenity writes: the sniff looks for one of them. */
export const RESULT_WORDS = [
  'SUCCESS',
  'FAILURE',
  'ERROR',
  'COMPROMISED',
  'PENDING',
  'IGNORED',
  'SKIPPED',
  'ABORTED',
  'UNSUCCESSFUL',
  'UNDEFINED',
];

/**
 * `startTime`: epoch milliseconds (Serenity 1.x), ISO with an offset (Thucydides `timestamp`,
 * Serenity/JS), or ISO with the zone id after it (`2018-08-01T19:24:54.578+01:00[Europe/London]`,
 * Java's ZonedDateTime): the offset is what counts, the id is dropped.
 */
export function instantOf(v: unknown): Instant | null {
  if (typeof v === 'number') return fromEpochMs(v);
  if (typeof v !== 'string') return null;
  const s = v.trim().replace(/\[[^\]]*\]$/, '');
  return /^\d+$/.test(s) ? fromEpochMs(Number(s)) : parseTimestamp(s);
}

/** Milliseconds, as a number or (Thucydides) a string of digits. */
export function millis(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+(?:\.\d+)?$/.test(v.trim()) ? Number(v) : null;
  return n !== null && Number.isFinite(n) && n >= 0 ? n : null;
}

/**
 * An exception as Serenity writes it (`testFailureCause`, a step's `exception`): `errorType`,
 * `message` and `stackTrace` frames → a failure whose stack reads like Java's.
 */
export function exceptionFailure(v: unknown, limit: number): FailureInfo | null {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return null;
  const e = v as Record<string, unknown>;
  const type = typeof e['errorType'] === 'string' && e['errorType'] ? e['errorType'] : null;
  const message = typeof e['message'] === 'string' ? e['message'].trim() : null;
  if (type === null && !message) return null;
  const frames: string[] = [];
  if (Array.isArray(e['stackTrace']))
    for (const f of e['stackTrace'].slice(0, 200)) {
      if (f === null || typeof f !== 'object') continue;
      const {
        declaringClass: cls,
        methodName: method,
        fileName: file,
        lineNumber: line,
      } = f as Record<string, unknown>;
      const where = typeof file === 'string' ? `${file}${typeof line === 'number' && line >= 0 ? `:${line}` : ''}` : '';
      frames.push(`\tat ${String(cls ?? '?')}.${String(method ?? '?')}(${where || 'Unknown Source'})`);
    }
  const head = [type, message].filter(Boolean).join(': ');
  return {
    message: message ? capText(message, limit) : null,
    type,
    stack: frames.length > 0 ? capText([head, ...frames].join('\n'), limit) : null,
  };
}
