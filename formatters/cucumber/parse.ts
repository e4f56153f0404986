/**
 * The Cucumber JSON state machine: parseJson events in, containers out. The top-level array is
 * streamed; each feature's scalar fields are read as they pass, and each element of `elements[]`
 * is taken whole, turned into a scenario with its steps and dropped. Memory: one element (with its
 * inline embeddings), the open feature, and the reduced steps of a background waiting for the
 * scenario that follows it.
 */
import { asList as list, asNumber as num, asRecord as record, asString as str } from '../../lib/formatter/api.js';
import { capText as cap, firstProducer, FormatError, newContainer, parseTimestamp } from '../../lib/formatter/api.js';
import { roundMs as round, SCENARIO_SEVERITY, ScenarioVerdict, stepResultStatus } from '../../lib/formatter/api.js';
import { suiteStatus, TextBuffer } from '../../lib/formatter/api.js';
import type { Container, ContainerStatus, Emit, FailureInfo, HandlerContext } from '../../lib/formatter/api.js';
import type { JsonMachine, JsonPath, Property } from '../../lib/formatter/api.js';

/** A step or hook reduced to what its container needs: embeddings are counted, never kept. */
interface Step {
  type: 'step' | 'hook';
  title: string;
  /** The status as written (`passed`, `failed`, `undefined`, …), `null` when there is no result. */
  raw: string | null;
  durationMs: number | null;
  error: string | null;
  output: string[];
  embeddings: string[];
  meta: Record<string, string>;
  /** Per-step hooks (`before`/`after` inside a step): children of the step. */
  hooks: Step[];
}

interface Feature {
  id: number;
  fields: Record<string, string>;
  tags: Property[];
  seen: Set<ContainerStatus>;
  /** Keys that only a Cucumber feature has; a feature with none of them is something else. */
  cucumberKeys: number;
  /** Steps of the background(s) waiting for the next scenario of this feature. */
  background: Step[];
}

const FEATURE_KEYS = new Set(['elements', 'uri', 'keyword']);
const FEATURE_FIELDS = new Set(['name', 'uri', 'id', 'keyword', 'line']);

