/**
 * The Jest/Vitest JSON state machine: parseJson events in, containers out, in closing order. Each
 * `testResults[]` entry (one test file) is walked, not taken whole; its `assertionResults[]` come
 * one at a time. Held per file: its scalars, its describe suites and a capped `message`.
 */
import { stripVTControlCharacters } from 'node:util';
import { asNonNegative as num, asString as str, capText as cap, erroredTest } from '../../lib/formatter/api.js';
import { FormatError, fromEpochMs, isRecord as isObject, newContainer } from '../../lib/formatter/api.js';
import { firstProducer, JsonObjectRoot, suiteStatus as worst, TextBuffer } from '../../lib/formatter/api.js';
import type { Attempt, ContainerStatus, Emit, FailureInfo, HandlerContext } from '../../lib/formatter/api.js';
import type { JsonMachine } from '../../lib/formatter/api.js';
import { failureFromMessages } from './failure.js';

interface Describe {
  id: number;
  parentId: number;
  title: string;
  depth: number;
  seen: Set<ContainerStatus>;
}

interface OpenFile {
  id: number;
  name: string | null;
  status: string | null;
  message: TextBuffer;
  execError: FailureInfo | null;
  startTime: number | null;
  endTime: number | null;
  assertions: number;
  /** Describe suites of this file by their ancestor path; emitted when the file closes. */
  describes: Map<string, Describe>;
  seen: Set<ContainerStatus>;
}

const STATUS: Record<string, ContainerStatus> = {
  passed: 'passed',
  failed: 'failed',
  pending: 'skipped',
  skipped: 'skipped',
  disabled: 'skipped',
  // A todo was never written, not skipped: Tally keeps the difference, the totals count it as skipped.
  todo: 'pending',
};

