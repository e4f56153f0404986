/**
 * The Robot Framework state machine: SAX events of `output.xml` (RF 2.x–7) in, containers out.
 *
 * A failed suite teardown turns every PASS test of that suite and its sub-suites into a failure,
 * and a suite's teardown comes after its tests. A container cannot be changed once emitted, so
 * PASS tests are held until the top-level suite closes (any ancestor's teardown may still fail);
 * a suite is held with them when its subtree holds any, so children still come before parents.
 * Held per PASS test: its finished container (title, times, tags, attachment refs; no failure
 * text, no output, since a PASS test has none). Everything else is emitted as soon as it closes:
 * failed and skipped tests (their status cannot change), steps and hooks. Keywords nested below a
 * test's own body items are read for their messages only.
 */
import { ElementStack, fileTitle, localName, newContainer, noRootError, Stack } from '../../lib/formatter/api.js';
import { TextBuffer, unclosedRootError, wrongRootError } from '../../lib/formatter/api.js';
import type { Container, ContainerStatus, Emit, FailureInfo, HandlerContext } from '../../lib/formatter/api.js';
import type { Property, Timing, XmlMachine } from '../../lib/formatter/api.js';
import { HtmlRefScanner, screenshotNames } from './attachments.js';
import { robotStatus, robotTiming } from './values.js';

type Attrs = Record<string, string>;

interface Status {
  value: ContainerStatus;
  timing: Timing;
  message: TextBuffer;
  started: boolean;
}

/** A suite or a test: the scopes that collect tags, metadata and attachment references. */
interface Scope {
  kind: 'suite' | 'test';
  id: number;
  parentId: number | null;
  title: string;
  meta: Record<string, string>;
  properties: Property[];
  refs: string[];
  status: Status | null;
  /** Suite: the message of its failed teardown, once read. */
  teardownFailure: string | null;
  /** Suite: where its subtree starts in `held`. */
  mark: number;
}

/** A step or hook that becomes a container of its own. */
interface Item {
  id: number;
  parentId: number;
  type: 'step' | 'hook';
  title: string;
  status: Status | null;
  /** The teardown of this suite, whose failure fails the suite's PASS tests. */
  teardownOf: Scope | null;
  /** The first FAIL-level message inside: RF ≤ 3 leave a keyword's status text empty. */
  failMessage: TextBuffer | null;
}

type Frame =
  | { kind: 'root' }
  | { kind: 'scope'; scope: Scope }
  | { kind: 'item'; item: Item }
  | { kind: 'body' }
  | { kind: 'status'; status: Status }
  | { kind: 'msg'; html: HtmlRefScanner | null; plain: TextBuffer | null; scope: Scope; fail: TextBuffer | null }
  | { kind: 'tags'; scope: Scope }
  | { kind: 'tag'; scope: Scope; buf: TextBuffer }
  | { kind: 'metadata'; scope: Scope }
  | { kind: 'meta'; scope: Scope; name: string; buf: TextBuffer }
  | { kind: 'ignored' };

/** Elements that make up a test or keyword body, across RF versions (RF ≤ 3 only has `kw`). */
const BODY = new Set([
  'kw',
  'for',
  'iter',
  'if',
  'branch',
  'try',
  'while',
  'group',
  'variable',
  'error',
  'return',
  'break',
  'continue',
  'setup',
  'teardown',
]);
const IGNORED: Frame = { kind: 'ignored' };
const BODY_FRAME: Frame = { kind: 'body' };
/** Screenshot names are looked for in the start of plain-text messages only. */
const PLAIN_SCAN_CHARS = 4096;
const MAX_REFS_PER_SCOPE = 1000;
const MAX_TAG_CHARS = 1000;

