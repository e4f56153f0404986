/**
 * What the conformance cases share: the harness an adapter's test hands them, and the records they
 * build (an account with a profile and an import, containers, messages).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Test } from 'tap';
import type { OpenRowWriter } from '../../../lib/store/containers.js';
import type { Store } from '../../../lib/store/store.js';
import type { Message, StoredContainer, Totals } from '../../../lib/store/types.js';

export interface StoreHarness {
  /** An empty store; the suite calls init() itself (init must be idempotent). */
  store: Store;
  /** Closes every store the harness handed out (close must be idempotent) and removes their data. */
  cleanup(): Promise<void>;
  /** A new Store instance over the same data, for the reopen check; without it the suite reuses `store`. */
  reopen?(): Promise<Store>;
  /** Every file of the adapter's blob storage, temp files included, for adapters that keep blobs as files. */
  listBlobFiles?(): Promise<string[]>;
  /** Whether the store keeps space back for cleaning up (releaseReserve frees it once). */
  keepsReserve: boolean;
  /**
   * How many records each table or collection holds, read behind the store's back, blob storage
   * included (the blob folder's files, GridFS files and chunks): what a deletion must leave as it was.
   */
  countRecords(): Promise<Record<string, number>>;
  /**
   * Where a text occurs in what the store keeps, read behind its back: the bytes of the database's
   * files (embedded), every document of every collection (MongoDB). Empty when it occurs nowhere.
   */
  findText(text: string): Promise<string[]>;
}

/** One case: a fresh, open store of its own, so cases never depend on one another. */
export type Case = (t: Test, h: StoreHarness, store: Store) => Promise<void>;

/** A noun's cases by title. */
export type Cases = Record<string, Case>;

/** An account, a profile and an import: what every report needs. */
export async function seed(store: Store) {
  const account = await store.accounts.create('Acme');
  const profile = await store.profiles.create(account.id, 'main');
  const imp = await store.imports.create({
    profileId: profile.id,
    accountId: account.id,
    endpoint: 'import',
    formatter: null,
  });
  return { account, profile, imp };
}

export function apiKey(keyId: string, accountId: string) {
  return {
    keyId,
    accountId,
    secretHash: sha256(Buffer.from(keyId)),
    createdAt: new Date().toISOString(),
    revokedAt: null,
  };
}

export function container(
  reportId: string,
  seq: number,
  parentSeq: number | null,
  extra: Partial<StoredContainer> = {},
): StoredContainer {
  return {
    reportId,
    seq,
    parentSeq,
    fileIndex: 0,
    type: 'test',
    title: `container ${seq}`,
    status: 'passed',
    durationMs: 12,
    startedAt: null,
    failure: null,
    output: null,
    properties: [],
    attachmentRefs: [],
    attachments: [],
    flaky: false,
    attempts: [],
    meta: {},
    ...extra,
  };
}

/** Every nested field filled, emptied or nulled, with text that trips naive encodings. */
export function richContainers(reportId: string): StoredContainer[] {
  return [
    container(reportId, 1, null, {
      type: 'suite',
      title: 'Suite ü 日本語 🚀 עברית',
      status: 'failed',
      durationMs: 1234.5,
      startedAt: '2024-05-01T10:00:00.000Z',
      output: { stdout: 'line 1\nline 2 — ✓\r\n', stderr: null },
      meta: { file: 'src/ü.test.ts' },
    }),
    container(reportId, 2, 1, {
      fileIndex: 3,
      title: `quotes " ' \\ and a tab\t and e\u0301`,
      status: 'failed',
      durationMs: 0,
      failure: {
        message: 'expected <1> but was <2> 💥',
        type: 'java.lang.AssertionError',
        stack: 'at a.B.c(B.java:1)\n\tat …',
      },
      properties: [
        { name: 'ключ', value: '' },
        { name: 'k', value: 'v=1; "x"' },
      ],
      attachmentRefs: ['shots/a b.png', 'C:\\tmp\\x.txt'],
      attachments: [
        { name: 'a b.png', blobId: randomUUID(), contentType: 'image/png', size: 12 },
        { name: 'x.txt', blobId: randomUUID(), contentType: null, size: 0 },
      ],
      flaky: true,
      attempts: [
        { status: 'failed', durationMs: 10.25, failure: { message: null, type: null, stack: null } },
        { status: 'passed', durationMs: null, failure: null },
      ],
      meta: { classname: 'a.B', line: '42', empty: '' },
    }),
    container(reportId, 3, 1, {
      type: 'step',
      title: '',
      status: 'unknown',
      durationMs: null,
      startedAt: '1999-12-31T23:59:59.999Z',
      failure: { message: '', type: null, stack: null },
      output: { stdout: null, stderr: null },
      properties: [],
    }),
    container(reportId, 4, 1, {
      type: 'hook',
      status: 'skipped',
      durationMs: 123456789.125,
      output: { stdout: '', stderr: 'ⓔ'.repeat(5000) },
    }),
  ];
}

export function sampleMessages(): Message[] {
  return [
    {
      severity: 'error',
      code: 'ZIP_ENTRY_TOO_LARGE',
      message: 'Entry is too large.',
      file: 'r.zip',
      details: { entry: 'a/b.xml', limit: 1024, nested: [1, null, 'ü'] },
    },
    { severity: 'warning', code: null, message: 'Unused parameters: x, y' },
    { severity: 'notice', code: 'N1', message: '✓', at: '2024-01-01T00:00:00.000Z' },
  ];
}

export function zeroTotals(): Totals {
  return { containers: 0, tests: 0, passed: 0, failed: 0, errored: 0, skipped: 0, pending: 0, unknown: 0, flaky: 0 };
}

export function byId<T extends { id: string }>(list: T[]): T[] {
  return [...list].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export function isIsoTime(value: string): boolean {
  return !Number.isNaN(Date.parse(value)) && new Date(value).toISOString() === value;
}

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export async function readAll(stream: Readable | null): Promise<Buffer | null> {
  if (!stream) return null;
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

/** A file's container (seqs from 1) at its place in the report: ids past `base`, its file index. */
export function placed(c: StoredContainer, base: number, fileIndex: number): StoredContainer {
  return { ...c, seq: c.seq + base, parentSeq: c.parentSeq === null ? null : c.parentSeq + base, fileIndex };
}

/**
 * Writes a file's containers (seqs from 1) at `base` and `fileIndex` as a parse thread would: through
 * the store's row writer, loaded from its description, when the store has one; else they go back to
 * the import thread (`containers.insert`).
 */
export async function writeAsThread(
  store: Store,
  file: StoredContainer[],
  base: number,
  fileIndex: number,
): Promise<void> {
  const description = store.containers.rowWriter();
  if (!description) {
    await store.containers.insert(file.map((c) => placed(c, base, fileIndex)));
    return;
  }
  const { openRowWriter } = (await import(description.module)) as { openRowWriter: OpenRowWriter };
  const writer = openRowWriter(description.options);
  try {
    const rows = file.map((c) => writer.encode(c));
    for (const row of rows) writer.place(row, base, fileIndex);
    writer.write(rows);
  } finally {
    writer.close();
  }
}