export function jestHandler(ctx: HandlerContext, emit: Emit): JsonMachine {
  const limit = ctx.limits.maxTextChars;
  const root = new JsonObjectRoot(notJest);
  let resultsSeen = false;
  let file: OpenFile | null = null;
  const guess = firstProducer(ctx);

  /** The innermost describe suite of an assertion, created on first use; null for a test at file level. */
  const describeFor = (f: OpenFile, ancestors: string[]): Describe | null => {
    let node: Describe | null = null;
    let key = '';
    ancestors.forEach((title, depth) => {
      key += `\u0000${title}`;
      let d = f.describes.get(key);
      if (!d) {
        d = { id: ctx.nextId(), parentId: node?.id ?? f.id, title, depth, seen: new Set() };
        f.describes.set(key, d);
      }
      node = d;
    });
    return node;
  };

  const onAssertion = (f: OpenFile, raw: unknown): void => {
    if (!isObject(raw)) return;
    f.assertions++;
    // Vitest's reporter adds `meta` to every assertion result; Jest never writes it.
    guess('meta' in raw ? 'vitest' : 'jest');
    const ancestors = Array.isArray(raw['ancestorTitles'])
      ? raw['ancestorTitles'].filter((a): a is string => typeof a === 'string')
      : [];
    const describe = describeFor(f, ancestors);
    const rawStatus = str(raw['status']) ?? '';
    const status = STATUS[rawStatus] ?? 'unknown';
    const messages = Array.isArray(raw['failureMessages'])
      ? raw['failureMessages'].filter((m): m is string => typeof m === 'string')
      : [];
    const meta: Record<string, string> = {};
    const fullName = str(raw['fullName']);
    if (fullName !== null) meta['fullName'] = fullName;
    if (!(rawStatus in STATUS)) meta['status'] = rawStatus;
    const location = raw['location'];
    if (isObject(location)) {
      if (typeof location['line'] === 'number') meta['line'] = String(location['line']);
      if (typeof location['column'] === 'number') meta['column'] = String(location['column']);
    }
    const invocations = raw['invocations'];
    if (typeof invocations === 'number' && invocations > 1) meta['invocations'] = String(invocations);
    const container = newContainer({
      id: ctx.nextId(),
      parentId: describe?.id ?? f.id,
      type: 'test',
      title: str(raw['title']) ?? fullName ?? '(untitled)',
      status,
      durationMs: num(raw['duration']),
      startedAt: fromEpochMs(num(raw['startAt'])),
      failure: status === 'failed' || messages.length > 0 ? failureFromMessages(messages, limit) : null,
      meta,
    });
    // jest.retryTimes: one result with the failures of the earlier runs in `retryReasons`.
    const reasons = Array.isArray(raw['retryReasons'])
      ? raw['retryReasons'].filter((m): m is string => typeof m === 'string')
      : [];
    if (reasons.length > 0) {
      const earlier: Attempt[] = reasons.map((r) => ({
        status: 'failed',
        durationMs: null,
        failure: failureFromMessages([r], limit),
      }));
      container.attempts = [...earlier, { status, durationMs: container.durationMs, failure: container.failure }];
      container.flaky = status === 'passed';
    }
    (describe ?? f).seen.add(status);
    emit(container);
  };

  const closeFile = (f: OpenFile): void => {
    // Counting rule 4: a test file that failed to run (syntax error, missing module) has no
    // assertion results; it is one errored test.
    if (f.assertions === 0 && (f.status === 'failed' || f.execError !== null)) {
      const message = f.message.empty ? null : stripVTControlCharacters(f.message.value());
      const failure = f.execError ?? (message === null ? null : failureFromMessages([message], limit));
      const [title, meta] = ['Test suite failed to run', { synthetic: 'file-error' }];
      emit(erroredTest({ id: ctx.nextId(), parentId: f.id, title, failure, meta }));
      f.seen.add('errored');
    }
    // Deepest describe first, so every suite follows its children.
    const describes = [...f.describes.values()].sort((a, b) => b.depth - a.depth);
    const byId = new Map(describes.map((d) => [d.id, d]));
    for (const d of describes) {
      const status = worst(d.seen);
      (byId.get(d.parentId) ?? f).seen.add(status);
      emit(newContainer({ id: d.id, parentId: d.parentId, type: 'suite', title: d.title, status }));
    }
    const started = fromEpochMs(f.startTime);
    const ended = fromEpochMs(f.endTime);
    const duration = started && ended && f.endTime! >= f.startTime! ? f.endTime! - f.startTime! : null;
    let status = worst(f.seen);
    let failure: FailureInfo | null = null;
    // A failed file whose tests all passed failed outside them (an afterAll that threw): the
    // error stays on the file, as Jest shows it. Otherwise `message` only repeats the test failures.
    if (f.assertions > 0 && f.status === 'failed' && !f.seen.has('failed') && !f.seen.has('errored')) {
      failure = f.execError ?? failureFromMessages([f.message.value()], limit);
      status = 'errored';
    }
    const title = f.name ?? '(unnamed test file)';
    const meta = f.name !== null ? { file: f.name } : undefined;
    emit(
      newContainer({
        id: f.id,
        parentId: null,
        type: 'suite',
        title,
        status,
        durationMs: duration,
        startedAt: started?.iso,
        failure,
        meta,
      }),
    );
  };

  return {
    open(path, kind) {
      if (root.opens(path, kind)) return false;
      if (path[0] !== 'testResults') return false;
      if (path.length === 1) {
        resultsSeen = kind === 'array';
        return false;
      }
      if (path.length === 2 && kind === 'object') {
        file = {
          id: ctx.nextId(),
          name: null,
          status: null,
          message: new TextBuffer(limit),
          execError: null,
          startTime: null,
          endTime: null,
          assertions: 0,
          describes: new Map(),
          seen: new Set(),
        };
        return false;
      }
      // One assertion result at a time; a file's own exec error is small.
      if (path.length === 4 && path[2] === 'assertionResults' && kind === 'object') return true;
      return path.length === 3 && path[2] === 'testExecError' && kind === 'object';
    },

    value(path, v) {
      if (path[0] !== 'testResults' || !file) return;
      if (path.length === 4 && path[2] === 'assertionResults') {
        onAssertion(file, v);
        return;
      }
      if (path.length !== 3) return;
      switch (path[2]) {
        case 'name':
          file.name = str(v);
          return;
        case 'status':
          file.status = str(v);
          return;
        case 'message':
        case 'failureMessage':
          if (typeof v === 'string' && v !== '' && file.message.empty) file.message.append(v);
          return;
        case 'startTime':
          file.startTime = num(v);
          return;
        case 'endTime':
          file.endTime = num(v);
          return;
        case 'testExecError':
          if (isObject(v)) {
            const message = str(v['message']);
            const stack = str(v['stack']);
            const type = str(v['type']) ?? str(v['name']);
            file.execError = {
              message: message === null ? null : cap(stripVTControlCharacters(message), limit),
              type,
              stack: stack === null ? null : cap(stripVTControlCharacters(stack), limit),
            };
          }
          return;
      }
    },

    close(path, kind) {
      if (path.length === 2 && path[0] === 'testResults' && kind === 'object' && file) {
        const f = file;
        file = null;
        closeFile(f);
      }
    },

    end() {
      root.end();
      if (!resultsSeen) throw notJest('it has no "testResults" array');
      guess('jest');
    },
  };
}

function notJest(why: string): FormatError {
  return new FormatError(
    `This is not a Jest/Vitest JSON report (${why}); send the output of \`jest --json\` or \`vitest ` +
      `--reporter=json\`, or choose the formatter for its format`,
  );
}
