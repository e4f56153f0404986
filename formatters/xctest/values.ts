/** Values as xcresulttool writes them: result words and durations. */
import { parseSeconds, roundMs } from '../../lib/formatter/api.js';
import type { ContainerStatus } from '../../lib/formatter/api.js';

/**
 * A result word → Tally's status: Xcode 16+ `Passed`, `Failed`, `Skipped`, `Expected Failure`;
 * the legacy `testStatus` `Success`, `Failure`, `Skipped`, `Expected Failure`. An expected failure
 * (XCTExpectFailure, `withKnownIssue`) is the outcome the test asked for: passed. Null for a word
 * not known here.
 */
export function resultStatus(word: string | null | undefined): ContainerStatus | null {
  switch (word?.trim().toLowerCase()) {
    case 'passed':
    case 'success':
    case 'expected failure':
    case 'expectedfailure':
      return 'passed';
    case 'failed':
    case 'failure':
      return 'failed';
    case 'skipped':
      return 'skipped';
    case 'unknown':
      return 'unknown';
    default:
      return null;
  }
}

export function isExpectedFailure(word: string | null | undefined): boolean {
  return /^expected ?failure$/i.test(word?.trim() ?? '');
}

/**
 * A duration as Xcode 16+ writes it for people, in the locale of the Mac that ran the tests:
 * `0,014s`, `2s`, `1m 5s`, `12ms`. Null when it is none of these.
 */
export function xcodeDuration(text: string | undefined): number | null {
  if (text === undefined) return null;
  const s = text.trim();
  const ms = /^(\d+(?:[.,]\d+)?)\s*ms$/.exec(s);
  if (ms) {
    const asSeconds = parseSeconds(ms[1]!);
    return asSeconds === null ? null : roundMs(asSeconds / 1000);
  }
  const m = /^(?:(\d+)\s*h\s*)?(?:(\d+)\s*m(?:in)?\s*)?(?:(\d+(?:[.,]\d+)?)\s*s)?$/.exec(s);
  if (!m || (m[1] === undefined && m[2] === undefined && m[3] === undefined)) return null;
  const seconds = m[3] === undefined ? 0 : parseSeconds(m[3]);
  if (seconds === null) return null;
  return roundMs((Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0)) * 60_000 + seconds);
}
