/**
 * The TestNG state machine: SAX events of `testng-results.xml` in, containers out in closing order.
 * It keeps the open `<suite>`/`<test>`/`<class>` elements and the `<test-method>` being read. Two
 * things are held a little longer, both bounded by one element of the file:
 * - the suite's `<groups>` index (class#method → group names), read before the tests it tags;
 * - when the root says retries happened (`retried="N"`), the test-methods of the open `<class>`
 *   until it closes: TestNG sorts a class by start millisecond, and a retried attempt started in
 *   the same millisecond as its final run is written after it, so matching needs the whole class.
 */
import { ElementStack, localName, newContainer, noRootError, Stack, suiteStatus } from '../../lib/formatter/api.js';
import { TextBuffer, unclosedRootError, wrongRootError } from '../../lib/formatter/api.js';
import type { Attempt, Container, ContainerStatus, Emit, FailureInfo } from '../../lib/formatter/api.js';
import type { HandlerContext, Instant, Property, XmlMachine } from '../../lib/formatter/api.js';
import { parseDurationMs, parseStartedAt } from './values.js';

type Attrs = Record<string, string>;

interface Suite {
  id: number;
  parentId: number | null;
  title: string;
  durationMs: number | null;
  startedAt: Instant | null;
  meta: Record<string, string>;
  /** Statuses of direct children, for the suite's own (worst) status. */
  seen: Set<ContainerStatus>;
}

interface Method {
  parent: Suite | null;
  className: string | null;
  name: string;
  signature: string;
  status: string;
  isConfig: boolean;
  retried: boolean;
  durationMs: number | null;
  startedAt: Instant | null;
  meta: Record<string, string>;
  groups: string[];
  params: string[];
  exception: { type: string | null; message: TextBuffer; stack: TextBuffer } | null;
  output: TextBuffer | null;
  lines: number;
}

/** The open `<class>`: retried attempts wait here for the run they belong to. */
interface ClassState {
  suite: Suite;
  /** Hold every test-method until `</class>` (the file reports retries). */
  hold: boolean;
  held: Method[];
  pending: Map<string, Method[]>;
}

type SuiteFrame = { kind: 'suite'; suite: Suite; cls: ClassState | null; groups: boolean };
type Frame =
  | { kind: 'root' }
  | SuiteFrame
  | { kind: 'groups' }
  | { kind: 'group'; name: string }
  | { kind: 'method'; m: Method }
  | { kind: 'params'; m: Method }
  | { kind: 'param'; m: Method }
  | { kind: 'value'; m: Method; buf: TextBuffer; started: boolean }
  | { kind: 'exception'; m: Method }
  | { kind: 'text'; buf: TextBuffer; started: boolean }
  | { kind: 'output'; m: Method }
  | { kind: 'line'; m: Method; buf: TextBuffer; started: boolean }
  | { kind: 'ignored' };

const IGNORED: Frame = { kind: 'ignored' };
/** Group memberships remembered per `<suite>`; past this, tests simply get no group tags. */
const MAX_GROUP_ENTRIES = 100_000;
const MAX_PARAM_CHARS = 100;
const MAX_PARAMS = 20;
const MAX_META_CHARS = 1000;

