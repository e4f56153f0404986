/**
 * The Serenity outcome state machine: one JSON object per file, a test outcome. Its story
 * (`userStory`, Thucydides' `user-story`) becomes a suite, the outcome a test under it, its steps
 * steps. A data-driven outcome (a Scenario Outline, a parameterised test: `dataTable` rows, one
 * top-level step per row) becomes a suite of one test per row instead, the row's steps under it.
 *
 * Streaming: each top-level step is taken whole, its descendants emitted at once, and only the step
 * itself is kept (reduced): whether it is a step or a row is known at the end, since Serenity writes
 * `testSteps` before `dataTable` and `result`. `flattenedSteps` (JUnit 5, the same steps again) is
 * read past. Memory: the outcome's scalar fields, its rows' results and its top-level steps.
 */
import { capText, FormatError, newContainer, ownCopy, suiteStatus } from '../../lib/formatter/api.js';
import type { ContainerStatus, Emit, FailureInfo, HandlerContext, JsonMachine } from '../../lib/formatter/api.js';
import type { Property } from '../../lib/formatter/api.js';
import { readTopStep, topStepContainer, type TopStep } from './steps.js';
import { exceptionFailure, instantOf, millis, resultStatus } from './values.js';

/** Keys only a Serenity (or Thucydides) outcome has; an object with none of them is something else. */
const OUTCOME_KEYS = new Set(['testSteps', 'userStory', 'user-story', 'testSource', 'annotatedResult', 'manual']);
/** Fields kept whole besides the scalars. */
const WHOLE = new Set(['userStory', 'user-story', 'testFailureCause', 'tags', 'rule', 'featureTag']);
const MAX_TAGS = 100;

interface Row {
  result: string | null;
  values: string;
}

export function serenityHandler(ctx: HandlerContext, emit: Emit): JsonMachine {
  const limit = ctx.limits.maxTextChars;
  const scalars: Record<string, string | number | boolean> = {};
  const whole: Record<string, unknown> = {};
  const steps: TopStep[] = [];
  const rows: Row[] = [];
  let outcomeKeys = 0;
  let root = false;
  let storyId = 0;
  let outcomeId = 0;
  const stepContext = { nextId: ctx.nextId, emit, limit };

  const isRow = (path: readonly (string | number)[]): boolean =>
    path.length === 3 && (path[0] === 'dataTable' || path[0] === 'examples') && path[1] === 'rows';

  return {
    open(path, kind) {
      if (path.length === 0) {
        if (kind !== 'object')
          throw new FormatError(
            'The JSON is an array: a Serenity outcome is one object (`target/site/serenity/*.json`)',
          );
        root = true;
        // The story and the outcome take their ids first, so the steps read next can name their parent.
        storyId = ctx.nextId();
        outcomeId = ctx.nextId();
        return false;
      }
      const key = String(path[0]);
      if (path.length === 1 && OUTCOME_KEYS.has(key)) outcomeKeys++;
      if (path.length === 2 && key === 'testSteps') return true;
      if (isRow(path)) return true;
      if (path.length === 1) return WHOLE.has(key);
      return false;
    },
    value(path, v) {
      if (path.length === 0) throw new FormatError('The JSON is not an object: a Serenity outcome is one object');
      const key = String(path[0]);
      if (path.length === 1) {
        if (OUTCOME_KEYS.has(key)) outcomeKeys++;
        if (WHOLE.has(key)) whole[key] = v;
        else if (typeof v === 'string') scalars[key] = capText(v, limit);
        else if (typeof v === 'number' || typeof v === 'boolean') scalars[key] = v;
        return;
      }
      if (path.length === 2 && key === 'testSteps') steps.push(readTopStep(v, stepContext));
      else if (isRow(path)) rows.push(rowOf(v));
    },
    end() {
      if (!root) throw new FormatError('The JSON is not an object: a Serenity outcome is one object');
      if (outcomeKeys === 0 || (!('result' in scalars) && steps.length === 0))
        throw new FormatError(
          'The JSON object is not a Serenity outcome: it has no `testSteps`, `userStory` or `result` ' +
            '(send the `*.json` outcomes of `target/site/serenity/`, not its summary or configuration files)',
        );
      finish();
    },
  };

  function finish(): void {
    const story = record(whole['userStory']) ?? record(whole['user-story']) ?? {};
    const status = resultStatus(scalars['result']);
    const title = str(scalars['title']) ?? str(scalars['name']) ?? str(scalars['methodName']) ?? '(unnamed outcome)';
    const bdd = isBdd(story, str(scalars['testSource']));
    const failure = outcomeFailure();
    const meta = outcomeMeta();
    const properties = tagsOf(whole['tags']);
    const startedAt = instantOf(scalars['startTime'] ?? scalars['timestamp']);
    const durationMs = millis(scalars['duration']);
    const type = bdd ? 'scenario' : 'test';

    let outcomeStatus = status;
    if (rows.length > 0 && rows.length === steps.length) {
      // Data-driven: each row a test, its top-level step's children its steps.
      const seen = new Set<ContainerStatus>();
      const failedRows = rows.filter((r, i) => failed(rowStatus(r, steps[i]!))).length;
      steps.forEach((step, i) => {
        const row = rows[i]!;
        const rowResult = rowStatus(row, step);
        seen.add(rowResult);
        const own = failed(rowResult) ? (step.failure ?? (failedRows === 1 ? failure : null)) : null;
        emit(
          newContainer({
            id: step.id,
            parentId: outcomeId,
            type,
            title: step.title,
            status: rowResult,
            durationMs: step.durationMs,
            startedAt: step.startedAt,
            failure: own,
            attachmentRefs: step.attachmentRefs,
            meta: { ...step.meta, row: String(i + 1), ...(row.values ? { values: row.values } : {}) },
          }),
        );
      });
      outcomeStatus = suiteStatus(seen);
      emit(
        newContainer({
          id: outcomeId,
          parentId: storyId,
          type: 'suite',
          title,
          status: outcomeStatus,
          durationMs,
          startedAt,
          failure,
          properties,
          meta: { ...meta, dataDriven: 'true' },
        }),
      );
    } else {
      for (const step of steps) emit(topStepContainer(step, outcomeId));
      emit(
        newContainer({
          id: outcomeId,
          parentId: storyId,
          type,
          title,
          status,
          durationMs,
          startedAt,
          failure: failed(status) ? (failure ?? steps.find((s) => s.failure)?.failure ?? null) : failure,
          properties,
          meta: rows.length > 0 ? { ...meta, examples: String(rows.length) } : meta,
        }),
      );
    }
    emit(
      newContainer({
        id: storyId,
        parentId: null,
        type: 'suite',
        title: storyTitle(story),
        status: outcomeStatus,
        meta: storyMeta(story),
      }),
    );
    const source = str(scalars['testSource']);
    ctx.setProducer(
      'user-story' in whole ? 'thucydides' : source?.toUpperCase() === 'JS' ? 'serenity-js' : 'serenity-bdd',
    );
  }

  /** `testFailureCause`, else the flat `testFailureClassname`/`testFailureMessage` (empty in manual tests). */
  function outcomeFailure(): FailureInfo | null {
    const cause = exceptionFailure(whole['testFailureCause'], limit);
    if (cause) return cause;
    const message = str(scalars['testFailureMessage'])?.trim() || null;
    const type = str(scalars['testFailureClassname'])?.trim() || null;
    return message || type ? { message, type, stack: null } : null;
  }

  function outcomeMeta(): Record<string, string> {
    const meta: Record<string, string> = {};
    const result = str(scalars['result']);
    if (result && resultStatus(result) !== 'passed') meta['result'] = result;
    for (const k of ['id', 'testSource', 'testCaseName', 'methodName', 'context', 'backgroundTitle', 'projectKey']) {
      const v = scalars[k];
      if (typeof v === 'string' && v) meta[k] = v;
    }
    if (str(scalars['name']) && scalars['name'] !== scalars['title']) meta['name'] = String(scalars['name']);
    if (scalars['manual'] === true) meta['manual'] = 'true';
    const rule = str(record(whole['rule'])?.['name']);
    if (rule) meta['rule'] = rule;
    return meta;
  }
}

