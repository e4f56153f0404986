/**
 * History columns: what the history comparison reads. When a report completes, its store writes one
 * column per report — every test's title-path key, seq, status, flaky mark, duration and title path,
 * packed as typed arrays — so comparing the last N reports reads N binary values instead of
 * N × tests container rows (200 reports × 5,000 tests is 200 reads, not a million rows), and both
 * stores keep the same bytes. Titles sit in the column (one UTF-8 block with offsets, read one at a
 * time) rather than in a table of their own: writing them is then one sequential blob per report,
 * where a keyed table took a random B-tree insert per test.
 *
 * Layout of one part: u32 count, u32 version, then count × f64 keys, count × u32 seqs,
 * count × f32 durations (NaN for none), (count + 1) × u32 title offsets, count × u8
 * (status code | flaky << 7), then the titles (paths joined by U+001F), UTF-8.
 */
import type { ContainerStatus } from '../formatter/api.js';
import { hash53 } from '../hash53.js';
import type { FileHistory } from './file-history.js';

export const STATUS_CODES: readonly ContainerStatus[] = [
  'passed',
  'failed',
  'errored',
  'skipped',
  'pending',
  'unknown',
];
const CODE_OF = new Map(STATUS_CODES.map((s, i) => [s, i]));
const FLAKY_BIT = 0x80;
const FORMAT_VERSION = 1;
const HEADER_BYTES = 8;
const BYTES_PER_TEST = 8 + 4 + 4 + 4 + 1;

/** Tests per stored part: bounds the memory of building a huge report's column (and a MongoDB document). */
export const TESTS_PER_PART = 50_000;

/** Joins a title path into the text the key is made from (and the embedded store keeps). */
export const PATH_SEPARATOR = '\u001f';

export interface HistoryColumn {
  reportId: string;
  keys: Float64Array;
  seqs: Uint32Array;
  durations: Float32Array;
  /** Status code (index in STATUS_CODES), with FLAKY_BIT when the format marked the test flaky. */
  flags: Uint8Array;
  /** The title path of entry `i`, decoded on demand. */
  pathOf(i: number): string[];
}

export interface HistoryTest {
  seq: number;
  parentSeq: number | null;
  title: string;
  status: ContainerStatus;
  durationMs: number | null;
  flaky: boolean;
}

/** One part of a column, written as soon as it is full. */
export interface HistoryPart {
  index: number;
  data: Buffer;
}

export interface ParentTitle {
  parentSeq: number | null;
  title: string;
}

export function statusOf(flags: number): ContainerStatus {
  return STATUS_CODES[flags & ~FLAKY_BIT] ?? 'unknown';
}

export function isFlakyFlag(flags: number): boolean {
  return (flags & FLAKY_BIT) !== 0;
}

/**
 * 53-bit hash of a title path: a safe integer in JS, an integer column in SQLite, a double in
 * MongoDB. Two 32-bit multiply-xorshift lanes; collisions among a profile's tests are negligible
 * (~1e-9 for 5,000 titles) and would only merge two rows of the comparison.
 */
export function historyKey(path: readonly string[]): number {
  return hash53(path.join(PATH_SEPARATOR));
}

/**
 * Collects a report's tests into column parts. Parent titles come from `parents` (every container
 * that has children); a test's path is its ancestors' titles and its own. Every test is kept, a
 * second one with the same path too (the `duplicate_field_titles` case): readers take the first of
 * a path. Leaving them out here took a set of every key of the report (~40 MiB at two million tests).
 * Parts come out as they fill, so a report of a million tests never holds all its paths at once.
 */
export class HistoryColumnBuilder {
  readonly #parents: Map<number, ParentTitle>;
  /** Joined path of a parent, with a trailing separator: what its children's paths start with. */
  readonly #prefixes = new Map<number, string>();
  #keys: number[] = [];
  #seqs: number[] = [];
  #durations: number[] = [];
  #flags: number[] = [];
  #titles: string[] = [];
  #parts = 0;

  constructor(parents: Map<number, ParentTitle>) {
    this.#parents = parents;
  }

  /** A full part to write, or null. */
  add(t: HistoryTest): HistoryPart | null {
    // One joined string per test: the key is its hash and it is the stored title.
    const path = this.#prefixOf(t.parentSeq) + t.title;
    const key = hash53(path);
    this.#titles.push(path);
    this.#keys.push(key);
    this.#seqs.push(t.seq);
    this.#durations.push(t.durationMs ?? Number.NaN);
    this.#flags.push((CODE_OF.get(t.status) ?? 5) | (t.flaky ? FLAKY_BIT : 0));
    return this.#keys.length >= TESTS_PER_PART ? this.#flush() : null;
  }

  /**
   * One part of a file's tests, its ids shifted by `base` (the ids used before the file). Parts must
   * come in id order; their containers' titles are forgotten after, so memory holds one part's
   * parents at most.
   */
  addPart(h: FileHistory, base: number): HistoryPart[] {
    const p = h.parents;
    for (let i = 0; i < p.seqs.length; i++) {
      const parent = p.parents[i]!;
      this.#parents.set(p.seqs[i]! + base, { parentSeq: parent === null ? null : parent + base, title: p.titles[i]! });
    }
    const parts: HistoryPart[] = [];
    const t = h.tests;
    for (let i = 0; i < t.seqs.length; i++) {
      const parent = t.parents[i]!;
      const part = this.add({
        seq: t.seqs[i]! + base,
        parentSeq: parent === null ? null : parent + base,
        title: t.titles[i]!,
        status: t.statuses[i]!,
        durationMs: t.durations[i]!,
        flaky: t.flaky[i]!,
      });
      if (part) parts.push(part);
    }
    for (const seq of p.seqs) {
      this.#parents.delete(seq + base);
      this.#prefixes.delete(seq + base);
    }
    return parts;
  }

