/**
 * The TRX state machine: SAX events in, containers out, in closing order. Each direct child of
 * `<Results>` is one test, emitted when it closes; `<InnerResults>` rows (data-driven tests, ordered
 * tests) become steps of it. Memory stays flat: the open result with its capped text, plus, only
 * when the definitions come before the results (mstest.exe), a map from test id to class name.
 */
import {
  ElementStack,
  closeContainer,
  localName,
  newContainer,
  noRootError,
  parseTimestamp,
} from '../../lib/formatter/api.js';
import { suiteStatus, TextBuffer, trimmedOrNull, unclosedRootError, wrongRootError } from '../../lib/formatter/api.js';
import type { ContainerStatus, Emit, FailureInfo, HandlerContext, Instant } from '../../lib/formatter/api.js';
import type { XmlMachine } from '../../lib/formatter/api.js';
import { parseTimeSpan, resultFileRef } from './values.js';

type Attrs = Record<string, string>;

interface Result {
  id: number;
  parentId: number | null;
  type: 'test' | 'step';
  title: string;
  outcome: string;
  durationMs: number | null;
  startedAt: Instant | null;
  meta: Record<string, string>;
  resultsDirectory: string | undefined;
  stdout: TextBuffer | null;
  stderr: TextBuffer | null;
  message: TextBuffer | null;
  stack: TextBuffer | null;
  attachmentRefs: string[];
  suite: ClassSuite | null;
}

/** A class, grouping the tests whose definition was read before them. Emitted when `<Results>` closes. */
interface ClassSuite {
  id: number;
  title: string;
  seen: Set<ContainerStatus>;
  startedAt: Instant | null;
}

type Frame =
  | { kind: 'root' }
  | { kind: 'results' }
  | { kind: 'result'; result: Result }
  | { kind: 'inner'; owner: Result }
  | { kind: 'output'; owner: Result }
  | { kind: 'errorInfo'; owner: Result }
  | { kind: 'text'; buffer: TextBuffer }
  | { kind: 'resultFiles'; owner: Result }
  | { kind: 'collector'; owner: Result }
  | { kind: 'definitions' }
  | { kind: 'definition'; id: string | undefined }
  | { kind: 'ignored' };

const IGNORED: Frame = { kind: 'ignored' };

const OUTCOMES: Record<string, ContainerStatus> = {
  passed: 'passed',
  passedbutrunaborted: 'passed',
  completed: 'passed',
  warning: 'passed',
  failed: 'failed',
  timeout: 'failed',
  error: 'errored',
  aborted: 'errored',
  disconnected: 'errored',
  // Not run, or the run never decided: counted as skipped (counting rule 2).
  notexecuted: 'skipped',
  notrunnable: 'skipped',
  inconclusive: 'skipped',
  pending: 'skipped',
  inprogress: 'skipped',
};

export function outcomeStatus(outcome: string | undefined): ContainerStatus {
  return OUTCOMES[(outcome ?? '').trim().toLowerCase()] ?? 'unknown';
}

