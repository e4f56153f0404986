/**
 * The CTRF state machine: parseJson events in, containers out. `results.tests[]` is a flat list
 * taken one test at a time; the suite tree is rebuilt from each test's `suite` (or `filePath`),
 * so the suites (few: one per distinct path) are held and emitted at the end, deepest first.
 */
import { asNonNegative as num, asString as str, capText as cap, errorFailure } from '../../lib/formatter/api.js';
import { FormatError, fromEpochMs, isRecord as isObject, newContainer } from '../../lib/formatter/api.js';
import { JsonObjectRoot, ownCopy as own, parseTimestamp, suiteStatus, TextBuffer } from '../../lib/formatter/api.js';
import type { Attempt, Container, ContainerStatus, Emit, FailureInfo } from '../../lib/formatter/api.js';
import type { HandlerContext, Instant, JsonMachine, Property } from '../../lib/formatter/api.js';

interface Suite {
  id: number;
  parentId: number | null;
  title: string;
  depth: number;
  seen: Set<ContainerStatus>;
  startedAt: string | null;
}

/** `pending` and `other` stay apart from `skipped` (CTRF names them); the totals count them as skipped. */
const STATUS: Record<string, ContainerStatus> = {
  passed: 'passed',
  failed: 'failed',
  skipped: 'skipped',
  pending: 'pending',
  other: 'unknown',
};

export function ctrfHandler(ctx: HandlerContext, emit: Emit): JsonMachine {
  const limit = ctx.limits.maxTextChars;
  const root = new JsonObjectRoot(notCtrf);
  let resultsSeen = false;
  let testsSeen = false;
  let producer = false;
  let runStart: Instant | null = null;
  let reportTime: Instant | null = null;
  const suites = new Map<string, Suite>();

  const suiteFor = (path: string[]): Suite | null => {
    let node: Suite | null = null;
    let key = '';
    path.forEach((title, depth) => {
      key += `\u0000${title}`;
      let s = suites.get(key);
      if (!s) {
        // Held to the end of the file: owned copies, not slices that keep the parser's chunk alive.
        s = {
          id: ctx.nextId(),
          parentId: node?.id ?? null,
          title: own(title),
          depth,
          seen: new Set(),
          startedAt: null,
        };
        suites.set(own(key), s);
      }
      node = s;
    });
    return node;
  };

  const onTest = (raw: unknown): void => {
    if (!isObject(raw)) return;
    const suite = suiteFor(suitePath(raw));
    const id = ctx.nextId();
    const steps = readSteps(raw['steps'], id, ctx.nextId);
    for (const step of steps) emit(step);
    const test = readTest(raw, id, suite?.id ?? null, limit);
    if (suite) {
      suite.seen.add(test.status);
      if (test.startedAt && (!suite.startedAt || test.startedAt < suite.startedAt)) suite.startedAt = test.startedAt;
    }
    emit(test);
  };

  return {
    open(path, kind) {
      if (root.opens(path, kind)) return false;
      if (path[0] !== 'results') return false;
      if (path.length === 1) {
        if (kind !== 'object') throw notCtrf('"results" is not an object');
        resultsSeen = true;
        return false;
      }
      if (path.length === 2 && path[1] === 'tests' && kind === 'array') testsSeen = true;
      // One test at a time, whole: its retries, steps and attachments belong to it.
      return path.length === 3 && path[1] === 'tests' && kind === 'object';
    },

    value(path, v) {
      // Newer reports carry the run's time as RFC 3339 at the top; `summary.start` wins when both exist.
      if (path.length === 1 && path[0] === 'timestamp' && typeof v === 'string') reportTime = parseTimestamp(v);
      if (path[0] !== 'results') return;
      if (path.length === 3 && path[1] === 'tests') onTest(v);
      else if (
        path.length === 3 &&
        path[1] === 'tool' &&
        path[2] === 'name' &&
        typeof v === 'string' &&
        v.trim() &&
        !producer
      ) {
        // The tool whose CTRF reporter wrote the file (jest, playwright, cypress, …).
        producer = true;
        ctx.setProducer(v.trim());
      } else if (path.length === 3 && path[1] === 'summary' && path[2] === 'start') runStart = fromEpochMs(num(v));
    },

    end() {
      root.end();
      if (!resultsSeen || !testsSeen) throw notCtrf('it has no "results.tests" array');
      const ordered = [...suites.values()].sort((a, b) => b.depth - a.depth);
      const byId = new Map(ordered.map((s) => [s.id, s]));
      for (const s of ordered) {
        const status = suiteStatus(s.seen);
        const parent = s.parentId === null ? undefined : byId.get(s.parentId);
        if (parent) {
          parent.seen.add(status);
          if (s.startedAt && (!parent.startedAt || s.startedAt < parent.startedAt)) parent.startedAt = s.startedAt;
        }
        // Tests without a start of their own are dated by the run (`summary.start`).
        const run = runStart ?? reportTime;
        const startedAt = s.startedAt || (s.parentId === null ? run : null);
        emit(newContainer({ id: s.id, parentId: s.parentId, type: 'suite', title: s.title, status, startedAt }));
      }
      suites.clear();
    },
  };
}

