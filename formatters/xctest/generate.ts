/**
 * The bench generator of this format (bench/formatters.ts runs it): the console output of
 * `xcodebuild test`, as a CI job captures it: build lines first, then a bundle per module, a class
 * suite per suite with its `Executed` summary, a start and a result line per test, failure lines
 * (`File.swift:N: error: -[Module.Class test] : …`), XCTSkip notices, output lines and xcodebuild's
 * diagnostics noise between tests.
 */
import { BASE_MS, camel, caseAt, className, moduleName, seconds, sized, SUITES_PER_MODULE } from '../../bench/cases.js';
import { TESTS_PER_SUITE } from '../../bench/cases.js';
import type { FormatGenerator, Writer } from '../../bench/cases.js';

/** `2026-11-01 10:00:00.123`: xcodebuild writes local time without a zone. */
const stamp = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').slice(0, 23);

const xctest: Writer = async (out, n, seed) => {
  await out.put(
    'Command line invocation:\n    /Applications/Xcode.app/Contents/Developer/usr/bin/xcodebuild test ' +
      '-scheme Shop -destination "platform=iOS Simulator,name=iPhone 16"\n\n** TEST BUILD SUCCEEDED **\n\n' +
      `Testing started\nTest Suite 'All tests' started at ${stamp(BASE_MS)}\n`,
  );
  const suites = Math.ceil(n / TESTS_PER_SUITE);
  for (let s = 0; s < suites; s++) {
    const module = Math.floor(s / SUITES_PER_MODULE);
    const bundle = `${camel(moduleName(module))}Tests`;
    const first = caseAt(seed, s * TESTS_PER_SUITE);
    const cls = className(first);
    if (s % SUITES_PER_MODULE === 0)
      await out.put(`Test Suite '${bundle}.xctest' started at ${stamp(first.startMs)}\n`);
    let block = `Test Suite '${cls}' started at ${stamp(first.startMs)}\n`;
    let failures = 0;
    let total = 0;
    for (let i = s * TESTS_PER_SUITE; i < Math.min(n, (s + 1) * TESTS_PER_SUITE); i++) {
      const c = caseAt(seed, i);
      const name = `-[${bundle}.${cls} test${c.method}]`;
      const file = `/Users/runner/work/shop/${bundle}/${cls}.swift`;
      block += `Test Case '${name}' started.\n`;
      if (c.stdout) block += `${c.stdout}\n`;
      if (c.i % 17 === 0)
        block +=
          `${stamp(c.startMs)} xcodebuild[4242:${c.i}] [MT] IDETestOperationsObserverDebug: ${seconds(c.durationMs)} ` +
          'elapsed -- Testing started completed.\n';
      if (c.status === 'failed') {
        failures++;
        const assertion = `XCTAssertEqual failed: ("${c.actual}") is not equal to ("${c.expected}")`;
        block += `${file}:${c.line}: error: ${name} : ${assertion} - ${c.message!}\n`;
      }
      if (c.status === 'skipped') block += `${file}:${c.line}: ${name} : Test skipped - ${c.skipReason!}\n`;
      block += `Test Case '${name}' ${c.status} (${seconds(c.durationMs)} seconds).\n`;
      total++;
      if (block.length > 16_384) {
        await out.put(block);
        block = '';
      }
    }
    block +=
      `Test Suite '${cls}' ${failures > 0 ? 'failed' : 'passed'} at ${stamp(first.startMs + 5000)}.\n` +
      `\t Executed ${total} tests, with ${failures} failures (0 unexpected) in 1.000 (1.001) seconds\n`;
    const lastOfModule = (s + 1) % SUITES_PER_MODULE === 0 || s === suites - 1;
    if (lastOfModule)
      block +=
        `Test Suite '${bundle}.xctest' passed at ${stamp(first.startMs + 6000)}.\n` +
        `\t Executed ${total} tests, with ${failures} failures (0 unexpected) in 1.000 (1.001) seconds\n`;
    await out.put(block);
  }
  await out.put(`Test Suite 'All tests' passed at ${stamp(BASE_MS + n * 120)}.\n\n** TEST SUCCEEDED **\n`);
  return n;
};

export const generator: FormatGenerator = sized('xcodebuild-test.log', xctest);
