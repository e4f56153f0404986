/**
 * Notification rules and deliveries in the embedded database (lib/store/notifications.ts). A claim
 * is one `update … returning` on the due delivery that has waited longest: SQLite runs it whole, so
 * two callers (or two processes on one data dir) never take the same claim.
 */
import type {
  Delivery,
  DeliveryStore,
  NotificationRule,
  NotificationRuleStore,
  NotifyEvent,
  WebhookFormat,
} from '../notifications.js';
import type { EmbeddedDatabase } from './database.js';

interface RuleRow {
  id: string;
  profile_id: string;
  events: string;
  kind: 'webhook' | 'email';
  format: WebhookFormat | null;
  sealed_url: string | null;
  hint: string | null;
  recipients: string | null;
  created_at: string;
}

interface DeliveryRow {
  id: string;
  profile_id: string;
  rule_id: string;
  trigger: Delivery['trigger'];
  import_id: string | null;
  report_id: string | null;
  target: string;
  events: string;
  payload: string | null;
  status: Delivery['status'];
  attempts: number;
  claim: number;
  next_attempt_at: string;
  last_error: string | null;
  response_status: number | null;
  created_at: string;
  finished_at: string | null;
}

function toRule(r: RuleRow): NotificationRule {
  return {
    id: r.id,
    profileId: r.profile_id,
    events: JSON.parse(r.events) as NotifyEvent[],
    target:
      r.kind === 'webhook'
        ? { kind: 'webhook', format: r.format!, sealedUrl: r.sealed_url!, hint: r.hint! }
        : { kind: 'email', to: JSON.parse(r.recipients!) as string[] },
    createdAt: r.created_at,
  };
}

function toDelivery(r: DeliveryRow): Delivery {
  return {
    id: r.id,
    profileId: r.profile_id,
    ruleId: r.rule_id,
    trigger: r.trigger,
    importId: r.import_id,
    reportId: r.report_id,
    target: r.target,
    events: JSON.parse(r.events) as string[],
    payload: r.payload,
    status: r.status,
    attempts: r.attempts,
    claim: r.claim,
    nextAttemptAt: r.next_attempt_at,
    lastError: r.last_error,
    responseStatus: r.response_status,
    createdAt: r.created_at,
    finishedAt: r.finished_at,
  };
}

export function notificationRuleStore(d: EmbeddedDatabase): NotificationRuleStore {
  return {
    async list(profileId) {
      const rows = d
        .shaped('select * from notification_rules where profile_id = ? order by created_at, id')
        .all(profileId) as RuleRow[];
      return rows.map(toRule);
    },
    async get(id) {
      const row = d.shaped('select * from notification_rules where id = ?').get(id) as RuleRow | undefined;
      return row ? toRule(row) : null;
    },
    async add(rule) {
      const t = rule.target;
      d.shaped(
        'insert into notification_rules (id, profile_id, events, kind, format, sealed_url, hint, recipients, ' +
          'created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ).run(
        rule.id,
        rule.profileId,
        JSON.stringify(rule.events),
        t.kind,
        t.kind === 'webhook' ? t.format : null,
        t.kind === 'webhook' ? t.sealedUrl : null,
        t.kind === 'webhook' ? t.hint : null,
        t.kind === 'email' ? JSON.stringify(t.to) : null,
        rule.createdAt,
      );
    },
    async delete(profileId, id) {
      return d.shaped('delete from notification_rules where id = ? and profile_id = ?').run(id, profileId).changes > 0;
    },
    async countSealed() {
      return (
        d.shaped('select count(*) as n from notification_rules where sealed_url is not null').get() as {
          n: number;
        }
      ).n;
    },
  };
}

export function deliveryStore(d: EmbeddedDatabase): DeliveryStore {
  return {
    async enqueue(deliveries) {
      const insert = d.shaped(
        'insert into notification_deliveries (id, profile_id, rule_id, trigger, import_id, report_id, target, ' +
          "events, payload, status, attempts, claim, next_attempt_at, created_at) values (?, ?, ?, ?, ?, ?, ?, '[]', " +
          "null, 'pending', 0, 0, ?, ?)",
      );
      d.transaction(() => {
        for (const x of deliveries)
          insert.run(
            x.id,
            x.profileId,
            x.ruleId,
            x.trigger,
            x.importId,
            x.reportId,
            x.target,
            x.createdAt,
            x.createdAt,
          );
      });
    },
    async claim(now, leaseUntil) {
      const row = d
        .shaped(
          "update notification_deliveries set status = 'sending', claim = claim + 1, next_attempt_at = ? " +
            'where id = (select id from notification_deliveries ' +
            "where status in ('pending', 'sending') and next_attempt_at <= ? order by next_attempt_at, id limit 1) " +
            'returning *',
        )
        .get(leaseUntil, now) as DeliveryRow | undefined;
      return row ? toDelivery(row) : null;
    },
    async settle(id, claim, o) {
      return (
        d
          .shaped(
            'update notification_deliveries set status = ?, attempts = ?, next_attempt_at = ?, last_error = ?, ' +
              'response_status = ?, events = ?, payload = ?, finished_at = ? where id = ? and claim = ?',
          )
          .run(
            o.status,
            o.attempts,
            o.nextAttemptAt,
            o.lastError,
            o.responseStatus,
            JSON.stringify(o.events),
            o.payload,
            o.finishedAt,
            id,
            claim,
          ).changes > 0
      );
    },
    async discard(id, claim) {
      d.shaped('delete from notification_deliveries where id = ? and claim = ?').run(id, claim);
    },
    async get(id) {
      const row = d.shaped('select * from notification_deliveries where id = ?').get(id) as DeliveryRow | undefined;
      return row ? toDelivery(row) : null;
    },
    async list(profileId, o) {
      const rows = (
        o.before
          ? d
              .shaped(
                'select * from notification_deliveries where profile_id = ? and (created_at, id) < (?, ?) ' +
                  'order by created_at desc, id desc limit ?',
              )
              .all(profileId, o.before.createdAt, o.before.id, o.limit)
          : d
              .shaped(
                'select * from notification_deliveries where profile_id = ? order by created_at desc, id desc limit ?',
              )
              .all(profileId, o.limit)
      ) as DeliveryRow[];
      return rows.map(toDelivery);
    },
    async prune(finishedBefore) {
      return d
        .shaped('delete from notification_deliveries where finished_at is not null and finished_at < ?')
        .run(finishedBefore).changes;
    },
  };
}
