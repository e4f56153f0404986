/**
 * Notifications, from an import's end to the receiver. When an import ends, `ended` queues one
 * delivery per rule of its profile that could care (one small write, awaited by the import, so a
 * restart right after the answer loses nothing); nothing else happens inside the import. The sender
 * runs beside, as the import queue's runner does (lib/import/queue/runner.ts): kicked by each
 * enqueue, polling so that deliveries queued by another instance, retries that came due and claims
 * whose lease ran out (a Tally that died mid-attempt) are picked up. A few attempts run at once, each
 * bounded by the send timeout, so a slow receiver holds one slot for that long and delays nothing else.
 *
 * At a delivery's first attempt its message is gathered and rendered (notice.ts, render.ts) and
 * stored with it, so every retry sends the same bytes under the same id (at least once: a receiver
 * drops repeats by `X-Tally-Delivery` or the Message-ID). A failure that another try may cure is
 * retried after TALLY_NOTIFY_RETRY_MS, doubled each time (or the receiver's Retry-After, if longer),
 * up to TALLY_NOTIFY_ATTEMPTS; then, or at once for a refusal (a 4xx, a redirect, a refused
 * address, a 5xx SMTP reply), it is dead with its last error. At shutdown attempts under way are cut
 * and their claims given back, not counted. Log lines name deliveries and rules by id, never a URL.
 */
import { randomUUID } from 'node:crypto';
import type { SecretBox } from '../ci/secret-box.js';
import type { EndedImport } from '../import/index.js';
import type { Delivery, DeliveryOutcome, NotificationRule, NotifyEvent } from '../store/notifications.js';
import type { Store } from '../store/store.js';
import type { AddressGuard } from './address-guard.js';
import type { NotifyConfig } from './config.js';
import { sendMail } from './mail.js';
import { noticeFor } from './notice.js';
import { render, type Rendered } from './render.js';
import { DeliveryFailure, postWebhook } from './webhook.js';

/** Attempts under way at once per Tally. */
export const PARALLEL_ATTEMPTS = 4;
const POLL_MS = 5_000;
/** Retries are never further apart than this, whatever the doubling or a Retry-After says. */
const MAX_RETRY_GAP_MS = 6 * 60 * 60 * 1000;
/** Ended deliveries are kept this long in the log, then pruned (checked hourly). */
export const LOG_DAYS = 30;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

export interface NotifyOptions {
  store: Store;
  /** Opens webhook URLs; null without TALLY_SECRET_KEY. */
  box: SecretBox | null;
  config: NotifyConfig;
  guard: AddressGuard;
  log(event: string, data: Record<string, unknown>): void;
  /** The absolute base of links in messages (TALLY_PUBLIC_URL, else where the server listens). */
  publicBase(): string;
  /** Certificate authorities the mail sender trusts beside the system's (tests). */
  mailCa?: string;
}

/** The target as the delivery log shows it: never a webhook's full URL. */
export function targetText(rule: NotificationRule): string {
  const t = rule.target;
  return t.kind === 'webhook' ? `${t.format} webhook ${t.hint}` : `e-mail ${t.to.join(', ')}`;
}

/** Which rules an ended import may concern (whether a change happened is known only at the attempt). */
function mayConcern(rule: NotificationRule, outcome: EndedImport['outcome']): boolean {
  const forFailed: readonly NotifyEvent[] = ['import', 'import_failed'];
  return rule.events.some((e) => (outcome === 'failed' ? forFailed.includes(e) : e !== 'import_failed'));
}

export class NotificationSender {
  private readonly active = new Set<Promise<void>>();
  private filling: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  private poller: NodeJS.Timeout | null = null;
  private wakers = new Set<NodeJS.Timeout>();
  private abort = new AbortController();
  private lastPrune = 0;

  constructor(private readonly o: NotifyOptions) {}

