/**
 * A notification rule as a person or a client sends it, checked field by field: `events` (which of
 * NOTIFY_EVENTS), and either `webhook` (an http or https URL, without user or fragment) with its
 * `format`, or `email` (one to 20 addresses). Each problem is one sentence naming the field; no
 * sentence repeats the URL, which may carry a secret (Slack's and Teams' do).
 */
import { NOTIFY_EVENTS, WEBHOOK_FORMATS, type NotifyEvent, type WebhookFormat } from '../store/notifications.js';

export type RuleTarget = { kind: 'webhook'; format: WebhookFormat; url: URL } | { kind: 'email'; to: string[] };

export interface RuleFields {
  events: NotifyEvent[];
  target: RuleTarget;
}

export const MAX_URL_CHARS = 2048;
export const MAX_RECIPIENTS = 20;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** An address as mail servers take it: a local part and a domain with a dot, nothing that needs quoting. */
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const ADDRESS = new RegExp(`^[A-Za-z0-9.!#$%&'*+/=?^_{|}~-]{1,64}@${LABEL}(?:\\.${LABEL})+$`);

const list = (xs: readonly string[]) => xs.map((x) => `"${x}"`).join(', ');

export function checkRule(body: unknown): { rule: RuleFields } | { problem: string } {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return { problem: 'The body must be a JSON object with "events" and either "webhook" (with "format") or "email".' };
  const b = body as Record<string, unknown>;
  const known = new Set(['events', 'webhook', 'format', 'email']);
  const extra = Object.keys(b).filter((k) => !known.has(k));
  if (extra.length) return { problem: `Unknown field ${JSON.stringify(extra[0])}; a rule has ${list([...known])}.` };

  const events = b.events;
  if (!Array.isArray(events) || events.length === 0 || events.some((e) => !NOTIFY_EVENTS.includes(e as NotifyEvent)))
    return { problem: `"events" must list one or more of ${list(NOTIFY_EVENTS)}.` };
  const chosen = NOTIFY_EVENTS.filter((e) => events.includes(e));

  const hasWebhook = b.webhook !== undefined;
  const hasEmail = b.email !== undefined;
  if (hasWebhook === hasEmail)
    return { problem: 'A rule has one target: either "webhook" (a URL) or "email" (addresses), not both nor neither.' };
  if (hasWebhook) {
    const url = checkUrl(b.webhook);
    if ('problem' in url) return url;
    const format = b.format ?? 'json';
    if (!WEBHOOK_FORMATS.includes(format as WebhookFormat))
      return { problem: `"format" must be one of ${list(WEBHOOK_FORMATS)}.` };
    return { rule: { events: chosen, target: { kind: 'webhook', format: format as WebhookFormat, url: url.url } } };
  }
  if (b.format !== undefined) return { problem: '"format" is for webhooks; an e-mail rule has none.' };
  const raw = typeof b.email === 'string' ? b.email.split(/[,\s]+/) : b.email;
  if (!Array.isArray(raw)) return { problem: '"email" must be an address, or a list of addresses.' };
  const to = [...new Set(raw.map((a) => (typeof a === 'string' ? a.trim() : '')).filter(Boolean))];
  if (to.length === 0 || to.length > MAX_RECIPIENTS)
    return { problem: `"email" must hold 1 to ${MAX_RECIPIENTS} addresses.` };
  const bad = to.find((a) => a.length > 254 || !ADDRESS.test(a));
  if (bad !== undefined) return { problem: `"email": ${JSON.stringify(bad.slice(0, 80))} is not an e-mail address.` };
  return { rule: { events: chosen, target: { kind: 'email', to } } };
}

function checkUrl(raw: unknown): { url: URL } | { problem: string } {
  const problem = {
    problem:
      `"webhook" must be an http or https URL of at most ${MAX_URL_CHARS} characters, without user, password ` +
      'or fragment.',
  };
  if (typeof raw !== 'string' || raw.length > MAX_URL_CHARS || CONTROL.test(raw)) return problem;
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return problem;
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password || u.hash || !u.hostname)
    return problem;
  return { url: u };
}

/**
 * What may be shown of a webhook URL once saved: its scheme and host (with a port other than the
 * scheme's), and the last 4 characters of the rest, enough to tell two rules apart.
 */
export function urlHint(url: URL): string {
  const rest = `${url.pathname}${url.search}`.replace(/^\/$/, '');
  return `${url.protocol}//${url.host}/${rest.length > 8 ? `…${rest.slice(-4)}` : rest.length > 0 ? '…' : ''}`;
}
