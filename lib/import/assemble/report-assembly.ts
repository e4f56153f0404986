/**
 * What the files of one import add up to, taken in file order: container ids across files, the
 * container batcher, totals, the earliest start, attachment references, and one entry per parsed
 * file. Both ways of parsing (here, or on a parse thread) hand their file's outcome to `add`.
 */
import { message } from '../../messages.js';
import type { Message, ReportFile, Totals } from '../../store/types.js';
import type { Store } from '../../store/store.js';
import { addTotals, zeroTotals, type AttachmentRef } from './assembler.js';
import { ContainerBatcher } from './container-batcher.js';

/** What parsing one file amounted to, wherever it ran. */
export interface FileOutcome {
  totals: Totals;
  earliest: string | null;
  duplicates: string[];
  duplicateCount: number;
  truncated: number;
  producer: string | null;
  noTests: boolean;
}

export interface ParsedFile extends ReportFile {
  index: number;
  empty: boolean;
  duplicates: string[];
  duplicateCount: number;
}

export class ReportAssembly {
  readonly parsed: ParsedFile[] = [];
  readonly refs: AttachmentRef[] = [];
  readonly totals: Totals = zeroTotals();
  readonly batcher: ContainerBatcher;
  earliest: string | null = null;
  /** Containers made so far (progress). */
  containers = 0;
  /** The last container id taken: the next file's ids start after it. */
  seq = 0;
  /** Files with texts cut at TALLY_MAX_TEXT_CHARS, and how many containers each. */
  private readonly truncated: { file: string; containers: number }[] = [];

  constructor(
    store: Pick<Store, 'containers'>,
    private readonly onProgress: () => void,
  ) {
    this.batcher = new ContainerBatcher(store);
  }

  /** The index the next parsed file gets (its containers' `fileIndex`). */
  get nextIndex(): number {
    return this.parsed.length;
  }

  /** `n` more containers were made. */
  counted(n: number): void {
    this.containers += n;
    this.onProgress();
  }

  /** Takes one parsed file into the report, in its turn. */
  add(name: string, formatter: string, index: number, outcome: FileOutcome): void {
    addTotals(this.totals, outcome.totals);
    if (outcome.truncated > 0) this.truncated.push({ file: name, containers: outcome.truncated });
    if (outcome.earliest && (this.earliest === null || outcome.earliest < this.earliest))
      this.earliest = outcome.earliest;
    this.parsed.push({
      index,
      name,
      formatter,
      producer: outcome.producer,
      tests: outcome.totals.tests,
      empty: outcome.totals.tests === 0 && !outcome.noTests,
      duplicates: outcome.duplicates,
      duplicateCount: outcome.duplicateCount,
    });
  }

  /** The notice for texts cut at the limit, when any were. */
  truncatedNotice(limit: number): Message | null {
    if (this.truncated.length === 0) return null;
    const containers = this.truncated.reduce((n, f) => n + f.containers, 0);
    const files = this.truncated.length;
    return message('text_truncated', {
      detail:
        `${containers} container${containers === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'} ` +
        `had output or failure text over ${limit} characters; the first ${limit} were kept.`,
      details: { limit, containers, files: this.truncated.slice(0, 50) },
    });
  }
}
