import t from 'tap';
import type { Container } from '../../lib/formatter/api.js';
import { totalsOf as count } from '../../lib/formatter/check.js';
import {
  byTitle,
  childrenFirst,
  driveHandler,
  failure,
  formatterChecks,
} from '../../test/helpers/formatter-fixtures.js';
import { formatterFixtures, headOf, headOfBytes } from '../../test/helpers/formatter-fixtures.js';
import { FormatError } from '../../lib/formatter/api.js';
import { consoleHandler } from './console.js';
import { xctest } from './index.js';
import { xcodeDuration } from './values.js';

const fx = formatterFixtures(xctest, import.meta.url);
const { run } = fx;

formatterChecks(fx, {
  fixtureScore: 0.9,
  eachFixture: (t, { containers }, name) => {
    t.ok(childrenFirst(containers), `${name}: children before parents, every parent emitted`);
  },
  chunks: { eachInChunksOf: 7 },
});

/** Console lines through the state machine, as forEachLine hands them over. */
function lines(text: string, maxTextChars = 1000): Container[] {
  return driveHandler(consoleHandler, 'xcodebuild.log', maxTextChars, (h) => {
    for (const line of text.split('\n')) h.line(line);
  }).out;
}

const tests = (cs: Container[]) => cs.filter((c) => c.type === 'test');

t.test('xcodebuild: bundle and class suites, failure lines, durations, the wrappers left out', async (t) => {
  const name = 'swift-test-6.0-macos-xctest-and-swift-testing-failures.log';
  const { containers } = await run(fx.read(name), name);
  const bundle = byTitle(containers, 'xcbeautifyPackageTests');
  t.match(bundle, {
    type: 'suite',
    parentId: null,
    status: 'failed',
    meta: { bundle: 'xcbeautifyPackageTests.xctest' },
  });
  t.match(bundle, { startedAt: '2025-08-10T01:38:41.773Z', startedAtNaive: true, durationMs: 166 });
  const cls = byTitle(containers, 'CaptureGroupTests');
  t.match(cls, { parentId: bundle.id, status: 'failed', durationMs: 166 });
  t.notOk(
    containers.some((c) => c.title === 'All tests'),
    'All tests is the run, not a suite',
  );
  t.match(byTitle(containers, 'testForceFailure'), {
    parentId: cls.id,
    status: 'failed',
    durationMs: 163,
    failure: {
      message: 'XCTAssertTrue failed - True is never false.',
      type: 'XCTAssertTrue',
      stack: /CaptureGroupTests\.swift:34: error: -\[XcbeautifyLibTests\.CaptureGroupTests testForceFailure\]/,
    },
    meta: { name: '-[XcbeautifyLibTests.CaptureGroupTests testForceFailure]', line: '34' },
  });
  t.match(byTitle(containers, 'testMatchSwiftTestingIssueArgument1'), {
    status: 'passed',
    durationMs: 2,
    failure: null,
  });
});

t.test('swift test on Linux: names without -[ ], start times on test lines', async (t) => {
  const name = 'swift-test-6.0-linux-xctest-and-swift-testing-failures.log';
  const { containers } = await run(fx.read(name), name);
  t.match(byTitle(containers, 'debug'), { meta: { bundle: 'debug.xctest' } });
  t.match(byTitle(containers, 'testForceFailure'), {
    status: 'failed',
    startedAt: '2025-08-10T01:38:55.196Z',
    startedAtNaive: true,
    failure: { message: 'XCTAssertTrue failed - True is never false.' },
  });
});

t.test('Swift Testing: its own suite, issues with their locations, a skip reason, SF Symbols', async (t) => {
  const mixed = 'swift-test-6.0-macos-xctest-and-swift-testing-failures.log';
  const { containers } = await run(fx.read(mixed), mixed);
  const suite = byTitle(containers, 'Swift Testing');
  t.match(suite, { type: 'suite', parentId: null, status: 'failed' });
  t.match(byTitle(containers, 'testFailTrueIsFalse()'), {
    parentId: suite.id,
    status: 'failed',
    durationMs: 1,
    failure: {
      message: 'Expectation failed: true == false',
      stack: 'Test.swift:17:9: Expectation failed: true == false',
    },
    meta: { location: 'Test.swift:17:9' },
  });
  const sf = 'swift-testing-sf-symbols-glyphs-skipped-failed.log';
  const glyphs = (await run(fx.read(sf), sf)).containers;
  t.match(byTitle(glyphs, 'skippedTest()'), { status: 'skipped', failure: { message: 'Skipping this test' } });
  t.match(byTitle(glyphs, 'secondExample()'), {
    status: 'failed',
    failure: {
      stack: /DemoSwiftTestingTests\.swift:11:5: Expectation failed: true == false\n {2}\/\/ Write your test/,
    },
  });
  t.same(
    glyphs.filter((c) => c.type === 'suite').map((c) => c.title),
    ['Swift Testing'],
    'the XCTest part ran no test: no suite for it',
  );
});

