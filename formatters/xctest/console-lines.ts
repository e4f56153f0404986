/**
 * The lines of `xcodebuild test` and `swift test` console output that carry results, read one at a
 * time: XCTest (and OCUnit) suite and case lines, Xcode's parallel-testing lines, XCTest failure and
 * skip lines, the restart after a crash, and Swift Testing's event lines. Everything else in a log
 * (build output, `NSLog` lines, simulator diagnostics) is `other`.
 */

export type ConsoleLine =
  | { kind: 'suite-start'; name: string; at: string | null }
  | { kind: 'suite-end'; name: string; verdict: 'passed' | 'failed' | 'finished'; at: string | null }
  | { kind: 'executed'; tests: number; failures: number; seconds: string }
  | { kind: 'case-start'; name: string; at: string | null }
  | { kind: 'case-end'; name: string; verdict: Verdict; seconds: string }
  | { kind: 'parallel-suite'; name: string; on: string }
  | { kind: 'parallel-case'; name: string; verdict: Verdict; on: string; seconds: string }
  | { kind: 'error'; name: string; file: string; line: string; message: string }
  | { kind: 'skip-notice'; name: string; file: string; line: string; reason: string | null }
  | { kind: 'restart'; name: string }
  | SwiftTestingLine
  | { kind: 'other' };

export type Verdict = 'passed' | 'failed' | 'skipped';

/** Swift Testing's lines: a symbol (◇ ✔ ✘ ➜ ↳, or an SF Symbols glyph) and a sentence. */
export type SwiftTestingLine =
  | { kind: 'st-run-start' }
  | { kind: 'st-run-end' }
  | { kind: 'st-test-start'; name: string }
  | { kind: 'st-test-end'; name: string; verdict: 'passed' | 'failed'; seconds: string; knownIssues: number }
  | { kind: 'st-test-skip'; name: string; reason: string | null }
  | { kind: 'st-issue'; name: string; location: string | null; message: string; known: boolean }
  | { kind: 'st-detail'; text: string };

const SUITE_START = /^\s*Test Suite '(.+)' started at (.+?)\.?\s*$/;
const SUITE_END = /^\s*Test Suite '(.+)' (passed|failed|finished) at (.+?)\.?\s*$/;
const EXECUTED = /^\s*Executed (\d+) tests?, with (\d+) failures? \(\d+ unexpected\) in [\d.]+ \(([\d.]+)\) seconds/;
const CASE_START = /^\s*Test Case '(.+)' started(?: at (.+?))?\.?\s*$/;
const CASE_END = /^\s*Test Case '(.+)' (passed|failed|skipped) \((-?[\d.]+) seconds\)\.?\s*$/;
const PARALLEL_SUITE = /^\s*Test suite '(.+)' started on '(.+)'\s*$/;
const PARALLEL_CASE = /^\s*Test case '(.+)' (passed|failed|skipped) on '(.+)' \((-?[\d.]+) seconds\)\s*$/;
/** `/path/File.swift:34: error: -[Module.Class testX] : XCTAssertTrue failed - message` (Linux: `Class.testX`). */
const ERROR = /^(.+?):(\d+): error: (-\[[^\]]+\]|[^\s:]+) : (.*)$/;
/** `/path/File.swift:12: -[Module.Class testX] : Test skipped - reason` (XCTSkip). */
const SKIP_NOTICE = /^(.+?):(\d+): (-\[[^\]]+\]|[^\s:]+) : Test skipped(?: - (.*))?$/;
/** Xcode 10-12 `…exit or crash in X/y()`; later `…exit, crash, or test timeout in X/y()`. */
const RESTART = /^\s*Restarting after unexpected exit.*? in (\S+?);/;

/** Swift Testing: a symbol of one or two characters outside ASCII, spaces, then the sentence. */
const SWIFT_TESTING = /^\s*[\u0080-\uffff]\S{0,2}\s+(.*)$/;
const ST_TEST_START = /^Test (.+) started\.$/;
const ST_TEST_END = /^Test (.+) (passed|failed) after ([\d.]+) seconds?(?: with (\d+) (known )?issues?)?\.$/;
const ST_TEST_SKIP = /^Test (.+) skipped(?:: "(.*)")?\.?$/;
const ST_ISSUE =
  /^Test (.+) recorded an? (known )?issue(?: with \d+ arguments? .*?)?(?: at (\S+?:\d+(?::\d+)?))?: (.*)$/;
const ST_RUN_START = /^Test run started\.$/;
const ST_RUN_END = /^Test run with \d+ tests?(?: in \d+ suites?)? (?:passed|failed)/;

