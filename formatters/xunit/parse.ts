/**
 * The xUnit.net state machine (v2/v3 `assemblies` → `assembly` → `collection` → `test`, v1
 * `assembly` → `class` → `test`): SAX events in, containers out, in closing order. It keeps only
 * the open suites and the open test with their capped text, never the tree.
 */
import { ElementStack, erroredTest, localName, lowerWord, newContainer, noRootError } from '../../lib/formatter/api.js';
import { parseTimestamp, Stack, suiteStatus, TextBuffer, trimmedOrNull } from '../../lib/formatter/api.js';
import { unclosedRootError, wrongRootError } from '../../lib/formatter/api.js';
import type { Container, ContainerStatus, Emit, FailureInfo, HandlerContext } from '../../lib/formatter/api.js';
import type { Instant, Property, XmlMachine } from '../../lib/formatter/api.js';
import { baseName, parseSeconds, parseTimeSpan } from './values.js';

type Attrs = Record<string, string>;

interface Open {
  id: number;
  parentId: number | null;
  /** `error` is an `<errors><error>` entry: one errored test by counting rule 4. */
  kind: 'assembly' | 'collection' | 'class' | 'test' | 'error';
  title: string;
  result: string;
  durationMs: number | null;
  startedAt: Instant | null;
  meta: Record<string, string>;
  properties: Property[];
  failureType: string | null;
  failureMessage: TextBuffer | null;
  failureStack: TextBuffer | null;
  reason: TextBuffer | null;
  output: TextBuffer | null;
  tests: number;
  seen: Set<ContainerStatus>;
}

type Frame =
  | { kind: 'root' }
  | { kind: 'container'; open: Open }
  | { kind: 'errors' }
  | { kind: 'failure'; owner: Open }
  | { kind: 'reason'; owner: Open; buffer: TextBuffer }
  | { kind: 'text'; buffer: TextBuffer }
  | { kind: 'traits'; owner: Open }
  | { kind: 'ignored' };

const IGNORED: Frame = { kind: 'ignored' };

export function xunitHandler(ctx: HandlerContext, emit: Emit): XmlMachine {
  const limit = ctx.limits.maxTextChars;
  const frames = new ElementStack<Frame>(IGNORED);
  const containers = new Stack<Open>();
  let rootSeen = false;
  /** `assemblies/@start-rtf` (schema 3): the start of assemblies that give none of their own. */
  let runStart: Instant | null = null;
  let producer: string | null = null;

  const openContainer = (kind: Open['kind'], a: Attrs): void => {
    const parent = containers.top ?? null;
    const o: Open = {
      id: ctx.nextId(),
      parentId: parent ? parent.id : null,
      kind,
      title: titleOf(kind, a, ctx.fileName),
      result: lowerWord(a['result']),
      // `time` is seconds; schema 3 adds `time-rtf`, a TimeSpan, and some writers give only that.
      durationMs: parseSeconds(a['time']) ?? parseTimeSpan(a['time-rtf']),
      startedAt: null,
      meta: {},
      properties: [],
      failureType: null,
      failureMessage: null,
      failureStack: null,
      reason: null,
      output: null,
      tests: 0,
      seen: new Set(),
    };
    if (kind === 'assembly') {
      // `run-date`/`run-time` are local wall-clock time without a zone: read as UTC, flagged naive.
      const local = a['run-date'] ? parseTimestamp(`${a['run-date']}T${a['run-time'] ?? '00:00:00'}`) : null;
      o.startedAt = parseTimestamp(a['start-rtf']) ?? local ?? runStart;
      if (a['name'] && o.title !== a['name']) o.meta['path'] = a['name'];
      if (a['test-framework']) o.meta['testFramework'] = a['test-framework'];
      if (producer === null && /xunit/i.test(a['test-framework'] ?? '')) {
        producer = 'xunit.net';
        ctx.setProducer(producer);
      }
    } else if (kind === 'test') {
      o.startedAt = parseTimestamp(a['start-rtf']);
      putMeta(o.meta, 'classname', a['type']);
      putMeta(o.meta, 'method', a['method']);
      putMeta(o.meta, 'file', a['source-file']);
      putMeta(o.meta, 'line', a['source-line']);
    } else if (kind === 'error') {
      o.meta['synthetic'] = 'xunit-error';
      putMeta(o.meta, 'errorType', a['type']);
    }
    containers.push(o);
    frames.push({ kind: 'container', open: o });
  };

  const finish = (o: Open): void => {
    containers.pop();
    const parent = containers.top;
    const container = o.kind === 'test' || o.kind === 'error' ? finishTest(o) : finishSuite(o);
    if (parent) {
      parent.seen.add(container.status);
      parent.tests += o.kind === 'test' || o.kind === 'error' ? 1 : o.tests;
    }
    emit(container);
  };

  const finishTest = (o: Open): Container => {
    const status = o.kind === 'error' ? 'errored' : testStatus(o.result);
    const failure = status === 'passed' ? null : (failureInfo(o) ?? reasonInfo(o));
    return base(o, 'test', status, failure);
  };

  const finishSuite = (o: Open): Container => {
    // Only a v1 <class> carries a failure of its own (a fixture that could not be set up).
    let failure = failureInfo(o);
    if (failure && o.tests === 0) {
      // Counting rule 4: a class that failed outside any test and ran none is one errored test.
      const meta = { synthetic: 'class-error' };
      emit(erroredTest({ id: ctx.nextId(), parentId: o.id, title: o.title, failure, meta }));
      o.tests++;
      failure = null;
      o.seen.add('errored');
    } else if (failure) o.seen.add('errored');
    return base(o, 'suite', suiteStatus(o.seen), failure);
  };

  const childOf = (top: Frame, name: string, a: Attrs): Frame => {
    switch (top.kind) {
      case 'root':
        return IGNORED;
      case 'container': {
        const owner = top.open;
        switch (name) {
          case 'errors':
            return owner.kind === 'assembly' ? { kind: 'errors' } : IGNORED;
          case 'failure':
            owner.failureType ??= a['exception-type'] || null;
            return { kind: 'failure', owner };
          case 'reason':
            return { kind: 'reason', owner, buffer: (owner.reason ??= new TextBuffer(limit)) };
          case 'output':
            return { kind: 'text', buffer: (owner.output ??= new TextBuffer(limit)) };
          case 'traits':
            return { kind: 'traits', owner };
        }
        // <warnings>, and anything a newer schema adds, are read past.
        return IGNORED;
      }
      case 'failure':
        if (name === 'message') return { kind: 'text', buffer: (top.owner.failureMessage ??= new TextBuffer(limit)) };
        if (name === 'stack-trace') return { kind: 'text', buffer: (top.owner.failureStack ??= new TextBuffer(limit)) };
        return IGNORED;
      case 'reason':
        // v2 writes the reason as the element's text, v1 inside <message>.
        return name === 'message' ? { kind: 'text', buffer: top.buffer } : IGNORED;
      case 'traits':
        if (name === 'trait' && a['name']) top.owner.properties.push({ name: a['name'], value: a['value'] ?? '' });
        return IGNORED;
    }
    return IGNORED;
  };

  return {
    open(rawName, a) {
      const name = localName(rawName);
      if (!rootSeen) {
        if ((name !== 'assemblies' && name !== 'assembly') || a['xmlns'] !== undefined)
          throw wrongRootError(
            `<${rawName}>`,
            "xUnit.net's <assemblies> or <assembly>: this is not an xUnit.net result file",
          );
        rootSeen = true;
        if (name === 'assemblies') {
          runStart = parseTimestamp(a['start-rtf']);
          frames.push({ kind: 'root' });
          return;
        }
      }
      const top = frames.top;
      const inner = containers.top?.kind;
      if (name === 'assembly' && (top === undefined || top.kind === 'root')) return openContainer('assembly', a);
      if ((name === 'collection' || name === 'class') && inner === 'assembly') return openContainer(name, a);
      // Counting rule: every <test> counts; only a test inside a test would be something else.
      if (name === 'test' && inner !== 'test' && inner !== 'error') return openContainer('test', a);
      if (name === 'error' && top?.kind === 'errors') return openContainer('error', a);
      frames.open((top) => childOf(top, name, a));
    },

    text(t) {
      const top = frames.top;
      if (top?.kind === 'text' || top?.kind === 'reason') top.buffer.append(t);
    },

    close() {
      const frame = frames.pop();
      if (frame?.kind === 'container') finish(frame.open);
    },

    end() {
      if (!rootSeen) throw noRootError('an xUnit.net XML result file');
      if (frames.depth > 0) throw unclosedRootError();
    },
  };
}

