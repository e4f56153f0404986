/**
 * The xctest vote, for each family:
 * - console text: XCTest's `Test Suite '…' started at` / `Test Case '…' passed (…)` lines (also
 *   parallel testing's lower-case `Test case '…' passed on '…'`), or Swift Testing's symbol lines
 *   (`✔ Test f() passed after …`). Build output comes first in a real log, so the whole head is
 *   searched. A head of build output only (`xcodebuild` with its tests further on) scores 0.3: too
 *   little to detect it, enough for `/import/xctest` to read it.
 * - xcresulttool JSON: an object with `testNodes` (Xcode 16+), or one whose `_type` names a legacy
 *   xcresult type. The counts-only objects (the invocation record, `get test-results summary`) are
 *   claimed too: the parse refuses them with the command that gives the tests.
 * No other format writes these lines or keys; TAP, Go and the JSON reports never score here.
 */
import { safeSniff } from '../../lib/formatter/api.js';
import type { Head } from '../../lib/formatter/api.js';

const XCTEST_LINE = new RegExp(
  "^\\s*(?:Test Suite '.+' (?:started|passed|failed|finished) at |" +
    "Test Case '.+' (?:started|(?:passed|failed|skipped) \\(-?[\\d.]+ seconds\\)))",
  'm',
);
const PARALLEL_LINE = new RegExp(
  "^\\s*Test (?:suite '.+' started on '|case '.+' (?:passed|failed|skipped) on '.+' \\([\\d.]+ seconds\\))",
  'm',
);
const EXECUTED_LINE = /^\s*Executed \d+ tests?, with \d+ failures? \(\d+ unexpected\) in /m;
/** A symbol outside ASCII (◇ ✔ ✘ ➜, or an SF Symbols glyph), then one of Swift Testing's sentences. */
const SWIFT_TESTING_LINE = new RegExp(
  '^\\s*[\\u0080-\\uffff]\\S{0,2}\\s+' +
    '(?:Test run started\\.$|Test .+ (?:(?:passed|failed) after [\\d.]+ seconds|started\\.$|skipped))',
  'm',
);
/** xcodebuild's own lines before its tests: too little to say a file is a test log. */
const XCODEBUILD_LINE = new RegExp(
  '^(?:Command line invocation:$|\\*\\* (?:BUILD|TEST|CLEAN|ANALYZE|TEST BUILD) (?:SUCCEEDED|FAILED) \\*\\*|' +
    '=== (?:BUILD|CLEAN|ANALYZE) TARGET .+ OF PROJECT |Build settings from command line:$|' +
    '\\d{4}-\\d\\d-\\d\\d [\\d:.]+ xcodebuild\\[\\d+:\\d+\\] )',
  'm',
);

const LEGACY_TYPES = new RegExp(
  '^\\s*\\{\\s*"_type"\\s*:\\s*\\{\\s*"_name"\\s*:\\s*"(?:ActionsInvocationRecord|ActionTestPlanRunSummaries|' +
    'ActionTestSummary|ActionTestPlanRunSummary|ActionTestableSummary)"',
);
const NODE_TYPE = /"nodeType"\s*:\s*"(?:Test Plan|Unit test bundle|UI test bundle|Test Suite|Test Case)"/;

export const sniff = safeSniff((head) => {
  if (head.kind === 'xml' || head.kind === 'binary') return 0;
  if (head.kind === 'json' && /^\s*\{/.test(head.text)) return sniffJson(head);
  return sniffText(head.text);
});

function sniffJson(head: Head): number {
  if (LEGACY_TYPES.test(head.text)) return 0.95;
  const keys = new Set(head.topLevelKeys);
  if (keys.has('testNodes') && (keys.has('devices') || keys.has('testPlanConfigurations') || NODE_TYPE.test(head.text)))
    return 0.95;
  // A head cut inside a long device list may not reach `testNodes`.
  if (keys.has('devices') && NODE_TYPE.test(head.text)) return 0.9;
  // `get test-results summary`: counts only; claimed, so that its refusal says what to send instead.
  if (keys.has('totalTestCount') && keys.has('passedTests') && keys.has('failedTests')) return 0.9;
  return 0;
}

function sniffText(text: string): number {
  const xctest = XCTEST_LINE.test(text) || PARALLEL_LINE.test(text);
  if (xctest) return EXECUTED_LINE.test(text) || PARALLEL_LINE.test(text) ? 0.95 : 0.9;
  if (SWIFT_TESTING_LINE.test(text)) return 0.9;
  return XCODEBUILD_LINE.test(text) ? 0.3 : 0;
}
