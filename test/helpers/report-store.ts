/**
 * A real embedded store (SQLite in a temp folder) holding one building report, for the tests of the
 * finalize steps that rewrite a report's containers. Containers are written as rows
 * `[seq, parentSeq, type, title, durationMs, fileIndex?]` and read back without the file index:
 * what those steps look at or change (status aside, read with `container`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import type { ContainerType } from '../../lib/formatter/api.js';
import { createEmbeddedStore } from '../../lib/store/embedded/index.js';
import type { Store } from '../../lib/store/store.js';
import type { StoredContainer } from '../../lib/store/types.js';
import { seed } from '../store/conformance/fixtures.js';

export type Row = [
  seq: number,
  parentSeq: number | null,
  type: ContainerType,
  title: string,
  durationMs: number | null,
  /** The file the container came from (0 unless given); `rows()` leaves it out. */
  fileIndex?: number,
];

export interface ReportStore {
  store: Store;
  reportId: string;
  insert(rows: Row[]): Promise<void>;
  /** Every container of the report, at any depth, in seq order. */
  rows(): Promise<Row[]>;
  container(seq: number): Promise<StoredContainer | null>;
}

export async function reportStore(t: Test): Promise<ReportStore> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tally-import-test-'));
  const store = createEmbeddedStore({ dataDir, reserveBytes: 0 });
  t.teardown(async () => {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  await store.init();
  const { profile, imp } = await seed(store);
  const report = await store.reports.create({
    profileId: profile.id,
    importId: imp.id,
    tags: [],
    date: new Date().toISOString(),
  });
  const reportId = report.id;
  return {
    store,
    reportId,
    insert: (rows) => store.containers.insert(rows.map((r) => container(reportId, r))),
    async rows() {
      const all = await store.containers.find(reportId, { limit: 1_000_000 });
      return all.map((c) => [c.seq, c.parentSeq, c.type, c.title, c.durationMs]);
    },
    container: (seq) => store.containers.get(reportId, seq),
  };
}

function container(reportId: string, [seq, parentSeq, type, title, durationMs, fileIndex = 0]: Row): StoredContainer {
  return {
    reportId,
    seq,
    parentSeq,
    fileIndex,
    type,
    title,
    status: 'passed',
    durationMs,
    startedAt: null,
    failure: null,
    output: null,
    properties: [],
    attachmentRefs: [],
    attachments: [],
    flaky: false,
    attempts: [],
    meta: {},
  };
}
