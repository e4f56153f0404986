/**
 * The Cucumber Messages state machine: one envelope (one NDJSON line) at a time in, containers
 * out. The protocol refers back by id (a testCase names its pickle, a step result names its test
 * step), so a few small maps live as long as something may still refer to them:
 *
 * - gherkin step keywords of the current document (id → `Given `), cleared at the next document;
 * - pickles, reduced to name, uri, line, tags and step titles, until their test case is done;
 * - test cases, reduced to their step list, until their last attempt is finished;
 * - attempts in flight (results of their steps, capped output), and earlier attempts' summaries;
 * - hook definitions, run hooks in flight, one record per feature file for its suite.
 *
 * `source` text and the gherkin AST are streamed past, never held (only step objects of the AST
 * are taken whole, one at a time).
 */
import { asList as list, asNumber as num, asRecord as record, asString as str } from '../../lib/formatter/api.js';
import { capText as cap, erroredTest, FormatError, fromEpochMs, newContainer } from '../../lib/formatter/api.js';
import { roundMs as round, SCENARIO_SEVERITY, ScenarioVerdict, stepResultStatus } from '../../lib/formatter/api.js';
import { suiteStatus, TextBuffer } from '../../lib/formatter/api.js';
import type { Attempt, ContainerStatus, Emit, FailureInfo } from '../../lib/formatter/api.js';
import type { HandlerContext, Instant, JsonMachine, JsonPath, Property } from '../../lib/formatter/api.js';

/** Envelope keys of the Cucumber Messages protocol (messages 17–32). */
export const ENVELOPES = new Set([
  'attachment',
  'externalAttachment',
  'gherkinDocument',
  'hook',
  'meta',
  'parameterType',
  'parseError',
  'pickle',
  'source',
  'stepDefinition',
  'suggestion',
  'testCase',
  'testCaseFinished',
  'testCaseStarted',
  'testRunFinished',
  'testRunHookFinished',
  'testRunHookStarted',
  'testRunStarted',
  'testStepFinished',
  'testStepStarted',
  'undefinedParameterType',
]);

/**
 * Envelopes small enough to take whole: every one but the streamed `source` and `gherkinDocument`
 * and those nothing here reads (definitions, suggestions, run and step starts).
 */
const PASSED_BY = [
  'gherkinDocument',
  'parameterType',
  'source',
  'stepDefinition',
  'suggestion',
  'testRunStarted',
  'testStepStarted',
  'undefinedParameterType',
];
const WHOLE = new Set([...ENVELOPES].filter((e) => !PASSED_BY.includes(e)));

const LOG_MEDIA_TYPE = 'text/x.cucumber.log+plain';

interface Pickle {
  name: string;
  uri: string;
  line: number | null;
  tags: Property[];
  /** pickle step id → title (`Given an empty basket`) and whether it came from a Background. */
  steps: Map<string, { title: string; background: boolean }>;
}

interface TestStep {
  id: string;
  pickleStepId: string | null;
  hookId: string | null;
}

interface TestCase {
  pickleId: string;
  steps: TestStep[];
  /** Container id, taken when the first attempt starts. */
  id: number | null;
  startedAt: Instant | null;
  /** Attempts that said `willBeRetried`. */
  earlier: Attempt[];
  /** The last attempt that finished, kept in case the announced retry never comes. */
  last: Run | null;
}

interface Result {
  status: string;
  durationMs: number | null;
  failure: FailureInfo | null;
}

/** One attempt of one test case: a `testCaseStarted` until its `testCaseFinished`. */
interface Run {
  testCaseId: string;
  startedAt: Instant | null;
  finishedAt: Instant | null;
  results: Map<string, Result>;
  stdout: TextBuffer | null;
  refs: string[];
  inline: string[];
  willBeRetried: boolean;
}

interface Hook {
  type: string | null;
  name: string | null;
  location: string | null;
}

interface Suite {
  id: number;
  uri: string;
  seen: Set<ContainerStatus>;
}

