/**
 * The NUnit state machine (NUnit 3 `test-run`, a bare NUnit 3 `test-suite`, NUnit 2 `test-results`):
 * SAX events in, containers out, in closing order. It keeps only the open suites and the open test
 * with their capped text, never the tree, so a test can drive it with an array of events.
 */
import { ElementStack, erroredTest, localName, lowerWord as lower, closeContainer } from '../../lib/formatter/api.js';
import { noRootError, parseTimestamp, Stack, TextBuffer, trimmedOrNull } from '../../lib/formatter/api.js';
import { unclosedRootError, worstStatus, wrongRootError } from '../../lib/formatter/api.js';
import type { Container, ContainerStatus, Emit, FailureInfo, HandlerContext } from '../../lib/formatter/api.js';
import type { Instant, Property, XmlMachine } from '../../lib/formatter/api.js';
import { baseName, parseSeconds } from './values.js';

type Attrs = Record<string, string>;
export type Dialect = 'nunit3' | 'nunit2';

/** The attributes that decide a status, kept instead of the whole attribute map. */
interface Outcome {
  result: string | undefined;
  label: string | undefined;
  site: string | undefined;
  executed: string | undefined;
  success: string | undefined;
}

interface Open {
  id: number;
  parentId: number | null;
  type: 'suite' | 'test';
  title: string;
  outcome: Outcome;
  durationMs: number | null;
  startedAt: Instant | null;
  meta: Record<string, string>;
  properties: Property[];
  attachmentRefs: string[];
  failureMessage: TextBuffer | null;
  failureStack: TextBuffer | null;
  reason: TextBuffer | null;
  /** NUnit 3 merges stdout and stderr into one <output>. */
  stdout: TextBuffer | null;
  /** Counted tests anywhere below: a suite that failed on its own with none becomes one (rule 4). */
  testDescendants: number;
  /** Statuses of direct child containers, for the suite's own status. */
  seen: Set<ContainerStatus>;
}

type Frame =
  | { kind: 'root' }
  | { kind: 'container'; open: Open }
  | { kind: 'failure'; owner: Open }
  | { kind: 'reason'; owner: Open }
  | { kind: 'text'; buffer: TextBuffer }
  | { kind: 'properties'; owner: Open }
  | { kind: 'categories'; owner: Open }
  | { kind: 'attachments'; owner: Open }
  | { kind: 'attachment'; owner: Open; path: TextBuffer | null }
  | { kind: 'ignored' };

const IGNORED: Frame = { kind: 'ignored' };
/** NUnit 3 labels of a `Failed` result that mean the test could not run properly, not an assertion. */
const ERROR_LABELS = new Set(['error', 'invalid', 'cancelled']);
/** An attachment path longer than this is not a path; it keeps memory small. */
const MAX_PATH = 4096;

