/** The codes of SPEC part 7, in its order: errors (7.1), warnings (7.2), notices (7.3). */
import type { Entry } from './entry.js';

export const SPEC_CODES = {
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
    text:
      'No uploaded file matches a known formatter, or the formatter named in the path (unknown format, invalid ' +
      'file, or a file Tally could not read).',
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
    text:
      'The request holds no file: send the result file as the request body with its content type, or as a multipart ' +
      'form with file[].',
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
    text:
      'The content type is neither multipart/form-data nor the content type of a formatter. Send a multipart form ' +
      'with file[], or the raw file with its content type.',
  },
  import_missing_media_type: {
    severity: 'error',
    status: 415,
    origin: 'spec',
    text:
      'The request has no Content-Type. ' +
      'Send multipart/form-data with file[], or the raw file with its content type.',
  },
  import_generating_error: {
    severity: 'error',
    status: 500,
    origin: 'spec',
    text:
      'Tally could not create the import record. ' +
      'Retry; if it persists, tell the operator the time of this message.',
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
    text:
      'Processing ended without errors but the report holds no tests. Send ignore_empty_import=true if an empty ' +
      'report is expected.',
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
    text:
      'Files in file[] matched no formatter and were moved to the attachments. Send non-result files in ' +
      'attachment[], or suppress_files_moved=true.',
  },
  invalid_file_mime_type: {
    severity: 'warning',
    status: 201,
    hiddenBy: 'ignore_invalid_file_type',
    origin: 'spec',
    text:
      'The type of the file could not be confirmed: an XML file should begin with an XML declaration and a file ' +
      'should carry the extension of its type. Hide with ignore_invalid_file_type=true.',
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
    text:
      'A repeatable parameter was sent without the [] suffix. It was accepted; use the [] suffix (file[], ' +
      'attachment[], tag[]).',
  },
  duplicate_field_titles: {
    severity: 'warning',
    status: 201,
    origin: 'spec',
    text:
      'Two or more containers of one result file have the same title under the same parent, so the history ' +
      'comparison cannot tell them apart. Rename or combine them.',
  },
  specify_formatter: {
    severity: 'warning',
    status: 201,
    hiddenBy: 'ignore_unspecified_formatter',
    origin: 'spec',
    text:
      'No formatter was named, so the format was detected. Add the formatter to the path (/import/{formatter}), or ' +
      'ignore_unspecified_formatter=true.',
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
  // SPEC 7.2 lists it among the warnings, but the request it answers is refused (405, nothing is
  // imported): a failed answer carries it as its error (README "Decisions").
  invalid_request_method: {
    severity: 'error',
    status: 405,
    origin: 'spec',
    text: 'The import endpoints take POST only.',
  },
  max_files_limit: {
    severity: 'warning',
    status: 201,
    hiddenBy: 'ignore_max_files_limit',
    origin: 'spec',
    text:
      'Too many files for an import without a formatter. Move non-result files to attachment[], name the formatter ' +
      'in the path, or ignore_max_files_limit=true.',
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
} as const satisfies Record<string, Entry>;
