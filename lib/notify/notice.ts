/**
 * What a delivery tells, gathered at its first attempt (not at the import's end, which only queues
 * it): the profile, the completed report or the failed import, the changes when the rule listens for
 * them, and which of the rule's events happened. Nothing happened for it (a rule on "a new failure"
 * and an import without one): null, and the delivery is dropped.
 */
import { reportPageUrl } from '../import/index.js';
import type { Delivery, NotificationRule, NotifyEvent } from '../store/notifications.js';
import type { Store } from '../store/store.js';
import type { Message, ReportCi, Totals } from '../store/types.js';
import { reportStatus } from '../totals.js';
import { changesOf, type ReportChanges } from './changes.js';

export interface Notice {
  deliveryId: string;
  trigger: Delivery['trigger'];
  /** The rule's events that happened (`test` for a test). */
  events: string[];
  profile: { number: number; name: string; url: string };
  report: {
    number: number;
    url: string;
    status: 'passed' | 'failed';
    date: string;
    totals: Totals;
    ci: ReportCi | null;
  } | null;
  failedImport: { id: string; url: string; errors: Pick<Message, 'code' | 'message'>[] } | null;
  changes: ReportChanges | null;
  /** Absolute base of every link, without a trailing slash. */
  base: string;
}

const CHANGE_EVENTS: readonly NotifyEvent[] = ['new_failure', 'fixed', 'newly_flaky'];

export async function noticeFor(
  store: Store,
  delivery: Delivery,
  rule: NotificationRule,
  base: string,
): Promise<Notice | null> {
  const profile = await store.profiles.get(delivery.profileId);
  if (!profile) return null;
  const notice: Notice = {
    deliveryId: delivery.id,
    trigger: delivery.trigger,
    events: [],
    profile: { number: profile.number, name: profile.name, url: `${base}/profiles/${profile.number}` },
    report: null,
    failedImport: null,
    changes: null,
    base,
  };
  if (delivery.trigger === 'test') return { ...notice, events: ['test'] };
  const wants = new Set(rule.events);
  if (delivery.trigger === 'failed') {
    const record = delivery.importId ? await store.imports.get(delivery.importId) : null;
    const events = rule.events.filter((e) => e === 'import' || e === 'import_failed');
    if (!record || events.length === 0) return null;
    const errors = record.messages
      .filter((m) => m.severity === 'error')
      .map((m) => ({ code: m.code, message: m.message }));
    return {
      ...notice,
      events,
      failedImport: { id: record.id, url: `${base}/api/v2/imports/${record.id}`, errors },
    };
  }
  const report = delivery.reportId ? await store.reports.get(delivery.reportId) : null;
  // Deleted (or failed) since: nothing is left to tell about.
  if (!report || report.status !== 'completed') return null;
  const changes = CHANGE_EVENTS.some((e) => wants.has(e)) ? await changesOf(store, profile, report) : null;
  const happened: Record<NotifyEvent, boolean> = {
    import: true,
    new_failure: (changes?.newFailures.total ?? 0) > 0,
    fixed: (changes?.fixed.total ?? 0) > 0,
    newly_flaky: (changes?.newlyFlaky.total ?? 0) > 0,
    import_failed: false,
  };
  const events = rule.events.filter((e) => happened[e]);
  if (events.length === 0) return null;
  return {
    ...notice,
    events,
    changes,
    report: {
      number: report.number,
      url: reportPageUrl(base, report.number),
      status: reportStatus(report.totals),
      date: report.date,
      totals: report.totals,
      ci: report.ci,
    },
  };
}
