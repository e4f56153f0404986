/**
 * The retention runner over a real embedded store: passes are bounded (by reports and by containers)
 * and the next one comes after a pause until the policy is met, one log line a pass; stop() ends it
 * between two deletions. The policy check refuses what is not a whole number in range.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import t, { type Test } from 'tap';
import { checkRetentionPolicy, MAX_KEEP_DAYS, MAX_KEEP_REPORTS } from '../../lib/retention/policy.js';
import { retentionRunner } from '../../lib/retention/runner.js';
import { createEmbeddedStore, type EmbeddedStore } from '../../lib/store/embedded/index.js';
import type { Profile } from '../../lib/store/types.js';
import { importedReport } from '../store/conformance/deletions.js';

/**
 * A store with `reports` completed reports; `older`: its database as made before incremental vacuum,
 * and too large to switch at open.
 */
async function storeWith(t: Test, reports: number, older = false): Promise<{ store: EmbeddedStore; profile: Profile }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tally-retention-'));
  if (older) {
    const raw = new Database(join(dataDir, 'tally.sqlite'));
    raw.pragma('page_size = 16384');
    raw.pragma('journal_mode = WAL');
    raw.close();
  }
  const store = createEmbeddedStore({ dataDir, reserveBytes: 0, switchAtOpenBytes: older ? 0 : undefined });
  t.teardown(async () => {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  await store.init();
  const account = await store.accounts.create('A');
  const profile = await store.profiles.create(account.id, 'main');
  for (let i = 0; i < reports; i++) {
    await importedReport(store, profile, 2);
    await sleep(3);
  }
  return { store, profile };
}

function logged() {
  const lines: Record<string, any>[] = [];
  return { lines, log: (event: string, data: Record<string, unknown> = {}) => void lines.push({ event, ...data }) };
}

t.test('passes are bounded by reports, and go on after a pause until the policy is met', async (t) => {
  const { store, profile } = await storeWith(t, 7);
  const { lines, log } = logged();
  const runner = retentionRunner({ store, log, passReports: 2, pauseMs: 20 });
  await store.retention.put(profile.id, { keepReports: 1, keepDays: null });
  t.equal(await runner.sweep(), 1, 'one profile has a policy');
  await runner.idle();
  const passes = lines.filter((l) => l.event === 'retention.deleted');
  t.strictSame(
    passes.map((l) => [l.reports, l.more]),
    [
      [2, true],
      [2, true],
      [2, false],
    ],
    'three passes of two reports',
  );
  t.ok(passes.every((l) => l.tests === 4 && l.profile_id === profile.number));
  t.equal((await store.reports.list(profile.id, { limit: 10 })).length, 1, 'the newest is left');
});

t.test('passes are bounded by containers past their first report', async (t) => {
  const { store, profile } = await storeWith(t, 5);
  const { lines, log } = logged();
  // Each report holds 4 containers: the second report of a pass reaches 5.
  const runner = retentionRunner({ store, log, passContainers: 5, pauseMs: 10 });
  await store.retention.put(profile.id, { keepReports: 1, keepDays: null });
  runner.profileChanged(profile.id);
  await runner.idle();
  t.strictSame(
    lines.filter((l) => l.event === 'retention.deleted').map((l) => l.reports),
    [2, 2],
  );
});

t.test('stop() ends the passes between two deletions and drops what waits', async (t) => {
  const { store, profile } = await storeWith(t, 6);
  const { lines, log } = logged();
  const runner = retentionRunner({ store, log, passReports: 1, pauseMs: 60_000 });
  await store.retention.put(profile.id, { keepReports: 1, keepDays: null });
  runner.profileChanged(profile.id);
  for (let i = 0; i < 200 && !lines.some((l) => l.event === 'retention.deleted'); i++) await sleep(10);
  t.match(lines, [{ event: 'retention.deleted', reports: 1, more: true }], 'one pass ran, the next waits');
  await runner.stop();
  await runner.idle();
  t.equal((await store.reports.list(profile.id, { limit: 10 })).length, 5, 'nothing more went');
  runner.profileChanged(profile.id);
  await runner.idle();
  t.equal((await store.reports.list(profile.id, { limit: 10 })).length, 5, 'a stopped runner takes no more');
});

t.test('a database that keeps its free pages is said once to need `tally vacuum`', async (t) => {
  const { store, profile } = await storeWith(t, 4, true);
  const { lines, log } = logged();
  const runner = retentionRunner({ store, log, passReports: 1, pauseMs: 5 });
  await store.retention.put(profile.id, { keepReports: 1, keepDays: null });
  runner.profileChanged(profile.id);
  await runner.idle();
  t.equal(lines.filter((l) => l.event === 'retention.deleted').length, 3, 'three passes');
  t.match(
    lines.filter((l) => l.event === 'retention.vacuum_needed'),
    [{ reason: /tally vacuum/ }],
    'one line',
  );
});

t.test('the policy check', async (t) => {
  t.strictSame(checkRetentionPolicy({}), { policy: { keepReports: null, keepDays: null } }, 'empty: keep everything');
  t.strictSame(checkRetentionPolicy({ keep_reports: 30, keep_days: null }), {
    policy: { keepReports: 30, keepDays: null },
  });
  t.strictSame(checkRetentionPolicy({ keep_reports: MAX_KEEP_REPORTS, keep_days: MAX_KEEP_DAYS }), {
    policy: { keepReports: MAX_KEEP_REPORTS, keepDays: MAX_KEEP_DAYS },
  });
  for (const body of [
    null,
    [],
    'x',
    { keep_reports: 0 },
    { keep_days: 1.5 },
    { keep_days: '7' },
    { keep_days: MAX_KEEP_DAYS + 1 },
    { keep_reports: Number.NaN },
    { keep_reports: true },
    { other: 1 },
  ])
    t.ok('problem' in checkRetentionPolicy(body), `refused: ${JSON.stringify(body)}`);
});