/** `Pass`, `Fail`, `Skip`; `NotRun` is an explicit test that was not asked for (v3). */
export function testStatus(result: string): ContainerStatus {
  switch (result) {
    case 'pass':
      return 'passed';
    case 'fail':
      return 'failed';
    case 'skip':
    case 'notrun':
      return 'skipped';
  }
  return 'unknown';
}

function titleOf(kind: Open['kind'], a: Attrs, fileName: string): string {
  switch (kind) {
    case 'assembly':
      // The assembly is named by its full path, which changes with the CI workspace; a nameless
      // one (hand-written files) is named after the file, as for nameless JUnit suites.
      return a['name'] ? baseName(a['name']) : baseName(fileName) || '(unnamed assembly)';
    case 'collection':
    case 'class':
      return a['name'] || `(unnamed ${kind})`;
    case 'test':
      return a['name'] || [a['type'], a['method']].filter(Boolean).join('.') || '(unnamed test)';
    case 'error':
      return a['name'] || a['type'] || '(error)';
  }
}

function failureInfo(o: Open): FailureInfo | null {
  const message = o.failureMessage ? trimmedOrNull(o.failureMessage) : null;
  const stack = o.failureStack ? trimmedOrNull(o.failureStack) : null;
  if (message === null && stack === null && o.failureType === null) return null;
  return { message, type: o.failureType, stack };
}

function reasonInfo(o: Open): FailureInfo | null {
  const message = o.reason ? trimmedOrNull(o.reason) : null;
  return message === null ? null : { message, type: null, stack: null };
}

function base(o: Open, type: 'suite' | 'test', status: ContainerStatus, failure: FailureInfo | null): Container {
  // Field by field, not a spread: this runs once per container, and a spread copies the whole record.
  return newContainer({
    id: o.id,
    parentId: o.parentId,
    type,
    title: o.title,
    status,
    durationMs: o.durationMs,
    startedAt: o.startedAt,
    failure,
    stdout: o.output,
    properties: o.properties,
    meta: o.meta,
  });
}

function putMeta(meta: Record<string, string>, key: string, value: string | undefined): void {
  if (value !== undefined && value !== '') meta[key] = value;
}
