/**
 * The history comparison: the tests of a profile (by title path) × its last N reports, with the
 * answers people open it for — is it flaky, since when has it failed, when did it last pass — and
 * the history of one test. Built from the stores' history columns (lib/history/column.ts) as flat
 * typed arrays: one byte per cell, so 5,000 tests × 200 reports is one megabyte, not a million objects.
 */
import type { ContainerStatus } from '../formatter/api.js';
import { isFlakyFlag, statusOf, type HistoryColumn } from './column.js';
import type { Report, Totals } from '../store/types.js';
import type { Store } from '../store/store.js';

export const MAX_HISTORY_REPORTS = 200;
export const DEFAULT_HISTORY_REPORTS = 20;

export type HistoryShow = 'all' | 'failing' | 'flaky';

export interface HistoryOptions {
  /** How many of the newest reports to compare. */
  n: number;
  /** Only reports carrying every tag (`branch:main` compares with itself). */
  tags: string[];
  /** Only reports whose CI context names this branch; null for every branch. */
  branch: string | null;
  show: HistoryShow;
  offset: number;
  limit: number;
}

export interface HistoryReport {
  /** The report's public number, as every report id a client sees. */
  id: number;
  created_at: string;
  date: string;
  tags: string[];
  totals: Totals;
}

export interface HistoryCell {
  status: ContainerStatus;
  /** The format itself marked the test flaky in this run (a retry passed). */
  flaky: boolean;
  duration_ms: number | null;
  /** The container in its report: `/reports/{report}` opens it. */
  seq: number;
}

export interface ReportPointer {
  /** The report's public number. */
  report_id: number;
  date: string;
}

export interface HistoryTest {
  key: number;
  path: string[];
  /** Status of the newest report that has the test. */
  latest: ContainerStatus | null;
  /** Times the outcome changed between passed and failed/errored, oldest to newest. */
  flips: number;
  /** Two flips or more, or marked flaky by its format in one of the reports. */
  flaky: boolean;
  /** The first report of the current unbroken run of failures; null when the newest outcome is not a failure. */
  first_failed: ReportPointer | null;
  /** The newest report where it passed. */
  last_passed: ReportPointer | null;
  /** One per report, newest first; null where the report lacks the test. */
  cells: (HistoryCell | null)[];
}

export interface HistoryComparison {
  profile_id: string;
  n: number;
  tags: string[];
  branch: string | null;
  show: HistoryShow;
  /** Compared reports, newest first. */
  reports: HistoryReport[];
  counts: { tests: number; failing: number; flaky: number };
  /** Tests after the `show` filter, before paging. */
  total: number;
  offset: number;
  limit: number;
  tests: HistoryTest[];
}

const MISSING = 0xff;

interface Matrix {
  reports: Report[];
  /** The columns, newest first, for the titles. */
  columns: HistoryColumn[];
  keys: number[];
  /** rows × reports, row-major, newest report first; MISSING where absent. */
  flags: Uint8Array;
  durations: Float32Array;
  seqs: Uint32Array;
}

/** Which reports are compared: the newest `n` with every tag and, when given, of one branch. */
export interface ReportSelection {
  n: number;
  tags: string[];
  branch: string | null;
}

const listReports = (store: Store, profileId: string, o: ReportSelection): Promise<Report[]> =>
  store.reports.list(profileId, {
    limit: o.n,
    ...(o.tags.length ? { tags: o.tags } : {}),
    ...(o.branch ? { branch: o.branch } : {}),
  });

async function loadMatrix(store: Store, profileId: string, o: ReportSelection): Promise<Matrix> {
  const listed = await listReports(store, profileId, o);
  const columns = await store.history.columns(listed.map((r) => r.id));
  const has = new Set(columns.map((c) => c.reportId));
  const reports = listed.filter((r) => has.has(r.id));
  const width = columns.length;
  const rowOf = new Map<number, number>();
  const keys: number[] = [];
  const rowsPerColumn: Int32Array[] = columns.map((c: HistoryColumn) => {
    const rows = new Int32Array(c.keys.length);
    for (let i = 0; i < c.keys.length; i++) {
      const key = c.keys[i]!;
      let row = rowOf.get(key);
      if (row === undefined) {
        row = keys.length;
        rowOf.set(key, row);
        keys.push(key);
      }
      rows[i] = row;
    }
    return rows;
  });
  const flags = new Uint8Array(keys.length * width).fill(MISSING);
  const durations = new Float32Array(keys.length * width);
  const seqs = new Uint32Array(keys.length * width);
  columns.forEach((c, j) => {
    const rows = rowsPerColumn[j]!;
    for (let i = 0; i < rows.length; i++) {
      const at = rows[i]! * width + j;
      // A column keeps every test; of two with one path in a report, the first (by id) is its row.
      if (flags[at] !== MISSING) continue;
      flags[at] = c.flags[i]!;
      durations[at] = c.durations[i]!;
      seqs[at] = c.seqs[i]!;
    }
  });
  return { reports, columns, keys, flags, durations, seqs };
}

/** Title paths of the keys, from the newest column that has each (a renamed suite shows its new name). */
function titlesOf(columns: readonly HistoryColumn[], keys: readonly number[]): Map<number, string[]> {
  const titles = new Map<number, string[]>();
  const wanted = new Set(keys);
  for (const c of columns) {
    if (wanted.size === 0) break;
    for (let i = 0; i < c.keys.length; i++) {
      const key = c.keys[i]!;
      if (!wanted.has(key)) continue;
      titles.set(key, c.pathOf(i));
      wanted.delete(key);
    }
  }
  return titles;
}

