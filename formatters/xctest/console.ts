/**
 * The console-output state machine: the lines of `xcodebuild test` / `swift test` (classified in
 * console-lines.ts) in, containers out. XCTest's bundle and class suites become suites (the
 * `All tests` / `Selected tests` wrappers are not: after a crash xcodebuild starts them again, and
 * the same bundle and class go on), each test case a test; Swift Testing's tests go into one suite
 * of their own. A test that started and never ended (a crash, the log cut short) is errored.
 *
 * Memory: the suites (a few per class), the running test with its output and failure lines (capped),
 * and the finished tests of the open class, held for retries (see held-tests.ts).
 */
import { stripVTControlCharacters } from 'node:util';
import { capText, erroredTest, FormatError, newContainer, ownCopy, parseSeconds } from '../../lib/formatter/api.js';
import { parseTimestamp, suiteStatus, TextBuffer, textOrNull } from '../../lib/formatter/api.js';
import type { ContainerStatus, Emit, FailureInfo, HandlerContext, Instant } from '../../lib/formatter/api.js';
import { classify, splitTestName, type ConsoleLine } from './console-lines.js';
import { HeldTests, type Run } from './held-tests.js';

/** Failure lines kept per test (each becomes a line of the failure's stack). */
const MAX_FAILURE_LINES = 100;
/** Titles of the suite Swift Testing's tests go into: its lines never name their suite. */
export const SWIFT_TESTING_SUITE = 'Swift Testing';

interface Suite {
  id: number;
  parentId: number | null;
  kind: 'bundle' | 'class' | 'swift-testing';
  title: string;
  startedAt: Instant | null;
  durationMs: number | null;
  seen: Set<ContainerStatus>;
  meta: Record<string, string>;
  /** Failure lines of the class outside any test (a class-level setUp): one errored test at its end. */
  orphans: string[];
}

interface Running {
  suite: Suite;
  name: string;
  title: string;
  startedAt: Instant | null;
  output: TextBuffer;
  failures: string[];
  first: { message: string; file: string; line: string } | null;
  skip: string | null;
}

interface SwiftTest {
  name: string;
  failures: string[];
  first: { message: string; location: string | null } | null;
}

export interface ConsoleMachine {
  line(text: string): void;
  end(): void;
}

