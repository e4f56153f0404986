/**
 * The Mocha JSON state machine: parseJson events in, containers out. Mocha's `json` reporter writes
 * `stats`, `tests`, `pending`, `failures`, `passes`; the status of a `tests[]` entry is only known
 * once `pending[]` has been read, and a hook failure only once `tests[]` has been read, so this
 * machine keeps a little per test (see "Memory" in README.md) and never the entries themselves.
 */
import { asNonNegative as num, asString as str, capText as cap, FormatError } from '../../lib/formatter/api.js';
import { isRecord as isObject, newContainer, ownCopy as own, parseTimestamp } from '../../lib/formatter/api.js';
import { JsonObjectRoot, splitErrorName, suiteStatus as worst } from '../../lib/formatter/api.js';
import type { ContainerStatus, Emit, FailureInfo, HandlerContext, Instant } from '../../lib/formatter/api.js';
import type { JsonMachine, JsonPath } from '../../lib/formatter/api.js';

/** One `tests[]`/`failures[]` entry, reduced to what a container needs. */
interface Entry {
  title: string;
  fullTitle: string;
  file: string | null;
  durationMs: number | null;
  currentRetry: number;
  failure: FailureInfo | null;
}

interface Waiting {
  entry: Entry;
  id: number;
  parent: Suite | null;
}

interface Suite {
  id: number;
  parentId: number | null;
  title: string;
  file: string | null;
  seen: Set<ContainerStatus>;
  depth: number;
}

const SECTIONS = new Set(['tests', 'pending', 'failures', 'passes']);

export function mochaHandler(ctx: HandlerContext, emit: Emit): JsonMachine {
  const limit = ctx.limits.maxTextChars;
  const root = new JsonObjectRoot(notMocha);
  let start: Instant | null = null;
  const sectionsSeen = new Set<string>();
  let testsDone = false;
  let pendingDone = false;
  /** Every tests[] entry by file and fullTitle: a failures[] entry matching none is a hook. */
  const testKeys = new EntryKeys();
  const pendingKeys = new EntryKeys();
  /** tests[] entries without an error, read before pending[] ended: passed or skipped is not known yet. */
  let undecided: Waiting[] = [];
  /** failures[] entries read before tests[] ended (not Mocha's order, but JSON has no order). */
  let earlyFailures: Entry[] = [];
  const suites = new Map<string, Suite>();

  const suiteFor = (entry: Entry): Suite | null => {
    let parent: Suite | null = null;
    if (entry.file !== null) {
      const key = `f\u0000${entry.file}`;
      parent = suites.get(key) ?? null;
      if (!parent) {
        parent = { id: ctx.nextId(), parentId: null, title: entry.file, file: entry.file, seen: new Set(), depth: 0 };
        suites.set(key, parent);
      }
    }
    const path = describePath(entry);
    if (path === '') return parent;
    const key = `d\u0000${entry.file ?? ''}\u0000${path}`;
    let suite = suites.get(key);
    if (!suite) {
      suite = {
        id: ctx.nextId(),
        parentId: parent?.id ?? null,
        title: path,
        file: entry.file,
        seen: new Set(),
        depth: 1,
      };
      suites.set(key, suite);
    }
    return suite;
  };

  const emitTest = (
    entry: Entry,
    id: number,
    parent: Suite | null,
    status: ContainerStatus,
    synthetic?: string,
  ): void => {
    const meta: Record<string, string> = { fullTitle: entry.fullTitle };
    if (entry.file !== null) meta['file'] = entry.file;
    if (entry.currentRetry > 0) meta['currentRetry'] = String(entry.currentRetry);
    if (synthetic) meta['synthetic'] = synthetic;
    const failure = status === 'failed' || status === 'errored' ? entry.failure : null;
    const { title, durationMs } = entry;
    const container = newContainer({
      id,
      parentId: parent?.id ?? null,
      type: 'test',
      title,
      status,
      durationMs,
      failure,
      meta,
    });
    // Mocha reports only the last run of a retried test; a pass after `currentRetry` retries
    // means earlier runs failed, though the file does not keep them.
    if (status === 'passed' && entry.currentRetry > 0) container.flaky = true;
    parent?.seen.add(status);
    emit(container);
  };

  const onTest = (raw: unknown): void => {
    const entry = readEntry(raw, limit, testKeys);
    if (!entry) return;
    testKeys.add(entry);
    // Take the id and the suite now, so ids follow the file's order whatever waits.
    const parent = suiteFor(entry);
    const id = ctx.nextId();
    if (entry.failure) emitTest(entry, id, parent, 'failed');
    else if (pendingDone) emitTest(entry, id, parent, pendingKeys.has(entry) ? 'skipped' : 'passed');
    else undecided.push({ entry, id, parent });
  };

  const onHookFailure = (entry: Entry): void => {
    const parent = suiteFor(entry);
    // Counting rule 4: a hook that failed is one errored test.
    emitTest(
      { ...entry, failure: entry.failure ?? { message: null, type: null, stack: null } },
      ctx.nextId(),
      parent,
      'errored',
      'hook',
    );
  };

  const onFailure = (raw: unknown): void => {
    const entry = readEntry(raw, limit, testKeys);
    if (!entry) return;
    if (!testsDone) earlyFailures.push(entry);
    else if (!testKeys.has(entry)) onHookFailure(entry);
  };

  const flushUndecided = (): void => {
    const waiting = undecided;
    undecided = [];
    for (const w of waiting) emitTest(w.entry, w.id, w.parent, pendingKeys.has(w.entry) ? 'skipped' : 'passed');
  };

  const flushEarlyFailures = (): void => {
    const waiting = earlyFailures;
    earlyFailures = [];
    for (const e of waiting) if (!testKeys.has(e)) onHookFailure(e);
  };

  return {
    open(path, kind) {
      if (root.opens(path, kind)) {
        ctx.setProducer('mocha');
        return false;
      }
      // One entry at a time, whole: its `err` is the only nested part and belongs to it.
      return path.length === 2 && kind === 'object' && typeof path[1] === 'number' && SECTIONS.has(path[0] as string);
    },

    value(path, v) {
      if (path.length === 2 && path[0] === 'stats' && path[1] === 'start' && typeof v === 'string') {
        start = parseTimestamp(v);
        return;
      }
      if (path.length !== 2 || typeof path[1] !== 'number') return;
      switch (path[0]) {
        case 'tests':
          onTest(v);
          return;
        case 'pending': {
          const entry = readEntry(v, limit, testKeys);
          if (entry) pendingKeys.add(entry);
          return;
        }
        case 'failures':
          onFailure(v);
          return;
      }
    },

    close(path: JsonPath, kind) {
      if (path.length !== 1 || kind !== 'array') return;
      const name = path[0] as string;
      if (SECTIONS.has(name)) sectionsSeen.add(name);
      if (name === 'tests') {
        testsDone = true;
        flushEarlyFailures();
      } else if (name === 'pending') {
        pendingDone = true;
        flushUndecided();
      }
    },

    end() {
      root.end();
      if (!sectionsSeen.has('tests')) throw notMocha('it has no "tests" array');
      testsDone = true;
      pendingDone = true;
      flushEarlyFailures();
      flushUndecided();
      // Children first: describe suites (depth 1) before the file suites that hold them.
      const ordered = [...suites.values()].sort((a, b) => b.depth - a.depth);
      const byId = new Map(ordered.map((s) => [s.id, s]));
      for (const s of ordered) {
        const status = worst(s.seen);
        if (s.parentId !== null) byId.get(s.parentId)?.seen.add(status);
        // Mocha writes one time for the whole run: it dates the top-level suites.
        const startedAt = s.parentId === null ? start : null;
        const meta = s.file !== null ? { file: s.file } : undefined;
        emit(newContainer({ id: s.id, parentId: s.parentId, type: 'suite', title: s.title, status, startedAt, meta }));
      }
      suites.clear();
    },
  };
}