function isFailure(s: ContainerStatus): boolean {
  return s === 'failed' || s === 'errored';
}

interface RowFacts {
  latest: ContainerStatus | null;
  flips: number;
  flaky: boolean;
  firstFailed: number;
  lastPassed: number;
}

function factsOf(m: Matrix, row: number): RowFacts {
  const width = m.reports.length;
  const base = row * width;
  let latest: ContainerStatus | null = null;
  let flips = 0;
  let marked = false;
  let previous: boolean | null = null;
  let lastPassed = -1;
  // Oldest to newest, so a flip is counted in the order runs happened.
  for (let j = width - 1; j >= 0; j--) {
    const f = m.flags[base + j]!;
    if (f === MISSING) continue;
    if (isFlakyFlag(f)) marked = true;
    const s = statusOf(f);
    if (s === 'passed' && (lastPassed === -1 || j < lastPassed)) lastPassed = j;
    if (s !== 'passed' && !isFailure(s)) continue;
    const failed = isFailure(s);
    if (previous !== null && previous !== failed) flips++;
    previous = failed;
  }
  let firstFailed = -1;
  for (let j = 0; j < width; j++) {
    const f = m.flags[base + j]!;
    if (f === MISSING) continue;
    const s = statusOf(f);
    latest ??= s;
    // Skipped runs neither end nor start a run of failures.
    if (s === 'passed') break;
    if (isFailure(s)) firstFailed = j;
  }
  return { latest, flips, flaky: marked || flips >= 2, firstFailed, lastPassed };
}

function pointer(m: Matrix, j: number): ReportPointer | null {
  const r = j >= 0 ? m.reports[j] : undefined;
  return r ? { report_id: r.number, date: r.date } : null;
}

function cellsOf(m: Matrix, row: number): (HistoryCell | null)[] {
  const width = m.reports.length;
  const cells: (HistoryCell | null)[] = [];
  for (let j = 0; j < width; j++) {
    const at = row * width + j;
    const f = m.flags[at]!;
    if (f === MISSING) {
      cells.push(null);
      continue;
    }
    const d = m.durations[at]!;
    cells.push({
      status: statusOf(f),
      flaky: isFlakyFlag(f),
      duration_ms: Number.isNaN(d) ? null : d,
      seq: m.seqs[at]!,
    });
  }
  return cells;
}

function reportOf(r: Report): HistoryReport {
  return { id: r.number, created_at: r.createdAt, date: r.date, tags: r.tags, totals: r.totals };
}

export async function compareHistory(store: Store, profileId: string, o: HistoryOptions): Promise<HistoryComparison> {
  const m = await loadMatrix(store, profileId, o);
  const titles = titlesOf(m.columns, m.keys);
  const facts = m.keys.map((_, row) => factsOf(m, row));
  const joined = m.keys.map((key) => (titles.get(key) ?? [`#${key}`]).join('\u0000'));
  let rows = m.keys.map((_, row) => row);
  const counts = {
    tests: rows.length,
    failing: facts.filter((f) => f.latest !== null && isFailure(f.latest)).length,
    flaky: facts.filter((f) => f.flaky).length,
  };
  if (o.show === 'failing') rows = rows.filter((row) => facts[row]!.latest !== null && isFailure(facts[row]!.latest!));
  if (o.show === 'flaky') rows = rows.filter((row) => facts[row]!.flaky);
  rows.sort((a, b) => (joined[a]! < joined[b]! ? -1 : joined[a]! > joined[b]! ? 1 : 0));
  const page = rows.slice(o.offset, o.offset + o.limit);
  return {
    profile_id: profileId,
    n: o.n,
    tags: o.tags,
    branch: o.branch,
    show: o.show,
    reports: m.reports.map(reportOf),
    counts,
    total: rows.length,
    offset: o.offset,
    limit: o.limit,
    tests: page.map((row) => {
      const f = facts[row]!;
      const key = m.keys[row]!;
      return {
        key,
        path: titles.get(key) ?? [],
        latest: f.latest,
        flips: f.flips,
        flaky: f.flaky,
        first_failed: pointer(m, f.firstFailed),
        last_passed: pointer(m, f.lastPassed),
        cells: cellsOf(m, row),
      };
    }),
  };
}

/** One test across the last N reports: its row of the comparison, with the reports beside it. */
export async function testHistory(
  store: Store,
  profileId: string,
  key: number,
  o: ReportSelection,
): Promise<{ reports: HistoryReport[]; test: HistoryTest } | null> {
  const listed = await listReports(store, profileId, o);
  const columns = await store.history.columns(listed.map((r) => r.id));
  const byId = new Map(listed.map((r) => [r.id, r]));
  const width = columns.length;
  const m: Matrix = {
    reports: columns.map((c) => byId.get(c.reportId)!),
    columns,
    keys: [key],
    flags: new Uint8Array(width).fill(MISSING),
    durations: new Float32Array(width),
    seqs: new Uint32Array(width),
  };
  columns.forEach((c, j) => {
    const i = c.keys.indexOf(key);
    if (i < 0) return;
    m.flags[j] = c.flags[i]!;
    m.durations[j] = c.durations[i]!;
    m.seqs[j] = c.seqs[i]!;
  });
  const path = titlesOf(columns, [key]).get(key);
  if (!path) return null;
  const f = factsOf(m, 0);
  return {
    reports: m.reports.map(reportOf),
    test: {
      key,
      path,
      latest: f.latest,
      flips: f.flips,
      flaky: f.flaky,
      first_failed: pointer(m, f.firstFailed),
      last_passed: pointer(m, f.lastPassed),
      cells: cellsOf(m, 0),
    },
  };
}
