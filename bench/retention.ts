/**
 * What giving space back costs, and what it gives, on the embedded store: a database without
 * incremental vacuum (as made before it) beside one with it (every new one), in one process. Each
 * run writes `--reports` reports of `--tests` tests (~300 bytes of output each) into both through the
 * Store API, in batches of 1000 as an import's thread does, the two taking turns batch by batch so a
 * busy machine slows both alike; then deletes the oldest two reports of each as retention would (one
 * by one, then one reclaim); then switches the older kind over with `vacuum()` (what `tally vacuum`
 * does). It prints the insert cost per row, the time the deletions, the reclaim and the vacuum took,
 * and the database file with its log before and after.
 *
 *   npm run bench:retention -- [--reports 3] [--tests 30000] [--runs 3]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { createEmbeddedStore, PAGE_SIZE, type EmbeddedStore } from '../lib/store/embedded/index.js';
import { databaseBytes } from '../lib/store/embedded/space.js';
import type { Report, StoredContainer } from '../lib/store/types.js';

const { values } = parseArgs({
  options: {
    reports: { type: 'string', default: '3' },
    tests: { type: 'string', default: '30000' },
    runs: { type: 'string', default: '3' },
  },
});
const REPORTS = Number(values.reports);
const TESTS = Number(values.tests);
const RUNS = Number(values.runs);
const MiB = 1024 * 1024;
const MODES = ['none', 'incremental'] as const;
type Mode = (typeof MODES)[number];

function row(reportId: string, seq: number): StoredContainer {
  const failed = seq % 50 === 0;
  return {
    reportId,
    seq,
    parentSeq: null,
    fileIndex: 0,
    type: 'test',
    title: `com.example.suite${seq % 97}.Case${seq}`,
    status: failed ? 'failed' : 'passed',
    durationMs: seq % 1000,
    startedAt: null,
    failure: failed ? { message: 'expected 1 but was 2', type: 'AssertionError', stack: 'at x\n'.repeat(8) } : null,
    output: { stdout: `log line ${seq} `.repeat(20), stderr: null },
    properties: [],
    attachmentRefs: [],
    attachments: [],
    flaky: false,
    attempts: [],
    meta: {},
  };
}

interface Side {
  mode: Mode;
  store: EmbeddedStore;
  profileId: string;
  accountId: string;
  reports: Report[];
  insertMs: number;
}

async function open(mode: Mode, dataDir: string): Promise<Side> {
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
  return { mode, store, profileId: profile.id, accountId: account.id, reports: [], insertMs: 0 };
}

async function run(): Promise<string[]> {
  const dirs = await Promise.all(MODES.map(() => mkdtemp(path.join(os.tmpdir(), 'tally-bench-retention-'))));
  const sides = await Promise.all(MODES.map((mode, i) => open(mode, dirs[i]!)));
  try {
    for (let r = 0; r < REPORTS; r++) {
      const made = await Promise.all(
        sides.map(async (s) => {
          const imp = await s.store.imports.create({
            profileId: s.profileId,
            accountId: s.accountId,
            endpoint: 'import',
            formatter: 'junit',
          });
          const report = await s.store.reports.create({
            profileId: s.profileId,
            importId: imp.id,
            tags: [],
            date: imp.createdAt,
          });
          return { imp, report };
        }),
      );
      for (let from = 1; from <= TESTS; from += 1000)
        for (const [i, s] of sides.entries()) {
          const batch = Array.from({ length: Math.min(1000, TESTS - from + 1) }, (_, k) =>
            row(made[i]!.report.id, from + k),
          );
          const started = performance.now();
          await s.store.containers.insert(batch);
          s.insertMs += performance.now() - started;
        }
      for (const [i, s] of sides.entries()) {
        const { imp, report } = made[i]!;
        await s.store.reports.complete(report.id, {
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
        await s.store.imports.update(imp.id, { status: 'completed', finishedAt: new Date().toISOString() });
        s.reports.push(report);
      }
    }
    const lines: string[] = [];
    for (const s of sides) {
      // The log copied and emptied first, so both start the deletions from the same state.
      await s.store.reclaimSpace();
      const before = await databaseBytes(s.store.databasePath);
      const t0 = performance.now();
      for (const report of s.reports.slice(0, 2)) await s.store.reports.delete(report.id, { reclaim: false });
      const t1 = performance.now();
      await s.store.reclaimSpace();
      const t2 = performance.now();
      const after = await databaseBytes(s.store.databasePath);
      let vacuum = '';
      if (s.mode === 'none') {
        const done = (await s.store.vacuum())!;
        const ms = (performance.now() - t2).toFixed(0);
        vacuum = ` ${ms.padStart(10)} ${(done.bytesAfter / MiB).toFixed(1).padStart(13)}`;
      }
      lines.push(
        `${s.mode.padEnd(12)} ${((s.insertMs * 1000) / (REPORTS * TESTS)).toFixed(2).padStart(6)} ` +
          `${(t1 - t0).toFixed(0).padStart(10)} ${(t2 - t1).toFixed(0).padStart(11)} ` +
          `${(before / MiB).toFixed(1).padStart(11)} ${(after / MiB).toFixed(1).padStart(10)}${vacuum}`,
      );
    }
    return lines;
  } finally {
    for (const s of sides) await s.store.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }
}

console.log(`${REPORTS} reports × ${TESTS} tests into each kind, batches taking turns; the oldest 2 deleted`);
console.log('mode         µs/row  delete ms  reclaim ms  before MiB  after MiB  vacuum ms  vacuumed MiB');
for (let i = 0; i < RUNS; i++) for (const line of await run()) console.log(line);