export function robotHandler(ctx: HandlerContext, emit: Emit): XmlMachine {
  const limit = ctx.limits.maxTextChars;
  const frames = new ElementStack<Frame>(IGNORED);
  const scopes = new Stack<Scope>();
  /** PASS tests (and the suites above them) waiting for every ancestor's teardown. */
  const held: Container[] = [];
  /** The open step or hook; items never nest (deeper keywords are read as plain body). */
  let item: Item | null = null;
  let rootSeen = false;

  const openScope = (kind: 'suite' | 'test', a: Attrs): Scope => {
    const parent = scopes.top ?? null;
    const meta: Record<string, string> = {};
    if (a['id']) meta['id'] = a['id'];
    if (kind === 'suite' && a['source']) meta['source'] = a['source'];
    if (kind === 'test' && a['line']) meta['line'] = a['line'];
    const scope: Scope = {
      kind,
      id: ctx.nextId(),
      parentId: parent ? parent.id : null,
      title:
        a['name'] ||
        (kind === 'suite' && parent === null ? fileTitle(ctx.fileName, '(unnamed suite)') : `(unnamed ${kind})`),
      meta,
      properties: [],
      refs: [],
      status: null,
      teardownFailure: null,
      mark: held.length,
    };
    scopes.push(scope);
    return scope;
  };

  const addRef = (scope: Scope, ref: string): void => {
    if (scope.refs.length < MAX_REFS_PER_SCOPE && !scope.refs.includes(ref)) scope.refs.push(ref);
  };

  const closeTest = (scope: Scope): void => {
    scopes.pop();
    const c = scopeContainer(scope, 'test');
    // RF ≤ 3.2: a failing non-critical test did not fail the run; the counting rules still count it.
    if (scope.status?.value === 'passed') held.push(c);
    else emit(c);
  };

  const closeSuite = (scope: Scope): void => {
    scopes.pop();
    const c = scopeContainer(scope, 'suite');
    if (scope.teardownFailure !== null) {
      // Old outputs leave the keyword's status empty; the suite's own status repeats the message.
      const why = scope.teardownFailure || (c.failure?.message ?? '').replace(/^Suite teardown failed:\s*/, '');
      const failure: FailureInfo = { message: `Parent suite teardown failed:\n${why}`, type: null, stack: null };
      for (let i = scope.mark; i < held.length; i++) {
        const t = held[i]!;
        // A test failed by an inner suite's teardown already says so.
        if (t.type === 'test' && t.status === 'passed') {
          t.status = 'failed';
          t.failure = failure;
        }
      }
    }
    if (scopes.depth === 0) {
      for (const h of held) emit(h);
      held.length = 0;
      emit(c);
    } else if (held.length > scope.mark) held.push(c);
    else emit(c);
  };

  const closeItem = (item: Item): void => {
    const status = item.status;
    const value = status?.value ?? 'unknown';
    const message =
      (status ? messageOf(status) : null) ??
      (item.failMessage && !item.failMessage.empty ? item.failMessage.value().trim() : null);
    if (item.teardownOf && value === 'failed') item.teardownOf.teardownFailure = message ?? '';
    emit(statusContainer(item, status, message));
  };

  const openItem = (parent: Scope, type: 'step' | 'hook', name: string, a: Attrs): Frame => {
    const teardown = type === 'hook' && parent.kind === 'suite' && hookKind(name, a) === 'teardown';
    item = {
      id: ctx.nextId(),
      parentId: parent.id,
      type,
      title: itemTitle(name, a),
      status: null,
      teardownOf: teardown ? parent : null,
      failMessage: null,
    };
    return { kind: 'item', item };
  };

  const openStatus = (a: Attrs): Status => ({
    value: robotStatus(a['status']),
    timing: robotTiming(a),
    message: new TextBuffer(limit),
    started: false,
  });

  const openMsg = (a: Attrs): Frame => {
    const scope = scopes.top;
    if (!scope) return IGNORED;
    const html = a['html'] === 'true' || a['html'] === 'yes';
    let fail: TextBuffer | null = null;
    if (item && item.failMessage === null && a['level'] === 'FAIL') fail = item.failMessage = new TextBuffer(limit);
    return {
      kind: 'msg',
      html: html ? new HtmlRefScanner((ref) => addRef(scope, ref)) : null,
      plain: html ? null : new TextBuffer(PLAIN_SCAN_CHARS),
      scope,
      fail,
    };
  };

  const openChild = (top: Frame, name: string, a: Attrs): Frame => {
    switch (top.kind) {
      case 'root':
        return name === 'suite' ? { kind: 'scope', scope: openScope('suite', a) } : IGNORED;
      case 'scope': {
        const scope = top.scope;
        if (name === 'status') return { kind: 'status', status: (scope.status = openStatus(a)) };
        if (scope.kind === 'suite') {
          if (name === 'suite') return { kind: 'scope', scope: openScope('suite', a) };
          if (name === 'test') return { kind: 'scope', scope: openScope('test', a) };
          if (hookKind(name, a) !== null) return openItem(scope, 'hook', name, a);
          if (name === 'meta') return { kind: 'meta', scope, name: a['name'] ?? '', buf: new TextBuffer(limit) };
          if (name === 'metadata') return { kind: 'metadata', scope };
          return BODY.has(name) ? BODY_FRAME : IGNORED;
        }
        if (hookKind(name, a) !== null) return openItem(scope, 'hook', name, a);
        if (BODY.has(name)) return openItem(scope, 'step', name, a);
        if (name === 'tag') return { kind: 'tag', scope, buf: new TextBuffer(MAX_TAG_CHARS) };
        if (name === 'tags') return { kind: 'tags', scope };
        if (name === 'msg') return openMsg(a);
        return IGNORED;
      }
      case 'item':
        if (name === 'status') return { kind: 'status', status: (top.item.status = openStatus(a)) };
      // falls through: the rest of an item's content is read like any nested body
      case 'body':
        if (name === 'msg') return openMsg(a);
        return BODY.has(name) ? BODY_FRAME : IGNORED;
      case 'tags':
        return name === 'tag' ? { kind: 'tag', scope: top.scope, buf: new TextBuffer(MAX_TAG_CHARS) } : IGNORED;
      case 'metadata':
        return name === 'item'
          ? { kind: 'meta', scope: top.scope, name: a['name'] ?? '', buf: new TextBuffer(limit) }
          : IGNORED;
    }
    return IGNORED;
  };

  return {
    open(rawName, a) {
      const name = localName(rawName);
      if (!rootSeen) {
        if (name !== 'robot')
          throw wrongRootError(
            `<${rawName}>`,
            "<robot>: this is not a Robot Framework output.xml file (Robot's --xunit output is JUnit XML)",
          );
        rootSeen = true;
        ctx.setProducer(/^\s*rebot\b/i.test(a['generator'] ?? '') ? 'rebot' : 'robotframework');
        frames.push({ kind: 'root' });
        return;
      }
      frames.open((top) => openChild(top, name, a));
    },

    text(t) {
      const top = frames.top;
      if (!top) return;
      switch (top.kind) {
        case 'status':
          if (!top.status.started) {
            t = t.replace(/^\s+/, '');
            if (t === '') return;
            top.status.started = true;
          }
          top.status.message.append(t);
          return;
        case 'msg':
          if (top.html) top.html.push(t);
          else top.plain?.append(t);
          top.fail?.append(t);
          return;
        case 'tag':
        case 'meta':
          top.buf.append(t);
          return;
      }
    },

    close() {
      const frame = frames.pop();
      if (!frame) return;
      switch (frame.kind) {
        case 'scope':
          if (frame.scope.kind === 'test') closeTest(frame.scope);
          else closeSuite(frame.scope);
          return;
        case 'item':
          item = null;
          closeItem(frame.item);
          return;
        case 'msg':
          if (frame.plain) for (const ref of screenshotNames(frame.plain.value())) addRef(frame.scope, ref);
          return;
        case 'tag': {
          const value = frame.buf.value().trim();
          if (value) frame.scope.properties.push({ name: 'tag', value });
          return;
        }
        case 'meta':
          if (frame.name) frame.scope.properties.push({ name: frame.name, value: frame.buf.value().trim() });
          return;
      }
    },

    end() {
      if (!rootSeen) throw noRootError('a Robot Framework output.xml file');
      if (frames.depth > 0)
        throw unclosedRootError('the output looks truncated (Robot writes output.xml as it runs: was the run killed?)');
    },
  };
}

