/**
 * Applying retention: a pass over one profile deletes the completed reports its policy lets go, oldest
 * first, through the store's report deletion (marked first, then what each owns; a deletion cut short
 * is finished by the sweep), then gives the space back once (Store.reclaimSpace). It never deletes a
 * pinned report (the mark itself refuses one pinned meanwhile), the profile's newest report, or one
 * whose import is still running.
 *
 * Passes are queued: after each completed import of the profile, when its policy is saved, and for
 * every profile with a policy at the server's sweep (at start and every 10 minutes). They run one at
 * a time beside the imports, never inside one. A pass does bounded work (PASS_REPORTS reports, or
 * PASS_CONTAINERS containers past its first report); a profile with more to delete gets its next
 * pass after a pause, behind the other profiles waiting, so 10,000 old reports go in steps while the
 * server goes on answering. Each pass that deleted something writes one log line, `retention.deleted`.
 */
import type { Logger } from '../log.js';
import { keepsEverything, type ReportKey } from '../store/retention.js';
import type { Store } from '../store/store.js';

/** Reports one pass deletes at most. */
export const PASS_REPORTS = 100;
/** Containers one pass deletes at most, once it has deleted one report (a report is never cut). */
export const PASS_CONTAINERS = 1_000_000;
/** The pause before a profile's next pass when the last one stopped at its bound. */
const PAUSE_MS = 1_000;
/** Reports read per query. */
const PAGE = 200;

export interface RetentionOptions {
  store: Pick<Store, 'profiles' | 'reports' | 'retention' | 'reclaimSpace'>;
  log: Logger;
  passReports?: number;
  passContainers?: number;
  pauseMs?: number;
}

export interface RetentionRunner {
  /** A completed import, or a policy saved: a pass over the profile is queued (returns at once). */
  profileChanged(profileId: string, now?: Date): void;
  /** The server's sweep: a pass is queued for every profile with a policy; resolves to how many. */
  sweep(now?: Date): Promise<number>;
  /** Resolves when no pass is queued, running or waiting for its pause (shutdown and tests wait on it). */
  idle(): Promise<void>;
  /** Stops between two deletions, drops what is queued, and waits for the pass that runs. */
  stop(): Promise<void>;
}

interface PassOutcome {
  /** Reports the policy still lets go: the profile gets another pass. */
  more: boolean;
}

export function retentionRunner(o: RetentionOptions): RetentionRunner {
  const passReports = o.passReports ?? PASS_REPORTS;
  const passContainers = o.passContainers ?? PASS_CONTAINERS;
  const pauseMs = o.pauseMs ?? PAUSE_MS;
  const pending = new Map<string, Date>();
  const pauses = new Set<NodeJS.Timeout>();
  const waiters: (() => void)[] = [];
  let draining: Promise<void> | null = null;
  let stopped = false;
  let toldVacuum = false;

  const settle = () => {
    if (draining || pauses.size > 0) return;
    for (const resolve of waiters.splice(0)) resolve();
  };

  const pass = async (profileId: string, now: Date): Promise<PassOutcome> => {
    const profile = await o.store.profiles.get(profileId);
    const policy = await o.store.retention.get(profileId);
    if (!profile || keepsEverything(policy)) return { more: false };
    const deleted: number[] = [];
    let tests = 0;
    let containers = 0;
    let pinned = 0;
    let running = 0;
    let more = false;
    let after: ReportKey | null = null;
    scan: for (;;) {
      const page = await o.store.retention.expired(profileId, policy, now, after, PAGE);
      for (const report of page) {
        after = { createdAt: report.createdAt, id: report.id };
        if (report.pinned) {
          pinned++;
          continue;
        }
        if (stopped || deleted.length >= passReports || (deleted.length > 0 && containers >= passContainers)) {
          more = !stopped;
          break scan;
        }
        const done = await o.store.reports.delete(report.id, { keepPinned: true, reclaim: false });
        if (done.status === 'deleted') {
          deleted.push(report.number);
          tests += done.tests;
          containers += report.totals.containers;
        } else if (done.status === 'pinned') pinned++;
        else if (done.status === 'import_running') running++;
      }
      if (page.length < PAGE) break;
    }
    if (deleted.length === 0) return { more };
    const reclaimed = await o.store.reclaimSpace();
    o.log('retention.deleted', {
      profile_id: profile.number,
      reports: deleted.length,
      tests,
      report_ids: deleted,
      kept_pinned: pinned,
      kept_running: running,
      bytes_reclaimed: reclaimed.bytes,
      more,
    });
    if (!reclaimed.incremental && !toldVacuum) {
      toldVacuum = true;
      o.log('retention.vacuum_needed', {
        reason:
          'the embedded database was made before incremental vacuum and is too large to switch at start-up: ' +
          'freed space is reused for new reports but the file does not shrink until `tally vacuum` runs once ' +
          '(with Tally stopped)',
      });
    }
    return { more };
  };

  const drain = async (): Promise<void> => {
    // After the caller's own work: an import's answer is on its way before the first read.
    await new Promise((resolve) => setImmediate(resolve));
    while (pending.size > 0 && !stopped) {
      const [profileId, now] = pending.entries().next().value!;
      pending.delete(profileId);
      const outcome = await pass(profileId, now).catch((e: unknown) => {
        o.log('retention.failed', { profile_uuid: profileId, error: (e as Error).message });
        return { more: false };
      });
      if (outcome.more && !stopped) {
        const pause = setTimeout(() => {
          pauses.delete(pause);
          enqueue(profileId, now);
          settle();
        }, pauseMs);
        pause.unref();
        pauses.add(pause);
      }
    }
    draining = null;
    settle();
  };

  const enqueue = (profileId: string, now: Date) => {
    if (stopped) return;
    if (!pending.has(profileId)) pending.set(profileId, now);
    draining ??= drain();
  };

  return {
    profileChanged(profileId, now = new Date()) {
      enqueue(profileId, now);
    },
    async sweep(now = new Date()) {
      const profiles = await o.store.retention.profiles();
      for (const profileId of profiles) enqueue(profileId, now);
      return profiles.length;
    },
    idle() {
      return new Promise<void>((resolve) => {
        waiters.push(resolve);
        settle();
      });
    },
    async stop() {
      stopped = true;
      pending.clear();
      for (const pause of pauses) clearTimeout(pause);
      pauses.clear();
      await draining;
      settle();
    },
  };
}
