/** The codes of retention: a policy that cannot be saved or previewed. */
import type { Entry } from './entry.js';

export const RETENTION_CODES = {
  retention_policy_invalid: {
    severity: 'error',
    status: 400,
    origin: 'tally',
    text:
      'The retention policy was not saved: the text names the field (keep_reports, keep_days) and what it allows, ' +
      'a whole number from 1 up, or null for no limit. Nothing was deleted.',
  },
} as const satisfies Record<string, Entry>;
