/**
 * The codes of notification rules (lib/notify/): what a rule that cannot be saved or used answers.
 * What goes wrong when a delivery is attempted is that delivery's `last_error`, in the delivery log.
 */
import type { Entry } from './entry.js';

export const NOTIFY_CODES = {
  notification_rule_invalid: {
    severity: 'error',
    status: 400,
    origin: 'tally',
    text:
      'The notification rule was not saved: the text names the field (events, webhook, format, email) and what ' +
      'it allows.',
  },
  notification_rule_not_found: {
    severity: 'error',
    status: 404,
    origin: 'tally',
    text: 'This profile has no such notification rule; GET /api/v2/profiles/{id}/notifications lists its rules.',
  },
  notification_url_refused: {
    severity: 'error',
    status: 400,
    origin: 'tally',
    text:
      'The webhook URL was refused: its host is, or resolves to, a loopback, link-local, private or reserved ' +
      'address, which webhooks may not reach unless the operator allows it (TALLY_WEBHOOK_ALLOW_PRIVATE=1, or ' +
      'the range in TALLY_WEBHOOK_ALLOW_CIDRS). Use a public URL.',
  },
  notification_secret_key_missing: {
    severity: 'error',
    status: 503,
    origin: 'tally',
    text:
      'Webhook rules need TALLY_SECRET_KEY (32 bytes, base64 or hex) to encrypt their URLs; the operator has not ' +
      'set it, so no webhook rule can be saved. E-mail rules do not need it.',
  },
  notification_smtp_missing: {
    severity: 'error',
    status: 503,
    origin: 'tally',
    text:
      'E-mail rules need an SMTP server (TALLY_SMTP_URL); the operator has not set it, so no e-mail rule can be ' +
      'saved. Webhook rules do not need it.',
  },
} as const satisfies Record<string, Entry>;