function scopeContainer(scope: Scope, type: 'suite' | 'test'): Container {
  const { properties, refs, meta } = scope;
  const status = scope.status;
  return statusContainer({ ...scope, type }, status, status ? messageOf(status) : null, properties, refs, meta);
}

/** A suite, test, step or hook from its `<status>`: its message is the failure (Robot writes no stacks). */
function statusContainer(
  of: Pick<Container, 'id' | 'parentId' | 'type' | 'title'>,
  status: Status | null,
  message: string | null,
  properties: Property[] = [],
  attachmentRefs: string[] = [],
  meta?: Record<string, string>,
): Container {
  const value = status?.value ?? 'unknown';
  const failure = value === 'passed' || message === null ? null : { message, type: null, stack: null };
  // Field by field, not a spread: this runs once per container, and a spread copies the whole record.
  const timing = status?.timing;
  return newContainer({
    id: of.id,
    parentId: of.parentId,
    type: of.type,
    title: of.title,
    status: value,
    durationMs: timing?.durationMs,
    startedAt: timing?.startedAt,
    failure,
    properties,
    attachmentRefs,
    meta,
  });
}

/** The status text is the failure or skip message; Robot writes no stack traces there. */
function messageOf(status: Status): string | null {
  if (status.message.empty) return null;
  const text = status.message.value().trimEnd();
  return text === '' ? null : text;
}

/** `setup`/`teardown` for suite and test fixtures: `<kw type="…">` (any case) or an element of that name. */
function hookKind(name: string, a: Attrs): 'setup' | 'teardown' | null {
  if (name === 'setup' || name === 'teardown') return name;
  if (name !== 'kw') return null;
  const type = (a['type'] ?? '').toLowerCase();
  return type === 'setup' || type === 'teardown' ? type : null;
}

function itemTitle(name: string, a: Attrs): string {
  if (name === 'kw' || name === 'setup' || name === 'teardown') {
    const kw = a['name'] ?? '';
    // RF 4–6 write `library`, RF 7 `owner`; RF ≤ 3 already prefix the name (`BuiltIn.Log`).
    const owner = a['owner'] ?? a['library'];
    if (kw && owner && !kw.startsWith(`${owner}.`)) return `${owner}.${kw}`;
    return kw || (a['type'] ?? name).toUpperCase();
  }
  const detail = a['name'] ?? a['condition'] ?? a['flavor'];
  return detail ? `${name.toUpperCase()} ${detail}` : name.toUpperCase();
}