export function cucumberHandler(ctx: HandlerContext, emit: Emit): JsonMachine {
  const limit = ctx.limits.maxTextChars;
  let rootSeen = false;
  let feature: Feature | null = null;
  const guess = firstProducer(ctx);

  const readStep = (
    raw: unknown,
    type: 'step' | 'hook',
    hookTitle: string | null,
    background: boolean,
  ): Step | null => {
    const s = record(raw);
    if (!s) return null;
    const result = record(s['result']);
    const keyword = str(s['keyword'])?.trim() ?? '';
    const name = str(s['name']) ?? '';
    // cucumber-js writes its hooks as hidden steps with keyword Before/After.
    const jsHook = type === 'step' && s['hidden'] === true && (keyword === 'Before' || keyword === 'After');
    if (jsHook) guess('cucumber-js');
    const meta: Record<string, string> = {};
    const location = str(record(s['match'])?.['location']);
    if (location) meta['location'] = location;
    const line = num(s['line']);
    if (line !== null) meta['line'] = String(line);
    if (background) meta['background'] = 'true';
    const step: Step = {
      type: jsHook ? 'hook' : type,
      title: hookTitle ?? (jsHook ? keyword : [keyword, name].filter(Boolean).join(' ') || '(unnamed step)'),
      raw: result ? (str(result['status']) ?? '') : null,
      durationMs: duration(result?.['duration']),
      error: str(result?.['error_message'])?.trim() || null,
      output: outputLines(s['output']),
      embeddings: embeddingTypes(s['embeddings']),
      meta,
      hooks: [],
    };
    for (const [key, title] of [
      ['before', 'BeforeStep'],
      ['after', 'AfterStep'],
    ] as const) {
      for (const h of list(s[key])) {
        const hook = readStep(h, 'hook', title, background);
        if (hook) step.hooks.push(hook);
      }
    }
    return step;
  };

  const element = (raw: unknown): void => {
    const e = record(raw);
    if (!e || !feature) return;
    const type = str(e['type']);
    const keyword = str(e['keyword']) ?? '';
    const background = type === 'background' || (type === null && /^background$/i.test(keyword.trim()));
    if (background) {
      for (const s of list(e['steps'])) {
        const step = readStep(s, 'step', null, true);
        if (step) feature.background.push(step);
      }
      return;
    }
    // A background belongs to the one scenario that follows it: cucumber writes it again before each.
    const steps: Step[] = [];
    for (const h of list(e['before'])) pushStep(steps, readStep(h, 'hook', 'Before', false));
    steps.push(...feature.background);
    feature.background = [];
    for (const s of list(e['steps'])) pushStep(steps, readStep(s, 'step', null, false));
    for (const h of list(e['after'])) pushStep(steps, readStep(h, 'hook', 'After', false));
    scenario(feature, e, keyword, steps);
  };

  const scenario = (f: Feature, e: Record<string, unknown>, keyword: string, steps: Step[]): void => {
    const id = ctx.nextId();
    const verdict = new ScenarioVerdict<Step>();
    let totalMs: number | null = null;
    const stdout = new TextBuffer(limit);
    const embeddings: string[] = [];
    const visit = (s: Step, parentId: number): void => {
      const stepId = ctx.nextId();
      for (const h of s.hooks) visit(h, stepId);
      verdict.add(s, s.raw);
      if (s.durationMs !== null) totalMs = round((totalMs ?? 0) + s.durationMs);
      for (const line of s.output) {
        stdout.append(line);
        stdout.append('\n');
      }
      embeddings.push(...s.embeddings);
      emit(stepContainer(stepId, parentId, s, limit));
    };
    for (const s of steps) visit(s, id);

    const status = verdict.status;
    f.seen.add(status);
    const meta: Record<string, string> = {};
    const elementId = str(e['id']);
    if (elementId) meta['id'] = elementId;
    const line = num(e['line']);
    if (line !== null) meta['line'] = String(line);
    if (keyword) meta['keyword'] = keyword;
    if (f.fields['uri']) meta['file'] = f.fields['uri'];
    // Embeddings are inline base64: there is no path to resolve against uploaded files, so they are
    // noted, not turned into attachmentRefs that could never match.
    if (embeddings.length > 0) {
      meta['embeddings'] = String(embeddings.length);
      meta['embeddingTypes'] = [...new Set(embeddings)].join(', ');
    }
    const stamp = str(e['start_timestamp']);
    if (stamp) guess('cucumber-jvm');
    emit(
      newContainer({
        id,
        parentId: f.id,
        type: 'scenario',
        title: str(e['name']) || keyword || elementId || '(unnamed scenario)',
        status,
        durationMs: totalMs,
        startedAt: stamp ? parseTimestamp(stamp) : null,
        failure: verdict.decisive ? scenarioFailure(verdict.decisive, status, limit) : null,
        stdout: stdout.empty ? null : stdout.value(),
        properties: tags(e['tags']),
        meta,
      }),
    );
  };

  const closeFeature = (f: Feature): void => {
    if (f.cucumberKeys === 0)
      throw new FormatError(
        'An entry of the top-level array has no `elements`, `uri` or `keyword`: this is not a Cucumber JSON report',
      );
    const meta: Record<string, string> = {};
    if (f.fields['uri']) meta['file'] = f.fields['uri'];
    if (f.fields['id']) meta['id'] = f.fields['id'];
    if (f.fields['line']) meta['line'] = f.fields['line'];
    if (f.fields['keyword']) meta['keyword'] = f.fields['keyword'];
    const title = f.fields['name'] || f.fields['uri'] || f.fields['id'] || '(unnamed feature)';
    const status = suiteStatus(f.seen, SCENARIO_SEVERITY);
    emit(newContainer({ id: f.id, parentId: null, type: 'suite', title, status, properties: f.tags, meta }));
  };

  return {
    open(path, kind) {
      if (path.length === 0) {
        if (kind !== 'array')
          throw new FormatError('The JSON is an object, not an array of features: this is not a Cucumber JSON report');
        rootSeen = true;
        return false;
      }
      if (path.length === 1) {
        if (kind !== 'object')
          throw new FormatError('An entry of the top-level array is not an object: this is not a Cucumber JSON report');
        feature = { id: ctx.nextId(), fields: {}, tags: [], seen: new Set(), cucumberKeys: 0, background: [] };
        return false;
      }
      if (!feature) return false;
      if (path.length === 2 && FEATURE_KEYS.has(String(path[1]))) feature.cucumberKeys++;
      // One element at a time; feature tags are few. Anything else nested in a feature is read past.
      return isElement(path) || (path.length === 2 && path[1] === 'tags');
    },
    value(path, v) {
      if (path.length === 1)
        throw new FormatError('An entry of the top-level array is not an object: this is not a Cucumber JSON report');
      if (!feature) return;
      if (isElement(path)) return element(v);
      if (path.length !== 2) return;
      const key = String(path[1]);
      if (FEATURE_KEYS.has(key)) feature.cucumberKeys++;
      if (key === 'tags') feature.tags = tags(v);
      else if (FEATURE_FIELDS.has(key) && (typeof v === 'string' || typeof v === 'number'))
        feature.fields[key] = String(v);
    },
    close(path, kind) {
      if (path.length === 1 && kind === 'object' && feature) {
        closeFeature(feature);
        feature = null;
      }
    },
    end() {
      if (!rootSeen) throw new FormatError('The JSON is not an array of features: this is not a Cucumber JSON report');
    },
  };
}

