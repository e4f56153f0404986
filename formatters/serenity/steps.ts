/**
 * Serenity's test steps (`testSteps[]`, nested in `children[]`): each step a `step` container,
 * emitted children first as soon as a top-level step has been read whole. The top-level step itself
 * waits (see parse.ts): in a data-driven outcome it turns out to be an example row, a test.
 */
import { capText, newContainer, ownCopy } from '../../lib/formatter/api.js';
import type { Container, ContainerStatus, Emit, FailureInfo } from '../../lib/formatter/api.js';
import { exceptionFailure, instantOf, millis, resultStatus } from './values.js';

/** Nesting past which children are not read: deeper is an attack, not a report. */
const MAX_DEPTH = 64;
const MAX_SCREENSHOTS = 100;

/** A top-level step, read and reduced: its descendants are emitted already, under `id`. */
export interface TopStep {
  id: number;
  title: string;
  /** The result as written, or null when the step has none. */
  result: string | null;
  durationMs: number | null;
  startedAt: ReturnType<typeof instantOf>;
  failure: FailureInfo | null;
  attachmentRefs: string[];
  meta: Record<string, string>;
}

export interface StepContext {
  nextId(): number;
  emit: Emit;
  limit: number;
}

/** Reads one top-level step (taken whole): emits its descendants, returns it reduced. */
export function readTopStep(value: unknown, s: StepContext): TopStep {
  const id = s.nextId();
  const step = record(value) ?? {};
  let failure = ownFailure(step, s.limit);
  for (const child of list(step['children'])) {
    const f = emitStep(child, id, s, 1);
    failure ??= f;
  }
  return {
    id,
    title: titleOf(step),
    result: typeof step['result'] === 'string' ? step['result'] : null,
    durationMs: millis(step['duration']),
    startedAt: instantOf(step['startTime']),
    failure,
    attachmentRefs: screenshots(step),
    meta: metaOf(step),
  };
}

/** The step container of a top-level step that stays a step (the outcome is not data-driven). */
export function topStepContainer(t: TopStep, parentId: number): Container {
  return newContainer({
    id: t.id,
    parentId,
    type: 'step',
    title: t.title,
    status: resultStatus(t.result),
    durationMs: t.durationMs,
    startedAt: t.startedAt,
    failure: failedStatus(resultStatus(t.result)) ? t.failure : null,
    attachmentRefs: t.attachmentRefs,
    meta: t.meta,
  });
}

/** Emits a step and its descendants; returns the first failure found among them (for the test). */
function emitStep(value: unknown, parentId: number, s: StepContext, depth: number): FailureInfo | null {
  const step = record(value);
  if (!step) return null;
  const id = s.nextId();
  let first: FailureInfo | null = null;
  if (depth < MAX_DEPTH)
    for (const child of list(step['children'])) {
      const f = emitStep(child, id, s, depth + 1);
      first ??= f;
    }
  const status = resultStatus(step['result']);
  const own = failedStatus(status) ? ownFailure(step, s.limit) : null;
  s.emit(
    newContainer({
      id,
      parentId,
      type: 'step',
      title: titleOf(step),
      status,
      durationMs: millis(step['duration']),
      startedAt: instantOf(step['startTime']),
      failure: own,
      attachmentRefs: screenshots(step),
      meta: metaOf(step),
    }),
  );
  return own ?? first;
}

function failedStatus(status: ContainerStatus): boolean {
  return status === 'failed' || status === 'errored';
}

function ownFailure(step: Record<string, unknown>, limit: number): FailureInfo | null {
  return exceptionFailure(step['exception'], limit);
}

function titleOf(step: Record<string, unknown>): string {
  const d = step['description'];
  return typeof d === 'string' && d.trim() ? ownCopy(capText(d.trim(), 4096)) : '(unnamed step)';
}

function metaOf(step: Record<string, unknown>): Record<string, string> {
  const meta: Record<string, string> = {};
  if (typeof step['result'] === 'string' && resultStatus(step['result']) !== 'passed') meta['result'] = step['result'];
  if (typeof step['lineNumber'] === 'number') meta['line'] = String(step['lineNumber']);
  if (step['precondition'] === true) meta['precondition'] = 'true';
  return meta;
}

/** Screenshot file names (`screenshots[].screenshot`, Thucydides' `screenshot`): Tally finds the files. */
function screenshots(step: Record<string, unknown>): string[] {
  const out: string[] = [];
  const add = (name: unknown): void => {
    if (typeof name === 'string' && name && out.length < MAX_SCREENSHOTS && !out.includes(name))
      out.push(ownCopy(name));
  };
  for (const s of list(step['screenshots'])) add(record(s)?.['screenshot']);
  add(record(step['screenshot'])?.['screenshot'] ?? step['screenshot']);
  return out;
}

function record(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