export function messagesHandler(ctx: HandlerContext, emit: Emit): JsonMachine {
  const limit = ctx.limits.maxTextChars;
  const keywords = new Map<string, { keyword: string; background: boolean }>();
  const featureNames = new Map<string, string>();
  const pickles = new Map<string, Pickle>();
  const testCases = new Map<string, TestCase>();
  const runs = new Map<string, Run>();
  const hooks = new Map<string, Hook>();
  const runHooks = new Map<string, string>();
  const suites = new Map<string, Suite>();
  let doc: { uri: string | null; name: string | null } | null = null;
  let envelopes = 0;
  let runLevelErrors = 0;
  let runFailure: FailureInfo | null = null;
  let producerSet = false;

  const suiteFor = (uri: string): Suite => {
    let suite = suites.get(uri);
    if (!suite) {
      suite = { id: ctx.nextId(), uri, seen: new Set() };
      suites.set(uri, suite);
    }
    return suite;
  };

  /** Rule 4: a failure outside any test case, written as its own envelope, is one errored test. */
  const runLevelError = (title: string, failure: FailureInfo, meta: Record<string, string>): void => {
    runLevelErrors++;
    emit(erroredTest({ id: ctx.nextId(), parentId: null, title, failure, meta, type: 'scenario' }));
  };

  const onMeta = (m: Record<string, unknown>): void => {
    const name = str(record(m['implementation'])?.['name']);
    if (name && !producerSet) {
      producerSet = true;
      ctx.setProducer(name.toLowerCase());
    }
  };

  const onPickle = (p: Record<string, unknown>): void => {
    const id = str(p['id']);
    if (!id) return;
    const steps = new Map<string, { title: string; background: boolean }>();
    for (const s of list(p['steps'])) {
      const step = record(s);
      const stepId = str(step?.['id']);
      if (!step || !stepId) continue;
      const ast = keywords.get(str(list(step['astNodeIds'])[0]) ?? '');
      const text = str(step['text']) ?? '';
      steps.set(stepId, { title: ast ? `${ast.keyword.trim()} ${text}` : text, background: ast?.background ?? false });
    }
    pickles.set(id, {
      name: str(p['name']) ?? '',
      uri: str(p['uri']) ?? '',
      line: num(record(p['location'])?.['line']),
      tags: tagProperties(p['tags']),
      steps,
    });
  };

  const onTestCase = (c: Record<string, unknown>): void => {
    const id = str(c['id']);
    const pickleId = str(c['pickleId']);
    if (!id || !pickleId) return;
    const steps: TestStep[] = [];
    for (const s of list(c['testSteps'])) {
      const step = record(s);
      const stepId = str(step?.['id']);
      if (!step || !stepId) continue;
      steps.push({ id: stepId, pickleStepId: str(step['pickleStepId']), hookId: str(step['hookId']) });
    }
    testCases.set(id, { pickleId, steps, id: null, startedAt: null, earlier: [], last: null });
  };

  const onTestCaseStarted = (s: Record<string, unknown>): void => {
    const id = str(s['id']);
    const testCaseId = str(s['testCaseId']);
    const testCase = testCaseId ? testCases.get(testCaseId) : undefined;
    if (!id || !testCaseId || !testCase) return;
    const startedAt = timestamp(s['timestamp']);
    if (testCase.id === null) {
      // The test opens with its first attempt: its feature suite first, so the test can point at it.
      const pickle = pickles.get(testCase.pickleId);
      suiteFor(pickle?.uri ?? '');
      testCase.id = ctx.nextId();
      testCase.startedAt = startedAt;
    }
    runs.set(id, {
      testCaseId,
      startedAt,
      finishedAt: null,
      results: new Map(),
      stdout: null,
      refs: [],
      inline: [],
      willBeRetried: false,
    });
  };

  const onTestStepFinished = (f: Record<string, unknown>): void => {
    const run = runs.get(str(f['testCaseStartedId']) ?? '');
    const stepId = str(f['testStepId']);
    const r = record(f['testStepResult']);
    if (!run || !stepId || !r) return;
    // Messages before 17 put willBeRetried on the step result, not on testCaseFinished.
    if (r['willBeRetried'] === true) run.willBeRetried = true;
    run.results.set(stepId, {
      status: (str(r['status']) ?? 'UNKNOWN').toUpperCase(),
      durationMs: duration(r['duration']),
      failure: resultFailure(r, limit),
    });
  };

  const onAttachment = (a: Record<string, unknown>, external: boolean): void => {
    const run = runs.get(str(a['testCaseStartedId']) ?? '');
    if (!run) return;
    const mediaType = str(a['mediaType']) ?? 'application/octet-stream';
    const url = str(a['url']);
    if (url) {
      // A URL (external attachment) names a file the upload may carry: a resolvable reference.
      if (!run.refs.includes(url)) run.refs.push(url);
      return;
    }
    if (external) return;
    if (mediaType === LOG_MEDIA_TYPE) {
      const body = str(a['body']) ?? '';
      run.stdout ??= new TextBuffer(limit);
      run.stdout.append(a['contentEncoding'] === 'BASE64' ? Buffer.from(body, 'base64').toString('utf8') : body);
      run.stdout.append('\n');
      return;
    }
    // Inline bodies have no path an uploaded file could match: noted, never kept.
    run.inline.push(mediaType);
  };

  const onTestCaseFinished = (f: Record<string, unknown>): void => {
    const runId = str(f['testCaseStartedId']) ?? '';
    const run = runs.get(runId);
    if (!run) return;
    runs.delete(runId);
    run.finishedAt = timestamp(f['timestamp']);
    if (f['willBeRetried'] === true) run.willBeRetried = true;
    const testCase = testCases.get(run.testCaseId);
    if (!testCase) return;
    if (run.willBeRetried) {
      testCase.earlier.push(outcome(testCase, run));
      testCase.last = run;
      return;
    }
    finishTestCase(run.testCaseId, testCase, run, false);
  };

  const outcome = (testCase: TestCase, run: Run): Attempt => {
    const verdict = new ScenarioVerdict<TestStep>();
    let total: number | null = null;
    for (const step of testCase.steps) {
      const result = run.results.get(step.id);
      // A step without a result did not report: like a Cucumber JSON step without `result`, not passed.
      verdict.add(step, (result?.status ?? 'UNKNOWN').toLowerCase());
      if (result?.durationMs != null) total = round((total ?? 0) + result.durationMs);
    }
    const { status, decisive } = verdict;
    const failure = decisive
      ? (run.results.get(decisive.id)?.failure ??
        fallbackFailure(status, run.results.get(decisive.id)?.status ?? 'UNKNOWN', stepTitle(testCase, decisive)))
      : null;
    const durationMs = total ?? elapsed(run.startedAt, run.finishedAt);
    return { status, failure, durationMs };
  };

  const stepTitle = (testCase: TestCase, step: TestStep): string => {
    if (step.hookId !== null) {
      const hook = hooks.get(step.hookId);
      const kind = HOOK_TITLES.get(hook?.type ?? '') ?? 'Hook';
      return hook?.name ? `${kind}: ${hook.name}` : kind;
    }
    return pickles.get(testCase.pickleId)?.steps.get(step.pickleStepId ?? '')?.title || '(unnamed step)';
  };

  const finishTestCase = (testCaseId: string, testCase: TestCase, run: Run, unfinished: boolean): void => {
    const pickle = pickles.get(testCase.pickleId);
    const suite = suiteFor(pickle?.uri ?? '');
    const id = testCase.id ?? ctx.nextId();
    for (const step of testCase.steps) {
      const result = run.results.get(step.id);
      const meta: Record<string, string> = {};
      const hook = step.hookId !== null ? hooks.get(step.hookId) : undefined;
      if (hook?.location) meta['location'] = hook.location;
      if (step.pickleStepId !== null && pickle?.steps.get(step.pickleStepId)?.background) meta['background'] = 'true';
      if (result && !['PASSED', 'FAILED', 'SKIPPED'].includes(result.status))
        meta['status'] = result.status.toLowerCase();
      emit(
        newContainer({
          id: ctx.nextId(),
          parentId: id,
          type: step.hookId !== null ? 'hook' : 'step',
          title: stepTitle(testCase, step),
          status: stepResultStatus(result ? result.status.toLowerCase() : null),
          durationMs: result?.durationMs ?? null,
          failure: result?.failure ?? null,
          meta,
        }),
      );
    }
    const { status: own, failure: ownFailure, durationMs } = outcome(testCase, run);
    // Counting rule (as for Go and Dart): a test case that started and never finished is errored.
    const status: ContainerStatus = unfinished ? 'errored' : own;
    const failure = unfinished
      ? { message: 'The test case started but the stream ended before its testCaseFinished', type: null, stack: null }
      : ownFailure;
    const meta: Record<string, string> = {};
    if (pickle?.uri) meta['file'] = pickle.uri;
    if (pickle?.line != null) meta['line'] = String(pickle.line);
    if (run.inline.length > 0) {
      meta['attachments'] = String(run.inline.length);
      meta['attachmentTypes'] = [...new Set(run.inline)].join(', ');
    }
    const container = newContainer({
      id,
      parentId: suite.id,
      type: 'scenario',
      title: pickle?.name || '(unnamed scenario)',
      status,
      durationMs,
      startedAt: testCase.startedAt?.iso,
      failure,
      stdout: run.stdout && !run.stdout.empty ? run.stdout.value() : null,
      properties: pickle?.tags ?? [],
      attachmentRefs: run.refs,
      meta,
    });
    if (testCase.earlier.length > 0) {
      container.attempts = [...testCase.earlier, { status, durationMs, failure }];
      container.flaky =
        status === 'passed' && testCase.earlier.some((a) => a.status === 'failed' || a.status === 'errored');
    }
    suite.seen.add(status);
    emit(container);
    // Nothing refers to this test case or its pickle any more.
    testCases.delete(testCaseId);
    pickles.delete(testCase.pickleId);
  };

  const onRunHookFinished = (f: Record<string, unknown>): void => {
    const startedId = str(f['testRunHookStartedId']) ?? '';
    const hookId = runHooks.get(startedId);
    runHooks.delete(startedId);
    const r = record(f['result']);
    if (!r || stepResultStatus((str(r['status']) ?? '').toLowerCase()) !== 'failed') return;
    const hook = hookId ? hooks.get(hookId) : undefined;
    const kind = HOOK_TITLES.get(hook?.type ?? '') ?? 'Run hook';
    const meta: Record<string, string> = { synthetic: 'run-hook' };
    if (hook?.location) meta['location'] = hook.location;
    runLevelError(
      hook?.name ? `${kind}: ${hook.name}` : kind,
      resultFailure(r, limit) ?? { message: `${kind} hook failed`, type: null, stack: null },
      meta,
    );
  };

  const dispatch = (key: string, v: unknown): void => {
    const m = record(v);
    if (!m) return;
    switch (key) {
      case 'meta':
        return onMeta(m);
      case 'pickle':
        return onPickle(m);
      case 'testCase':
        return onTestCase(m);
      case 'hook': {
        const id = str(m['id']);
        if (id)
          hooks.set(id, {
            type: str(m['type']),
            name: str(m['name']),
            location: sourceReference(m['sourceReference']),
          });
        return;
      }
      case 'testCaseStarted':
        return onTestCaseStarted(m);
      case 'testStepFinished':
        return onTestStepFinished(m);
      case 'attachment':
        return onAttachment(m, false);
      case 'externalAttachment':
        return onAttachment(m, true);
      case 'testCaseFinished':
        return onTestCaseFinished(m);
      case 'testRunHookStarted': {
        const id = str(m['id']);
        const hookId = str(m['hookId']);
        if (id && hookId) runHooks.set(id, hookId);
        return;
      }
      case 'testRunHookFinished':
        return onRunHookFinished(m);
      case 'parseError': {
        const source = record(m['source']);
        const uri = str(source?.['uri']) ?? '';
        const line = num(record(source?.['location'])?.['line']);
        const meta: Record<string, string> = { synthetic: 'parse-error' };
        if (uri) meta['file'] = uri;
        if (line !== null) meta['line'] = String(line);
        return runLevelError(
          `Parse error: ${uri || 'feature file'}`,
          {
            message: cap(str(m['message']) ?? 'The feature file could not be parsed', limit),
            type: 'parseError',
            stack: null,
          },
          meta,
        );
      }
      case 'testRunFinished': {
        if (m['success'] !== false) return;
        const x = record(m['exception']);
        const message = str(x?.['message']) ?? str(m['message']);
        if (x || message)
          runFailure = {
            message: message === null ? null : cap(message, limit),
            type: str(x?.['type']),
            stack: str(x?.['stackTrace']) ? cap(str(x?.['stackTrace'])!, limit) : null,
          };
        return;
      }
    }
  };

  const gherkin = (path: JsonPath, v: unknown): void => {
    if (!doc) return;
    if (path.length === 3 && path[2] === 'uri' && typeof v === 'string') doc.uri = v;
    else if (path.length === 4 && path[2] === 'feature' && path[3] === 'name' && typeof v === 'string') doc.name = v;
    else if (isAstStep(path)) {
      const step = record(v);
      const id = str(step?.['id']);
      if (id) keywords.set(id, { keyword: str(step?.['keyword']) ?? '', background: path.includes('background') });
    }
  };

  return {
    open(path, kind) {
      if (path.length === 1) return kind === 'array';
      if (path.length === 2) {
        const key = String(path[1]);
        if (ENVELOPES.has(key)) envelopes++;
        if (key === 'gherkinDocument' && kind === 'object') {
          // Pickles follow their document; the previous document's keywords are no longer needed.
          keywords.clear();
          doc = { uri: null, name: null };
        }
        return WHOLE.has(key);
      }
      return path[1] === 'gherkinDocument' && kind === 'object' && isAstStep(path);
    },
    value(path, v) {
      if (path.length === 2) {
        const key = String(path[1]);
        if (!WHOLE.has(key)) {
          if (ENVELOPES.has(key)) envelopes++;
          return;
        }
        return dispatch(key, v);
      }
      if (path.length > 2 && path[1] === 'gherkinDocument') gherkin(path, v);
    },
    close(path, kind) {
      if (path.length === 2 && path[1] === 'gherkinDocument' && kind === 'object' && doc) {
        if (doc.uri !== null && doc.name) featureNames.set(doc.uri, doc.name);
        doc = null;
      }
    },
    end() {
      if (envelopes === 0)
        throw new FormatError(
          'No Cucumber Messages envelope (`{"meta": …}`, `{"pickle": …}`, `{"testCaseStarted": …}` …) found: this ' +
            'is not a Cucumber Messages NDJSON file',
        );
      for (const run of runs.values()) {
        const testCase = testCases.get(run.testCaseId);
        if (testCase) finishTestCase(run.testCaseId, testCase, run, true);
      }
      runs.clear();
      // A retry that was announced and never started: the last finished attempt stands.
      for (const [id, testCase] of testCases) {
        if (testCase.last) {
          testCase.earlier.pop();
          finishTestCase(id, testCase, testCase.last, false);
        }
      }
      if (runFailure && runLevelErrors === 0) runLevelError('Test run', runFailure, { synthetic: 'run-error' });
      for (const suite of suites.values()) {
        const title = featureNames.get(suite.uri) || suite.uri || '(unknown feature)';
        const status = suiteStatus(suite.seen, SCENARIO_SEVERITY);
        emit(
          newContainer({
            id: suite.id,
            parentId: null,
            type: 'suite',
            title,
            status,
            meta: suite.uri ? { file: suite.uri } : undefined,
          }),
        );
      }
    },
  };
}

