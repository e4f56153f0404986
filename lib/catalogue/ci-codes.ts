/**
 * The codes of CI links: what a provider's fault becomes (never a 500), and what a link that cannot
 * be saved or used answers.
 */
import type { Entry } from './entry.js';

export const CI_CODES = {
  ci_bad_token: {
    severity: 'error',
    status: 422,
    origin: 'tally',
    text:
      "The CI provider refused the link's token (HTTP 401 or 403): it is wrong, expired or lacks a scope. Save the " +
      'link again with a new token; README "CI links" lists the scopes each provider needs.',
  },
  ci_unknown_job: {
    severity: 'error',
    status: 422,
    origin: 'tally',
    text:
      'The CI provider has no such repository, branch or job (HTTP 404), or the token may not see it. Check the ' +
      "link's repository and job.",
  },
  ci_provider_down: {
    severity: 'error',
    status: 502,
    origin: 'tally',
    text: 'The CI provider did not answer, or answered with a fault of its own (HTTP 5xx). Try again later.',
  },
  ci_rate_limited: {
    severity: 'error',
    status: 503,
    origin: 'tally',
    text: 'The CI provider limits requests made with this token; try again after the time it gave (Retry-After).',
  },
  ci_link_invalid: {
    severity: 'error',
    status: 400,
    origin: 'tally',
    text:
      'The CI link was not saved: the text names the field (provider, url, repository, branch, job, token) and ' +
      'what it allows.',
  },
  ci_link_not_found: {
    severity: 'error',
    status: 404,
    origin: 'tally',
    text: "This profile has no CI link. Link it first (PUT /api/v2/profiles/{id}/ci or the profile's CI page).",
  },
  ci_secret_key_missing: {
    severity: 'error',
    status: 503,
    origin: 'tally',
    text:
      'CI links need TALLY_SECRET_KEY (32 bytes, base64 or hex) to encrypt their tokens; the operator has not set ' +
      'it, so no link can be saved or used.',
  },
} as const satisfies Record<string, Entry>;
