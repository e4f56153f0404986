/**
 * The Playwright JSON state machine: parseJson events in, containers out, in closing order. The
 * suite tree is walked (files, then describe blocks); each spec is taken whole, one at a time, and
 * gives one test per project (`specs[].tests[]`), whose `results[]` are its attempts.
 */
import { asNonNegative as num, asString as str, capText as cap, erroredTest } from '../../lib/formatter/api.js';
import { errorFailure, FormatError, isRecord as isObject, newContainer, TextBuffer } from '../../lib/formatter/api.js';
import { JsonObjectRoot, JsonSuiteStack, parseTimestamp, suiteStatus as worst } from '../../lib/formatter/api.js';
import type { Attempt, Container, ContainerStatus, Emit, FailureInfo } from '../../lib/formatter/api.js';
import type { HandlerContext, Instant, JsonMachine, JsonSuite, Property } from '../../lib/formatter/api.js';

interface OpenSuite extends JsonSuite {
  line: number | null;
  seen: Set<ContainerStatus>;
  /** Earliest start among the tests below: the JSON gives suites no time of their own. */
  startedAt: string | null;
}

/** One attempt (`results[].status`): `timedOut` is a failure; `interrupted` never finished. */
const ATTEMPT: Record<string, ContainerStatus> = {
  passed: 'passed',
  failed: 'failed',
  timedOut: 'failed',
  skipped: 'skipped',
  interrupted: 'unknown',
};

export function playwrightHandler(ctx: HandlerContext, emit: Emit): JsonMachine {
  const limit = ctx.limits.maxTextChars;
  const stack = new JsonSuiteStack<OpenSuite>();
  const root = new JsonObjectRoot(notPlaywright);
  let suitesSeen = false;
  let runErrors = 0;

  const closeSuite = (): void => {
    const s = stack.pop()!;
    const status = worst(s.seen);
    const parent = stack.top;
    if (parent) {
      parent.seen.add(status);
      if (s.startedAt && (!parent.startedAt || s.startedAt < parent.startedAt)) parent.startedAt = s.startedAt;
    }
    const meta: Record<string, string> = {};
    if (s.file) meta['file'] = s.file;
    if (s.line !== null) meta['line'] = String(s.line);
    const title = s.title || s.file || '(untitled suite)';
    emit(newContainer({ id: s.id, parentId: s.parentId, type: 'suite', title, status, startedAt: s.startedAt, meta }));
  };

  const onSpec = (suite: OpenSuite, spec: unknown): void => {
    if (!isObject(spec) || !Array.isArray(spec['tests'])) return;
    for (const test of spec['tests']) {
      if (!isObject(test)) continue;
      const container = readTest(spec, test, suite.id, ctx.nextId(), limit);
      suite.seen.add(container.status);
      if (container.startedAt && (!suite.startedAt || container.startedAt < suite.startedAt))
        suite.startedAt = container.startedAt;
      emit(container);
    }
  };

  const onRunError = (raw: unknown): void => {
    if (!isObject(raw)) return;
    runErrors++;
    const failure = readError(raw, limit);
    const firstLine = failure?.message
      ?.split('\n')
      .find((l) => l.trim() !== '')
      ?.trim()
      .slice(0, 200);
    const meta: Record<string, string> = { synthetic: 'run-error' };
    const location = raw['location'];
    if (isObject(location) && typeof location['file'] === 'string') {
      meta['file'] = location['file'];
      if (typeof location['line'] === 'number') meta['line'] = String(location['line']);
    }
    // Counting rule 4: an error outside any test (global setup, a file that failed to load) is one errored test.
    const title = firstLine || `Error outside any test #${runErrors}`;
    emit(erroredTest({ id: ctx.nextId(), parentId: null, title, failure, meta }));
  };

  return {
    open(path, kind) {
      if (root.opens(path, kind)) {
        ctx.setProducer('playwright');
        return false;
      }
      if (path.length === 1 && path[0] === 'suites' && kind === 'array') suitesSeen = true;
      if (kind === 'object' && stack.isChildSuite(path)) {
        stack.open(path, ctx.nextId(), { line: null, seen: new Set(), startedAt: null });
        return false;
      }
      const top = stack.top;
      // A spec whole: its title may follow its tests, and its tests are what is kept of it.
      if (top && kind === 'object' && path.length === top.depth + 2 && path[top.depth] === 'specs') return true;
      return !top && kind === 'object' && path.length === 2 && path[0] === 'errors';
    },

    value(path, v) {
      const top = stack.top;
      if (!top) {
        if (path.length === 2 && path[0] === 'errors') onRunError(v);
        return;
      }
      if (path.length === top.depth + 2 && path[top.depth] === 'specs') {
        onSpec(top, v);
        return;
      }
      if (stack.ownKey(path, v) === 'line' && typeof v === 'number') top.line = v;
    },

    close(path, kind) {
      if (stack.closes(path, kind)) closeSuite();
    },

    end() {
      root.end();
      if (!suitesSeen) throw notPlaywright('it has no "suites" array');
    },
  };
}