export function testngHandler(ctx: HandlerContext, emit: Emit): XmlMachine {
  const limit = ctx.limits.maxTextChars;
  const frames = new ElementStack<Frame>(IGNORED);
  const suites = new Stack<Suite>();
  let rootSeen = false;
  let holdClasses = false;
  let groups = new Map<string, string[]>();
  let groupEntries = 0;

  const openSuite = (title: string, a: Attrs, meta: Record<string, string>): Suite => {
    const parent = suites.top ?? null;
    const suite: Suite = {
      id: ctx.nextId(),
      parentId: parent ? parent.id : null,
      title,
      durationMs: parseDurationMs(a['duration-ms']),
      startedAt: parseStartedAt(a['started-at']),
      meta,
      seen: new Set(),
    };
    suites.push(suite);
    return suite;
  };

  const closeSuite = (suite: Suite): void => {
    suites.pop();
    const status = suiteStatus(suite.seen);
    suites.top?.seen.add(status);
    const { id, parentId, title, durationMs, startedAt, meta } = suite;
    emit(newContainer({ id, parentId, type: 'suite', title, status, durationMs, startedAt, meta }));
  };

  const methodContainer = (
    m: Method,
    type: Container['type'],
    status: ContainerStatus,
    failure: FailureInfo | null,
  ): Container => {
    const stdout = m.output && !m.output.empty ? m.output.value() : null;
    const tags = new Set([
      ...(m.className !== null ? (groups.get(groupKey(m.className, m.name)) ?? []) : []),
      ...m.groups,
    ]);
    const properties = [...tags].map((value): Property => ({ name: 'group', value }));
    m.parent?.seen.add(status);
    const [id, parentId, title] = [ctx.nextId(), m.parent ? m.parent.id : null, methodTitle(m)];
    // Field by field, not a spread: this runs once per test, and a spread copies the whole record.
    return newContainer({
      id,
      parentId,
      type,
      title,
      status,
      durationMs: m.durationMs,
      startedAt: m.startedAt,
      failure,
      stdout,
      properties,
      meta: m.meta,
    });
  };

  /** A counted test: the final run, with the retried runs before it as attempts. */
  const emitFinal = (m: Method, earlier: Method[]): void => {
    const status = methodStatus(m.status);
    const failure = status === 'passed' ? null : exceptionInfo(m);
    const c = methodContainer(m, 'test', status, failure);
    if (earlier.length > 0) {
      const attempts = earlier.map(retriedAttempt);
      c.attempts = [...attempts, { status, durationMs: m.durationMs, failure }];
      c.flaky = status === 'passed' && attempts.some((a) => a.status === 'failed');
    }
    emit(c);
  };

  /** A retried run whose final run is not in its class: kept visible, never counted. */
  const emitOrphan = (m: Method): void => {
    const attempt = retriedAttempt(m);
    const c = methodContainer(m, 'step', attempt.status, attempt.failure);
    c.meta = { ...(c.meta ?? {}), retried: 'true' };
    emit(c);
  };

  const emitConfig = (m: Method): void => {
    const status = methodStatus(m.status);
    if (status === 'failed') {
      // Counting rule 4: a failed @Before/@After method is a failure outside any test, counted once
      // as an errored test; the tests it skipped are reported SKIP by TestNG itself.
      const c = methodContainer(m, 'test', 'errored', exceptionInfo(m));
      c.meta = { ...(c.meta ?? {}), config: 'true', synthetic: 'config-failure' };
      emit(c);
      return;
    }
    const c = methodContainer(m, 'hook', status, status === 'passed' ? null : exceptionInfo(m));
    c.meta = { ...(c.meta ?? {}), config: 'true' };
    emit(c);
  };

  const closeMethod = (m: Method): void => {
    if (m.isConfig) return emitConfig(m);
    const cls = currentClass();
    if (!cls) return m.retried ? emitOrphan(m) : emitFinal(m, []);
    if (cls.hold) {
      cls.held.push(m);
      return;
    }
    const key = retryKey(m);
    if (m.retried) {
      push(cls.pending, key, m);
      return;
    }
    const earlier = cls.pending.get(key) ?? [];
    cls.pending.delete(key);
    emitFinal(m, earlier);
  };

  const closeClass = (cls: ClassState): void => {
    if (!cls.hold) {
      for (const ms of cls.pending.values()) ms.forEach(emitOrphan);
      return;
    }
    const pending = new Map<string, Method[]>();
    const finals: { m: Method; earlier: Method[] }[] = [];
    const lastFinal = new Map<string, { m: Method; earlier: Method[] }>();
    for (const m of cls.held) {
      const key = retryKey(m);
      if (m.retried) {
        push(pending, key, m);
        continue;
      }
      const f = { m, earlier: pending.get(key) ?? [] };
      pending.delete(key);
      finals.push(f);
      lastFinal.set(key, f);
    }
    // Retried runs written after their final run started in the same millisecond (see top).
    for (const [key, ms] of pending) {
      const f = lastFinal.get(key);
      if (f) f.earlier.push(...ms);
      else ms.forEach(emitOrphan);
    }
    for (const f of finals) emitFinal(f.m, f.earlier);
  };

  const currentClass = (): ClassState | null =>
    frames.find((f): f is SuiteFrame => f.kind === 'suite' && f.cls !== null)?.cls ?? null;

  const openMethod = (a: Attrs): Method => {
    const cls = currentClass();
    const meta: Record<string, string> = {};
    if (cls) meta['classname'] = cls.suite.title;
    if (a['description']) meta['description'] = a['description'].slice(0, MAX_META_CHARS);
    if (a['data-provider']) meta['dataProvider'] = a['data-provider'];
    if (a['test-instance-name']) meta['testInstanceName'] = a['test-instance-name'].slice(0, MAX_META_CHARS);
    return {
      parent: suites.top ?? null,
      className: cls ? cls.suite.title : null,
      name: a['name'] || a['signature'] || '(unnamed test-method)',
      signature: a['signature'] ?? '',
      status: (a['status'] ?? '').trim().toUpperCase(),
      isConfig: a['is-config'] === 'true',
      retried: a['retried'] === 'true',
      durationMs: parseDurationMs(a['duration-ms']),
      startedAt: parseStartedAt(a['started-at']),
      meta,
      groups: a['groups']
        ? a['groups']
            .split(',')
            .map((g) => g.trim())
            .filter(Boolean)
        : [],
      params: [],
      exception: null,
      output: null,
      lines: 0,
    };
  };

  const openChild = (top: Frame, name: string, a: Attrs): Frame => {
    switch (top.kind) {
      case 'root':
        if (name === 'suite') {
          groups = new Map();
          groupEntries = 0;
          return { kind: 'suite', suite: openSuite(a['name'] || '(unnamed suite)', a, {}), cls: null, groups: true };
        }
        return IGNORED;
      case 'suite':
        if (name === 'groups' && top.groups) return { kind: 'groups' };
        if (name === 'test' && top.cls === null) {
          // With file fragmentation a <test url="…"/> only points at another file.
          const meta: Record<string, string> = a['url'] ? { url: a['url'] } : {};
          return { kind: 'suite', suite: openSuite(a['name'] || '(unnamed test)', a, meta), cls: null, groups: false };
        }
        if (name === 'class' && top.cls === null) {
          const title =
            a['package'] && a['package'] !== '[default]'
              ? `${a['package']}.${a['name'] ?? ''}`
              : a['name'] || '(unnamed class)';
          const suite = openSuite(title, a, {});
          return {
            kind: 'suite',
            suite,
            cls: { suite, hold: holdClasses, held: [], pending: new Map() },
            groups: false,
          };
        }
        if (name === 'test-method') return { kind: 'method', m: openMethod(a) };
        return IGNORED;
      case 'groups':
        return name === 'group' ? { kind: 'group', name: a['name'] ?? '' } : IGNORED;
      case 'group':
        if (name === 'method' && top.name && a['class'] && a['name'] && groupEntries < MAX_GROUP_ENTRIES) {
          groupEntries++;
          push(groups, groupKey(a['class'], a['name']), top.name);
        }
        return IGNORED;
      case 'method':
        switch (name) {
          case 'params':
            return { kind: 'params', m: top.m };
          case 'exception':
            top.m.exception ??= {
              type: a['class'] || null,
              message: new TextBuffer(limit),
              stack: new TextBuffer(limit),
            };
            return { kind: 'exception', m: top.m };
          case 'reporter-output':
            return { kind: 'output', m: top.m };
        }
        return IGNORED;
      case 'params':
        return name === 'param' ? { kind: 'param', m: top.m } : IGNORED;
      case 'param':
        if (name !== 'value') return IGNORED;
        if (a['is-null'] === 'true') {
          if (top.m.params.length < MAX_PARAMS) top.m.params.push('null');
          return IGNORED;
        }
        return { kind: 'value', m: top.m, buf: new TextBuffer(MAX_PARAM_CHARS), started: false };
      case 'exception': {
        const ex = top.m.exception!;
        if (name === 'message') return { kind: 'text', buf: ex.message, started: !ex.message.empty };
        if (name === 'full-stacktrace' || name === 'short-stacktrace')
          return { kind: 'text', buf: ex.stack, started: !ex.stack.empty };
        return IGNORED;
      }
      case 'output':
        return name === 'line' ? { kind: 'line', m: top.m, buf: new TextBuffer(limit), started: false } : IGNORED;
    }
    return IGNORED;
  };

  return {
    open(rawName, a) {
      const name = localName(rawName);
      if (!rootSeen) {
        if (name !== 'testng-results')
          throw wrongRootError(`<${rawName}>`, '<testng-results>: this is not a TestNG testng-results.xml file');
        rootSeen = true;
        holdClasses = Number(a['retried'] ?? '0') > 0;
        ctx.setProducer('testng');
        frames.push({ kind: 'root' });
        return;
      }
      frames.open((top) => openChild(top, name, a));
    },

    text(t) {
      const top = frames.top;
      if (!top || (top.kind !== 'text' && top.kind !== 'value' && top.kind !== 'line')) return;
      // The indentation before a CDATA section is layout; skipping it keeps it out of the text limit.
      if (!top.started) {
        t = t.replace(/^\s+/, '');
        if (t === '') return;
        top.started = true;
      }
      top.buf.append(t);
    },

    close() {
      const frame = frames.pop();
      if (!frame) return;
      switch (frame.kind) {
        case 'suite':
          if (frame.cls) closeClass(frame.cls);
          closeSuite(frame.suite);
          return;
        case 'method':
          closeMethod(frame.m);
          return;
        case 'value':
          if (frame.m.params.length < MAX_PARAMS) frame.m.params.push(trimmed(frame.buf));
          return;
        case 'line': {
          // Pretty-printing puts each CDATA line between indentation; the line is what is inside.
          const m = frame.m;
          m.output ??= new TextBuffer(limit);
          if (m.lines++ > 0) m.output.append('\n');
          m.output.append(trimmed(frame.buf));
          return;
        }
      }
    },

    end() {
      if (!rootSeen) throw noRootError('a TestNG testng-results.xml file');
      if (frames.depth > 0) throw unclosedRootError();
    },
  };
}

