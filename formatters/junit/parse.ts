/**
 * The JUnit state machine: SAX events in, containers out, in closing order. It keeps only the open
 * elements (the suites and the test being read, with their capped text), never the tree, so a test
 * can drive it with an array of events and memory stays flat whatever the file size.
 */
import { ElementStack, erroredTest, fileTitle, localName, lowerWord, closeContainer } from '../../lib/formatter/api.js';
import { noRootError, parseTimestamp, Stack, suiteStatus, TextBuffer, trimmedOrNull } from '../../lib/formatter/api.js';
import { firstProducer, unclosedRootError, wrongRootError } from '../../lib/formatter/api.js';
import type { Attempt, Container, ContainerStatus, Emit, FailureInfo } from '../../lib/formatter/api.js';
import type { HandlerContext, Instant, OpenedContainer, Property, XmlMachine } from '../../lib/formatter/api.js';
import { MarkerScanner, attachmentProperty } from './attachments.js';
import { producerFromCase, producerFromProperty, producerFromRetry, producerFromRoot } from './producer.js';
import { producerFromSuite } from './producer.js';
import { parseSeconds } from './values.js';

type Attrs = Record<string, string>;
type OutcomeName = 'error' | 'failure' | 'skipped';

/** One or more `<error>`, `<failure>` or `<skipped>` siblings of one kind, merged. */
interface Outcome {
  count: number;
  message: TextBuffer;
  type: string | null;
  stack: TextBuffer;
}

/** A Surefire `flaky*`/`rerun*` child: one earlier or later run of the same test. */
interface Retry {
  status: ContainerStatus;
  durationMs: number | null;
  message: string | null;
  type: string | null;
  text: TextBuffer;
  stackTrace: TextBuffer | null;
}

interface Open {
  id: number;
  parentId: number | null;
  type: 'suite' | 'test';
  title: string;
  durationMs: number | null;
  startedAt: Instant | null;
  meta: Record<string, string>;
  stdout: TextBuffer | null;
  stderr: TextBuffer | null;
  properties: Property[];
  attachmentRefs: string[];
  outcomes: Partial<Record<OutcomeName, Outcome>>;
  retries: Retry[];
  /** A `status`/`result` attribute says the test did not run (gtest, CTest, Catch2 …). */
  skippedByAttribute: boolean;
  /** Direct `<testcase>` children: a suite-level error only becomes a test when there are none. */
  testChildren: number;
  /** Statuses seen among direct child containers, for the suite's own status. */
  seen: Set<ContainerStatus>;
}

type Frame =
  | { kind: 'root' }
  | { kind: 'container'; open: Open }
  | { kind: 'output'; buffer: TextBuffer; scanner: MarkerScanner }
  | { kind: 'outcome'; outcome: Outcome }
  | { kind: 'retry'; owner: Open; retry: Retry }
  | { kind: 'stackTrace'; retry: Retry }
  | { kind: 'properties'; owner: Open }
  | { kind: 'property'; owner: Open; name: string; value: string | undefined; text: TextBuffer }
  | { kind: 'ignored' };

const RETRIES: Record<string, ContainerStatus> = {
  flakyFailure: 'failed',
  flakyError: 'errored',
  rerunFailure: 'failed',
  rerunError: 'errored',
};
const SKIP_STATUS = new Set(['skipped', 'notrun', 'disabled', 'skip', 'ignored']);
const SKIP_RESULT = new Set(['skipped', 'suppressed']);
const IGNORED: Frame = { kind: 'ignored' };

