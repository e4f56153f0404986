/**
 * The message catalogue: every code of SPEC part 7, and Tally's own codes where the spec shows none
 * (authentication, limits, store faults). One entry per code: severity, HTTP status it implies,
 * the flag that hides or lowers it, and the text. A shipped code is never reused for something else.
 */
import type { Message, Severity } from './store/types.js';

export type Flag =
  | 'merge_containers'
  | 'ignore_empty_import'
  | 'suppress_files_moved'
  | 'ignore_invalid_file_type'
  | 'ignore_unused_parameters'
  | 'ignore_unspecified_formatter'
  | 'ignore_max_files_limit'
  | 'ignore_old_report_date';

export const FLAGS: readonly Flag[] = [
  'merge_containers',
  'ignore_empty_import',
  'suppress_files_moved',
  'ignore_invalid_file_type',
  'ignore_unused_parameters',
  'ignore_unspecified_formatter',
  'ignore_max_files_limit',
  'ignore_old_report_date',
];

interface Entry {
  severity: Severity;
  /** HTTP status the code implies when it decides the answer. */
  status: number;
  /** The flag that hides the message entirely. */
  hiddenBy?: Flag;
  /** The flag that lowers the message to `notice`. */
  loweredBy?: Flag;
  /** Where the code comes from: SPEC part 7, or Tally's own. */
  origin: 'spec' | 'tally';
  text: string;
}

