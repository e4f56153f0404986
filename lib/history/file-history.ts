/**
 * What one file adds to its report's history column, gathered as its containers go by on the parse
 * thread that wrote them, so completing the report reads nothing back (the column itself, its
 * format and its builder, are column.ts).
 */
import { isCountedTest, type ContainerStatus, type ContainerType } from '../formatter/api.js';

/**
 * A part of what one file adds to its report's column (a top-level suite, or PART_TESTS tests of an
 * open one), gathered by the parse worker that wrote the file's rows, so completing the report reads
 * nothing back. Seqs are the file's own, from 1; the import adds the ids used before the file. Plain
 * arrays: they cross to the import thread by structured clone.
 */
export interface FileHistory {
  /** The part's tests in seq order. */
  tests: {
    seqs: number[];
    parents: (number | null)[];
    titles: string[];
    statuses: ContainerStatus[];
    durations: (number | null)[];
    flaky: boolean[];
  };
  /** The other containers its tests' paths are made of: closed in this part, or still open. */
  parents: { seqs: number[]; parents: (number | null)[]; titles: string[] };
}

/**
 * Collects a file's history as its containers go by. Containers are emitted as they close, children
 * first, so when a top-level container goes by its whole subtree has: that part is complete (every
 * test's path can be made) and is handed to `ready`, and the collector starts over. A formatter that
 * also says when it opens a container, with its title (`ContainerSink.opened`), lets a part go
 * every PART_TESTS tests even inside one enormous suite: the open ancestors' titles travel with it.
 * Parts arrive in id order (a test below the last part's ids makes it give up). A part of more than
 * `max` containers, or an opened title that changed by the time its container closed, makes it
 * give up: `ready(null)`, and nothing more is collected.
 */
export class FileHistoryCollector {
  #h: FileHistory | null = emptyFileHistory();
  #count = 0;
  #sorted = true;
  #lastTest = 0;
  /** The highest test id handed over so far: a later part must start above it. */
  #handed = 0;
  /** Containers opened (and announced) but not yet closed. */
  readonly #open = new Map<number, { parentSeq: number | null; title: string }>();
  /** False once a test's ancestors were not all announced: parts then wait for their top-level container. */
  #announced = true;

  constructor(
    private readonly max: number,
    private readonly ready: (part: FileHistory | null) => void,
  ) {}

  opened(c: { id: number; parentId: number | null; title: string }): void {
    if (this.#h) this.#open.set(c.id, { parentSeq: c.parentId, title: c.title });
  }

  add(c: {
    seq: number;
    parentSeq: number | null;
    type: ContainerType;
    title: string;
    status: ContainerStatus;
    durationMs: number | null;
    flaky: boolean;
  }): void {
    const h = this.#h;
    if (!h) return;
    if (++this.#count > this.max) return this.#giveUp();
    const announced = this.#open.get(c.seq);
    if (announced) {
      // Parts already handed over used this title for the paths below it.
      if (announced.title !== c.title || announced.parentSeq !== c.parentSeq) return this.#giveUp();
      this.#open.delete(c.seq);
    }
    // A parent is open while its children go by: not among the announced, the formatter does not announce.
    if (c.parentSeq !== null && !this.#open.has(c.parentSeq)) this.#announced = false;
    if (isCountedTest(c)) {
      if (c.seq <= this.#handed) return this.#giveUp();
      const t = h.tests;
      if (c.seq < this.#lastTest) this.#sorted = false;
      this.#lastTest = c.seq;
      t.seqs.push(c.seq);
      t.parents.push(c.parentSeq);
      t.titles.push(c.title);
      t.statuses.push(c.status);
      t.durations.push(c.durationMs);
      t.flaky.push(c.flaky);
    } else {
      h.parents.seqs.push(c.seq);
      h.parents.parents.push(c.parentSeq);
      h.parents.titles.push(c.title);
    }
    if (c.parentSeq === null) this.#handOver();
    else if (this.#announced && h.tests.seqs.length >= PART_TESTS) this.#handOver();
  }

  /** The end of the file: what is left is handed over (containers of a formatter that emits parents first). */
  finish(): void {
    if (this.#h && this.#count > 0) this.#handOver();
  }

  #giveUp(): void {
    this.#h = null;
    this.#open.clear();
    this.ready(null);
  }

  #handOver(): void {
    const h = this.#h!;
    if (!this.#sorted) {
      // Formatters that emit a test after a later-opened one (rare): reorder by seq.
      const t = h.tests;
      const order = t.seqs.map((_, i) => i).sort((a, b) => t.seqs[a]! - t.seqs[b]!);
      const pick = <T>(xs: T[]): T[] => order.map((i) => xs[i]!);
      h.tests = {
        seqs: pick(t.seqs),
        parents: pick(t.parents),
        titles: pick(t.titles),
        statuses: pick(t.statuses),
        durations: pick(t.durations),
        flaky: pick(t.flaky),
      };
    }
    // Ancestors still open: their titles go with the part (and again with the next one).
    for (const [seq, o] of this.#open) {
      h.parents.seqs.push(seq);
      h.parents.parents.push(o.parentSeq);
      h.parents.titles.push(o.title);
    }
    const last = h.tests.seqs[h.tests.seqs.length - 1];
    if (last !== undefined) this.#handed = last;
    this.#h = emptyFileHistory();
    this.#count = 0;
    this.#sorted = true;
    this.#lastTest = 0;
    this.ready(h);
  }
}

/** Tests of one part handed over from inside an open suite (when the formatter announces what it opens). */
export const PART_TESTS = 10_000;

function emptyFileHistory(): FileHistory {
  return {
    tests: { seqs: [], parents: [], titles: [], statuses: [], durations: [], flaky: [] },
    parents: { seqs: [], parents: [], titles: [] },
  };
}