export function junitHandler(
  ctx: HandlerContext,
  emit: Emit,
  opened?: (container: OpenedContainer) => void,
): XmlMachine {
  const limit = ctx.limits.maxTextChars;
  const frames = new ElementStack<Frame>(IGNORED);
  const containers = new Stack<Open>();
  let rootSeen = false;
  const guess = firstProducer(ctx);

  const openContainer = (type: 'suite' | 'test', a: Attrs): Open => {
    const parent = containers.top ?? null;
    if (type === 'test' && parent) parent.testChildren++;
    const startedAt = parseTimestamp(a['timestamp']);
    const open: Open = {
      id: ctx.nextId(),
      parentId: parent ? parent.id : null,
      type,
      title:
        type === 'suite'
          ? suiteTitle(a, parent === null, ctx.fileName)
          : a['name'] || a['classname'] || '(unnamed test)',
      durationMs: parseSeconds(a['time']),
      startedAt,
      meta: pick(a, type === 'suite' ? SUITE_META : TEST_META),
      stdout: null,
      stderr: null,
      properties: [],
      attachmentRefs: [],
      outcomes: {},
      retries: [],
      skippedByAttribute:
        type === 'test' && (SKIP_STATUS.has(lowerWord(a['status'])) || SKIP_RESULT.has(lowerWord(a['result']))),
      testChildren: 0,
      seen: new Set(),
    };
    // PHPUnit writes `class` and a dotted `classname`; Codeception writes only `class`.
    if (type === 'test' && open.meta['classname'] === undefined && a['class']) open.meta['classname'] = a['class'];
    containers.push(open);
    frames.push({ kind: 'container', open });
    // Suites only: a test holds no containers, so its title is in no other path before it closes.
    if (type === 'suite') opened?.({ id: open.id, parentId: open.parentId, type: 'suite', title: open.title });
    guess(type === 'suite' ? producerFromSuite(a) : producerFromCase(a));
    return open;
  };

  const addRef = (open: Open, ref: string): void => {
    if (!open.attachmentRefs.includes(ref)) open.attachmentRefs.push(ref);
  };

  const finish = (open: Open): void => {
    containers.pop();
    const parent = containers.top;
    const container = open.type === 'test' ? finishTest(open) : finishSuite(open);
    parent?.seen.add(container.status);
    emit(container);
  };

  const finishTest = (open: Open): Container => {
    const { error, failure, skipped } = open.outcomes;
    const decisive = error ?? failure ?? skipped ?? null;
    const status: ContainerStatus = error
      ? 'errored'
      : failure
        ? 'failed'
        : skipped
          ? 'skipped'
          : open.skippedByAttribute && open.retries.length === 0
            ? 'skipped'
            : 'passed';
    const info = decisive ? outcomeInfo(decisive) : null;
    const container = closeContainer(open, status, info);
    if (open.retries.length > 0) {
      const last: Attempt = { status, durationMs: null, failure: info };
      const earlier = open.retries.map(retryAttempt);
      // Surefire: `rerun*` follow a first run written as <failure>/<error>; `flaky*` precede the run that passed.
      container.attempts = status === 'failed' || status === 'errored' ? [last, ...earlier] : [...earlier, last];
      container.flaky = status === 'passed' && earlier.some((a) => a.status === 'failed' || a.status === 'errored');
    }
    return container;
  };

  const finishSuite = (open: Open): Container => {
    const own = open.outcomes.error ?? open.outcomes.failure ?? null;
    let failure: FailureInfo | null = own ? outcomeInfo(own) : null;
    if (own && open.testChildren === 0) {
      // Counting rule 4: a suite that failed outside any test (class did not load, setup crashed)
      // is one errored test; Jenkins shows the same as a synthetic `<init>` case.
      open.seen.add('errored');
      const meta = { synthetic: 'suite-error' };
      emit(erroredTest({ id: ctx.nextId(), parentId: open.id, title: open.title, failure, meta }));
      failure = null;
    }
    return closeContainer(open, own ? 'errored' : suiteStatus(open.seen), failure);
  };

  const openChild = (top: Frame, name: string, a: Attrs): Frame => {
    if (top.kind === 'container') {
      const owner = top.open;
      switch (name) {
        case 'properties':
          return { kind: 'properties', owner };
        case 'property':
          return propertyFrame(owner, a, limit);
        case 'system-out':
        case 'system-err':
          return outputFrame(owner, name === 'system-out' ? 'stdout' : 'stderr', limit, (ref) => addRef(owner, ref));
        case 'error':
        case 'failure':
        case 'skipped':
          return { kind: 'outcome', outcome: addOutcome(owner, name, a, limit) };
      }
      const retryStatus = RETRIES[name];
      if (retryStatus && owner.type === 'test') {
        guess(producerFromRetry(name));
        return {
          kind: 'retry',
          owner,
          retry: {
            status: retryStatus,
            durationMs: parseSeconds(a['time']),
            message: a['message'] || null,
            type: a['type'] || null,
            text: new TextBuffer(limit),
            stackTrace: null,
          },
        };
      }
      return IGNORED;
    }
    if (top.kind === 'properties' && name === 'property') return propertyFrame(top.owner, a, limit);
    if (top.kind === 'retry' && name === 'stackTrace') {
      top.retry.stackTrace ??= new TextBuffer(limit);
      return { kind: 'stackTrace', retry: top.retry };
    }
    // Anything else (PHPUnit <warning>, a retry's own system-out, Playwright property <item>s) is
    // read past: unknown elements must never stop a file from importing.
    return IGNORED;
  };

  return {
    open(rawName, a) {
      const name = localName(rawName);
      if (!rootSeen) {
        if (name !== 'testsuites' && name !== 'testsuite')
          throw wrongRootError(`<${rawName}>`, '<testsuites> or <testsuite>: this is not a JUnit XML file');
        rootSeen = true;
        guess(producerFromRoot(name, a));
      }
      // Counting rule: every <testcase> counts wherever it sits, so these two are recognised at any depth.
      if (name === 'testsuite') {
        openContainer('suite', a);
        return;
      }
      if (name === 'testcase') {
        openContainer('test', a);
        return;
      }
      const top = frames.top;
      if (name === 'testsuites' && top === undefined) {
        frames.push({ kind: 'root' });
        return;
      }
      frames.open((top) => openChild(top, name, a));
    },

    text(t) {
      const top = frames.top;
      if (!top) return;
      switch (top.kind) {
        case 'output':
          top.buffer.append(t);
          top.scanner.push(t);
          return;
        case 'outcome':
          top.outcome.stack.append(t);
          return;
        case 'retry':
          top.retry.text.append(t);
          return;
        case 'stackTrace':
          top.retry.stackTrace?.append(t);
          return;
        case 'property':
          top.text.append(t);
          return;
      }
    },

    close() {
      const frame = frames.pop();
      if (!frame) return;
      switch (frame.kind) {
        case 'container':
          finish(frame.open);
          return;
        case 'retry':
          frame.owner.retries.push(frame.retry);
          return;
        case 'property': {
          const value = frame.value ?? frame.text.value();
          frame.owner.properties.push({ name: frame.name, value });
          const ref = attachmentProperty(frame.name, value);
          if (ref) addRef(frame.owner, ref);
          guess(producerFromProperty(frame.name));
          return;
        }
      }
    },

    end() {
      if (!rootSeen) throw noRootError('a JUnit XML report');
      if (frames.depth > 0) throw unclosedRootError();
    },
  };
}