t.test('a crash: the test that never finished is errored, with what it printed; the restart goes on', async (t) => {
  const name = 'xcodebuild-xcode10-crash-restart-failure.log';
  const { containers } = await run(fx.read(name), name);
  const crashed = byTitle(containers, 'testFailure');
  t.match(crashed, {
    status: 'errored',
    failure: {
      type: 'crash',
      message:
        'testFailure started and never finished: xcodebuild restarted the tests after an unexpected exit or crash in ' +
        'TestingTestTests/testFailure()',
      stack: /^Fatal error: Unexpectedly found nil while unwrapping an Optional value\n/,
    },
  });
  const classes = containers.filter((c) => c.title === 'TestingTestTests' && c.type === 'suite');
  t.equal(classes.length, 2, 'one bundle and one class of that name, before and after the restart');
  t.equal(tests(containers).filter((c) => c.parentId === crashed.parentId).length, 9, 'testG and testH join the class');
});

t.test('parallel testing: classes at the top, the destination kept, no failure text to find', async (t) => {
  const name = 'xcodebuild-xcode10-parallel-testing-failure.log';
  const { containers } = await run(fx.read(name), name);
  const cls = byTitle(containers, 'TestingTestTests');
  t.match(cls, { parentId: null, status: 'failed', meta: { destination: /^Clone 1 of iPad Air 2/ } });
  t.match(byTitle(containers, 'testFailure()'), { parentId: cls.id, status: 'failed', failure: null });
  t.equal(tests(containers).filter((c) => c.parentId === cls.id).length, 9, 'testG/testH of the second session too');
});

t.test(
  'a retry after a failure is one flaky test with attempts; a name again after a pass is another test',
  async (t) => {
    const assertion = 'XCTAssertEqual failed: ("1") is not equal to ("2")';
    const where = '/src/LoginTests.swift:10: error: -[App.LoginTests testA]';
    const cs = lines(
      [
        "Test Suite 'LoginTests' started at 2024-01-01 10:00:00.000",
        "Test Case '-[App.LoginTests testA]' started.",
        `${where} : ${assertion}`,
        "Test Case '-[App.LoginTests testA]' failed (0.010 seconds).",
        "Test Case '-[App.LoginTests testA]' started.",
        "Test Case '-[App.LoginTests testA]' passed (0.020 seconds).",
        "Test Case '-[App.LoginTests testB]' started.",
        "Test Case '-[App.LoginTests testB]' passed (0.001 seconds).",
        "Test Case '-[App.LoginTests testB]' started.",
        "Test Case '-[App.LoginTests testB]' passed (0.001 seconds).",
        "Test Suite 'LoginTests' passed at 2024-01-01 10:00:01.000.",
      ].join('\n'),
    );
    t.same(count(cs), { tests: 3, passed: 3, failed: 0, errored: 0, skipped: 0 });
    const a = byTitle(cs, 'testA');
    t.match(a, { status: 'passed', flaky: true, durationMs: 20 });
    t.same(a.attempts, [
      {
        status: 'failed',
        durationMs: 10,
        failure: { message: assertion, type: 'XCTAssertEqual', stack: `${where} : ${assertion}` },
      },
      { status: 'passed', durationMs: 20, failure: null },
    ]);
    t.equal(cs.filter((c) => c.title === 'testB').length, 2, 'testB twice: two tests');
    const parallel = lines(
      [
        "Test case 'LoginTests.testA()' failed on 'Clone 1 of iPhone 15 - App (1)' (0.010 seconds)",
        "Test case 'LoginTests.testA()' passed on 'Clone 2 of iPhone 15 - App (2)' (0.020 seconds)",
      ].join('\n'),
    );
    t.match(byTitle(parallel, 'testA()'), { status: 'passed', flaky: true, attempts: [{ status: 'failed' }, {}] });
  },
);

