/**
 * The bench generator of this format (bench/formatters.ts runs it): Dart `--reporter json`: start;
 * per test file a suite, its hidden loading test, its root group and one named group; each test's
 * testStart, prints, errors and testDone; done.
 */
import { caseAt, moduleName, sized, SUITES_PER_MODULE, tally, TESTS_PER_SUITE } from '../../bench/cases.js';
import type { FormatGenerator, Writer } from '../../bench/cases.js';

const dart: Writer = async (out, n, seed) => {
  const files = Math.ceil(n / TESTS_PER_SUITE);
  const ev = (e: Record<string, unknown>): string => `${JSON.stringify(e)}\n`;
  // Ids are numbered per file from a fixed base so any test's id is known without a counter.
  const ID_STRIDE = TESTS_PER_SUITE + 8;
  await out.put(ev({ protocolVersion: '0.1.1', runnerVersion: '1.25.8', pid: 4752, type: 'start', time: 0 }));
  await out.put(ev({ count: files, type: 'allSuites', time: 3 }));
  for (let s = 0; s < files; s++) {
    const base = s * ID_STRIDE;
    const path = `test/${moduleName(Math.floor(s / SUITES_PER_MODULE))}/service_${s}_test.dart`;
    const url = `file:///builds/app/${path}`;
    let time = 10 + s * TESTS_PER_SUITE * 120;
    const group = `Service ${s} — Größe`;
    let block = ev({ suite: { id: base, platform: 'vm', path }, type: 'suite', time });
    block += ev({
      test: {
        id: base + 1,
        name: `loading ${path}`,
        suiteID: base,
        groupIDs: [],
        metadata: { skip: false, skipReason: null },
        line: null,
        column: null,
        url: null,
      },
      type: 'testStart',
      time,
    });
    block += ev({
      testID: base + 1,
      result: 'success',
      skipped: false,
      hidden: true,
      type: 'testDone',
      time: (time += 40),
    });
    const to = Math.min(n, (s + 1) * TESTS_PER_SUITE);
    block += ev({
      group: {
        id: base + 2,
        suiteID: base,
        parentID: null,
        name: null,
        metadata: { skip: false, skipReason: null },
        testCount: to - s * TESTS_PER_SUITE,
        line: null,
        column: null,
        url: null,
      },
      type: 'group',
      time,
    });
    block += ev({
      group: {
        id: base + 3,
        suiteID: base,
        parentID: base + 2,
        name: group,
        metadata: { skip: false, skipReason: null },
        testCount: to - s * TESTS_PER_SUITE,
        line: 8,
        column: 3,
        url,
      },
      type: 'group',
      time,
    });
    for (let i = s * TESTS_PER_SUITE; i < to; i++) {
      const c = caseAt(seed, i);
      const tid = base + 8 + c.j;
      block += ev({
        test: {
          id: tid,
          name: `${group} ${c.title}`,
          suiteID: base,
          groupIDs: [base + 2, base + 3],
          metadata: { skip: c.status === 'skipped', skipReason: c.skipReason },
          line: c.line,
          column: 5,
          url,
        },
        type: 'testStart',
        time,
      });
      if (c.stdout)
        for (const l of c.stdout.split('\n'))
          block += ev({ testID: tid, messageType: 'print', message: l, type: 'print', time: time + 1 });
      if (c.status === 'skipped')
        block += ev({
          testID: tid,
          messageType: 'skip',
          message: `Skip: ${c.skipReason!}`,
          type: 'print',
          time: time + 1,
        });
      if (c.status === 'failed') {
        const error = c.error
          ? `Exception: ${c.message!}`
          : `Expected: '${c.expected}'\n  Actual: '${c.actual}'\n   Which: is different.\n`;
        const stack = [
          `package:matcher                                   expect`,
          `test/${moduleName(c.module)}/service_${c.suite}_test.dart ${c.line}:7  main.<fn>.<fn>`,
          ...Array.from(
            { length: c.frames },
            (_, k) => `package:stack_trace                               Chain.capture.<fn> (frame ${k})`,
          ),
        ].join('\n');
        block += ev({
          testID: tid,
          error,
          stackTrace: `${stack}\n`,
          isFailure: !c.error,
          type: 'error',
          time: time + 2,
        });
      }
      time += Math.max(1, Math.round(c.durationMs));
      block += ev({
        testID: tid,
        result: c.status === 'failed' ? (c.error ? 'error' : 'failure') : 'success',
        skipped: c.status === 'skipped',
        hidden: false,
        type: 'testDone',
        time,
      });
    }
    await out.put(block);
  }
  await out.put(ev({ success: tally(seed, 0, n).failed === 0, type: 'done', time: 10 + n * 120 }));
  return n;
};

export const generator: FormatGenerator = sized('dart-test-results.json', dart);