  /** The last part; an empty report has one empty part (so "has a column" holds). */
  finish(): HistoryPart | null {
    return this.#keys.length > 0 || this.#parts === 0 ? this.#flush() : null;
  }

  #prefixOf(seq: number | null): string {
    if (seq === null) return '';
    const known = this.#prefixes.get(seq);
    if (known !== undefined) return known;
    // Iterative walk up: a deep tree must not recurse; a cycle (never written by Tally) stops at 1,000.
    const chain: string[] = [];
    let base = '';
    let at: number | null = seq;
    for (let depth = 0; at !== null && depth < 1000; depth++) {
      const cached = this.#prefixes.get(at);
      if (cached !== undefined) {
        base = cached;
        break;
      }
      const p = this.#parents.get(at);
      if (!p) break;
      chain.push(p.title);
      at = p.parentSeq;
    }
    const prefix =
      base +
      chain
        .reverse()
        .map((title) => title + PATH_SEPARATOR)
        .join('');
    this.#prefixes.set(seq, prefix);
    return prefix;
  }

  #flush(): HistoryPart {
    const part = {
      index: this.#parts++,
      data: encodePart(this.#keys, this.#seqs, this.#durations, this.#flags, this.#titles),
    };
    this.#keys = [];
    this.#seqs = [];
    this.#durations = [];
    this.#flags = [];
    this.#titles = [];
    return part;
  }
}

function encodePart(keys: number[], seqs: number[], durations: number[], flags: number[], titles: string[]): Buffer {
  const n = keys.length;
  const text = Buffer.from(titles.join(''), 'utf8');
  const fixed = HEADER_BYTES + n * BYTES_PER_TEST + 4;
  const ab = new ArrayBuffer(fixed + text.length);
  const header = new Uint32Array(ab, 0, 2);
  header[0] = n;
  header[1] = FORMAT_VERSION;
  new Float64Array(ab, HEADER_BYTES, n).set(keys);
  new Uint32Array(ab, HEADER_BYTES + 8 * n, n).set(seqs);
  new Float32Array(ab, HEADER_BYTES + 12 * n, n).set(durations);
  const offsets = new Uint32Array(ab, HEADER_BYTES + 16 * n, n + 1);
  let at = 0;
  titles.forEach((title, i) => {
    offsets[i] = at;
    at += Buffer.byteLength(title, 'utf8');
  });
  offsets[n] = at;
  new Uint8Array(ab, HEADER_BYTES + 20 * n + 4, n).set(flags);
  new Uint8Array(ab, fixed).set(text);
  return Buffer.from(ab);
}

interface DecodedPart {
  keys: Float64Array;
  seqs: Uint32Array;
  durations: Float32Array;
  flags: Uint8Array;
  pathOf(i: number): string[];
}

function decodePart(reportId: string, bytes: Uint8Array): DecodedPart {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = bytes.byteLength >= HEADER_BYTES ? view.getUint32(0, true) : 0;
  const version = bytes.byteLength >= HEADER_BYTES ? view.getUint32(4, true) : 0;
  const fixed = HEADER_BYTES + n * BYTES_PER_TEST + 4;
  if (version !== FORMAT_VERSION || bytes.byteLength < fixed)
    throw new Error(`The history column of report ${reportId} is not in format ${FORMAT_VERSION}.`);
  // The fixed-width arrays are copied into a fresh ArrayBuffer (stored bytes come at any offset,
  // typed arrays need alignment); the titles stay where they are, read only when asked for.
  const ab = new ArrayBuffer(fixed);
  new Uint8Array(ab).set(bytes.subarray(0, fixed));
  const offsets = new Uint32Array(ab, HEADER_BYTES + 16 * n, n + 1);
  if (bytes.byteLength !== fixed + offsets[n]!)
    throw new Error(`The history column of report ${reportId} is not in format ${FORMAT_VERSION}.`);
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + fixed, bytes.byteLength - fixed);
  return {
    keys: new Float64Array(ab, HEADER_BYTES, n),
    seqs: new Uint32Array(ab, HEADER_BYTES + 8 * n, n),
    durations: new Float32Array(ab, HEADER_BYTES + 12 * n, n),
    flags: new Uint8Array(ab, HEADER_BYTES + 20 * n + 4, n),
    pathOf: (i) => text.toString('utf8', offsets[i], offsets[i + 1]).split(PATH_SEPARATOR),
  };
}

/** One column from its stored parts (in part order). */
export function decodeColumn(reportId: string, parts: readonly Uint8Array[]): HistoryColumn {
  const decoded = parts.map((bytes) => decodePart(reportId, bytes));
  if (decoded.length === 1) return { reportId, ...decoded[0]! };
  const total = decoded.reduce((sum, d) => sum + d.keys.length, 0);
  const starts: number[] = [];
  const column: HistoryColumn = {
    reportId,
    keys: new Float64Array(total),
    seqs: new Uint32Array(total),
    durations: new Float32Array(total),
    flags: new Uint8Array(total),
    pathOf(i) {
      let p = starts.length - 1;
      while (p > 0 && starts[p]! > i) p--;
      return decoded[p]!.pathOf(i - starts[p]!);
    },
  };
  let at = 0;
  for (const d of decoded) {
    starts.push(at);
    column.keys.set(d.keys, at);
    column.seqs.set(d.seqs, at);
    column.durations.set(d.durations, at);
    column.flags.set(d.flags, at);
    at += d.keys.length;
  }
  return column;
}