export const CATALOGUE = {
  // SPEC 7.1 errors
  multiple_formatter_match: {
    severity: 'error',
    status: 422,
    origin: 'spec',
    text: 'The file matches more than one formatter. Name the formatter in the path: /import/{formatter}.',
  },
  zero_files_matched_formatters: {
    severity: 'error',
    status: 422,
    origin: 'spec',
    text: 'No uploaded file matches a known formatter (unknown format, invalid file, or a file Tally could not read). Check the file, or name the formatter in the path.',
  },
  invalid_formatter: {
    severity: 'error',
    status: 400,
    origin: 'spec',
    text: 'The formatter key is not supported. GET /api/v2/formatters lists the keys.',
  },
  missing_file_and_body: {
    severity: 'error',
    status: 400,
    origin: 'spec',
    text: 'The request holds no file: send the result file as the request body with its content type, or as a multipart form with file[].',
  },
  import_missing_file: {
    severity: 'error',
    status: 400,
    origin: 'spec',
    text: 'The multipart form holds no file: send result files in file[] (a .zip is allowed).',
  },
  import_content_type_error: {
    severity: 'error',
    status: 415,
    origin: 'spec',
    text: 'The content type is neither multipart/form-data nor the content type of a formatter. Send a multipart form with file[], or the raw file with its content type.',
  },
  import_missing_media_type: {
    severity: 'error',
    status: 415,
    origin: 'spec',
    text: 'The request has no Content-Type. Send multipart/form-data with file[], or the raw file with its content type.',
  },
  import_generating_error: {
    severity: 'error',
    status: 500,
    origin: 'spec',
    text: 'Tally could not create the import record. Retry; if it persists, tell the operator the time of this message.',
  },
  import_validation_error: { severity: 'error', status: 400, origin: 'spec', text: 'The import request is not valid.' },
  report_validation_error: {
    severity: 'error',
    status: 422,
    origin: 'spec',
    text: 'A result file could not be read as its format.',
  },
  empty_import_after_processing: {
    severity: 'error',
    status: 422,
    loweredBy: 'ignore_empty_import',
    origin: 'spec',
    text: 'Processing ended without errors but the report holds no tests. Send ignore_empty_import=true if an empty report is expected.',
  },
  zero_files_after_unzipping: {
    severity: 'error',
    status: 422,
    origin: 'spec',
    text: 'The zip archive holds no files.',
  },
  // SPEC 7.2 warnings
  failed_to_attach_asset: {
    severity: 'warning',
    status: 201,
    origin: 'spec',
    text: 'A result file refers to an attachment that is not among the attached files. Send it in attachment[].',
  },
  files_moved_to_attachments: {
    severity: 'warning',
    status: 201,
    loweredBy: 'suppress_files_moved',
    origin: 'spec',
    text: 'Files in file[] matched no formatter and were moved to the attachments. Send non-result files in attachment[], or suppress_files_moved=true.',
  },
  invalid_file_mime_type: {
    severity: 'warning',
    status: 201,
    hiddenBy: 'ignore_invalid_file_type',
    origin: 'spec',
    text: 'The type of the file could not be confirmed: an XML file should begin with an XML declaration and a file should carry the extension of its type. Hide with ignore_invalid_file_type=true.',
  },
  parameter_file_empty: {
    severity: 'warning',
    status: 201,
    origin: 'spec',
    text: 'The file was read from the request body and has no file name or metadata. Send it in file[] to keep them.',
  },
  invalid_content_type: {
    severity: 'warning',
    status: 201,
    origin: 'spec',
    text: 'The content type is not multipart/form-data. Send a multipart form with file[].',
  },
  parameter_not_array_type: {
    severity: 'warning',
    status: 201,
    origin: 'spec',
    text: 'A repeatable parameter was sent without the [] suffix. It was accepted; use the [] suffix (file[], attachment[], tag[]).',
  },
  duplicate_field_titles: {
    severity: 'warning',
    status: 201,
    origin: 'spec',
    text: 'Two or more containers of one result file have the same title under the same parent, so the history comparison cannot tell them apart. Rename or combine them.',
  },
  specify_formatter: {
    severity: 'warning',
    status: 201,
    hiddenBy: 'ignore_unspecified_formatter',
    origin: 'spec',
    text: 'No formatter was named, so the format was detected. Add the formatter to the path (/import/{formatter}), or ignore_unspecified_formatter=true.',
  },
  report_endpoint_deprecated: {
    severity: 'warning',
    status: 201,
    origin: 'spec',
    text: 'The report/import path is deprecated. Use /api/v2/profile/{profile_id}/import.',
  },
  tag_params_deprecated: {
    severity: 'warning',
    status: 201,
    origin: 'spec',
    text: 'The os, platform and build parameters are deprecated and were turned into tags. Use tag[]=<key>:<value>.',
  },
  invalid_request_method: {
    severity: 'warning',
    status: 405,
    origin: 'spec',
    text: 'The import endpoints take POST only.',
  },
  max_files_limit: {
    severity: 'warning',
    status: 201,
    hiddenBy: 'ignore_max_files_limit',
    origin: 'spec',
    text: 'Too many files for an import without a formatter. Move non-result files to attachment[], name the formatter in the path, or ignore_max_files_limit=true.',
  },
  import_file_resulted_in_empty_report: {
    severity: 'warning',
    status: 201,
    origin: 'spec',
    text: 'A file was detected as a result format but holds no tests. Check it, or name the formatter in the path.',
  },
  // SPEC 7.3 notices
  parameter_plural_made_singular: {
    severity: 'notice',
    status: 201,
    origin: 'spec',
    text: 'A plural parameter name was given and treated as the singular.',
  },
  containers_combined: {
    severity: 'notice',
    status: 201,
    origin: 'spec',
    text: 'Containers with the same title were combined (merge_containers).',
  },
  report_contains_old_date: {
    severity: 'notice',
    status: 201,
    hiddenBy: 'ignore_old_report_date',
    origin: 'spec',
    text: 'The report date is more than one day in the past. Hide with ignore_old_report_date=true.',
  },
  mac_os_hidden_files: {
    severity: 'notice',
    status: 201,
    origin: 'spec',
    text: 'Hidden files (names starting with ._ or __, and __MACOSX/) inside a zip were ignored.',
  },
  text_truncated: {
    severity: 'notice',
    status: 201,
    origin: 'tally',
    text: 'Output or failure text longer than the limit (TALLY_MAX_TEXT_CHARS) was cut; a marker shows where.',
  },
  // Tally's own codes, where the spec shows none
  missing_api_key: {
    severity: 'error',
    status: 401,
    origin: 'tally',
    text: 'The x-api-key header is missing. The key is on the account page.',
  },
  invalid_api_key: {
    severity: 'error',
    status: 401,
    origin: 'tally',
    text: 'The API key is not valid (unknown, malformed or rotated). The current key is on the account page.',
  },
  profile_forbidden: {
    severity: 'error',
    status: 403,
    origin: 'tally',
    text: 'This API key may not use this profile: it belongs to another account.',
  },
  profile_not_found: { severity: 'error', status: 404, origin: 'tally', text: 'There is no profile with this id.' },
  not_found: {
    severity: 'error',
    status: 404,
    origin: 'tally',
    text: 'There is no such resource, or this key may not see it.',
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
    text: 'This account already runs as many imports as allowed at once. Retry after the Retry-After seconds, or send fewer imports in parallel.',
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
    text: 'The import was cut off before it ended (the server stopped or the store went away); nothing of it was kept. Send it again.',
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
    text: 'The form did not come from this Tally (missing or wrong CSRF token, or another origin). Reload the page and try again.',
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
    text: 'The new password was not accepted: it needs at least 12 characters, both entries must match, and it must differ from the one-time password.',
  },
  internal_error: {
    severity: 'error',
    status: 500,
    origin: 'tally',
    text: 'An unexpected fault stopped the import. Nothing was kept; tell the operator the time of this message.',
  },
} as const satisfies Record<string, Entry>;

