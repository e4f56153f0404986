/**
 * Turns one file's container events into stored containers: totals, the report date, duplicate
 * titles and attachment references are noted as containers stream past; nothing keeps the tree.
 */
import { isCountedTest, type Container, type ContainerSink, type OpenedContainer } from '../../formatter/api.js';
import type { StoredContainer, Totals } from '../../store/types.js';
import { HashSet53, hash53 } from '../../hash53.js';

export function zeroTotals(): Totals {
  return { containers: 0, tests: 0, passed: 0, failed: 0, errored: 0, skipped: 0, pending: 0, unknown: 0, flaky: 0 };
}

export function addTotals(into: Totals, from: Totals): void {
  for (const k of Object.keys(into) as (keyof Totals)[]) into[k] += from[k];
}

/** Duplicate titles kept per file before we stop listing them (the count goes on). */
const MAX_DUPLICATES_LISTED = 20;
/** Attachment references remembered per import for resolution in finalize. */
export const MAX_REFS = 100_000;

export interface AttachmentRef {
  seq: number;
  ref: string;
}

/** Where assembled containers go: the batcher of the store, or a parse worker's outbound batches. */
export interface ContainerTarget {
  push(c: StoredContainer): void;
  ready(): Promise<void> | null;
  /** See ContainerSink.opened. */
  opened?(c: OpenedContainer): void;
}

export class FileAssembler implements ContainerSink {
  readonly totals = zeroTotals();
  earliest: string | null = null;
  duplicateCount = 0;
  readonly duplicates: string[] = [];
  /** Containers whose output or failure text was cut at the limit (formatters keep the limit plus a marker). */
  truncated = 0;
  /**
   * Title hashes of each open parent's children (0: the file's top level). A parent is emitted after
   * its children (the formatter contract), so its set goes then: memory follows the widest open
   * suite, not the file (a 1 GiB file of two million tests held a 48 MiB table with one set).
   */
  private readonly seen = new Map<number, HashSet53>();

  constructor(
    private readonly reportId: string,
    private readonly fileIndex: number,
    private readonly batcher: ContainerTarget,
    private readonly refs: AttachmentRef[],
    private readonly onContainer: () => void,
    private readonly maxTextChars = Number.POSITIVE_INFINITY,
  ) {}

  opened(c: OpenedContainer): void {
    this.batcher.opened?.(c);
  }

  emit(c: Container): void {
    this.count(c);
    this.checkDuplicate(c);
    if (
      longer(c.output?.stdout, this.maxTextChars) ||
      longer(c.output?.stderr, this.maxTextChars) ||
      longer(c.failure?.message, this.maxTextChars) ||
      longer(c.failure?.stack, this.maxTextChars)
    )
      this.truncated++;
    if (c.startedAt && (this.earliest === null || c.startedAt < this.earliest)) this.earliest = c.startedAt;
    for (const ref of c.attachmentRefs) if (this.refs.length < MAX_REFS) this.refs.push({ seq: c.id, ref });
    const meta = { ...(c.meta ?? {}) };
    if (c.startedAtNaive) meta.startedAtNaive = 'true';
    const stored: StoredContainer = {
      reportId: this.reportId,
      seq: c.id,
      parentSeq: c.parentId,
      fileIndex: this.fileIndex,
      type: c.type,
      title: c.title,
      status: c.status,
      durationMs: c.durationMs,
      startedAt: c.startedAt,
      failure: c.failure,
      output: c.output,
      properties: c.properties,
      attachmentRefs: c.attachmentRefs,
      attachments: [],
      flaky: c.flaky ?? false,
      attempts: c.attempts ?? [],
      meta,
    };
    this.batcher.push(stored);
    this.onContainer();
  }

  ready(): Promise<void> | null {
    return this.batcher.ready();
  }

  private count(c: Container): void {
    this.totals.containers++;
    if (!isCountedTest(c)) return;
    this.totals.tests++;
    this.totals[c.status]++;
    if (c.flaky) this.totals.flaky++;
  }

  /** Same title under the same parent in one file (history compares by title path). */
  private checkDuplicate(c: Container): void {
    this.seen.delete(c.id);
    const parent = c.parentId ?? 0;
    let siblings = this.seen.get(parent);
    if (!siblings) this.seen.set(parent, (siblings = new HashSet53(8)));
    if (siblings.add(hash53(`${c.type}\u0000${c.title}`))) return;
    this.duplicateCount++;
    if (this.duplicates.length < MAX_DUPLICATES_LISTED && !this.duplicates.includes(c.title))
      this.duplicates.push(c.title);
  }
}

function longer(text: string | null | undefined, limit: number): boolean {
  return text != null && text.length > limit;
}