t.test('a log cut short, an XCTSkip, a failure outside any test, colours', async (t) => {
  const cs = lines(
    [
      "Test Suite 'Checkout.xctest' started at 2024-01-01 10:00:00.000",
      "Test Suite 'CartTests' started at 2024-01-01 10:00:00.000",
      '/src/CartTests.swift:3: error: -[Checkout.CartTests (class setUp)] : failed - no database',
      "\u001b[1mTest Case '-[Checkout.CartTests testSkip]' started.\u001b[0m",
      '/src/CartTests.swift:12: -[Checkout.CartTests testSkip] : Test skipped - needs a device',
      "Test Case '-[Checkout.CartTests testSkip]' skipped (0.001 seconds).",
      "Test Suite 'CartTests' failed at 2024-01-01 10:00:00.500.",
      "Test Suite 'PayTests' started at 2024-01-01 10:00:01.000",
      "Test Case '-[Checkout.PayTests testPay]' started.",
      'paying 12,50 €',
    ].join('\n'),
  );
  t.match(byTitle(cs, 'testSkip'), { status: 'skipped', failure: { message: 'needs a device' } });
  t.match(byTitle(cs, 'CartTests (outside a test)'), {
    status: 'errored',
    meta: { synthetic: 'suite-error' },
    failure: { message: '/src/CartTests.swift:3: error: -[Checkout.CartTests (class setUp)] : failed - no database' },
  });
  t.match(byTitle(cs, 'testPay'), {
    status: 'errored',
    failure: {
      type: 'crash',
      message:
        'testPay started and never finished: the log ends before its result line (cut short, or the run was killed)',
      stack: 'paying 12,50 €',
    },
  });
  t.same(count(cs), { tests: 3, passed: 0, failed: 0, errored: 2, skipped: 1 });
});

t.test('Swift Testing: known issues, display names, a run that ends with a test still running', async (t) => {
  const cs = lines(
    [
      '\u25c7 Test run started.',
      '\u25c7 Test "Adds two numbers" started.',
      '\u25c7 Test knownBug() started.',
      '\u25c7 Test hangs() started.',
      '\u25c7 Test knownBug() recorded a known issue at Bugs.swift:4:5: Expectation failed: 1 == 2',
      '\u2714 Test knownBug() passed after 0.002 seconds with 1 known issue.',
      '\u2718 Test "Adds two numbers" recorded an issue at Math.swift:9:3: Expectation failed: (sum \u2192 5) == 4',
      '\u21b3 sum: 5',
      '\u2718 Test "Adds two numbers" failed after 0.001 seconds with 1 issue.',
      '\u2718 Test run with 3 tests failed after 0.010 seconds with 1 issue.',
    ].join('\n'),
  );
  t.same(count(cs), { tests: 3, passed: 1, failed: 1, errored: 1, skipped: 0 });
  t.match(byTitle(cs, 'knownBug()'), { status: 'passed', failure: null, output: { stdout: /\(known issue\)/ } });
  t.match(byTitle(cs, 'Adds two numbers'), {
    failure: { message: 'Expectation failed: (sum \u2192 5) == 4', stack: /== 4\n {2}sum: 5$/ },
  });
  t.match(byTitle(cs, 'hangs()'), { status: 'errored', failure: { type: 'crash' } });
});

t.test('text without a test line is refused; a build log head scores 0.3, and its tests are read', async (t) => {
  t.type(await failure(run(Buffer.from('** BUILD SUCCEEDED **\n'), 'build.log')), FormatError);
  const build = Array.from(
    { length: 1200 },
    (_, i) => `CompileSwift normal arm64 /Users/runner/work/app/Sources/App/File${i}.swift (in target 'App')`,
  );
  const log = Buffer.from(
    [
      'Command line invocation:',
      '    /Applications/Xcode.app/Contents/Developer/usr/bin/xcodebuild test -scheme App',
      ...build,
      "Test Suite 'All tests' started at 2024-01-01 10:00:00.000",
      "Test Case '-[AppTests.LoginTests testA]' started.",
      "Test Case '-[AppTests.LoginTests testA]' passed (0.001 seconds).",
      '',
    ].join('\n'),
  );
  t.ok(log.length > 65536, 'the tests start past the head');
  const score = xctest.sniff(fx.head('xcodebuild-xcode5-ocunit-specta-922-tests-1-failure.log'));
  t.ok(score >= 0.9, 'build output then tests within the head: detected');
  t.equal(xctest.sniff(headOfBytes(log, 'xcodebuild.log')), 0.3, 'enough for /import/xctest, not for detection');
  t.same(count((await run(log, 'xcodebuild.log')).containers), {
    tests: 1,
    passed: 1,
    failed: 0,
    errored: 0,
    skipped: 0,
  });
  t.equal(xctest.sniff(headOf('All tests\nLoginTests\n    \u2713 testA (0.001 seconds)\n', 'x.txt')), 0, 'xcpretty');
});

