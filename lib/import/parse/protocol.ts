/**
 * Messages between an import and a parse worker. One job is one file: bytes go in with credit
 * (the worker says when it has read a chunk), container batches come out with credit (the import
 * says when it has taken a batch), so neither side buffers more than a few chunks of the other.
 */
import type { EncodingGuess } from '../../formatter/encoding.js';
import type { RowWriterDescription } from '../../store/containers.js';
import type { StoredContainer, Totals } from '../../store/types.js';
import type { AttachmentRef } from '../assemble/assembler.js';
import type { FileHistory } from '../../history/file-history.js';
import type { FormatterModule } from './formatter-modules.js';

/** Input chunks a job may have sent but the worker not yet read. */
export const INPUT_CREDIT = 4;
/** Output batches a worker may have posted but the import not yet taken (or, writing itself, hold before its turn). */
export const OUTPUT_CREDIT = 4;
/** A worker posts its batch at this many containers or estimated bytes, whichever comes first. */
export const OUT_BATCH_COUNT = 256;
export const OUT_BATCH_BYTES = 1024 * 1024;
/**
 * A worker writing itself uses the store batcher's sizes instead: each transaction has a fixed
 * cost (its commit), so fewer, larger ones are cheaper, and nothing crosses threads.
 */
export const WRITE_BATCH_COUNT = 1000;
export const WRITE_BATCH_BYTES = 4 * 1024 * 1024;
/** Containers written before the worker tells the import (progress); the rest at the file's end. */
export const WROTE_REPORT_EVERY = 4096;
/**
 * Containers of one top-level subtree (a suite and everything in it) whose history a worker gathers
 * before handing it over (~100 bytes each); past it the report's column is read back from the store
 * when the report completes.
 */
export const HISTORY_MAX_CONTAINERS = 100_000;

/** What a parse thread is started with (its `workerData`). */
export interface ThreadData {
  formatterModules: readonly FormatterModule[];
}

export interface JobStart {
  t: 'start';
  job: number;
  formatter: string;
  encoding: EncodingGuess;
  fileName: string;
  reportId: string;
  smart: boolean;
  maxTextChars: number;
  /**
   * Set when the worker writes the containers itself, through the store's row writer: it holds them
   * until the import gives the file its turn (`commit`, with the ids used so far and the file's
   * index), then writes them.
   */
  rowWriter: RowWriterDescription | null;
}

export type ToWorker =
  | JobStart
  | { t: 'chunk'; job: number; data: Uint8Array }
  | { t: 'end'; job: number }
  | { t: 'ack'; job: number }
  | { t: 'commit'; job: number; base: number; fileIndex: number }
  | { t: 'abort'; job: number };

/** What the file amounted to; container ids in it are the file's own (1, 2, …), rebased by the import. */
export interface JobResult {
  totals: Totals;
  earliest: string | null;
  duplicates: string[];
  duplicateCount: number;
  truncated: number;
  refs: AttachmentRef[];
  producer: string | null;
  noTests: boolean;
  /** The last id the file's containers used. */
  lastId: number;
}

export interface JobFailure {
  name: string;
  message: string;
  /** The underlying error's code (SQLITE_FULL, ENOSPC, …), so the import can tell a full disk from other faults. */
  code?: string;
  line: number | null;
  column: number | null;
  stack?: string;
}

export type FromWorker =
  | { t: 'ready'; job: 0 }
  | { t: 'read'; job: number }
  | { t: 'batch'; job: number; containers: StoredContainer[] }
  | { t: 'wrote'; job: number; count: number }
  /** Written by the worker itself: a complete part of the file's history column (null: gave up, read it back). */
  | { t: 'history'; job: number; history: FileHistory | null }
  | { t: 'done'; job: number; result: JobResult }
  | { t: 'fail'; job: number; error: JobFailure };
