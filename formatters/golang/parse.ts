/**
 * The Go test2json state machine: events in, containers out. One package = one suite, one
 * (Package, Test) pair = one test, subtests nested under their parent test. A test stays in memory
 * from its `run` until its package run ends (so `-count=N` repeats merge into attempts); a failed
 * test stays until the end of the file, because `gotestsum --rerun-fails` appends the reruns as a
 * later run of the same package. Everything else is emitted as soon as its package run ends.
 */
import { asString as str, erroredTest, FormatError, newContainer, parseTimestamp } from '../../lib/formatter/api.js';
import { secondsToMs as seconds, TextBuffer, textOrNull, worseOf, worstStatus } from '../../lib/formatter/api.js';
import type { Attempt, Container, ContainerStatus, Emit, FailureInfo } from '../../lib/formatter/api.js';
import type { HandlerContext, Instant, Property } from '../../lib/formatter/api.js';

/** One line of `go test -json`; every field is optional in practice (cached results have no Time). */
export interface GoEvent {
  Time?: unknown;
  Action: string;
  Package?: unknown;
  Test?: unknown;
  Elapsed?: unknown;
  Output?: unknown;
  /** Go 1.24+ `build-output`/`build-fail` events name the build, not the package. */
  ImportPath?: unknown;
  /** Go 1.24+: on a package `fail`, the build that failed. */
  FailedBuild?: unknown;
  /** Go 1.25+ `attr` events. */
  Key?: unknown;
  Value?: unknown;
  /** Go 1.26+ `artifacts` events: the test's artifact directory. */
  Path?: unknown;
}

export interface GoHandler {
  event(e: GoEvent): void;
  /** Call after the last event: closes what is still open and emits the package suites. */
  end(): void;
}

/** Failed tests held for a later rerun; past this many the oldest is emitted as it is. */
const MAX_HELD = 1000;
/** Earlier attempts kept per test; `-count=10000` must not grow one container without bound. */
const MAX_ATTEMPTS = 100;
const MAX_PROPERTIES = 100;
/** Build outputs kept while waiting for the package `fail` that names them. */
const MAX_BUILDS = 64;
/**
 * Ended tests kept until their package run ends, for `-count=N` repeats. Past this many the ended
 * ones are emitted early: memory stays bounded, and a repeat after that becomes a second test.
 */
const MAX_ENDED_PER_RUN = 10_000;