t.test('Xcode 16+ JSON: retries as attempts, expected failures, arguments as steps, the device', async (t) => {
  const name = 'xcresulttool-test-results-tests-xcode26-retries-swift-testing.json';
  const { containers } = await run(fx.read(name), name);
  t.match(byTitle(containers, 'Examples-Package'), {
    parentId: null,
    meta: { nodeType: 'Test Plan', device: 'iPhone 15 (iOS Simulator 26.1)' },
  });
  const flaky = byTitle(containers, 'test_flacky()');
  t.match(flaky, { status: 'passed', flaky: true, meta: { details: '\u26a0\ufe0f Passed after 1 retry' } });
  t.match(flaky.attempts, [
    { status: 'failed', failure: { message: 'XCTestTests.swift:43: failed - Flacky failure message: result was 2.0' } },
    { status: 'passed', failure: null },
  ]);
  t.match(byTitle(containers, 'test_failure()'), {
    status: 'failed',
    flaky: false,
    durationMs: 2.367,
    failure: { message: 'XCTestTests.swift:21: failed - Expected 5.0 but got 6.0' },
    meta: { location: 'XCTestTests.swift:21', details: 'Failed after 3 retries' },
    attempts: [{ status: 'failed' }, { status: 'failed' }, { status: 'failed' }],
  });
  t.match(byTitle(containers, 'test_expectedFailure()'), {
    status: 'passed',
    failure: null,
    meta: { expectedFailure: 'Failure is expected' },
  });
  t.match(byTitle(containers, 'test_skip()'), {
    status: 'skipped',
    failure: { message: 'Test skipped - Skip message' },
  });
  const param = byTitle(containers, 'flackyParameterized(value:)');
  const steps = containers.filter((c) => c.parentId === param.id);
  t.match(steps, [
    {
      type: 'step',
      title: 'false',
      status: 'failed',
      meta: { nodeType: 'Arguments', details: 'Failed after 3 retries' },
    },
    { type: 'step', title: 'true', status: 'passed' },
  ]);
});

t.test('Xcode 16.0 JSON: durations in the locale of the Mac', async (t) => {
  const name = 'xcresulttool-test-results-tests-xcode16-ui-bundle-skip.json';
  const { containers } = await run(fx.read(name), name);
  t.match(byTitle(containers, 'testDisabledExample()'), { durationMs: 1.1 });
  t.match(byTitle(containers, 'testUIExample()'), { durationMs: 2000 });
  t.match(byTitle(containers, 'banaanUITests'), { type: 'suite' });
  t.same(
    [xcodeDuration('0,014s'), xcodeDuration('1m 5s'), xcodeDuration('12ms'), xcodeDuration('soon')],
    [14, 65000, 12, null],
  );
});

t.test('legacy JSON: the record and its tests in one file, in either order, give the failures', async (t) => {
  const record = fx.read('xcresulttool-legacy-actionsinvocationrecord-only-counts.json');
  const tree = fx.read('xcresulttool-legacy-testplanrunsummaries-xcode12-skip-ui-failures.json');
  const message = "failed - This won't make the cut";
  for (const [label, bytes] of [
    ['record first', Buffer.concat([record, Buffer.from('\n'), tree])],
    ['tests first', Buffer.concat([tree, Buffer.from('\n'), record])],
  ] as const) {
    const { containers } = await run(bytes, 'xcresult.json');
    t.same(count(containers), { tests: 7, passed: 3, failed: 3, errored: 0, skipped: 1 }, label);
    t.match(byTitle(containers, 'testFailExample()'), {
      failure: {
        message,
        stack: `${'/Users/priit/nevercode/banaan-ios/ios-test2/ios-test2Tests'}/banaanTests.swift:43: ${message}`,
      },
      meta: { line: '43' },
    });
    t.ok(childrenFirst(containers), `${label}: children first`);
  }
  const { containers } = await run(tree, 'tests.json');
  t.match(
    byTitle(containers, 'testFailExample()'),
    { status: 'failed', failure: null },
    'the tree alone names no message',
  );
  t.same(
    containers.filter((c) => c.type === 'suite').map((c) => [c.title, c.parentId === null]),
    [
      ['banaanTests', false],
      ['banaanTests', true],
      ['banaanUITests', false],
      ['banaanUITests', true],
    ],
    'testables at the top, their classes under them, the All tests and .xctest groups left out',
  );
});

t.test('counts-only JSON is refused with the command that gives the tests', async (t) => {
  for (const [name, says] of [
    [
      'xcresulttool-legacy-actionsinvocationrecord-only-counts.json',
      /its 14 tests \(6 failed, 2 skipped\) only as counts/,
    ],
    [
      'xcresulttool-test-results-summary-xcode16-only-counts.json',
      /its 8 tests \(3 failed, 1 skipped\) only as counts/,
    ],
  ] as const) {
    const e = await failure(run(fx.read(name), name));
    t.type(e, FormatError, name);
    t.match((e as Error).message, says);
    t.match((e as Error).message, /xcrun xcresulttool get test-results tests --path/);
  }
});
