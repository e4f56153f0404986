/**
 * What giving space back costs, and what it gives, on the embedded store: a database without
 * incremental vacuum (as made before it) against one with it (every new one), in alternating runs.
 * Each run writes `--reports` reports of `--tests` tests (~300 bytes of output each) through the
 * Store API in batches of 1000, as an import's thread does, then deletes the oldest two reports as
 * retention would (one by one, then one reclaim), and prints the insert cost per row, the time the
 * deletions and the reclaim took, and the database file and log before and after. The database
 * without incremental vacuum is then switched over by `vacuum()` (what `tally vacuum` does), timed.
 *
 *   npm run bench:retention -- [--reports 5] [--tests 40000] [--runs 3]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { createEmbeddedStore, PAGE_SIZE } from '../lib/store/embedded/index.js';
import { databaseBytes } from '../lib/store/embedded/space.js';
import type { StoredContainer } from '../lib/store/types.js';

const { values } = parseArgs({
  options: {
    reports: { type: 'string', default: '5' },
    tests: { type: 'string', default: '40000' },
    runs: { type: 'string', default: '3' },
  },
});
const REPORTS = Number(values.reports);
const TESTS = Number(values.tests);
const RUNS = Number(values.runs);
const MiB = 1024 * 1024;

type Mode = 'none' | 'incremental';

function row(reportId: string, seq: number): StoredContainer {
  return {
    reportId,
    seq,
    parentSeq: null,
    fileIndex: 0,
    type: 'test',
    title: `com.example.suite${seq % 97}.Case${seq}`,
    status: seq % 50 === 0 ? 'failed' : 'passed',
    durationMs: seq % 1000,
    startedAt: null,
    failure:
      seq % 50 === 0 ? { message: 'expected 1 but was 2', type: 'AssertionError', stack: 'at x\n'.repeat(8) } : null,
    output: { stdout: `log line ${seq} `.repeat(20), stderr: null },
    properties: [],
    attachmentRefs: [],
    attachments: [],
    flaky: false,
    attempts: [],
    meta: {},
  };
}

async function run(mode: Mode): Promise<Record<string, number>> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tally-bench-retention-'));
  try {
    if (mode === 'none') {
      // As a Tally before incremental vacuum made it: WAL set on the empty file fixes auto_vacuum at NONE.
      const raw = new Database(path.join(dataDir, 'tally.sqlite'));
      raw.pragma(`page_size = ${PAGE_SIZE}`);
      raw.pragma('journal_mode = WAL');
      raw.close();
    }
    const store = createEmbeddedStore({ dataDir, reserveBytes: 0, switchAtOpenBytes: 0 });
    await store.init();
    const account = await store.accounts.create('bench');
    const profile = await store.profiles.create(account.id, 'bench');
    const reports = [];
    let insertMs = 0;
    for (let r = 0; r < REPORTS; r++) {
      const imp = await store.imports.create({
        profileId: profile.id,
        accountId: account.id,
        endpoint: 'import',
        formatter: 'junit',
      });
      const report = await store.reports.create({
        profileId: profile.id,
        importId: imp.id,
        tags: [],
        date: imp.createdAt,
      });
      const started = performance.now();
      for (let from = 1; from <= TESTS; from += 1000)
        await store.containers.insert(
          Array.from({ length: Math.min(1000, TESTS - from + 1) }, (_, i) => row(report.id, from + i)),
        );
      insertMs += performance.now() - started;
      await store.reports.complete(report.id, {
        date: report.date,
        totals: {
          containers: TESTS,
          tests: TESTS,
          passed: TESTS,
          failed: 0,
          errored: 0,
          skipped: 0,
          pending: 0,
          unknown: 0,
          flaky: 0,
        },
        files: [],
        messages: [],
        tags: [],
      });
      await store.imports.update(imp.id, { status: 'completed', finishedAt: new Date().toISOString() });
      reports.push(report);
    }
    // The log copied and emptied, so both modes start the deletions from the same state.
    await store.reclaimSpace();
    const before = await databaseBytes(store.databasePath);
    const t0 = performance.now();
    for (const report of reports.slice(0, 2)) await store.reports.delete(report.id, { reclaim: false });
    const t1 = performance.now();
    const reclaimed = await store.reclaimSpace();
    const t2 = performance.now();
    const after = await databaseBytes(store.databasePath);
    let vacuumMs = Number.NaN;
    let vacuumedMiB = Number.NaN;
    if (mode === 'none') {
      const t3 = performance.now();
      vacuumedMiB = (await store.vacuum())!.bytesAfter / MiB;
      vacuumMs = performance.now() - t3;
    }
    await store.close();
    return {
      usPerRow: (insertMs * 1000) / (REPORTS * TESTS),
      deleteMs: t1 - t0,
      reclaimMs: t2 - t1,
      beforeMiB: before / MiB,
      afterMiB: after / MiB,
      reclaimedMiB: reclaimed.bytes / MiB,
      vacuumMs,
      vacuumedMiB,
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

console.log(`${REPORTS} reports × ${TESTS} tests; the oldest 2 deleted; ${RUNS} alternating runs`);
console.log('mode         µs/row  delete ms  reclaim ms  before MiB  after MiB  vacuum ms  vacuumed MiB');
for (let i = 0; i < RUNS; i++)
  for (const mode of ['none', 'incremental'] as const) {
    const r = await run(mode);
    console.log(
      `${mode.padEnd(12)} ${r.usPerRow!.toFixed(2).padStart(6)} ${r.deleteMs!.toFixed(0).padStart(10)} ` +
        `${r.reclaimMs!.toFixed(0).padStart(11)} ${r.beforeMiB!.toFixed(1).padStart(11)} ${r.afterMiB!.toFixed(1).padStart(10)}` +
        (mode === 'none' ? ` ${r.vacuumMs!.toFixed(0).padStart(10)} ${r.vacuumedMiB!.toFixed(1).padStart(13)}` : ''),
    );
  }