/** A step object of the gherkin AST: `…, 'steps', <index>` anywhere under the document. */
function isAstStep(path: JsonPath): boolean {
  return path.length >= 5 && path[path.length - 2] === 'steps' && typeof path[path.length - 1] === 'number';
}

const HOOK_TITLES = new Map([
  ['BEFORE_TEST_CASE', 'Before'],
  ['AFTER_TEST_CASE', 'After'],
  ['BEFORE_TEST_STEP', 'BeforeStep'],
  ['AFTER_TEST_STEP', 'AfterStep'],
  ['BEFORE_TEST_RUN', 'BeforeAll'],
  ['AFTER_TEST_RUN', 'AfterAll'],
]);

function fallbackFailure(status: ContainerStatus, raw: string, title: string): FailureInfo | null {
  if (status === 'failed')
    return {
      message: `${raw === 'AMBIGUOUS' ? 'Ambiguous' : 'Failed'}: ${title}`,
      type: raw.toLowerCase(),
      stack: null,
    };
  if (status === 'pending')
    return {
      message: `${raw === 'UNDEFINED' ? 'Undefined' : 'Pending'} step: ${title}`,
      type: raw.toLowerCase(),
      stack: null,
    };
  return null;
}

/** `exception` (messages 21+) names the type; `message` alone is message and stack in one string. */
function resultFailure(r: Record<string, unknown>, limit: number): FailureInfo | null {
  const x = record(r['exception']);
  const message = str(r['message']);
  if (x) {
    const xMessage = str(x['message']);
    const stack = str(x['stackTrace']) ?? message;
    return {
      message: xMessage === null ? null : cap(xMessage.trim(), limit),
      type: str(x['type']),
      stack: stack === null ? null : cap(stack, limit),
    };
  }
  if (!message || message.trim() === '') return null;
  const frame = /\n[ \t]*(?:(?:at|from) \S|[\w./\\-]+:\d+:in )/.exec(message);
  return {
    message: cap((frame ? message.slice(0, frame.index) : message).trim(), limit),
    type: null,
    stack: cap(message, limit),
  };
}