// test2json frames each test's output with these lines; they are not the test's own output.
const FRAMING = /^\s*(?:=== (?:RUN|PAUSE|CONT|NAME|ATTR|ARTIFACTS)\b|--- (?:PASS|FAIL|SKIP|BENCH): )/;
// Package trailer lines (and the `# pkg` header of build output) that say nothing about why a package failed.
const TRAILER =
  /^(?:PASS|FAIL|ok|# .*|exit status \d+|FAIL\t\S+.*|ok\s+\t?\S+.*|coverage: .*|testing: warning: no tests to run)$/;

const NO_RESULT =
  'The test started but has no pass, fail or skip event: its package crashed, timed out or exited while it ran, or ' +
  'the file ends early.';
const NO_RESULT_BENCH =
  'The benchmark has no pass, fail or skip event (Go 1.20+ writes none for benchmarks that pass).';

/**
 * The suite title of a stream without `Package` (`go tool test2json` without `-p`, fed `go test -v`
 * or a test binary's output) when go's summary line never names the package.
 */
export const DEFAULT_PACKAGE = '(no package)';
/** go test's line per package, passed on by test2json as output: `ok  \tpath\t0.01s`, `FAIL\tpath [build failed]`. */
const SUMMARY = /^(ok|FAIL|\?)\s*\t(\S+)(?:\t(\d+(?:\.\d+)?)s\b)?/;

interface Run {
  /** null while the attempt is running. */
  status: ContainerStatus | null;
  durationMs: number | null;
  text: TextBuffer;
}

interface TestState {
  key: string;
  id: number;
  parentId: number;
  name: string;
  title: string;
  pkg: PackageState;
  startedAt: Instant | null;
  earlier: Attempt[];
  droppedAttempts: number;
  run: Run;
  /** Order in which attempts ended, so children are emitted before their parents. */
  finished: number;
  properties: Property[];
  artifacts: string | null;
}

interface PackageState {
  /** What its tests are keyed under: the package, or a name of our own for one without `Package`. */
  key: string;
  /** The suite title: the package; for a stream without `Package`, what go's summary line says, once read. */
  name: string;
  id: number;
  startedAt: Instant | null;
  durationMs: number | null;
  result: 'pass' | 'fail' | 'skip' | null;
  stdout: TextBuffer;
  /** Package-level output of the current run only: the message of a rule-4 test. */
  runOutput: TextBuffer;
  /** Tests that ran or ended in the current run of the package. */
  touched: Set<TestState>;
  /** How many of `touched` have ended. */
  ended: number;
  /** A test of the current run failed or never ended: the package failure is explained. */
  runExplained: boolean;
  synthetic: boolean;
  seen: Set<ContainerStatus>;
  properties: Property[];
}

export function goHandler(ctx: HandlerContext, emit: Emit): GoHandler {
  const limit = ctx.limits.maxTextChars;
  const packages = new Map<string, PackageState>();
  const tests = new Map<string, TestState>();
  const held = new Map<string, TestState>();
  const builds = new Map<string, TextBuffer>();
  let finishedSeq = 0;
  let producerSet = false;

  /** The package being read of a stream without `Package`, until go's summary line or its result ends it. */
  let unnamed: PackageState | null = null;
  let unnamedCount = 0;
  /** A summary line ended an unnamed package: a result without one after that is go's own exit. */
  let summarised = false;
  /** Output and the `start` time of a stream without `Package` while no package is open. */
  let between = new TextBuffer(limit);
  let startedBetween: Instant | null = null;

  const pkgOf = (name: string, time: Instant | null, key = name): PackageState => {
    let p = packages.get(key);
    if (!p) {
      p = {
        key,
        name,
        id: ctx.nextId(),
        startedAt: time,
        durationMs: null,
        result: null,
        stdout: new TextBuffer(limit),
        runOutput: new TextBuffer(limit),
        touched: new Set(),
        ended: 0,
        runExplained: false,
        synthetic: false,
        seen: new Set(),
        properties: [],
      };
      packages.set(key, p);
    }
    p.startedAt ??= time;
    return p;
  };

  const openUnnamed = (time: Instant | null): PackageState => {
    const p = pkgOf(DEFAULT_PACKAGE, startedBetween ?? time, `\u0000unnamed ${++unnamedCount}`);
    const before = textOrNull(between);
    if (before !== null) {
      p.stdout.append(before);
      p.runOutput.append(before);
    }
    between = new TextBuffer(limit);
    startedBetween = null;
    return (unnamed = p);
  };

  /**
   * A package-level event of a stream without `Package`. Tests go to the open unnamed package; go's
   * summary line (`ok  \tpath\t…`, `FAIL\tpath …`) names it and ends its run, so the packages of
   * `go test -v ./...` piped through test2json stay apart. The result after the last summary is go's
   * own exit status, told already.
   */
  const unnamedEvent = (e: GoEvent, time: Instant | null): void => {
    switch (e.Action) {
      case 'start':
        if (unnamed === null) startedBetween ??= time;
        return;
      case 'output': {
        const out = str(e.Output);
        if (out === null) return;
        const summary = SUMMARY.exec(out);
        if (summary !== null && summary[1] !== '?') {
          // A FAIL without a package open is a package that failed before any test (a build failure).
          if (unnamed === null && summary[1] === 'ok') return void (between = new TextBuffer(limit));
          const pkg = unnamed ?? openUnnamed(time);
          pkg.name = summary[2]!;
          pkg.stdout.append(out);
          pkg.runOutput.append(out);
          if (summary[3] !== undefined) pkg.durationMs = seconds(Number(summary[3]));
          closeRun(pkg, summary[1] === 'ok' ? 'pass' : 'fail', null);
          unnamed = null;
          summarised = true;
          return;
        }
        if (summary !== null) return void (between = new TextBuffer(limit));
        if (unnamed === null) between.append(out);
        else {
          unnamed.stdout.append(out);
          unnamed.runOutput.append(out);
        }
        return;
      }
      case 'pass':
      case 'fail':
      case 'skip': {
        if (unnamed === null && summarised) return;
        const pkg = unnamed ?? openUnnamed(time);
        pkg.durationMs = seconds(e.Elapsed);
        closeRun(pkg, e.Action, str(e.FailedBuild));
        unnamed = null;
        return;
      }
      case 'attr':
        if (unnamed !== null) addProperty(unnamed.properties, e);
        return;
      default:
        return;
    }
  };

  const newRun = (): Run => ({ status: null, durationMs: null, text: new TextBuffer(limit) });

  const openTest = (pkg: PackageState, name: string, time: Instant | null): TestState => {
    const key = keyOf(pkg.key, name);
    const parent = findParent(pkg.key, name);
    const t: TestState = {
      key,
      id: ctx.nextId(),
      parentId: parent ? parent.id : pkg.id,
      name,
      title: parent ? name.slice(parent.name.length + 1) : name,
      pkg,
      startedAt: time,
      earlier: [],
      droppedAttempts: 0,
      run: newRun(),
      finished: 0,
      properties: [],
      artifacts: null,
    };
    tests.set(key, t);
    return t;
  };

  /**
   * Subtest names may contain `/` themselves (`TestCases/1_/_2_=_1` is subtest `1 / 2 = 1`), so the
   * parent is the longest known prefix, preferring one that is still running.
   */
  const findParent = (pkg: string, name: string): TestState | null => {
    let fallback: TestState | null = null;
    for (let i = name.lastIndexOf('/'); i > 0; i = name.lastIndexOf('/', i - 1)) {
      const candidate = tests.get(keyOf(pkg, name.slice(0, i)));
      if (!candidate) continue;
      if (candidate.run.status === null) return candidate;
      fallback ??= candidate;
    }
    return fallback;
  };

  const endAttempt = (t: TestState, status: ContainerStatus, durationMs: number | null): void => {
    t.run.status = status;
    t.run.durationMs = durationMs;
    t.finished = ++finishedSeq;
  };

  const emitTest = (t: TestState): void => {
    tests.delete(t.key);
    held.delete(t.key);
    const status = t.run.status ?? 'errored';
    const text = textOrNull(t.run.text);
    const failure = failureOf(t, t.run);
    const container = newContainer({
      id: t.id,
      parentId: t.parentId,
      type: 'test',
      title: t.title,
      status,
      durationMs: t.run.durationMs,
      startedAt: t.startedAt,
      failure,
      // A failure already carries the output as its stack.
      stdout: status === 'passed' || status === 'skipped' ? text : null,
      properties: t.properties,
    });
    if (t.earlier.length > 0) {
      container.attempts = [...t.earlier, { status, durationMs: t.run.durationMs, failure }];
      container.flaky = status === 'passed' && t.earlier.some((a) => a.status === 'failed' || a.status === 'errored');
    }
    const meta: Record<string, string> = {};
    if (t.title !== t.name) meta['fullName'] = t.name;
    if (t.artifacts !== null) meta['artifacts'] = t.artifacts;
    if (t.droppedAttempts > 0) meta['attemptsDropped'] = String(t.droppedAttempts);
    if (Object.keys(meta).length > 0) container.meta = meta;
    t.pkg.seen.add(status);
    emit(container);
  };

  const hold = (t: TestState): void => {
    // Re-inserted so the map stays in finishing order: children ended before their parents.
    held.delete(t.key);
    held.set(t.key, t);
    if (held.size > MAX_HELD) {
      const oldest = held.values().next().value as TestState;
      emitTest(oldest);
    }
  };

  /** A package run ended (`result` set) or the file ended (`result` null). */
  const closeRun = (pkg: PackageState, result: 'pass' | 'fail' | 'skip' | null, failedBuild: string | null): void => {
    const running = [...pkg.touched].filter((t) => t.run.status === null).reverse();
    for (const t of running) {
      // Counting rules: started without a terminal action → errored.
      endAttempt(t, 'errored', null);
      pkg.runExplained = true;
    }
    if (result !== null) pkg.result = result;
    if (result === 'fail' && !pkg.runExplained) emitPackageFailure(pkg, failedBuild);
    flushEnded(pkg);
    pkg.runExplained = false;
    pkg.runOutput = new TextBuffer(limit);
  };

  /** Emits the ended tests of the run that passed or were skipped; failed ones wait for a rerun. */
  const flushEnded = (pkg: PackageState): void => {
    const ended = [...pkg.touched].filter((t) => t.run.status !== null).sort((a, b) => a.finished - b.finished);
    for (const t of ended) {
      pkg.touched.delete(t);
      if (t.run.status === 'passed' || t.run.status === 'skipped') emitTest(t);
      else hold(t);
    }
    pkg.ended = 0;
  };

  /** Counting rule 4: the package failed and none of its tests did (build, TestMain, late panic). */
  const emitPackageFailure = (pkg: PackageState, failedBuild: string | null): void => {
    const runText = textOrNull(pkg.runOutput);
    const buildText = failedBuild !== null ? textOrNull(builds.get(failedBuild) ?? null) : null;
    if (failedBuild !== null) builds.delete(failedBuild);
    const cause = firstMeaningfulLine(buildText ?? runText, true);
    const buildFailed = failedBuild !== null || /\[build failed\]|\[setup failed\]/.test(runText ?? '');
    const message = buildFailed
      ? `Build failed${failedBuild ? `: ${failedBuild}` : ''}${cause ? ` (${cause})` : ''}`
      : (cause ?? 'The package failed outside any test.');
    const stack = [buildText, runText].filter((s) => s !== null).join('\n') || null;
    pkg.synthetic = true;
    pkg.seen.add('errored');
    const type = buildFailed ? 'build failure' : /^panic: /m.test(runText ?? '') ? 'panic' : null;
    const [failure, meta] = [{ message, type, stack }, { synthetic: 'package-failure' }];
    emit(erroredTest({ id: ctx.nextId(), parentId: pkg.id, title: pkg.name, failure, meta }));
  };

  const failureOf = (t: TestState, run: Run): FailureInfo | null => {
    const text = textOrNull(run.text);
    switch (run.status) {
      case 'failed':
        // A parent that failed only through its subtests prints nothing of its own.
        if (text === null) return null;
        return {
          message: firstMeaningfulLine(text),
          type: /^panic: /m.test(text) ? 'panic' : null,
          stack: text.trimEnd(),
        };
      case 'errored': {
        const bench = t.parentId === t.pkg.id && t.name.startsWith('Benchmark') && t.pkg.result === 'pass';
        return { message: bench ? NO_RESULT_BENCH : NO_RESULT, type: null, stack: text?.trimEnd() ?? null };
      }
      case 'skipped': {
        const reason = firstMeaningfulLine(text);
        return reason === null ? null : { message: reason, type: null, stack: null };
      }
      default:
        return null;
    }
  };

  const terminal = (
    pkg: PackageState,
    name: string,
    status: ContainerStatus,
    e: GoEvent,
    time: Instant | null,
  ): void => {
    const t = tests.get(keyOf(pkg.key, name)) ?? openTest(pkg, name, time);
    // Last terminal action wins: a second one without a new `run` updates the same attempt.
    if (t.run.status === null) pkg.ended++;
    endAttempt(t, status, seconds(e.Elapsed));
    pkg.touched.add(t);
    if (status === 'failed') pkg.runExplained = true;
    if (pkg.ended > MAX_ENDED_PER_RUN) flushEnded(pkg);
  };

  const rerun = (t: TestState): void => {
    if (t.run.status === null) return;
    if (t.earlier.length < MAX_ATTEMPTS)
      t.earlier.push({ status: t.run.status, durationMs: t.run.durationMs, failure: failureOf(t, t.run) });
    else t.droppedAttempts++;
    t.run = newRun();
  };

  return {
    event(e) {
      if (!producerSet) {
        producerSet = true;
        ctx.setProducer('go-test');
      }
      const action = e.Action;
      if (action === 'build-output') {
        const path = str(e.ImportPath);
        const out = str(e.Output);
        if (path === null || out === null) return;
        let buffer = builds.get(path);
        if (!buffer && builds.size < MAX_BUILDS) builds.set(path, (buffer = new TextBuffer(limit)));
        buffer?.append(out);
        return;
      }
      const pkgName = str(e.Package);
      const time = parseTimestamp(str(e.Time) ?? undefined);
      const name = str(e.Test);
      if (pkgName === null && (name === null || name === '')) return unnamedEvent(e, time);
      const pkg = pkgName === null ? (unnamed ?? openUnnamed(time)) : pkgOf(pkgName, time);

      if (name === null || name === '') {
        switch (action) {
          case 'output': {
            const out = str(e.Output);
            if (out !== null) {
              pkg.stdout.append(out);
              pkg.runOutput.append(out);
            }
            return;
          }
          case 'pass':
          case 'fail':
          case 'skip':
            pkg.durationMs = seconds(e.Elapsed);
            closeRun(pkg, action, str(e.FailedBuild));
            return;
          case 'attr':
            addProperty(pkg.properties, e);
            return;
          default:
            return;
        }
      }

      const key = keyOf(pkg.key, name);
      switch (action) {
        case 'run': {
          const existing = tests.get(key);
          if (existing) rerun(existing);
          const t = existing ?? openTest(pkg, name, time);
          pkg.touched.add(t);
          return;
        }
        case 'pass':
        case 'bench':
          // `bench` is test2json's name for a benchmark that printed its result without failing.
          return terminal(pkg, name, 'passed', e, time);
        case 'fail':
          return terminal(pkg, name, 'failed', e, time);
        case 'skip':
          return terminal(pkg, name, 'skipped', e, time);
        case 'output': {
          const out = str(e.Output);
          if (out === null) return;
          const t = tests.get(key);
          if (!t) {
            // Output of a test that never started (misattributed by test2json): keep it on the package.
            pkg.stdout.append(out);
            pkg.runOutput.append(out);
            return;
          }
          if (!FRAMING.test(out)) t.run.text.append(out);
          return;
        }
        case 'attr': {
          const t = tests.get(key);
          if (t) addProperty(t.properties, e);
          return;
        }
        case 'artifacts': {
          const t = tests.get(key);
          const path = str(e.Path);
          if (t && path !== null) t.artifacts = path;
          return;
        }
        default:
          // start, pause, cont and actions of later Go versions carry no result.
          return;
      }
    },

    end() {
      for (const pkg of packages.values()) if (pkg.touched.size > 0) closeRun(pkg, null, null);
      for (const t of [...held.values()]) emitTest(t);
      for (const t of [...tests.values()].sort((a, b) => a.finished - b.finished)) emitTest(t);
      for (const pkg of packages.values()) emit(suiteOf(pkg));
    },
  };
}

function suiteOf(pkg: PackageState): Container {
  const fromResult: ContainerStatus | null = pkg.synthetic
    ? 'errored'
    : pkg.result === 'fail'
      ? 'failed'
      : pkg.result === 'pass'
        ? 'passed'
        : pkg.result === 'skip'
          ? 'skipped'
          : null;
  // The package's own result, unless a test in it did worse.
  const status = worseOf(worstStatus(pkg.seen), fromResult) ?? 'unknown';
  const { id, durationMs, startedAt, properties } = pkg;
  const title = pkg.name || DEFAULT_PACKAGE;
  return newContainer({
    id,
    parentId: null,
    type: 'suite',
    title,
    status,
    durationMs,
    startedAt,
    stdout: textOrNull(pkg.stdout),
    properties,
  });
}

function keyOf(pkg: string, test: string): string {
  return `${pkg}\u0000${test}`;
}

function addProperty(into: Property[], e: GoEvent): void {
  const name = str(e.Key);
  if (name === null || into.length >= MAX_PROPERTIES) return;
  into.push({ name, value: str(e.Value) ?? '' });
}

/**
 * The first output line that says something: `main_test.go:6: Error message`, `panic: init`. In
 * package output the `PASS`/`FAIL`/`exit status 1` trailers say nothing and are passed over.
 */
function firstMeaningfulLine(text: string | null, packageOutput = false): string | null {
  if (text === null) return null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line !== '' && !(packageOutput && TRAILER.test(line))) return line;
  }
  return null;
}

export function assertEvents(count: number): void {
  if (count === 0)
    throw new FormatError(
      'The file holds no go test -json event (a JSON line with an "Action"); send the output of `go test -json` or ' +
        '`go tool test2json`',
    );
}
