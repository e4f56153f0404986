/**
 * Saving a profile's notification rule, as the API and the page both do: the fields checked
 * (rule-input.ts), a webhook's host checked against the address guard, its URL sealed with the secret
 * box (bound to the profile) before the store sees it, and the rule kept with the URL's hint only.
 * Each refusal is a code and a sentence; nothing is written for a refused rule.
 */
import { randomUUID } from 'node:crypto';
import type { SecretBox } from '../ci/secret-box.js';
import type { NotificationRule } from '../store/notifications.js';
import type { Store } from '../store/store.js';
import type { Profile } from '../store/types.js';
import { AddressRefused, refusalSentence, type AddressGuard } from './address-guard.js';
import { checkRule, urlHint } from './rule-input.js';

/** Rules per profile: enough for every channel a team has, few enough to list on one page. */
export const MAX_RULES = 20;

export type RuleRefusal =
  | 'notification_rule_invalid'
  | 'notification_url_refused'
  | 'notification_secret_key_missing'
  | 'notification_smtp_missing';

export interface RuleSaving {
  store: Store;
  box: SecretBox | null;
  guard: AddressGuard;
  /** Whether TALLY_SMTP_URL is set. */
  smtp: boolean;
}

export async function saveRule(
  o: RuleSaving,
  profile: Profile,
  body: unknown,
): Promise<{ rule: NotificationRule } | { code: RuleRefusal; problem?: string }> {
  const given = checkRule(body);
  if ('problem' in given) return { code: 'notification_rule_invalid', problem: given.problem };
  if ((await o.store.notificationRules.list(profile.id)).length >= MAX_RULES)
    return {
      code: 'notification_rule_invalid',
      problem: `A profile has at most ${MAX_RULES} rules; remove one first.`,
    };
  const { events, target } = given.rule;
  const base = { id: randomUUID(), profileId: profile.id, events, createdAt: new Date().toISOString() };
  let rule: NotificationRule;
  if (target.kind === 'webhook') {
    if (!o.box) return { code: 'notification_secret_key_missing' };
    try {
      await o.guard.checkHost(target.url.hostname);
    } catch (e) {
      if (e instanceof AddressRefused)
        return { code: 'notification_url_refused', problem: `"webhook": ${refusalSentence(target.url.hostname, e)}.` };
      const why = (e as NodeJS.ErrnoException).code ?? 'DNS';
      const problem = `"webhook": the host ${target.url.host} was not found (${why}).`;
      return { code: 'notification_rule_invalid', problem };
    }
    rule = {
      ...base,
      target: {
        kind: 'webhook',
        format: target.format,
        sealedUrl: o.box.seal(target.url.href, profile.id),
        hint: urlHint(target.url),
      },
    };
  } else {
    if (!o.smtp) return { code: 'notification_smtp_missing' };
    rule = { ...base, target };
  }
  await o.store.notificationRules.add(rule);
  return { rule };
}

/** A rule as answers show it: a webhook's hint, never its URL. */
export function ruleJson(rule: NotificationRule) {
  const t = rule.target;
  return {
    id: rule.id,
    events: rule.events,
    webhook: t.kind === 'webhook' ? t.hint : null,
    format: t.kind === 'webhook' ? t.format : null,
    email: t.kind === 'email' ? t.to : null,
    created_at: rule.createdAt,
  };
}