export function nunitHandler(ctx: HandlerContext, emit: Emit): XmlMachine {
  const limit = ctx.limits.maxTextChars;
  const frames = new ElementStack<Frame>(IGNORED);
  const containers = new Stack<Open>();
  let dialect: Dialect | null = null;
  /** `test-run/@start-time` or NUnit 2's `date` + `time`: the start of top-level suites that lack one. */
  let runStart: Instant | null = null;
  let producer = 'nunit';

  const openContainer = (type: 'suite' | 'test', a: Attrs): void => {
    const parent = containers.top ?? null;
    const name = a['name'] || a['fullname'] || '';
    const meta: Record<string, string> = {};
    let title = name || (type === 'suite' ? '(unnamed suite)' : '(unnamed test)');
    if (type === 'suite') {
      if (a['type']) meta['type'] = a['type'];
      // NUnit 2 names an assembly suite by its full path, which changes with the CI workspace.
      if (/[\\/]/.test(name)) title = baseName(name);
      const full = a['fullname'] ?? (title !== name ? name : undefined);
      if (full && full !== title) meta['fullname'] = full;
    } else {
      for (const k of ['fullname', 'classname', 'methodname'] as const) if (a[k]) meta[k] = a[k]!;
    }
    const startedAt = parseTimestamp(a['start-time']) ?? (parent === null && type === 'suite' ? runStart : null);
    const open: Open = {
      id: ctx.nextId(),
      parentId: parent ? parent.id : null,
      type,
      title,
      outcome: {
        result: a['result'],
        label: a['label'],
        site: a['site'],
        executed: a['executed'],
        success: a['success'],
      },
      // NUnit 3 writes `duration`; NUnit 2 and early NUnit 3 betas write `time`.
      durationMs: parseSeconds(a['duration'] ?? a['time']),
      startedAt,
      meta,
      properties: [],
      attachmentRefs: [],
      failureMessage: null,
      failureStack: null,
      reason: null,
      stdout: null,
      testDescendants: 0,
      seen: new Set(),
    };
    if (/[(:]/.test(a['result'] ?? '')) producer = 'unity';
    containers.push(open);
    frames.push({ kind: 'container', open });
  };

  const statusOf = (o: Outcome): ContainerStatus => (dialect === 'nunit2' ? nunit2Status(o) : nunit3Status(o));

  const finish = (open: Open): void => {
    containers.pop();
    const parent = containers.top;
    const container = open.type === 'test' ? finishTest(open) : finishSuite(open);
    if (parent) {
      parent.seen.add(container.status);
      parent.testDescendants += open.type === 'test' ? 1 : open.testDescendants;
    }
    emit(container);
  };

  const finishTest = (open: Open): Container => {
    const status = statusOf(open.outcome);
    return closeContainer(open, status, status === 'passed' ? null : failureInfo(open, true));
  };

  const finishSuite = (open: Open): Container => {
    const own = statusOf(open.outcome);
    const ownFailure = (own === 'failed' || own === 'errored') && !propagated(open, dialect);
    let failure = ownFailure ? failureInfo(open, false) : null;
    if (ownFailure && open.testDescendants === 0) {
      // Counting rule 4: the fixture or assembly failed outside any test (OneTimeSetUp, a type that
      // does not load) and wrote no test-case, so that failure is one errored test.
      const meta = { synthetic: 'suite-error' };
      emit(erroredTest({ id: ctx.nextId(), parentId: open.id, title: open.title, failure, meta }));
      open.testDescendants++;
      open.seen.add('errored');
      failure = null;
    }
    if (ownFailure) open.seen.add(own);
    const status = worstStatus(open.seen) ?? (own === 'unknown' ? 'passed' : own);
    if (failure === null && status === 'skipped') failure = reasonInfo(open);
    return closeContainer(open, status, failure);
  };

  const childOf = (top: Frame, name: string, a: Attrs): Frame => {
    switch (top.kind) {
      case 'container': {
        const owner = top.open;
        switch (name) {
          case 'failure':
            return { kind: 'failure', owner };
          case 'reason':
            return { kind: 'reason', owner };
          case 'output':
            return { kind: 'text', buffer: (owner.stdout ??= new TextBuffer(limit)) };
          case 'properties':
            return { kind: 'properties', owner };
          case 'categories':
            return { kind: 'categories', owner };
          case 'attachments':
            return { kind: 'attachments', owner };
        }
        // environment, settings, assertions (their failures repeat the test's), NUnit 2 <results>.
        return IGNORED;
      }
      case 'failure':
        if (name === 'message') return { kind: 'text', buffer: (top.owner.failureMessage ??= new TextBuffer(limit)) };
        if (name === 'stack-trace') return { kind: 'text', buffer: (top.owner.failureStack ??= new TextBuffer(limit)) };
        return IGNORED;
      case 'reason':
        if (name === 'message') return { kind: 'text', buffer: (top.owner.reason ??= new TextBuffer(limit)) };
        return IGNORED;
      case 'properties':
        if (name === 'property') addProperty(top.owner, a['name'], a['value']);
        return IGNORED;
      case 'categories':
        // NUnit 3 writes categories as `Category` properties; NUnit 2's are named the same way here.
        if (name === 'category' && a['name']) top.owner.properties.push({ name: 'Category', value: a['name'] });
        return IGNORED;
      case 'attachments':
        if (name === 'attachment') return { kind: 'attachment', owner: top.owner, path: null };
        return IGNORED;
      case 'attachment':
        if (name === 'filePath') return { kind: 'text', buffer: (top.path ??= new TextBuffer(MAX_PATH)) };
        return IGNORED;
    }
    return IGNORED;
  };

  const addProperty = (owner: Open, name: string | undefined, value: string | undefined): void => {
    if (!name) return;
    if (name === '_APPDOMAIN' && /unity/i.test(value ?? '')) producer = 'unity';
    // Names starting with `_` (_PID, _APPDOMAIN, _SKIPREASON, _JOINTYPE) are NUnit's own bookkeeping.
    if (name.startsWith('_')) return;
    owner.properties.push({ name, value: value ?? '' });
  };

  const openRoot = (rawName: string, name: string, a: Attrs): boolean => {
    switch (name) {
      case 'test-run':
        dialect = 'nunit3';
        runStart = parseTimestamp(a['start-time']);
        if (/[(:]/.test(a['result'] ?? '')) producer = 'unity';
        frames.push({ kind: 'root' });
        return true;
      case 'test-results':
        dialect = 'nunit2';
        runStart = a['date'] ? parseTimestamp(`${a['date']}T${a['time'] ?? '00:00:00'}`) : null;
        // Pester names the NUnit 2.5 schema on its root; NUnit itself never does.
        if (/nunit_schema/i.test(a['xsi:noNamespaceSchemaLocation'] ?? '')) producer = 'pester';
        frames.push({ kind: 'root' });
        return true;
      case 'test-suite':
        // Allure 1 also writes a `test-suite` root, always in its own namespace.
        if (rawName.includes(':') || a['xmlns'] !== undefined || Object.values(a).some((v) => /allure/i.test(v)))
          return false;
        dialect = a['executed'] !== undefined || a['success'] !== undefined ? 'nunit2' : 'nunit3';
        return true;
    }
    return false;
  };

  return {
    open(rawName, a) {
      const name = localName(rawName);
      if (dialect === null) {
        if (!openRoot(rawName, name, a))
          throw wrongRootError(
            `<${rawName}>`,
            "NUnit's <test-run>, <test-results> or <test-suite>: this is not an NUnit result file",
          );
        if (name !== 'test-suite') return;
      }
      // Counting rule: every <test-case> counts wherever it sits (NUnit 2 wraps children in <results>).
      if (name === 'test-suite') return openContainer('suite', a);
      if (name === 'test-case') return openContainer('test', a);
      frames.open((top) => childOf(top, name, a));
    },

    text(t) {
      frames.text(t);
    },

    close() {
      const frame = frames.pop();
      if (!frame) return;
      if (frame.kind === 'container') finish(frame.open);
      else if (frame.kind === 'attachment' && frame.path) {
        const ref = frame.path.value().trim();
        if (ref && !frame.path.truncated && !frame.owner.attachmentRefs.includes(ref))
          frame.owner.attachmentRefs.push(ref);
      }
    },

    end() {
      if (dialect === null) throw noRootError('an NUnit result file');
      if (frames.depth > 0) throw unclosedRootError();
      ctx.setProducer(producer);
    },
  };
}

/** NUnit 3: `result` + `label`. Unity writes combined values such as `Failed(Child)` or `Skipped:Ignored`. */
export function nunit3Status(o: Partial<Pick<Outcome, 'result' | 'label'>>): ContainerStatus {
  const [result = '', inlineLabel] = lower(o.result).split(/[(:]/);
  const label = o.label !== undefined ? lower(o.label) : (inlineLabel ?? '').replace(/\)$/, '').trim();
  switch (result.trim()) {
    case 'passed':
    case 'warning':
      return 'passed';
    case 'failed':
      return ERROR_LABELS.has(label) ? 'errored' : 'failed';
    case 'skipped':
    case 'inconclusive':
      return 'skipped';
  }
  return 'unknown';
}

/** NUnit 2: `executed` + `result`; files older than 2.4 have only `success`. */
export function nunit2Status(o: Partial<Pick<Outcome, 'result' | 'executed' | 'success'>>): ContainerStatus {
  const result = lower(o.result);
  if (result === 'notrunnable') return 'errored';
  if (lower(o.executed) === 'false') return 'skipped';
  if (result !== '') {
    switch (result) {
      case 'success':
        return 'passed';
      case 'failure':
        return 'failed';
      case 'error':
      case 'cancelled':
        return 'errored';
    }
    // Ignored, Skipped, Inconclusive, Explicit: the test did not decide.
    return 'skipped';
  }
  const success = lower(o.success);
  if (success === 'true') return 'passed';
  if (success === 'false') return 'failed';
  return 'unknown';
}

/**
 * A failed suite usually only repeats its children ("One or more child tests had errors",
 * `site="Child"`), or inherits a failure from a parent's setup (`site="Parent"`). Files without
 * `site` tell only by whether a child failed.
 */
function propagated(open: Open, dialect: Dialect | null): boolean {
  const site = lower(open.outcome.site);
  if (dialect === 'nunit3' && (site === 'child' || site === 'parent')) return true;
  if (dialect === 'nunit3' && site !== '') return false;
  return open.seen.has('failed') || open.seen.has('errored');
}

function failureInfo(open: Open, withReason: boolean): FailureInfo | null {
  const message = open.failureMessage ? trimmedOrNull(open.failureMessage) : null;
  const stack = open.failureStack ? trimmedOrNull(open.failureStack) : null;
  const type = open.outcome.label?.trim() || null;
  if (message !== null || stack !== null) return { message, type, stack };
  return withReason ? reasonInfo(open) : type === null ? null : { message: null, type, stack: null };
}

function reasonInfo(open: Open): FailureInfo | null {
  const message = open.reason ? trimmedOrNull(open.reason) : null;
  const type = open.outcome.label?.trim() || null;
  return message === null && type === null ? null : { message, type, stack: null };
}
