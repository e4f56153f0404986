/** Building a container from what a formatter knows of it, every other field at its empty value. */
import type { Container, ContainerStatus, ContainerType, FailureInfo, Property } from '../types.js';
import { TextBuffer, textOrNull } from './text.js';
import type { Instant } from './time.js';

export interface ContainerFields {
  id: number;
  parentId: number | null;
  type: ContainerType;
  title: string;
  status: ContainerStatus;
  durationMs?: number | null;
  /** An instant (a naive one sets `startedAtNaive`) or an ISO string already in UTC. */
  startedAt?: Instant | string | null;
  failure?: FailureInfo | null;
  /**
   * The output is null when both streams are. A TextBuffer gives its text, or null when it holds
   * only whitespace (see textOrNull).
   */
  stdout?: string | TextBuffer | null;
  stderr?: string | TextBuffer | null;
  properties?: Property[];
  attachmentRefs?: string[];
  /** Kept only when it holds a key. */
  meta?: Record<string, string>;
}

/** A container with the given fields; `durationMs`, `startedAt`, `failure` and the output default to null. */
export function newContainer(f: ContainerFields): Container {
  const stdout = f.stdout instanceof TextBuffer ? textOrNull(f.stdout) : (f.stdout ?? null);
  const stderr = f.stderr instanceof TextBuffer ? textOrNull(f.stderr) : (f.stderr ?? null);
  const started = f.startedAt ?? null;
  const c: Container = {
    id: f.id,
    parentId: f.parentId,
    type: f.type,
    title: f.title,
    status: f.status,
    durationMs: f.durationMs ?? null,
    startedAt: typeof started === 'string' || started === null ? started : started.iso,
    failure: f.failure ?? null,
    output: stdout === null && stderr === null ? null : { stdout, stderr },
    properties: f.properties ?? [],
    attachmentRefs: f.attachmentRefs ?? [],
  };
  if (typeof started === 'object' && started?.naive) c.startedAtNaive = true;
  if (f.meta && Object.keys(f.meta).length > 0) c.meta = f.meta;
  return c;
}

/** What a formatter's open record holds of its container before the container closes with a status. */
export type OpenFields = Omit<ContainerFields, 'status' | 'failure'>;

/**
 * The container of an open record, closed with its status. Field by field, not
 * `newContainer({ ...open, status, failure })`: this runs once per test, and a spread copies every field of the
 * record (outcome buffers, retries, the seen set) into a throw-away object; JUnit parsed at less than half speed.
 */
export function closeContainer(open: OpenFields, status: ContainerStatus, failure: FailureInfo | null): Container {
  return newContainer({
    id: open.id,
    parentId: open.parentId,
    type: open.type,
    title: open.title,
    status,
    durationMs: open.durationMs,
    startedAt: open.startedAt,
    failure,
    stdout: open.stdout,
    stderr: open.stderr,
    properties: open.properties,
    attachmentRefs: open.attachmentRefs,
    meta: open.meta,
  });
}

/**
 * Counting rule 4: a failure outside any test (a suite that failed on its own, a hook, a file that
 * did not load) is one errored test. `meta` says which (`{ synthetic: 'suite-error' }`).
 */
export function erroredTest(f: {
  id: number;
  parentId: number | null;
  title: string;
  failure: FailureInfo | null;
  meta: Record<string, string>;
  type?: 'test' | 'scenario';
}): Container {
  const { id, parentId, title, failure, meta } = f;
  return newContainer({ id, parentId, type: f.type ?? 'test', title, status: 'errored', failure, meta });
}
