/**
 * Finished tests waiting to be emitted, so that a test run again under the same name after it
 * failed (xcodebuild's `-retry-tests-on-failure`) becomes one test with its attempts. A name seen
 * again after a pass is another test: Specta and Quick give the tests of shared examples equal
 * names, and a pass is never retried. A class's tests wait until the class's suite ends; without
 * suite ends (parallel testing) they wait for the end of the file, at most MAX_HELD at a time.
 */
import { newContainer } from '../../lib/formatter/api.js';
import type { Attempt, Container, ContainerStatus, Emit, FailureInfo } from '../../lib/formatter/api.js';

/** Tests kept at once; past it the oldest is emitted (a later run of it then counts as another test). */
const MAX_HELD = 10_000;
/** Earlier attempts kept per test. */
const MAX_ATTEMPTS = 100;

export interface Run {
  status: ContainerStatus;
  durationMs: number | null;
  startedAt: string | null;
  startedAtNaive: boolean;
  failure: FailureInfo | null;
  stdout: string | null;
  meta: Record<string, string>;
}

interface Held {
  key: string;
  id: number;
  parentId: number;
  title: string;
  run: Run;
  earlier: Attempt[];
  dropped: number;
}

export class HeldTests {
  private readonly held = new Map<string, Held>();

  constructor(
    private readonly nextId: () => number,
    private readonly emit: Emit,
    /** Told the status of each test emitted, for its suite's status. */
    private readonly counted: (parentId: number, status: ContainerStatus) => void,
  ) {}

  /**
   * A test of the suite `parentId` ended. A failed test of the same key still held becomes an
   * earlier attempt of it; a passed or skipped one is emitted, and this is another test.
   */
  finish(parentId: number, key: string, title: string, run: Run): void {
    const k = `${parentId}\u0000${key}`;
    const previous = this.held.get(k);
    if (previous && previous.run.status !== 'failed' && previous.run.status !== 'errored') this.flushOne(previous);
    else if (previous) {
      this.held.delete(k);
      if (previous.earlier.length < MAX_ATTEMPTS) previous.earlier.push(attemptOf(previous.run));
      else previous.dropped++;
      previous.run = run;
      this.held.set(k, previous);
      return;
    }
    this.held.set(k, { key: k, id: this.nextId(), parentId, title, run, earlier: [], dropped: 0 });
    if (this.held.size > MAX_HELD) this.flushOne(this.held.values().next().value!);
  }

  /** Emits the tests of one suite (its end line came), or every test (the file ended). */
  flush(parentId?: number): void {
    for (const h of [...this.held.values()]) if (parentId === undefined || h.parentId === parentId) this.flushOne(h);
  }

  private flushOne(h: Held): void {
    this.held.delete(h.key);
    const { run } = h;
    const c: Container = newContainer({
      id: h.id,
      parentId: h.parentId,
      type: 'test',
      title: h.title,
      status: run.status,
      durationMs: run.durationMs,
      startedAt: run.startedAt === null ? null : { iso: run.startedAt, naive: run.startedAtNaive },
      failure: run.failure,
      stdout: run.stdout,
      meta: h.dropped > 0 ? { ...run.meta, attemptsDropped: String(h.dropped) } : run.meta,
    });
    if (h.earlier.length > 0) {
      c.attempts = [...h.earlier, attemptOf(run)];
      c.flaky = run.status === 'passed' && h.earlier.some((a) => a.status === 'failed' || a.status === 'errored');
    }
    this.counted(h.parentId, run.status);
    this.emit(c);
  }
}

function attemptOf(run: Run): Attempt {
  return { status: run.status, durationMs: run.durationMs, failure: run.failure };
}
