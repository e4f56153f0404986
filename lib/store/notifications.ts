/**
 * Notifications (lib/notify/): a profile's rules (which events go to which target) and the queue of
 * deliveries they make, which is also the profile's delivery log. A webhook's URL reaches the store
 * only as the secret box sealed it (lib/ci/secret-box.ts); what pages and answers show of it is
 * `hint` (its host and a masked tail).
 *
 * A delivery is claimed before each attempt: the claim moves it to `sending`, counts `claim` up and
 * sets `nextAttemptAt` to the end of the claim's lease. A delivery whose lease ran out (its sender
 * died mid-attempt) is due again, so a restart loses nothing; only one caller can make a claim, on
 * one store or on several Tally instances sharing one MongoDB. Settling names the claim, so a sender
 * whose lease ran out and was claimed again by another cannot overwrite what that one records.
 */

/** What a rule listens for. `import`: every import that ended, completed or failed. */
export const NOTIFY_EVENTS = ['import', 'new_failure', 'fixed', 'newly_flaky', 'import_failed'] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];

/** The body a webhook gets: Tally's own JSON, or the shape Slack's or Teams' incoming webhooks take. */
export const WEBHOOK_FORMATS = ['json', 'slack', 'teams'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

export type NotificationTarget =
  | {
      kind: 'webhook';
      format: WebhookFormat;
      /** The URL as the secret box sealed it, bound to the rule's profile. */
      sealedUrl: string;
      /** What may be shown of the URL: scheme, host and the last characters (`https://hooks.example.com/…Xy9z`). */
      hint: string;
    }
  | { kind: 'email'; to: string[] };

export interface NotificationRule {
  id: string;
  profileId: string;
  events: NotifyEvent[];
  target: NotificationTarget;
  createdAt: string;
}

export interface NotificationRuleStore {
  /** The profile's rules, oldest first. */
  list(profileId: string): Promise<NotificationRule[]>;
  get(id: string): Promise<NotificationRule | null>;
  add(rule: NotificationRule): Promise<void>;
  /** Removes the profile's rule; false when the profile has no such rule. */
  delete(profileId: string, id: string): Promise<boolean>;
  /** Rules holding a sealed URL: start-up refuses to run without TALLY_SECRET_KEY when there are any. */
  countSealed(): Promise<number>;
}

/** What made a delivery: an import that completed or failed, or a person's "send a test". */
export type DeliveryTrigger = 'completed' | 'failed' | 'test';

/**
 * `pending`: waiting for its (next) attempt; `sending`: claimed, an attempt under way; `delivered`;
 * `dead`: its attempts ran out or the receiver refused it for good (`lastError` says why).
 */
export type DeliveryStatus = 'pending' | 'sending' | 'delivered' | 'dead';

export interface Delivery {
  /** Sent with every attempt (header `Tally-Delivery`, Message-ID): a receiver drops the repeats by it. */
  id: string;
  profileId: string;
  ruleId: string;
  trigger: DeliveryTrigger;
  importId: string | null;
  /** The completed import's report; null for a failed import and a test. */
  reportId: string | null;
  /** The target as the log shows it (a webhook's hint, or the addresses), kept after its rule is gone. */
  target: string;
  /** The events it tells, once decided at its first attempt; empty before. */
  events: string[];
  /** The message, rendered at the first attempt and sent unchanged by every later one; null before. */
  payload: string | null;
  status: DeliveryStatus;
  /** Attempts made (a claim given back at shutdown is not one). */
  attempts: number;
  /** Claims made; the latest is the one that may settle it. */
  claim: number;
  /** When it is due: its next attempt, or while `sending` the end of the claim's lease. */
  nextAttemptAt: string;
  lastError: string | null;
  /** The receiver's HTTP status at the last attempt (webhooks), or the SMTP reply code (e-mail). */
  responseStatus: number | null;
  createdAt: string;
  finishedAt: string | null;
}

export type NewDelivery = Pick<
  Delivery,
  'id' | 'profileId' | 'ruleId' | 'trigger' | 'importId' | 'reportId' | 'target' | 'createdAt'
>;

/** What an attempt changes; the claim it was made under is named beside it. */
export type DeliveryOutcome = Pick<
  Delivery,
  'status' | 'attempts' | 'nextAttemptAt' | 'lastError' | 'responseStatus' | 'events' | 'payload' | 'finishedAt'
>;

/** Where a page of the log starts: after this delivery, going back in time. */
export type DeliveryCursor = Pick<Delivery, 'createdAt' | 'id'>;

export interface DeliveryStore {
  /** Queues deliveries, due at once, in one write. */
  enqueue(deliveries: readonly NewDelivery[]): Promise<void>;
  /**
   * Claims the delivery due longest (pending and due by `now`, or sending with its lease ended by
   * `now`) until `leaseUntil`; null when none is due. Only one caller can win a claim.
   */
  claim(now: string, leaseUntil: string): Promise<Delivery | null>;
  /** Records an attempt's outcome; false when the claim was lost (its lease ran out and another took it). */
  settle(id: string, claim: number, outcome: DeliveryOutcome): Promise<boolean>;
  /** Removes a claimed delivery that has nothing to tell (no event of its rule happened). */
  discard(id: string, claim: number): Promise<void>;
  get(id: string): Promise<Delivery | null>;
  /** The profile's deliveries, newest first (ties by id); `before` is the last one of the page before. */
  list(profileId: string, o: { limit: number; before?: DeliveryCursor }): Promise<Delivery[]>;
  /** Removes deliveries that ended (delivered or dead) before `finishedBefore`; how many went. */
  prune(finishedBefore: string): Promise<number>;
}