export function consoleHandler(ctx: HandlerContext, emit: Emit): ConsoleMachine {
  const limit = ctx.limits.maxTextChars;
  const suites: Suite[] = [];
  const byKey = new Map<string, Suite>();
  const byId = new Map<number, Suite>();
  const held = new HeldTests(ctx.nextId, emit, (parentId, status) => byId.get(parentId)?.seen.add(status));
  let bundle: Suite | null = null;
  let cls: Suite | null = null;
  let running: Running | null = null;
  /** The suite the next `Executed …` line belongs to. */
  let summarised: Suite | null = null;
  const swiftOpen = new Map<string, SwiftTest>();
  let lastIssue: SwiftTest | null = null;
  let recognised = false;
  let producer: string | null = null;

  const produced = (name: string): void => {
    if (producer !== null) return;
    producer = name;
    ctx.setProducer(name);
  };

  const suite = (kind: Suite['kind'], title: string, parent: Suite | null, meta: Record<string, string> = {}) => {
    const key = `${parent?.id ?? ''}\u0000${kind}\u0000${title}`;
    let s = byKey.get(key);
    if (!s) {
      s = {
        id: ctx.nextId(),
        parentId: parent?.id ?? null,
        kind,
        title: ownCopy(title),
        startedAt: null,
        durationMs: null,
        seen: new Set(),
        meta,
        orphans: [],
      };
      byKey.set(key, s);
      byId.set(s.id, s);
      suites.push(s);
    }
    return s;
  };

  /** The class suite of a test seen outside any class line (parallel testing, a log cut at the start). */
  const classOf = (name: string): Suite => {
    const className = splitTestName(name).className;
    return suite('class', className ?? '(no class)', className === null ? null : bundle);
  };

  const unfinished = (r: Running, why: string): void => {
    const text = textOrNull(r.output);
    const failure: FailureInfo = {
      message: `${r.title} started and never finished: ${why}`,
      type: 'crash',
      stack: text,
    };
    finishRunning(r, 'errored', null, failure);
  };

  const finishRunning = (r: Running, status: ContainerStatus, seconds: string | null, crash?: FailureInfo): void => {
    running = null;
    const meta: Record<string, string> = {};
    if (r.title !== r.name) meta['name'] = r.name;
    let failure: FailureInfo | null = crash ?? null;
    if (r.first) {
      meta['file'] = r.first.file;
      meta['line'] = r.first.line;
    }
    if (!failure && r.failures.length > 0 && (status === 'failed' || status === 'errored')) {
      const assertion = /^(XCT\w+) failed/.exec(r.first!.message);
      failure = {
        message: capText(r.first!.message, limit),
        type: assertion ? assertion[1]! : null,
        stack: capText(r.failures.join('\n'), limit),
      };
    }
    if (!failure && status === 'skipped' && r.skip !== null) failure = { message: r.skip, type: null, stack: null };
    const run: Run = {
      status,
      durationMs: seconds === null ? null : parseSeconds(seconds),
      startedAt: r.startedAt?.iso ?? null,
      startedAtNaive: r.startedAt?.naive ?? false,
      failure,
      stdout: crash ? null : textOrNull(r.output),
      meta,
    };
    held.finish(r.suite.id, r.name, r.title, run);
  };

  const start = (name: string, at: string | null): void => {
    if (running) unfinished(running, 'the next test started before its result line');
    const s = cls ?? classOf(name);
    running = {
      suite: s,
      name: ownCopy(name),
      title: ownCopy(splitTestName(name).method),
      startedAt: at === null ? null : parseTimestamp(at),
      output: new TextBuffer(limit),
      failures: [],
      first: null,
      skip: null,
    };
  };

  const closeClass = (s: Suite): void => {
    if (running?.suite === s) unfinished(running, 'its suite ended before its result line');
    held.flush(s.id);
    if (s.orphans.length > 0) {
      const failure = {
        message: capText(s.orphans[0]!, limit),
        type: null,
        stack: capText(s.orphans.join('\n'), limit),
      };
      const title = `${s.title} (outside a test)`;
      emit(erroredTest({ id: ctx.nextId(), parentId: s.id, title, failure, meta: { synthetic: 'suite-error' } }));
      s.seen.add('errored');
      s.orphans = [];
    }
  };

  const swiftSuite = (): Suite => suite('swift-testing', SWIFT_TESTING_SUITE, null);

  const swiftTest = (name: string): SwiftTest => {
    let t = swiftOpen.get(name);
    if (!t) swiftOpen.set(name, (t = { name: ownCopy(name), failures: [], first: null }));
    return t;
  };

  const swiftFinish = (t: SwiftTest, status: ContainerStatus, seconds: string | null, extra?: FailureInfo): void => {
    swiftOpen.delete(t.name);
    const meta: Record<string, string> = {};
    if (t.first?.location) meta['location'] = t.first.location;
    let failure = extra ?? null;
    if (!failure && t.first && status !== 'passed')
      failure = {
        message: capText(t.first.message, limit),
        type: null,
        stack: capText(t.failures.join('\n'), limit),
      };
    const run: Run = {
      status,
      durationMs: seconds === null ? null : parseSeconds(seconds),
      startedAt: null,
      startedAtNaive: false,
      failure,
      stdout: status === 'passed' && t.failures.length > 0 ? capText(t.failures.join('\n'), limit) : null,
      meta,
    };
    held.finish(swiftSuite().id, t.name, t.name, run);
  };

  const swiftUnfinished = (why: string): void => {
    for (const t of [...swiftOpen.values()]) {
      const message = `${t.name} started and never finished: ${why}`;
      swiftFinish(t, 'errored', null, { message, type: 'crash', stack: t.failures.join('\n') || null });
    }
  };

  const handle = (l: ConsoleLine, raw: string): void => {
    if (l.kind !== 'other' && l.kind !== 'st-detail') recognised = true;
    // A detail line belongs to the issue line right before it.
    if (l.kind !== 'st-detail' && l.kind !== 'st-issue') lastIssue = null;
    switch (l.kind) {
      case 'suite-start': {
        summarised = null;
        if (isWrapper(l.name)) return;
        if (isBundle(l.name)) {
          produced('xctest');
          bundle = suite('bundle', bundleTitle(l.name), null, { bundle: ownCopy(l.name) });
          bundle.startedAt ??= parseTimestamp(l.at ?? undefined);
          cls = null;
          return;
        }
        cls = suite('class', l.name, bundle);
        cls.startedAt ??= parseTimestamp(l.at ?? undefined);
        return;
      }
      case 'suite-end': {
        summarised = null;
        if (isWrapper(l.name)) return;
        if (cls && cls.title === l.name) {
          closeClass(cls);
          summarised = cls;
          cls = null;
        } else if (bundle && bundle.meta['bundle'] === l.name) {
          if (cls) closeClass(cls);
          summarised = bundle;
          cls = null;
          bundle = null;
        }
        return;
      }
      case 'executed':
        if (summarised) summarised.durationMs = parseSeconds(l.seconds);
        summarised = null;
        return;
      case 'case-start':
        produced('xctest');
        start(l.name, l.at);
        return;
      case 'case-end': {
        produced('xctest');
        const r: Running = running?.name === l.name ? running : placeholder(l.name);
        finishRunning(r, l.verdict, l.seconds);
        return;
      }
      case 'parallel-suite':
        produced('xctest');
        suite('class', l.name, bundle).meta['destination'] ??= ownCopy(l.on);
        return;
      case 'parallel-case': {
        produced('xctest');
        const s = classOf(l.name);
        const run: Run = {
          status: l.verdict,
          durationMs: parseSeconds(l.seconds),
          startedAt: null,
          startedAtNaive: false,
          failure: null,
          stdout: null,
          meta: { destination: ownCopy(l.on) },
        };
        held.finish(s.id, l.name, splitTestName(l.name).method, run);
        return;
      }
      case 'error':
      case 'skip-notice': {
        const text = raw.trim();
        const r = running;
        if (r && (l.name === r.name || sameTest(l.name, r.name))) {
          if (l.kind === 'skip-notice') {
            r.skip = l.reason ?? 'Test skipped';
            return;
          }
          r.first ??= { message: ownCopy(l.message), file: ownCopy(l.file), line: l.line };
          if (r.failures.length < MAX_FAILURE_LINES) r.failures.push(ownCopy(text));
        } else if (l.kind === 'error' && cls && !r && cls.orphans.length < MAX_FAILURE_LINES)
          cls.orphans.push(ownCopy(text));
        else if (r) r.output.append(`${raw}\n`);
        return;
      }
      case 'restart':
        if (running)
          unfinished(running, `xcodebuild restarted the tests after an unexpected exit or crash in ${l.name}`);
        return;
      case 'st-run-start':
        produced('swift-testing');
        swiftSuite();
        return;
      case 'st-run-end':
        swiftUnfinished('the test run ended without its result');
        return;
      case 'st-test-start':
        produced('swift-testing');
        swiftTest(l.name);
        return;
      case 'st-test-end': {
        produced('swift-testing');
        const t = swiftTest(l.name);
        swiftFinish(t, l.verdict, l.seconds);
        return;
      }
      case 'st-test-skip': {
        produced('swift-testing');
        const t = swiftTest(l.name);
        swiftFinish(t, 'skipped', null, { message: l.reason ?? 'Skipped', type: null, stack: null });
        return;
      }
      case 'st-issue': {
        const t = swiftTest(l.name);
        const at = l.location === null ? '' : `${l.location}: `;
        if (t.failures.length < MAX_FAILURE_LINES)
          t.failures.push(ownCopy(`${at}${l.known ? '(known issue) ' : ''}${l.message}`));
        if (!l.known) t.first ??= { message: ownCopy(l.message), location: l.location };
        lastIssue = t;
        return;
      }
      case 'st-detail':
        // `↳ // comment`: details of the issue just recorded.
        if (lastIssue && lastIssue.failures.length > 0 && lastIssue.failures.length < MAX_FAILURE_LINES)
          lastIssue.failures.push(ownCopy(`  ${l.text}`));
        return;
      case 'other':
        running?.output.append(`${raw}\n`);
        return;
    }
  };

  /** A result line without its start line (a log that begins mid-run). */
  const placeholder = (name: string): Running => {
    if (running) unfinished(running, 'another test ended before its result line');
    return {
      suite: cls ?? classOf(name),
      name: ownCopy(name),
      title: ownCopy(splitTestName(name).method),
      startedAt: null,
      output: new TextBuffer(limit),
      failures: [],
      first: null,
      skip: null,
    };
  };

  return {
    line(text) {
      const clean = text.includes('\u001b') ? stripVTControlCharacters(text) : text;
      handle(classify(clean), clean);
    },
    end() {
      if (!recognised)
        throw new FormatError(
          'No XCTest or Swift Testing result line in the file: send the console output of `xcodebuild test` or ' +
            '`swift test`, or the JSON of `xcrun xcresulttool`',
        );
      if (running) unfinished(running, 'the log ends before its result line (cut short, or the run was killed)');
      swiftUnfinished('the log ends before its result line');
      for (const s of suites) if (s.kind === 'class' && s.orphans.length > 0) closeClass(s);
      held.flush();
      // Children first: classes and Swift Testing's suite, then the bundles that hold the classes.
      const order = [...suites.filter((s) => s.kind !== 'bundle'), ...suites.filter((s) => s.kind === 'bundle')];
      for (const s of order) {
        const status = suiteStatus(s.seen);
        if (s.parentId !== null) byId.get(s.parentId)?.seen.add(status);
        emit(
          newContainer({
            id: s.id,
            parentId: s.parentId,
            type: 'suite',
            title: s.title,
            status,
            durationMs: s.durationMs,
            startedAt: s.startedAt,
            meta: s.meta,
          }),
        );
      }
    },
  };
}

/** The run's own wrappers: xcodebuild starts `Selected tests` again after a crash. */
function isWrapper(name: string): boolean {
  return name === 'All tests' || name === 'Selected tests';
}

/** A test bundle: `App.xctest`, OCUnit's `/path/App.octest(Tests)`. */
function isBundle(name: string): boolean {
  return /\.(?:xc|oc)test(?:\(Tests\))?$/.test(name);
}

/** `/path/AppTests.octest(Tests)` → `AppTests`; `AppTests.xctest` → `AppTests`. */
function bundleTitle(name: string): string {
  const base = name.split('/').pop() || name;
  return base.replace(/\.(?:xc|oc)test(?:\(Tests\))?$/, '') || base;
}

/** `-[Module.Class testX]` and `Class.testX`, or the same test written with and without its module. */
function sameTest(a: string, b: string): boolean {
  const x = splitTestName(a);
  const y = splitTestName(b);
  return x.method === y.method && x.className === y.className;
}