function notMocha(why: string): FormatError {
  return new FormatError(
    `This is not a Mocha JSON report (${why}); send the output of \`mocha --reporter json\` or choose the formatter ` +
      `for its format`,
  );
}

/**
 * Entries by `file`, then `fullTitle`. Per test it holds the `fullTitle` string the entry already
 * has; each file name is held once (`intern`), not once per test.
 */
class EntryKeys {
  private readonly byFile = new Map<string, Set<string>>();
  private readonly names = new Map<string, string>();

  add(e: Entry): void {
    const file = e.file ?? '';
    let titles = this.byFile.get(file);
    if (!titles) this.byFile.set(file, (titles = new Set()));
    titles.add(e.fullTitle);
  }

  has(e: Entry): boolean {
    return this.byFile.get(e.file ?? '')?.has(e.fullTitle) ?? false;
  }

  /** The file name already held, so that equal names share one string. */
  intern(file: string): string {
    let known = this.names.get(file);
    if (known === undefined) this.names.set((known = own(file)), known);
    return known;
  }
}

/**
 * `fullTitle` is the describe titles and the test title joined by spaces; the describe part is what
 * precedes the title.
 */
function describePath(e: Entry): string {
  if (e.fullTitle === e.title) return '';
  if (e.title !== '' && e.fullTitle.endsWith(` ${e.title}`)) return e.fullTitle.slice(0, -(e.title.length + 1)).trim();
  return '';
}

function readEntry(raw: unknown, limit: number, files: EntryKeys): Entry | null {
  if (!isObject(raw)) return null;
  const fullTitle = own(str(raw['fullTitle']) ?? str(raw['title']) ?? '(untitled)');
  let title = str(raw['title']) ?? fullTitle;
  // A slice of fullTitle shares its characters: one copy of the text per waiting test, not two.
  title = fullTitle.endsWith(title) ? fullTitle.slice(fullTitle.length - title.length) : own(title);
  const file = str(raw['file']);
  const duration = raw['duration'];
  const retry = raw['currentRetry'];
  return {
    title,
    fullTitle,
    file: file === null ? null : files.intern(file),
    durationMs: num(duration),
    currentRetry: typeof retry === 'number' && Number.isFinite(retry) ? retry : 0,
    failure: readErr(raw['err'], limit),
  };
}

/** Mocha writes `err: {}` for tests without an error; any key means the test failed. */
function readErr(err: unknown, limit: number): FailureInfo | null {
  if (!isObject(err) || Object.keys(err).length === 0) return null;
  const message = str(err['message']);
  const stack = str(err['stack']);
  // `AssertionError [ERR_ASSERTION]: …` → `AssertionError`, when the error has no name of its own.
  const type = str(err['name']) ?? str(err['code']) ?? splitErrorName(stack ?? message ?? '').type;
  return { message: cap(message, limit), type, stack: cap(stack, limit) };
}