export function classify(line: string): ConsoleLine {
  let m: RegExpExecArray | null;
  // Cheap first characters before the regular expressions: most lines of a log are build output.
  const t = line.trimStart();
  if (t.startsWith('Test ')) {
    if ((m = CASE_END.exec(line))) return { kind: 'case-end', name: m[1]!, verdict: m[2] as Verdict, seconds: m[3]! };
    if ((m = CASE_START.exec(line))) return { kind: 'case-start', name: m[1]!, at: m[2] ?? null };
    if ((m = PARALLEL_CASE.exec(line)))
      return { kind: 'parallel-case', name: m[1]!, verdict: m[2] as Verdict, on: m[3]!, seconds: m[4]! };
    if ((m = SUITE_START.exec(line))) return { kind: 'suite-start', name: m[1]!, at: m[2]! };
    if ((m = SUITE_END.exec(line)))
      return { kind: 'suite-end', name: m[1]!, verdict: m[2] as 'passed' | 'failed' | 'finished', at: m[3]! };
    if ((m = PARALLEL_SUITE.exec(line))) return { kind: 'parallel-suite', name: m[1]!, on: m[2]! };
    return { kind: 'other' };
  }
  if (t.startsWith('Executed ')) {
    if ((m = EXECUTED.exec(line))) return { kind: 'executed', tests: +m[1]!, failures: +m[2]!, seconds: m[3]! };
    return { kind: 'other' };
  }
  if (t.startsWith('Restarting ')) {
    if ((m = RESTART.exec(line))) return { kind: 'restart', name: m[1]! };
    return { kind: 'other' };
  }
  if (t.length > 0 && t.charCodeAt(0) > 0x7f) return swiftTesting(line);
  if (line.includes(' : ')) {
    if ((m = ERROR.exec(line))) return { kind: 'error', file: m[1]!, line: m[2]!, name: m[3]!, message: m[4]! };
    if ((m = SKIP_NOTICE.exec(line)))
      return { kind: 'skip-notice', file: m[1]!, line: m[2]!, name: m[3]!, reason: m[4] ?? null };
  }
  return { kind: 'other' };
}

function swiftTesting(line: string): ConsoleLine {
  const s = SWIFT_TESTING.exec(line);
  if (!s) return { kind: 'other' };
  const text = s[1]!;
  let m: RegExpExecArray | null;
  if (!text.startsWith('Test ') && !text.startsWith('Suite ')) return { kind: 'st-detail', text };
  if (ST_RUN_START.test(text)) return { kind: 'st-run-start' };
  if (ST_RUN_END.test(text)) return { kind: 'st-run-end' };
  if ((m = ST_TEST_END.exec(text)))
    return {
      kind: 'st-test-end',
      name: unquote(m[1]!),
      verdict: m[2] as 'passed' | 'failed',
      seconds: m[3]!,
      knownIssues: m[5] ? Number(m[4]) : 0,
    };
  if ((m = ST_ISSUE.exec(text)))
    return {
      kind: 'st-issue',
      name: unquote(m[1]!),
      known: m[2] !== undefined,
      location: m[3] ?? null,
      message: m[4]!,
    };
  if ((m = ST_TEST_START.exec(text))) return { kind: 'st-test-start', name: unquote(m[1]!) };
  if ((m = ST_TEST_SKIP.exec(text))) return { kind: 'st-test-skip', name: unquote(m[1]!), reason: m[2] ?? null };
  // Suite lines: Swift Testing runs tests in parallel, so its lines never say which suite a test is in.
  return { kind: 'other' };
}

/** A test with a display name is written in quotes: `Test "Adds two numbers" passed …`. */
function unquote(name: string): string {
  return name.length > 1 && name.startsWith('"') && name.endsWith('"') ? name.slice(1, -1) : name;
}

/**
 * A test's name as XCTest writes it → its class and method: `-[Module.Class testX]` (macOS,
 * Objective-C style), `Class.testX` (Linux), `Class.testX()` (parallel testing), `Suite/test()`.
 */
export function splitTestName(name: string): { className: string | null; method: string } {
  const objc = /^-\[(\S+) (.+)\]$/.exec(name);
  if (objc) return { className: lastDotted(objc[1]!), method: objc[2]! };
  const paren = name.indexOf('(');
  const head = paren >= 0 ? name.slice(0, paren) : name;
  const cut = Math.max(head.lastIndexOf('.'), head.lastIndexOf('/'));
  if (cut <= 0) return { className: null, method: name };
  return { className: lastDotted(name.slice(0, cut)), method: name.slice(cut + 1) };
}

/** `Module.Class` → `Class`: suites are named by class, the module is the bundle. */
function lastDotted(s: string): string {
  const i = s.lastIndexOf('.');
  return i >= 0 && i < s.length - 1 ? s.slice(i + 1) : s;
}