const SUITE_META = ['file', 'hostname', 'package'] as const;
const TEST_META = ['classname', 'file', 'line'] as const;

function pick(a: Attrs, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of keys) {
    const v = a[k];
    if (v !== undefined && v !== '') out[k] = v;
  }
  return out;
}

function suiteTitle(a: Attrs, topLevel: boolean, fileName: string): string {
  if (a['name']) return a['name'];
  // Nameless suites (Nette Tester, container-structure-test) are named after the file, as Jenkins does.
  if (topLevel) return fileTitle(fileName, '(unnamed suite)');
  return '(unnamed suite)';
}

function propertyFrame(owner: Open, a: Attrs, limit: number): Frame {
  const name = a['name'];
  if (name === undefined) return IGNORED;
  return { kind: 'property', owner, name, value: a['value'], text: new TextBuffer(limit) };
}

function outputFrame(owner: Open, stream: 'stdout' | 'stderr', limit: number, found: (ref: string) => void): Frame {
  // A second <system-out> (seen in merged reports) continues the first rather than replacing it.
  const buffer = (owner[stream] ??= new TextBuffer(limit));
  return { kind: 'output', buffer, scanner: new MarkerScanner(found) };
}

function addOutcome(owner: Open, name: OutcomeName, a: Attrs, limit: number): Outcome {
  const outcome = (owner.outcomes[name] ??= {
    count: 0,
    message: new TextBuffer(limit),
    type: null,
    stack: new TextBuffer(limit),
  });
  outcome.count++;
  // jest-junit writes one <failure> per failed expectation: join them, do not keep only the first.
  const message = a['message'];
  if (message) {
    if (!outcome.message.empty) outcome.message.append('\n');
    outcome.message.append(message);
  }
  outcome.type ??= a['type'] || null;
  if (outcome.count > 1 && !outcome.stack.empty) outcome.stack.append('\n\n');
  return outcome;
}

function outcomeInfo(o: Outcome): FailureInfo | null {
  const message = o.message.empty ? null : o.message.value();
  const stack = trimmedOrNull(o.stack);
  if (message === null && stack === null && o.type === null) return null;
  return { message, type: o.type, stack };
}

function retryAttempt(r: Retry): Attempt {
  const stack = (r.stackTrace && trimmedOrNull(r.stackTrace)) ?? trimmedOrNull(r.text);
  const failure =
    r.message === null && r.type === null && stack === null ? null : { message: r.message, type: r.type, stack };
  return { status: r.status, durationMs: r.durationMs, failure };
}
