/**
 * The mochawesome state machine: parseJson events in, containers out, in closing order. It walks
 * the suite trees (`results[]`, or the single `suites` object of mochawesome < 4) and takes one
 * test or hook object at a time; it keeps only the open suites, never the tree.
 */
import { asNonNegative as num, asString as str, capText as cap, fileTitle } from '../../lib/formatter/api.js';
import { FormatError, isRecord as isObject, newContainer, parseTimestamp } from '../../lib/formatter/api.js';
import { JsonObjectRoot, JsonSuiteStack, splitErrorName, suiteStatus as worst } from '../../lib/formatter/api.js';
import type { ContainerStatus, Emit, FailureInfo, HandlerContext, Instant } from '../../lib/formatter/api.js';
import type { JsonMachine, JsonPath, JsonSuite, Property } from '../../lib/formatter/api.js';
import { readContext } from './context.js';

interface OpenSuite extends JsonSuite {
  fullFile: string | null;
  durationMs: number | null;
  seen: Set<ContainerStatus>;
}

const ENTRY_LISTS = new Set(['tests', 'beforeHooks', 'afterHooks']);

export function mochawesomeHandler(ctx: HandlerContext, emit: Emit): JsonMachine {
  const limit = ctx.limits.maxTextChars;
  const stack = new JsonSuiteStack<OpenSuite>();
  const root = new JsonObjectRoot(notMochawesome);
  let treeSeen = false;
  let statsSeen = false;
  let start: Instant | null = null;

  /** The top-level suites are `results[n]` (or, before mochawesome 4, the one `suites` object). */
  const isSuite = (path: JsonPath): boolean =>
    stack.top
      ? stack.isChildSuite(path)
      : (path.length === 2 && path[0] === 'results' && typeof path[1] === 'number') ||
        (path.length === 1 && path[0] === 'suites');

  const closeSuite = (): void => {
    const s = stack.pop()!;
    const status = worst(s.seen);
    stack.top?.seen.add(status);
    // A spec file's root suite has an empty title; the file names it.
    const title =
      s.title ||
      s.file ||
      s.fullFile ||
      (s.parentId === null ? fileTitle(ctx.fileName, ctx.fileName) : '(untitled suite)');
    const meta: Record<string, string> = {};
    if (s.file) meta['file'] = s.file;
    if (s.fullFile) meta['fullFile'] = s.fullFile;
    // mochawesome dates only the run (`stats.start`): it dates the top-level suites.
    const startedAt = s.parentId === null ? start : null;
    const { id, parentId, durationMs } = s;
    emit(newContainer({ id, parentId, type: 'suite', title, status, durationMs, startedAt, meta }));
  };

  const onEntry = (suite: OpenSuite, list: string, raw: unknown): void => {
    if (!isObject(raw)) return;
    const hook = list !== 'tests';
    const failed = raw['state'] === 'failed' || raw['fail'] === true;
    let status: ContainerStatus;
    if (hook) {
      // Counting rule 4: a failed hook is one errored test. Hooks that did not fail are not
      // tests; they are kept (as hooks) only when they carry context, which may name attachments.
      if (failed) status = 'errored';
      else if (raw['context'] === undefined || raw['context'] === null) return;
      else status = raw['state'] === 'passed' || raw['pass'] === true ? 'passed' : 'unknown';
    } else if (failed) status = 'failed';
    else if (raw['state'] === 'passed' || raw['pass'] === true) status = 'passed';
    // `pending` (it.skip) and `skipped` (not run because a hook failed) are both not run; so is
    // an entry without any outcome.
    else status = 'skipped';

    const { properties, refs } = readContext(raw['context'], limit);
    const failure = status === 'failed' || status === 'errored' ? readErr(raw['err'], limit, properties) : null;
    const meta: Record<string, string> = {};
    const fullTitle = str(raw['fullTitle']);
    if (fullTitle !== null) meta['fullTitle'] = fullTitle.trim();
    if (raw['timedOut'] === true) meta['timedOut'] = 'true';
    if (raw['pending'] === true) meta['pending'] = 'true';
    if (raw['skipped'] === true) meta['skipped'] = 'true';
    if (hook) meta['hook'] = list === 'beforeHooks' ? 'before' : 'after';
    if (hook && status === 'errored') meta['synthetic'] = 'hook';
    const uuid = str(raw['uuid']);
    if (uuid !== null) meta['uuid'] = uuid;
    const container = newContainer({
      id: ctx.nextId(),
      parentId: suite.id,
      type: hook && status !== 'errored' ? 'hook' : 'test',
      title: str(raw['title']) ?? fullTitle ?? '(untitled)',
      status,
      durationMs: num(raw['duration']),
      failure,
      properties,
      attachmentRefs: refs,
      meta,
    });
    if (container.type === 'test') suite.seen.add(status);
    emit(container);
  };

  return {
    open(path, kind) {
      if (root.opens(path, kind)) {
        ctx.setProducer('mochawesome');
        return false;
      }
      if (kind === 'object' && isSuite(path)) {
        treeSeen = true;
        stack.open(path, ctx.nextId(), { fullFile: null, durationMs: null, seen: new Set() });
        return false;
      }
      const top = stack.top;
      // One test or hook at a time, whole: its `err` and `context` belong to it.
      return (
        kind === 'object' &&
        top !== undefined &&
        path.length === top.depth + 2 &&
        ENTRY_LISTS.has(path[top.depth] as string) &&
        typeof path[top.depth + 1] === 'number'
      );
    },

    value(path, v) {
      if (path[0] === 'stats' && path.length === 2) {
        statsSeen = true;
        if (path[1] === 'start' && typeof v === 'string') start = parseTimestamp(v);
        return;
      }
      const top = stack.top;
      if (!top) return;
      if (path.length === top.depth + 2 && ENTRY_LISTS.has(path[top.depth] as string)) {
        onEntry(top, path[top.depth] as string, v);
        return;
      }
      switch (stack.ownKey(path, v)) {
        case 'fullFile':
          if (typeof v === 'string' && v !== '') top.fullFile = v;
          return;
        case 'duration':
          top.durationMs = num(v);
          return;
      }
    },

    close(path, kind) {
      if (stack.closes(path, kind)) closeSuite();
    },

    end() {
      root.end();
      // `results: [false]` (nothing ran) has stats and no tree: zero tests, not an error.
      if (!treeSeen && !statsSeen) throw notMochawesome('it has neither "stats" nor a "results"/"suites" tree');
    },
  };
}

function notMochawesome(why: string): FormatError {
  return new FormatError(
    `This is not a mochawesome JSON report (${why}); send mochawesome's .json output or choose the formatter for ` +
      `its format`,
  );
}

/** `err` is `{}` on tests that passed; `message` is `"<ErrorName>: <text>"`, `estack` the stack. */
function readErr(err: unknown, limit: number, properties: Property[]): FailureInfo | null {
  if (!isObject(err) || Object.keys(err).length === 0) return null;
  const stack = str(err['estack']) ?? str(err['stack']);
  // Older mochawesome kept should.js's text in `_message`, or only the stack.
  const message = str(err['message']) ?? str(err['_message']) ?? messageFromStack(stack);
  const diff = str(err['diff']);
  if (diff) properties.push({ name: 'diff', value: cap(diff, limit)! });
  const type = splitErrorName(stack ?? message ?? '').type;
  return { message: cap(message, limit), type, stack: cap(stack, limit) };
}

/** `ReferenceError: a is not defined\n    at …` → `a is not defined`. */
function messageFromStack(stack: string | null): string | null {
  if (stack === null) return null;
  return splitErrorName(stack.split(/\n\s+at /)[0]!.trim()).message || null;
}