export function trxHandler(ctx: HandlerContext, emit: Emit): XmlMachine {
  const limit = ctx.limits.maxTextChars;
  const frames = new ElementStack<Frame>(IGNORED);
  let rootSeen = false;
  let resultsSeen = false;
  let legacy = false;
  /**
   * testId → class name, from definitions read before any result. Class names are interned: a
   * class's tests share one string, so a definition costs its id and a map entry.
   */
  let classOf: Map<string, string> | null = null;
  const interned = new Map<string, string>();
  const suites = new Map<string, ClassSuite>();

  const openResult = (a: Attrs, owner: Result | null): void => {
    let suite: ClassSuite | null = null;
    const meta: Record<string, string> = {};
    if (a['testId']) meta['testId'] = a['testId'];
    if (owner === null) {
      const className = a['testId'] ? classOf?.get(a['testId']) : undefined;
      if (className !== undefined) {
        meta['className'] = className;
        suite = suites.get(className) ?? null;
        if (suite === null) {
          suite = { id: ctx.nextId(), title: className, seen: new Set(), startedAt: null };
          suites.set(className, suite);
        }
      }
    } else if (a['dataRowInfo']) meta['dataRow'] = a['dataRowInfo'];
    const result: Result = {
      id: ctx.nextId(),
      parentId: owner ? owner.id : suite ? suite.id : null,
      type: owner ? 'step' : 'test',
      title: a['testName'] || a['name'] || '(unnamed test)',
      outcome: a['outcome'] ?? '',
      durationMs: parseTimeSpan(a['duration']),
      startedAt: parseTimestamp(a['startTime']),
      meta,
      resultsDirectory: a['relativeResultsDirectory'],
      stdout: null,
      stderr: null,
      message: null,
      stack: null,
      attachmentRefs: [],
      suite,
    };
    frames.push({ kind: 'result', result });
  };

  const finishResult = (r: Result): void => {
    const status = outcomeStatus(r.outcome);
    const container = closeContainer(r, status, status === 'passed' ? null : errorInfo(r));
    if (r.suite) {
      r.suite.seen.add(status);
      if (r.startedAt && (r.suite.startedAt === null || r.startedAt.iso < r.suite.startedAt.iso))
        r.suite.startedAt = r.startedAt;
    }
    emit(container);
  };

  const finishResults = (): void => {
    // A class suite always has at least one test.
    for (const { id, title, seen, startedAt } of suites.values())
      emit(newContainer({ id, parentId: null, type: 'suite', title, status: suiteStatus(seen), startedAt }));
    suites.clear();
    // The definitions were only needed for these results.
    classOf = null;
    interned.clear();
  };

  const addRef = (owner: Result, path: string | undefined): void => {
    if (path === undefined) return;
    const ref = resultFileRef(path, owner.resultsDirectory);
    if (ref !== null && !owner.attachmentRefs.includes(ref)) owner.attachmentRefs.push(ref);
  };

  const childOf = (top: Frame, name: string, a: Attrs): Frame => {
    switch (top.kind) {
      case 'root':
        if (name === 'Results') {
          resultsSeen = true;
          return { kind: 'results' };
        }
        // VSTest writes the definitions after the results: too late to group anything, so unread.
        if (name === 'TestDefinitions' && !resultsSeen) {
          classOf ??= new Map();
          return { kind: 'definitions' };
        }
        return IGNORED;
      case 'definitions':
        return { kind: 'definition', id: a['id'] };
      case 'definition':
        if (name === 'TestMethod' && top.id !== undefined && a['className']) {
          classOf?.set(flat(top.id), intern(interned, typeName(a['className'])));
          if (/QualityTools/.test(a['adapterTypeName'] ?? '')) legacy = true;
        }
        return IGNORED;
      case 'result':
        switch (name) {
          case 'Output':
            return { kind: 'output', owner: top.result };
          case 'ResultFiles':
            return { kind: 'resultFiles', owner: top.result };
          case 'CollectorDataEntries':
            return { kind: 'collector', owner: top.result };
          case 'InnerResults':
            return { kind: 'inner', owner: top.result };
        }
        return IGNORED;
      case 'output':
        if (name === 'StdOut') return { kind: 'text', buffer: (top.owner.stdout ??= new TextBuffer(limit)) };
        if (name === 'StdErr') return { kind: 'text', buffer: (top.owner.stderr ??= new TextBuffer(limit)) };
        if (name === 'ErrorInfo') return { kind: 'errorInfo', owner: top.owner };
        // DebugTrace and TextMessages (adapter chatter) are not kept.
        return IGNORED;
      case 'errorInfo':
        if (name === 'Message') return { kind: 'text', buffer: (top.owner.message ??= new TextBuffer(limit)) };
        if (name === 'StackTrace') return { kind: 'text', buffer: (top.owner.stack ??= new TextBuffer(limit)) };
        return IGNORED;
      case 'resultFiles':
        if (name === 'ResultFile') addRef(top.owner, a['path']);
        return IGNORED;
      case 'collector':
        // Collector/UriAttachments/UriAttachment/A: the link may sit at any depth below the entries.
        if (name === 'A') addRef(top.owner, a['href']);
        return top;
    }
    return IGNORED;
  };

  return {
    open(rawName, a) {
      const name = localName(rawName);
      if (!rootSeen) {
        const ns = a['xmlns'];
        if (name !== 'TestRun' || (ns !== undefined && !/TeamTest/i.test(ns)))
          throw wrongRootError(
            `<${rawName}>${ns ? ` in namespace ${ns}` : ''}`,
            'a Visual Studio <TestRun>: this is not a TRX file',
          );
        rootSeen = true;
        // The 2006 namespace is Visual Studio 2008's mstest.exe.
        if (ns !== undefined && /TeamTest\/2006/.test(ns)) legacy = true;
        frames.push({ kind: 'root' });
        return;
      }
      const top = frames.top;
      if (top?.kind === 'results') return openResult(a, null);
      if (top?.kind === 'inner') return openResult(a, top.owner);
      frames.open((top) => childOf(top, name, a));
    },

    text(t) {
      frames.text(t);
    },

    close() {
      const frame = frames.pop();
      if (frame?.kind === 'result') finishResult(frame.result);
      else if (frame?.kind === 'results') finishResults();
    },

    end() {
      if (!rootSeen) throw noRootError('a TRX file');
      if (frames.depth > 0) throw unclosedRootError();
      ctx.setProducer(legacy ? 'mstest' : 'vstest');
    },
  };
}

/**
 * `Namespace.Class, Assembly, Version=…` (mstest.exe writes assembly-qualified names) → the type
 * name. Commas inside generic arguments (`Foo`1[[System.Int32, mscorlib]]`) are not the cut.
 */
export function typeName(qualified: string): string {
  let depth = 0;
  for (let i = 0; i < qualified.length; i++) {
    const c = qualified[i];
    if (c === '[') depth++;
    else if (c === ']') depth--;
    else if (c === ',' && depth === 0) return qualified.slice(0, i).trim();
  }
  return qualified.trim();
}

function intern(pool: Map<string, string>, s: string): string {
  const known = pool.get(s);
  if (known !== undefined) return known;
  const kept = flat(s);
  pool.set(kept, kept);
  return kept;
}

/**
 * sax builds attribute values a character at a time, and V8 keeps such a string as a chain of
 * pieces: about 1 KB for a 36-character GUID instead of 60 bytes. A string that is kept is copied flat.
 */
function flat(s: string): string {
  return JSON.parse(JSON.stringify(s)) as string;
}

function errorInfo(r: Result): FailureInfo | null {
  const message = r.message ? trimmedOrNull(r.message) : null;
  const stack = r.stack ? trimmedOrNull(r.stack) : null;
  return message === null && stack === null ? null : { message, type: null, stack };
}