/** Row result as written; Thucydides rows may lack one: the row's step says then. */
function rowStatus(row: Row, step: TopStep): ContainerStatus {
  return resultStatus(row.result ?? step.result);
}

function rowOf(v: unknown): Row {
  const r = record(v) ?? {};
  const cells = Array.isArray(r['values']) ? r['values'] : Array.isArray(r['cellValues']) ? r['cellValues'] : [];
  const values = cells
    .filter((c) => typeof c === 'string' || typeof c === 'number' || typeof c === 'boolean')
    .map(String)
    .join(' | ');
  return { result: typeof r['result'] === 'string' ? r['result'] : null, values: ownCopy(capText(values, 1024)) };
}

/**
 * A Cucumber or JBehave scenario: a `scenario` container, as the cucumber formatter writes. Serenity
 * 1.x and Thucydides write no `testSource`; their story's file says (`.feature`, `.story`).
 */
function isBdd(story: Record<string, unknown>, source: string | null): boolean {
  if (source !== null) return /cucumber|jbehave/i.test(source);
  return str(story['type'])?.toLowerCase() === 'feature' || /\.(?:feature|story)$/.test(str(story['path']) ?? '');
}

function storyTitle(story: Record<string, unknown>): string {
  // `displayName` is what Serenity's own report shows (a JUnit 5 @DisplayName); Cucumber's is the story name.
  return (
    str(story['displayName']) ??
    str(story['storyName']) ??
    str(story['id']) ??
    str(story['storyClassName']) ??
    str(story['qualifiedStoryClassName']) ??
    '(no story)'
  );
}

function storyMeta(story: Record<string, unknown>): Record<string, string> {
  const meta: Record<string, string> = {};
  for (const k of ['id', 'path', 'type', 'storyClassName', 'qualifiedStoryClassName']) {
    const v = str(story[k]);
    if (v) meta[k] = v;
  }
  const [name, display] = [str(story['storyName']), str(story['displayName'])];
  if (name && display && name !== display) meta['storyName'] = name;
  return meta;
}

/** `tags[]` (`{name, type}`) → properties named by the tag's type (`feature`, `tag`, `issue`, …). */
function tagsOf(v: unknown): Property[] {
  const out: Property[] = [];
  if (!Array.isArray(v)) return out;
  for (const t of v) {
    const r = record(t);
    const value = str(r?.['name']) ?? str(r?.['displayName']);
    if (!value) continue;
    const name = str(r?.['type']) ?? 'tag';
    if (!out.some((p) => p.name === name && p.value === value)) out.push({ name, value });
    if (out.length >= MAX_TAGS) break;
  }
  return out;
}

function failed(status: ContainerStatus): boolean {
  return status === 'failed' || status === 'errored';
}

function record(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v.trim() ? v : null;
}