function readTest(
  spec: Record<string, unknown>,
  test: Record<string, unknown>,
  parentId: number,
  id: number,
  limit: number,
): Container {
  const results = Array.isArray(test['results']) ? test['results'].filter(isObject) : [];
  const attempts: Attempt[] = results.map((r) => ({
    status: ATTEMPT[str(r['status']) ?? ''] ?? 'unknown',
    durationMs: num(r['duration']),
    failure: readError(r, limit),
  }));
  const last = attempts[attempts.length - 1];
  const expectedStatus = str(test['expectedStatus']);
  let status: ContainerStatus;
  switch (str(test['status'])) {
    case 'expected':
      status = expectedStatus === 'skipped' ? 'skipped' : 'passed';
      break;
    case 'flaky':
      status = 'passed';
      break;
    case 'unexpected':
      status = 'failed';
      break;
    case 'skipped':
      status = 'skipped';
      break;
    default:
      // Without the summary status (a report cut short), the last attempt decides.
      status = last?.status === 'unknown' || !last ? 'unknown' : last.status;
  }
  const failedAttempt = [...attempts].reverse().find((a) => a.failure !== null);
  const failure = status === 'failed' ? (failedAttempt?.failure ?? null) : null;

  const stdout = new TextBuffer(limit);
  const stderr = new TextBuffer(limit);
  const refs: string[] = [];
  let startedAt: Instant | null = null;
  for (const r of results) {
    appendOutput(stdout, r['stdout']);
    appendOutput(stderr, r['stderr']);
    if (Array.isArray(r['attachments'])) {
      for (const a of r['attachments']) {
        // `body` attachments are inline content, not a file Tally could match.
        const p = isObject(a) ? str(a['path']) : null;
        if (p && !refs.includes(p)) refs.push(p);
      }
    }
    const t = parseTimestamp(str(r['startTime']) ?? undefined);
    if (t && (startedAt === null || t.iso < startedAt.iso)) startedAt = t;
  }

  const properties: Property[] = [];
  if (Array.isArray(spec['tags']))
    for (const tag of spec['tags']) if (typeof tag === 'string') properties.push({ name: 'tag', value: tag });
  if (Array.isArray(test['annotations'])) {
    for (const a of test['annotations']) {
      if (isObject(a) && typeof a['type'] === 'string')
        properties.push({ name: a['type'], value: cap(str(a['description']) ?? '', limit) });
    }
  }

  const project = str(test['projectName']) ?? str(test['projectId']) ?? '';
  const title = str(spec['title']) ?? '(untitled)';
  const meta: Record<string, string> = {};
  if (project) meta['project'] = project;
  const file = str(spec['file']);
  if (file) meta['file'] = file;
  if (typeof spec['line'] === 'number') meta['line'] = String(spec['line']);
  if (typeof spec['column'] === 'number') meta['column'] = String(spec['column']);
  const specId = str(spec['id']);
  if (specId) meta['specId'] = specId;
  if (expectedStatus && expectedStatus !== 'passed') meta['expectedStatus'] = expectedStatus;

  const container = newContainer({
    id,
    parentId,
    type: 'test',
    // The same spec runs once per project; the project keeps the titles apart, as Playwright's own `[chromium]` does.
    title: project ? `${title} [${project}]` : title,
    status,
    durationMs: last?.durationMs ?? null,
    startedAt,
    failure,
    stdout: stdout.empty ? null : stdout.value(),
    stderr: stderr.empty ? null : stderr.value(),
    properties,
    attachmentRefs: refs,
    meta,
  });
  if (attempts.length > 1) {
    container.attempts = attempts;
    // Flaky: a failed attempt before the one that passed (Playwright's own `flaky`).
    const passedAt = attempts.findIndex((a) => a.status === 'passed');
    container.flaky =
      status === 'passed' &&
      passedAt > 0 &&
      attempts.slice(0, passedAt).some((a) => a.status === 'failed' || a.status === 'errored');
  } else if (str(test['status']) === 'flaky') container.flaky = true;
  return container;
}

/** `error` (newer: also `errors[]`) of one attempt, or a run-level error entry. */
function readError(r: Record<string, unknown>, limit: number): FailureInfo | null {
  const e = isObject(r['error'])
    ? r['error']
    : Array.isArray(r['errors']) && isObject(r['errors'][0])
      ? r['errors'][0]
      : 'message' in r || 'stack' in r
        ? r
        : null;
  if (!e) return null;
  return errorFailure(str(e['message']), str(e['stack']), limit);
}

/** stdout/stderr entries are `{ text }` or `{ buffer }` (base64 of bytes that were not text). */
function appendOutput(into: TextBuffer, entries: unknown): void {
  if (!Array.isArray(entries)) return;
  for (const e of entries) {
    if (typeof e === 'string') into.append(e);
    else if (isObject(e) && typeof e['text'] === 'string') into.append(e['text']);
    else if (isObject(e) && typeof e['buffer'] === 'string')
      into.append(Buffer.from(e['buffer'], 'base64').toString('utf8'));
  }
}

function notPlaywright(why: string): FormatError {
  return new FormatError(
    `This is not a Playwright JSON report (${why}); send the output of Playwright's \`json\` reporter or choose the ` +
      `formatter for its format`,
  );
}