  /** Queues the deliveries of an ended import; the import awaits this one write. */
  async ended(e: EndedImport): Promise<void> {
    if (e.suppressNotifications) return;
    const rules = (await this.o.store.notificationRules.list(e.profileId)).filter((r) => mayConcern(r, e.outcome));
    if (rules.length === 0) return;
    const createdAt = new Date().toISOString();
    await this.o.store.deliveries.enqueue(
      rules.map((rule) => ({
        id: randomUUID(),
        profileId: e.profileId,
        ruleId: rule.id,
        trigger: e.outcome,
        importId: e.importId,
        reportId: e.reportId,
        target: targetText(rule),
        createdAt,
      })),
    );
    this.kick();
  }

  /** Queues a test message for a rule (the page's and the API's "send a test"). */
  async test(rule: NotificationRule): Promise<Delivery> {
    const id = randomUUID();
    await this.o.store.deliveries.enqueue([
      {
        id,
        profileId: rule.profileId,
        ruleId: rule.id,
        trigger: 'test',
        importId: null,
        reportId: null,
        target: targetText(rule),
        createdAt: new Date().toISOString(),
      },
    ]);
    this.kick();
    return (await this.o.store.deliveries.get(id))!;
  }

  start(): void {
    this.stopped = false;
    this.abort = new AbortController();
    this.poller = setInterval(() => this.kick(), POLL_MS).unref();
    this.kick();
  }

  /** Claims due deliveries until the slots are full or none is due; a call while claiming asks for one more round. */
  kick(): void {
    if (this.stopped) return;
    if (this.filling) {
      this.again = true;
      return;
    }
    this.filling = this.fill().finally(() => {
      this.filling = null;
    });
  }

  /** Resolves when nothing is being claimed or sent (tests and shutdown wait on it). */
  async idle(): Promise<void> {
    while (this.filling || this.active.size > 0) await Promise.allSettled([this.filling, ...this.active]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.poller) clearInterval(this.poller);
    for (const t of this.wakers) clearTimeout(t);
    this.wakers.clear();
    // Attempts under way are cut; each gives its claim back (attempt()).
    this.abort.abort();
    await this.idle();
  }

  private async fill(): Promise<void> {
    do {
      this.again = false;
      while (this.active.size < PARALLEL_ATTEMPTS && !this.stopped) {
        const now = Date.now();
        let claimed: Delivery | null;
        try {
          await this.prune(now);
          claimed = await this.o.store.deliveries.claim(
            new Date(now).toISOString(),
            new Date(now + this.leaseMs()).toISOString(),
          );
        } catch (e) {
          this.o.log('notify.claim_failed', { error: (e as Error).message });
          return;
        }
        if (!claimed) break;
        const attempt: Promise<void> = this.attempt(claimed).finally(() => {
          this.active.delete(attempt);
          this.kick();
        });
        this.active.add(attempt);
      }
    } while (this.again && !this.stopped);
  }

  /** Long enough for the message to be gathered and sent once: past it, the delivery is due again. */
  private leaseMs(): number {
    return 2 * this.o.config.timeoutMs + 60_000;
  }

  private async prune(now: number): Promise<void> {
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    const removed = await this.o.store.deliveries.prune(new Date(now - LOG_DAYS * 86_400_000).toISOString());
    if (removed > 0) this.o.log('notify.pruned', { deliveries: removed });
  }