export type MessageCode = keyof typeof CATALOGUE;

export const UNUSED_PARAMETERS_TEXT = 'Parameters the import does not use were ignored';

export function entry(code: MessageCode): Entry {
  return CATALOGUE[code];
}

/** A message of the catalogue; `detail` is added to the text after the catalogue sentence. */
export function message(
  code: MessageCode,
  opts: { detail?: string; file?: string; details?: Record<string, unknown> } = {},
): Message {
  const e: Entry = CATALOGUE[code];
  const m: Message = { severity: e.severity, code, message: opts.detail ? `${e.text} ${opts.detail}` : e.text };
  if (opts.file !== undefined) m.file = opts.file;
  if (opts.details !== undefined) m.details = opts.details;
  // SPEC 7: messages about unexpected faults carry a timestamp.
  if (code === 'internal_error' || code === 'import_generating_error' || code === 'store_unavailable')
    m.at = new Date().toISOString();
  return m;
}

/** The uncoded warning of SPEC 4.5 rule 11. */
export function unusedParameters(names: string[]): Message {
  return {
    severity: 'warning',
    code: null,
    message: `${UNUSED_PARAMETERS_TEXT}: ${names.join(', ')}. Hide with ignore_unused_parameters=true.`,
    details: { parameters: names },
  };
}

/** Applies the flags: hides or lowers the messages they name. Settled once the whole request is read. */
export function applyFlags(messages: Message[], flags: ReadonlySet<Flag>): Message[] {
  const out: Message[] = [];
  for (const m of messages) {
    if (m.code === null) {
      if (!flags.has('ignore_unused_parameters')) out.push(m);
      continue;
    }
    const e = (CATALOGUE as Record<string, Entry>)[m.code];
    if (e?.hiddenBy && flags.has(e.hiddenBy)) continue;
    if (e?.loweredBy && flags.has(e.loweredBy)) out.push({ ...m, severity: 'notice' });
    else out.push(m);
  }
  return out;
}

/** The HTTP status of an answer: the first error decides; otherwise 201. */
export function statusOf(messages: Message[]): number {
  const error = messages.find((m) => m.severity === 'error');
  if (!error || error.code === null) return 201;
  return (CATALOGUE as Record<string, Entry>)[error.code]?.status ?? 500;
}

/** An input fault that ends an import with one catalogue message. Real bugs are not wrapped in this. */
export class ImportFault extends Error {
  override name = 'ImportFault';
  readonly msg: Message;
  constructor(
    code: MessageCode,
    opts: { detail?: string; file?: string; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(`${code}: ${opts.detail ?? CATALOGUE[code].text}`, { cause: opts.cause });
    this.msg = message(code, opts);
  }
  get code(): MessageCode {
    return this.msg.code as MessageCode;
  }
}