function tagProperties(v: unknown): Property[] {
  const out: Property[] = [];
  for (const t of list(v)) {
    const name = str(record(t)?.['name']);
    if (name && !out.some((p) => p.value === name)) out.push({ name: 'tag', value: name });
  }
  return out;
}

function sourceReference(v: unknown): string | null {
  const ref = record(v);
  if (!ref) return null;
  const uri = str(ref['uri']);
  const line = num(record(ref['location'])?.['line']);
  if (uri) return line === null ? uri : `${uri}:${line}`;
  const java = record(ref['javaMethod']);
  if (java) return `${str(java['className']) ?? ''}.${str(java['methodName']) ?? ''}`;
  return null;
}

/** Timestamp `{seconds, nanos}`; protobuf JSON writes int64 seconds as a string in older versions. */
function timestamp(v: unknown): Instant | null {
  const t = record(v);
  if (!t) return null;
  const seconds = Number(t['seconds']);
  const nanos = Number(t['nanos'] ?? 0);
  if (!Number.isFinite(seconds) || !Number.isFinite(nanos)) return null;
  return fromEpochMs(seconds * 1000 + Math.floor(nanos / 1e6));
}

function duration(v: unknown): number | null {
  const d = record(v);
  if (!d) return null;
  const seconds = Number(d['seconds'] ?? 0);
  const nanos = Number(d['nanos'] ?? 0);
  if (!Number.isFinite(seconds) || !Number.isFinite(nanos) || seconds < 0 || nanos < 0) return null;
  return round(seconds * 1000 + nanos / 1e6);
}

function elapsed(from: Instant | null, to: Instant | null): number | null {
  if (!from || !to) return null;
  const ms = Date.parse(to.iso) - Date.parse(from.iso);
  return ms >= 0 ? ms : null;
}
