/**
 * The RSpec JSON state machine: parseJson events in, containers out. Each `examples[]` entry is
 * taken whole, turned into a test and dropped, so memory holds one example plus one small record
 * per spec file (its suite stays open until the end: with `--order random` a file's examples need
 * not be adjacent) and the run's root suite, which carries errors outside of examples.
 */
import { asNumber as num, asRecord as record, asString as str, capText as cap } from '../../lib/formatter/api.js';
import { fileTitle, FormatError, newContainer, secondsToMs as seconds } from '../../lib/formatter/api.js';
import { suiteStatus as worst } from '../../lib/formatter/api.js';
import type { ContainerStatus, Emit, FailureInfo, HandlerContext, JsonMachine } from '../../lib/formatter/api.js';
import type { JsonPath, Property } from '../../lib/formatter/api.js';

interface FileSuite {
  id: number;
  title: string;
  seen: Set<ContainerStatus>;
}

const STATUS = new Map<string, ContainerStatus>([
  ['passed', 'passed'],
  ['failed', 'failed'],
  ['pending', 'skipped'],
]);
/** Run facts kept as properties of the root suite. */
const SCALAR_PROPERTIES = new Set(['version', 'seed', 'summary_line']);

export function rspecHandler(ctx: HandlerContext, emit: Emit): JsonMachine {
  const limit = ctx.limits.maxTextChars;
  const suites = new Map<string, FileSuite>();
  const properties: Property[] = [];
  const loadErrors: string[] = [];
  let outsideErrors = 0;
  let rootId: number | null = null;
  let examplesSeen = false;

  const suiteFor = (file: string): FileSuite => {
    let suite = suites.get(file);
    if (!suite) {
      suite = { id: ctx.nextId(), title: file, seen: new Set() };
      suites.set(file, suite);
    }
    return suite;
  };

  const example = (raw: unknown): void => {
    const e = record(raw);
    if (!e) return;
    const suite = suiteFor(str(e['file_path']) ?? '(no file)');
    const rawStatus = str(e['status']) ?? '';
    const status = STATUS.get(rawStatus) ?? 'unknown';
    const meta: Record<string, string> = {};
    for (const [from, to] of META) {
      const v = e[from];
      if (typeof v === 'string' || typeof v === 'number') meta[to] = String(v);
    }
    if (status === 'unknown' && rawStatus) meta['status'] = rawStatus;
    suite.seen.add(status);
    const title = str(e['full_description']) || str(e['description']) || str(e['id']) || '(unnamed example)';
    const failure = status === 'skipped' ? pendingInfo(e, limit) : exceptionInfo(record(e['exception']), limit);
    const durationMs = seconds(e['run_time']);
    emit(
      newContainer({ id: ctx.nextId(), parentId: suite.id, type: 'test', title, status, durationMs, failure, meta }),
    );
  };

  return {
    open(path, kind) {
      if (path.length === 0) {
        if (kind !== 'object')
          throw new FormatError(
            'The JSON is an array, not an object: this is not an RSpec JSON report (`rspec --format json`)',
          );
        rootId = ctx.nextId();
        return false;
      }
      if (path.length === 1 && path[0] === 'examples' && kind === 'array') examplesSeen = true;
      // One example at a time; the summary is a handful of numbers.
      return (isExample(path) && kind === 'object') || (path.length === 1 && path[0] === 'summary');
    },
    value(path, v) {
      if (path.length === 1) {
        const key = String(path[0]);
        if (SCALAR_PROPERTIES.has(key) && (typeof v === 'string' || typeof v === 'number'))
          properties.push({ name: key, value: String(v) });
        if (key === 'summary') outsideErrors = num(record(v)?.['errors_outside_of_examples_count']) ?? 0;
        return;
      }
      if (isExample(path)) return example(v);
      // Load errors and `before(:suite)` failures arrive only as messages ("An error occurred …").
      if (path.length === 2 && path[0] === 'messages' && typeof v === 'string' && /An error occurred/i.test(v))
        loadErrors.push(cap(v.trim(), limit));
    },
    end() {
      if (rootId === null || !examplesSeen) {
        throw new FormatError(
          'The JSON has no `examples` array: this is not an RSpec JSON report (`rspec --format json`)',
        );
      }
      ctx.setProducer('rspec');
      const seen = new Set<ContainerStatus>();
      for (const suite of suites.values()) {
        const status = worst(suite.seen);
        seen.add(status);
        emit(
          newContainer({
            id: suite.id,
            parentId: rootId,
            type: 'suite',
            title: suite.title,
            status,
            meta: { file: suite.title },
          }),
        );
      }
      // The counting rules count only examples[]: errors outside of examples (a spec file that
      // did not load) make the run errored without adding a test.
      let failure: FailureInfo | null = null;
      const meta: Record<string, string> = {};
      if (outsideErrors > 0 || loadErrors.length > 0) {
        const message =
          loadErrors.length > 0
            ? cap(loadErrors.join('\n\n'), limit)
            : `${outsideErrors} error(s) occurred outside of examples`;
        failure = { message, type: null, stack: null };
        meta['errorsOutsideOfExamples'] = String(Math.max(outsideErrors, loadErrors.length));
        seen.add('errored');
      }
      const title = fileTitle(ctx.fileName, 'RSpec');
      emit(
        newContainer({
          id: rootId,
          parentId: null,
          type: 'suite',
          title,
          status: worst(seen),
          failure,
          properties,
          meta,
        }),
      );
    },
  };
}

const META: [string, string][] = [
  ['id', 'id'],
  ['file_path', 'file'],
  ['line_number', 'line'],
  ['description', 'description'],
];

function isExample(path: JsonPath): boolean {
  return path.length === 2 && path[0] === 'examples' && typeof path[1] === 'number';
}

function exceptionInfo(x: Record<string, unknown> | null, limit: number): FailureInfo | null {
  if (!x) return null;
  const backtrace = Array.isArray(x['backtrace'])
    ? x['backtrace'].filter((l): l is string => typeof l === 'string')
    : [];
  const message = str(x['message']);
  return {
    message: message === null ? null : cap(message, limit),
    type: str(x['class']),
    stack: backtrace.length > 0 ? cap(backtrace.join('\n'), limit) : null,
  };
}

/** A pending example's reason is its failure, as JUnit keeps a skip message. */
function pendingInfo(e: Record<string, unknown>, limit: number): FailureInfo | null {
  const reason = str(e['pending_message']);
  return reason ? { message: cap(reason, limit), type: null, stack: null } : null;
}
