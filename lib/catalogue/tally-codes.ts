/**
 * Tally's own codes, where the spec shows none: authentication, limits, store faults, the web interface,
 * managing profiles and reports.
 */
import type { Entry } from './entry.js';

export const TALLY_CODES = {
  missing_api_key: {
    severity: 'error',
    status: 401,
    origin: 'tally',
    text:
      'The x-api-key header is missing. Send the API key of the account that owns the profile; a key is shown ' +
      'only once, when it is made, so store it as a CI secret.',
  },
  invalid_api_key: {
    severity: 'error',
    status: 401,
    origin: 'tally',
    text:
      'The API key is not valid (unknown, malformed, or replaced by a newer one). A key is shown only once, when it ' +
      'is made, and the Account page shows only its prefix: if the key is lost, issue a new one with "Rotate the ' +
      'API key" on the Account page or `tally key rotate --account ID` (the old key stops working).',
  },
  profile_forbidden: {
    severity: 'error',
    status: 403,
    origin: 'tally',
    text: 'This API key may not use this profile: it belongs to another account.',
  },
  profile_not_found: { severity: 'error', status: 404, origin: 'tally', text: 'There is no profile with this id.' },
  invalid_query: {
    severity: 'error',
    status: 400,
    origin: 'tally',
    text: 'A query parameter of this request is not valid; the text names it and what it allows.',
  },
  not_found: {
    severity: 'error',
    status: 404,
    origin: 'tally',
    text: 'There is no such resource, or this key may not see it.',
  },
  empty_result_file: {
    severity: 'error',
    status: 422,
    origin: 'tally',
    text:
      'Every file sent in file[] is empty (0 bytes), so there is nothing to import. Check that the test run wrote ' +
      'its results before the upload step (an empty file is often one the runner was still writing, or a run ' +
      'that crashed), then send them again.',
  },
  empty_result_file_skipped: {
    severity: 'warning',
    status: 201,
    origin: 'tally',
    text:
      'A file sent in file[] is empty (0 bytes) and was left out; the other files were imported. Check that the ' +
      'test run wrote it before the upload step.',
  },
  ci_context_invalid: {
    severity: 'warning',
    status: 201,
    origin: 'tally',
    text:
      "A ci_* field was left out of the report's CI context: its value cannot be right (the text says why for " +
      'each). The results were imported.',
  },
  payload_too_large: {
    severity: 'error',
    status: 413,
    origin: 'tally',
    text: 'The request is larger than this server accepts.',
  },
  multipart_limit_exceeded: {
    severity: 'error',
    status: 413,
    origin: 'tally',
    text: 'The multipart form exceeds a limit (parts, fields, field size or header size).',
  },
  zip_limit_exceeded: {
    severity: 'error',
    status: 413,
    origin: 'tally',
    text: 'The zip archive exceeds a limit (entries, uncompressed size or compression ratio).',
  },
  zip_invalid: {
    severity: 'error',
    status: 422,
    origin: 'tally',
    text: 'The zip archive cannot be read safely (corrupt, truncated, encrypted, or with overlapping entries).',
  },
  upload_aborted: {
    severity: 'error',
    status: 400,
    origin: 'tally',
    text: 'The client closed the connection before the upload ended.',
  },
  upload_timeout: {
    severity: 'error',
    status: 408,
    origin: 'tally',
    text: 'The upload arrived too slowly (or stalled) and was cut off. Send it again from a faster or closer network.',
  },
  request_headers_too_large: {
    severity: 'error',
    status: 431,
    origin: 'tally',
    text: 'The request line or headers are too large. Send long tag lists in the form instead of the query string.',
  },
  malformed_request: { severity: 'error', status: 400, origin: 'tally', text: 'The HTTP request could not be parsed.' },
  too_many_imports: {
    severity: 'error',
    status: 429,
    origin: 'tally',
    text:
      'This account already runs as many imports as allowed at once. Retry after the Retry-After seconds, or send ' +
      'fewer imports in parallel.',
  },
  too_many_attempts: {
    severity: 'error',
    status: 429,
    origin: 'tally',
    text: 'Too many requests with an invalid API key from this address. Wait for the Retry-After seconds.',
  },
  store_unavailable: {
    severity: 'error',
    status: 503,
    origin: 'tally',
    text: 'The store does not answer. Nothing was kept; retry later.',
  },
  storage_full: {
    severity: 'error',
    status: 507,
    origin: 'tally',
    text: 'The store has no room left (disk or database full). Nothing of this import was kept; tell the operator.',
  },
  import_interrupted: {
    severity: 'error',
    status: 500,
    origin: 'tally',
    text:
      'The import was cut off before it ended (the server stopped or the store went away); nothing of it was kept. ' +
      'Send it again.',
  },
  session_required: {
    severity: 'error',
    status: 401,
    origin: 'tally',
    text: 'Sign in first: this page of the web interface needs a session.',
  },
  csrf_rejected: {
    severity: 'error',
    status: 403,
    origin: 'tally',
    text:
      'The form did not come from this Tally (missing or wrong CSRF token, or another origin). Reload the page and ' +
      'try again.',
  },
  signin_failed: {
    severity: 'error',
    status: 401,
    origin: 'tally',
    text: 'The e-mail address or the password is not right.',
  },
  password_rejected: {
    severity: 'error',
    status: 400,
    origin: 'tally',
    text:
      'The new password was not accepted: it needs at least 12 characters, both entries must match, and it must ' +
      'differ from the one-time password.',
  },
  user_invalid: {
    severity: 'error',
    status: 400,
    origin: 'tally',
    text: 'The user was not added: the text says why (not an e-mail address, or the address already has a user).',
  },
  profile_name_invalid: {
    severity: 'error',
    status: 400,
    origin: 'tally',
    text:
      'A profile name needs 1 to 100 characters (spaces at either end are dropped) and no control characters; the ' +
      'API takes it as a JSON body {"name": "…"}.',
  },
  json_body_required: {
    severity: 'error',
    status: 415,
    origin: 'tally',
    text: 'This route reads a JSON body: send it with Content-Type: application/json.',
  },
  import_in_progress: {
    severity: 'error',
    status: 409,
    origin: 'tally',
    text:
      'An import into this report or profile is still running (or queued); nothing was deleted. Delete it once the ' +
      'import has ended (GET /api/v2/reports/{report_id}/status tells).',
  },
  internal_error: {
    severity: 'error',
    status: 500,
    origin: 'tally',
    text: 'An unexpected fault stopped the import. Nothing was kept; tell the operator the time of this message.',
  },
} as const satisfies Record<string, Entry>;
