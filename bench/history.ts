/**
 * The history comparison on a big profile: 200 reports × 5,000 tests (50 suites × 100 tests),
 * written through the Store API as imports would (containers, then reports.complete, which writes
 * the history column), then `compareHistory` over the last 200 and the last 20 reports, timed.
 * The embedded store always; MongoDB too when MONGODB_URL is set.
 *
 *   npm run bench:history -- [--reports 200] [--tests 5000] [--runs 5]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { compareHistory } from '../lib/history/compare.js';
import { createEmbeddedStore } from '../lib/store/embedded/index.js';
import { createMongoStore } from '../lib/store/mongo/index.js';
import type { StoredContainer, Totals } from '../lib/store/types.js';
import type { Store } from '../lib/store/store.js';
import type { ContainerStatus } from '../lib/formatter/api.js';

const { values } = parseArgs({
  options: {
    reports: { type: 'string', default: '200' },
    tests: { type: 'string', default: '5000' },
    runs: { type: 'string', default: '5' },
  },
});
const REPORTS = Number(values.reports);
const TESTS = Number(values.tests);
const RUNS = Number(values.runs);
const PER_SUITE = 100;

/** Deterministic outcomes: most pass, a few always fail, some flip (flaky), some are skipped. */
function statusOf(test: number, report: number): ContainerStatus {
  if (test % 997 === 0) return 'failed';
  if (test % 101 === 0) return (test * 31 + report * 17) % 5 === 0 ? 'failed' : 'passed';
  if (test % 211 === 0) return 'skipped';
  return 'passed';
}

async function fill(store: Store): Promise<{ profileId: string; ms: number }> {
  const started = performance.now();
  const account = await store.accounts.create('bench');
  const profile = await store.profiles.create(account.id, 'big');
  const suites = Math.ceil(TESTS / PER_SUITE);
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
      tags: [r % 2 ? 'branch:main' : 'branch:dev'],
      date: new Date().toISOString(),
    });
    const totals: Totals = {
      containers: 0,
      tests: 0,
      passed: 0,
      failed: 0,
      errored: 0,
      skipped: 0,
      pending: 0,
      unknown: 0,
      flaky: 0,
    };
    let batch: StoredContainer[] = [];
    let seq = 0;
    for (let s = 0; s < suites; s++) {
      const suiteSeq = ++seq;
      batch.push(row(report.id, suiteSeq, null, 'suite', `com.example.module${s}.ServiceTest`, 'passed'));
      for (let i = 0; i < PER_SUITE && s * PER_SUITE + i < TESTS; i++) {
        const t = s * PER_SUITE + i;
        const status = statusOf(t, r);
        batch.push(row(report.id, ++seq, suiteSeq, 'test', `handles case ${t} of the service`, status));
        totals.tests++;
        totals[status]++;
      }
      if (batch.length >= 1000) {
        await store.containers.insert(batch);
        batch = [];
      }
    }
    await store.containers.insert(batch);
    totals.containers = seq;
    await store.reports.complete(report.id, { date: report.date, totals, files: [], messages: [], tags: report.tags });
  }
  return { profileId: profile.id, ms: performance.now() - started };
}

function row(
  reportId: string,
  seq: number,
  parentSeq: number | null,
  type: 'suite' | 'test',
  title: string,
  status: ContainerStatus,
): StoredContainer {
  return {
    reportId,
    seq,
    parentSeq,
    fileIndex: 0,
    type,
    title,
    status,
    durationMs: 5 + (seq % 50),
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

async function time(
  store: Store,
  profileId: string,
  n: number,
  tags: string[],
): Promise<{ ms: number[]; tests: number; flaky: number; reports: number }> {
  const ms: number[] = [];
  let last = null;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    last = await compareHistory(store, profileId, { n, tags, branch: null, show: 'all', offset: 0, limit: 100 });
    ms.push(performance.now() - started);
  }
  return {
    ms: ms.sort((a, b) => a - b),
    tests: last!.counts.tests,
    flaky: last!.counts.flaky,
    reports: last!.reports.length,
  };
}

async function bench(kind: string, store: Store): Promise<void> {
  await store.init();
  const { profileId, ms } = await fill(store);
  process.stdout.write(`${kind}: wrote ${REPORTS} reports × ${TESTS} tests in ${(ms / 1000).toFixed(1)} s\n`);
  for (const [n, tags] of [
    [REPORTS, []],
    [20, []],
    [REPORTS, ['branch:main']],
  ] as [number, string[]][]) {
    const r = await time(store, profileId, n, tags);
    const median = r.ms[Math.floor(r.ms.length / 2)]!;
    process.stdout.write(
      `${kind}: compare last ${n}${tags.length ? ` (tag ${tags.join(',')})` : ''}: ${r.reports} reports × ` +
        `${r.tests} tests, ${r.flaky} flaky — ` +
        `median ${median.toFixed(0)} ms, min ${r.ms[0]!.toFixed(0)} ms, max ${r.ms[r.ms.length - 1]!.toFixed(0)} ms ` +
        `(${RUNS} runs)\n`,
    );
  }
  await store.close();
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tally-bench-history-'));
try {
  await bench('embedded', createEmbeddedStore({ dataDir }));
  if (process.env.MONGODB_URL) {
    const dbName = `tally_bench_${randomBytes(4).toString('hex')}`;
    const store = createMongoStore({ url: process.env.MONGODB_URL, dbName });
    try {
      await bench('mongo', store);
    } finally {
      const { MongoClient } = await import('mongodb');
      const client = await new MongoClient(process.env.MONGODB_URL).connect();
      await client.db(dbName).dropDatabase();
      await client.close();
    }
  }
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