function isElement(path: JsonPath): boolean {
  return path.length === 3 && path[1] === 'elements' && typeof path[2] === 'number';
}

function pushStep(steps: Step[], s: Step | null): void {
  if (s) steps.push(s);
}

function stepContainer(id: number, parentId: number, s: Step, limit: number): Container {
  const meta = { ...s.meta };
  if (s.raw !== null && s.raw !== 'passed' && s.raw !== 'failed' && s.raw !== 'skipped') meta['status'] = s.raw;
  if (s.embeddings.length > 0) {
    meta['embeddings'] = String(s.embeddings.length);
    meta['embeddingTypes'] = [...new Set(s.embeddings)].join(', ');
  }
  const stdout = s.output.length > 0 ? cap(s.output.join('\n'), limit) : null;
  const failure = s.error ? errorInfo(s.error, limit) : null;
  const { type, title, durationMs } = s;
  return newContainer({
    id,
    parentId,
    type,
    title,
    status: stepResultStatus(s.raw),
    durationMs,
    failure,
    stdout,
    meta,
  });
}

function scenarioFailure(s: Step, status: ContainerStatus, limit: number): FailureInfo | null {
  if (s.error) return errorInfo(s.error, limit);
  if (status === 'failed')
    return {
      message: `${s.raw === 'ambiguous' ? 'Ambiguous' : 'Failed'} ${s.type}: ${s.title}`,
      type: s.raw,
      stack: null,
    };
  if (status === 'pending')
    return { message: `${s.raw === 'undefined' ? 'Undefined' : 'Pending'} step: ${s.title}`, type: s.raw, stack: null };
  return null;
}

/**
 * `error_message` is message and stack in one string: the message is what comes before the first
 * stack frame (`\tat …` in Java and JS, `./file.rb:12:in` in Ruby). The type is a leading exception
 * name (Java, JS) or Ruby's trailing `(RSpec::Expectations::ExpectationNotMetError)`.
 */
function errorInfo(text: string, limit: number): FailureInfo {
  const frame = /\n[ \t]*(?:(?:at|from) \S|[\w./\\-]+:\d+:in )/.exec(text);
  const message = (frame ? text.slice(0, frame.index) : text).trim();
  const m =
    /^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:Error|Exception|Failure)\w*)(?::|\s|$)/.exec(message) ??
    /\(([A-Z]\w*(?:::[A-Z]\w*)*(?:Error|Exception)\w*)\)\s*$/.exec(message.split('\n', 1)[0]!);
  return { message: cap(message, limit), type: m ? m[1]! : null, stack: cap(text, limit) };
}

function tags(v: unknown): Property[] {
  const out: Property[] = [];
  for (const t of list(v)) {
    const name = typeof t === 'string' ? t : str(record(t)?.['name']);
    if (name && !out.some((p) => p.value === name)) out.push({ name: 'tag', value: name });
  }
  return out;
}

function outputLines(v: unknown): string[] {
  const out: string[] = [];
  // cucumber-jvm writes strings; some writers nest arrays or log numbers.
  const walk = (x: unknown, depth: number): void => {
    if (typeof x === 'string') out.push(x);
    else if (typeof x === 'number' || typeof x === 'boolean') out.push(String(x));
    else if (Array.isArray(x) && depth < 3) for (const y of x) walk(y, depth + 1);
  };
  walk(v, 0);
  return out;
}

function embeddingTypes(v: unknown): string[] {
  return list(v).map((e) => {
    const r = record(e);
    // Older writers put the type in `media.type` instead of `mime_type`.
    return str(r?.['mime_type']) ?? str(record(r?.['media'])?.['type']) ?? 'unknown';
  });
}

/**
 * Nanoseconds (cucumber-jvm, -js, -ruby, the Go formatter) → ms. behave writes seconds as floats,
 * so a fractional value is read as seconds.
 */
function duration(v: unknown): number | null {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) return null;
  return Number.isInteger(v) ? round(v / 1e6) : round(v * 1e3);
}