/** `suite` is an array (current schema) or a string joined with ` > ` (older reporters); else the file. */
function suitePath(raw: Record<string, unknown>): string[] {
  const suite = raw['suite'];
  if (Array.isArray(suite)) {
    const parts = suite.filter((s): s is string => typeof s === 'string' && s.trim() !== '');
    if (parts.length > 0) return parts;
  }
  if (typeof suite === 'string' && suite.trim() !== '') return suite.split(/\s+>\s+/).filter((s) => s !== '');
  const file = str(raw['filePath']);
  return file ? [file] : [];
}

function readTest(raw: Record<string, unknown>, id: number, parentId: number | null, limit: number): Container {
  const rawStatus = str(raw['status']) ?? '';
  const status = STATUS[rawStatus] ?? 'unknown';
  const failure = readFailure(raw, limit);
  const started = fromEpochMs(num(raw['start']));

  const properties: Property[] = [];
  if (Array.isArray(raw['tags']))
    for (const tag of raw['tags']) if (typeof tag === 'string') properties.push({ name: 'tag', value: tag });
  for (const key of ['labels', 'parameters'] as const) {
    const bag = raw[key];
    if (!isObject(bag)) continue;
    for (const [name, value] of Object.entries(bag)) {
      if (value !== null && value !== undefined)
        properties.push({ name, value: cap(typeof value === 'string' ? value : JSON.stringify(value), limit) });
    }
  }

  const refs: string[] = [];
  addRefs(refs, raw['attachments']);
  const retryAttempts = Array.isArray(raw['retryAttempts']) ? raw['retryAttempts'].filter(isObject) : [];
  for (const a of retryAttempts) addRefs(refs, a['attachments']);

  const meta: Record<string, string> = {};
  for (const key of ['filePath', 'type', 'rawStatus', 'browser', 'device', 'threadId', 'id']) {
    const v = str(raw[key]);
    if (v) meta[key] = v;
  }
  if (typeof raw['line'] === 'number') meta['line'] = String(raw['line']);
  if (typeof raw['retries'] === 'number' && raw['retries'] > 0) meta['retries'] = String(raw['retries']);
  if (!(rawStatus in STATUS)) meta['status'] = rawStatus;
  if (typeof raw['suite'] === 'string') meta['suite'] = raw['suite'];

  const container = newContainer({
    id,
    parentId,
    type: 'test',
    title: str(raw['name']) ?? '(untitled)',
    status,
    durationMs: num(raw['duration']),
    startedAt: started,
    failure,
    ...readOutput(raw, limit),
    properties,
    attachmentRefs: refs,
    meta,
  });
  if (retryAttempts.length > 0) {
    // `retryAttempts` are the runs before the one the test reports.
    const earlier: Attempt[] = retryAttempts.map((a) => ({
      status: STATUS[str(a['status']) ?? ''] ?? 'unknown',
      durationMs: num(a['duration']) ?? span(a),
      failure: readFailure(a, limit),
    }));
    container.attempts = [...earlier, { status, durationMs: container.durationMs, failure }];
  }
  const failedBefore =
    container.attempts?.slice(0, -1).some((a) => a.status === 'failed' || a.status === 'errored') ?? false;
  // `flaky: true` is the reporter's own verdict; retry attempts that failed before a pass say the same.
  if (raw['flaky'] === true || (status === 'passed' && failedBefore)) container.flaky = true;
  else if (raw['flaky'] === false || container.attempts) container.flaky = false;
  return container;
}

/** BDD steps (`{ name, status }`): step containers under the test, emitted before it. */
function readSteps(raw: unknown, testId: number, nextId: () => number): Container[] {
  if (!Array.isArray(raw)) return [];
  const steps: Container[] = [];
  for (const step of raw) {
    if (!isObject(step)) continue;
    const status = STATUS[str(step['status']) ?? ''] ?? 'unknown';
    const title = str(step['name']) ?? '(untitled step)';
    steps.push(
      newContainer({ id: nextId(), parentId: testId, type: 'step', title, status, durationMs: num(step['duration']) }),
    );
  }
  return steps;
}

function readFailure(raw: Record<string, unknown>, limit: number): FailureInfo | null {
  return errorFailure(str(raw['message']), str(raw['trace']), limit);
}

/** `stdout`/`stderr` are arrays of lines in the schema; a plain string is taken as well. */
function readOutput(raw: Record<string, unknown>, limit: number): { stdout: string | null; stderr: string | null } {
  const join = (v: unknown): string | null => {
    const lines = Array.isArray(v)
      ? v.filter((l): l is string => typeof l === 'string')
      : typeof v === 'string'
        ? [v]
        : [];
    if (lines.length === 0) return null;
    const b = new TextBuffer(limit);
    lines.forEach((l, i) => b.append(i === 0 ? l : `\n${l}`));
    return b.value();
  };
  return { stdout: join(raw['stdout']), stderr: join(raw['stderr']) };
}

function addRefs(into: string[], attachments: unknown): void {
  if (!Array.isArray(attachments)) return;
  for (const a of attachments) {
    const p = isObject(a) ? str(a['path'])?.trim() : null;
    // A data: URI is the content itself, not a file Tally could match.
    if (p && !/^data:/i.test(p) && !into.includes(p)) into.push(p);
  }
}

function span(a: Record<string, unknown>): number | null {
  const start = num(a['start']);
  const stop = num(a['stop']);
  return start !== null && stop !== null && stop >= start ? stop - start : null;
}

function notCtrf(why: string): FormatError {
  return new FormatError(
    `This is not a CTRF report (${why}); send a Common Test Report Format JSON file or choose the formatter for its ` +
      `format`,
  );
}