function methodStatus(raw: string): ContainerStatus {
  switch (raw) {
    case 'PASS':
    case 'SUCCESS_PERCENTAGE_FAILURE':
      return 'passed';
    case 'FAIL':
      return 'failed';
    case 'SKIP':
      return 'skipped';
  }
  return 'unknown';
}

/**
 * A retried run is written as SKIP; TestNG only retries a run that failed, so with its exception it
 * is a failed attempt (which makes a later pass flaky).
 */
function retriedAttempt(m: Method): Attempt {
  const failure = exceptionInfo(m);
  return { status: m.exception ? 'failed' : 'skipped', durationMs: m.durationMs, failure };
}

function exceptionInfo(m: Method): FailureInfo | null {
  const ex = m.exception;
  if (!ex) return null;
  const message = ex.message.empty ? null : trimmed(ex.message) || null;
  const stack = ex.stack.empty ? null : trimmed(ex.stack) || null;
  if (message === null && stack === null && ex.type === null) return null;
  return { message, type: ex.type, stack };
}

/** Retries of one invocation share name, signature (which names the instance) and parameters. */
function retryKey(m: Method): string {
  return `${m.name}\u0000${m.signature}\u0000${m.meta['testInstanceName'] ?? ''}\u0000${m.params.join('\u0001')}`;
}

function methodTitle(m: Method): string {
  if (m.params.length === 0) return m.name;
  // Data-provider rows share the method name; their arguments tell them apart, as in TestNG's reports.
  return `${m.name}(${m.params.join(', ')})`;
}

function groupKey(className: string, method: string): string {
  return `${className}#${method}`;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Element text without the indentation of a pretty-printed file; the cut marker stays. */
function trimmed(buffer: TextBuffer): string {
  return buffer.value().trim();
}