  private async attempt(d: Delivery): Promise<void> {
    const { store, log } = this.o;
    const line = { delivery_id: d.id, rule_id: d.ruleId, trigger: d.trigger };
    let rendered: Rendered | null = d.payload ? (JSON.parse(d.payload) as Rendered) : null;
    let events = d.events;
    const settle = async (outcome: Omit<DeliveryOutcome, 'events' | 'payload'>): Promise<void> => {
      const kept = await store.deliveries
        .settle(d.id, d.claim, { ...outcome, events, payload: rendered ? JSON.stringify(rendered) : null })
        .catch((e: unknown) => {
          // The lease runs out and the delivery is claimed again: nothing is lost.
          log('notify.settle_failed', { ...line, error: (e as Error).message });
          return true;
        });
      if (!kept) log('notify.claim_lost', { ...line, claim: d.claim });
    };
    const attempts = d.attempts + 1;
    try {
      const rule = await store.notificationRules.get(d.ruleId);
      if (!rule) throw new DeliveryFailure('its rule was removed before it was sent', false);
      if (!rendered) {
        const notice = await noticeFor(store, d, rule, this.o.publicBase().replace(/\/+$/, ''));
        if (!notice) {
          await store.deliveries.discard(d.id, d.claim);
          return;
        }
        rendered = render(notice, rule.target);
        events = notice.events;
      }
      const status = await this.send(d.id, events, rule, rendered);
      const at = new Date().toISOString();
      await settle({
        status: 'delivered',
        attempts,
        nextAttemptAt: at,
        lastError: null,
        responseStatus: status,
        finishedAt: at,
      });
      log('notify.delivered', { ...line, attempts, response_status: status });
    } catch (e) {
      if (this.abort.signal.aborted) {
        // Cut by shutdown: the claim is given back, due at once, the attempt not counted.
        const at = new Date().toISOString();
        await settle({
          status: 'pending',
          attempts: d.attempts,
          nextAttemptAt: at,
          lastError: d.lastError,
          responseStatus: d.responseStatus,
          finishedAt: null,
        });
        return;
      }
      const failure =
        e instanceof DeliveryFailure
          ? e
          : new DeliveryFailure(`Tally could not prepare it: ${(e as Error).message}`, true);
      const retry = failure.retry && attempts < this.o.config.attempts;
      const now = Date.now();
      const wait = Math.min(
        MAX_RETRY_GAP_MS,
        Math.max(this.o.config.retryMs * 2 ** (attempts - 1), failure.retryAfterMs ?? 0),
      );
      const next = new Date(retry ? now + wait : now).toISOString();
      await settle({
        status: retry ? 'pending' : 'dead',
        attempts,
        nextAttemptAt: next,
        lastError: failure.message,
        responseStatus: failure.status,
        finishedAt: retry ? null : next,
      });
      const data = { ...line, attempts, error: failure.message, response_status: failure.status };
      if (retry) {
        log('notify.retry', { ...data, next_attempt_at: next });
        this.wake(wait);
      } else log('notify.dead', data);
    }
  }

  /** A kick when a retry this instance set comes due, sooner than the next poll would find it. */
  private wake(ms: number): void {
    if (this.stopped || ms >= POLL_MS) return;
    const t = setTimeout(() => {
      this.wakers.delete(t);
      this.kick();
    }, ms + 5);
    t.unref();
    this.wakers.add(t);
  }

  private async send(
    id: string,
    events: readonly string[],
    rule: NotificationRule,
    rendered: Rendered,
  ): Promise<number> {
    const t = rule.target;
    const { config } = this.o;
    if (t.kind === 'webhook' && rendered.kind === 'webhook') {
      if (!this.o.box)
        throw new DeliveryFailure('TALLY_SECRET_KEY is not set, so the webhook URL cannot be opened', true);
      let url: URL;
      try {
        url = new URL(this.o.box.open(t.sealedUrl, rule.profileId));
      } catch (e) {
        throw new DeliveryFailure(`the webhook URL cannot be opened (${(e as Error).message})`, false);
      }
      return postWebhook(url, rendered.body, {
        guard: this.o.guard,
        timeoutMs: config.timeoutMs,
        signal: this.abort.signal,
        headers: { 'x-tally-delivery': id, 'x-tally-event': events.join(',') },
      });
    }
    if (t.kind === 'email' && rendered.kind === 'email') {
      if (!config.smtp) throw new DeliveryFailure('TALLY_SMTP_URL is not set, so no e-mail can be sent', true);
      return sendMail(
        config.smtp,
        { from: config.from, to: t.to, subject: rendered.subject, text: rendered.text, deliveryId: id },
        { timeoutMs: config.timeoutMs, ...(this.o.mailCa ? { ca: this.o.mailCa } : {}) },
      );
    }
    throw new DeliveryFailure('its message does not fit its target', false);
  }
}
