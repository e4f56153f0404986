/**
 * What the route table cannot tell about each API route: a summary, the answers by status, extra
 * query parameters (those a joi schema lets through with `.unknown()`), and request bodies.
 * Keyed `METHOD path` exactly as hapi lists the route; `*` routes are documented for the methods
 * they answer. `test/openapi.test.ts` fails when a route has no entry here or an entry no route.
 */
type Schema = Record<string, unknown>;

export interface Operation {
  summary: string;
  /** Status → schema name in `SCHEMAS`, or `binary` for a download. */
  responses: Record<number, string>;
  query?: { name: string; schema: Schema; description: string; deprecated?: boolean }[];
  body?: 'import' | 'profileName' | 'ciLink' | 'retention' | 'retentionDryRun' | 'notificationRule';
  /** For `*` routes: the methods documented. */
  methods?: string[];
}

const FAULTS_AUTHED = { 401: 'Fault', 429: 'Fault' } as const;
const IMPORT_RESPONSES = {
  201: 'ImportAnswer',
  202: 'ImportAnswer',
  400: 'Fault',
  401: 'Fault',
  403: 'Fault',
  404: 'Fault',
  408: 'Fault',
  413: 'Fault',
  415: 'Fault',
  422: 'Fault',
  429: 'Fault',
  503: 'Fault',
  507: 'Fault',
};
const IMPORT_QUERY: Operation['query'] = [
  {
    name: 'tag[]',
    schema: { type: 'array', items: { type: 'string', maxLength: 256 } },
    description: 'Free tags, `<key>:<value>` for the dynamic form.',
  },
  ...['os', 'platform', 'build'].map((name) => ({
    name,
    schema: { type: 'string' },
    description: `Deprecated: becomes the tag \`${name}:<value>\` (warning tag_params_deprecated).`,
    deprecated: true,
  })),
];
const NOT_POST: Operation = {
  summary: 'Any method but POST: 405 invalid_request_method, `Allow: POST`.',
  responses: { 405: 'Fault' },
  methods: ['get', 'put', 'patch', 'delete'],
};

const importOp = (summary: string): Operation => ({
  summary,
  responses: IMPORT_RESPONSES,
  query: IMPORT_QUERY,
  body: 'import',
});

export const OPERATIONS: Record<string, Operation> = {
  'POST /api/v2/profile/{profile_id}/import/{formatter}': importOp(
    'Import result files with the named formatter (SPEC 4.1).',
  ),
  'POST /api/v2/profile/{profile_id}/import': importOp(
    'Import result files; the format is detected (SPEC 4.2, warning specify_formatter).',
  ),
  'POST /api/v2/profile/{profile_id}/report/import': importOp(
    'Deprecated path of the import (warning report_endpoint_deprecated).',
  ),
  'POST /api/v2/profile/{profile_id}/testresult': importOp(
    'A raw Cucumber JSON body, imported with the cucumber formatter (older clients).',
  ),
  '* /api/v2/profile/{profile_id}/import/{formatter}': NOT_POST,
  '* /api/v2/profile/{profile_id}/import': NOT_POST,
  '* /api/v2/profile/{profile_id}/report/import': NOT_POST,
  '* /api/v2/profile/{profile_id}/testresult': NOT_POST,
  'GET /api/v2/formatters': {
    summary: 'The formatter keys, titles, extensions and media types.',
    responses: { 200: 'FormatterList' },
  },
  'GET /api/v2/profile/{profile_id}/reports': {
    summary: "A profile's completed reports, newest first.",
    responses: { 200: 'ReportList', 400: 'Fault', 403: 'Fault', 404: 'Fault', ...FAULTS_AUTHED },
    query: [
      {
        name: 'tag[]',
        schema: { type: 'array', items: { type: 'string' } },
        description: 'Only reports carrying every tag listed.',
      },
    ],
  },
  'GET /api/v2/profile/{profile_id}': {
    summary: 'The profile, when the key may use it.',
    responses: { 200: 'Profile', 403: 'Fault', 404: 'Fault', ...FAULTS_AUTHED },
  },
  'GET /api/v2/reports/{report_id}/status': {
    summary: 'Status and progress of the import behind a report.',
    responses: { 200: 'ReportStatus', 404: 'Fault', ...FAULTS_AUTHED },
  },
  'GET /api/v2/reports/{report_id}': {
    summary: 'A completed report: totals, tags, files, messages, date.',
    responses: { 200: 'Report', 404: 'Fault', ...FAULTS_AUTHED },
  },
  'GET /api/v2/reports/{report_id}/containers': {
    summary: 'Children of `parent` (the top level without it), ordered by seq.',
    responses: { 200: 'ContainerList', 400: 'Fault', 404: 'Fault', ...FAULTS_AUTHED },
  },
  'GET /api/v2/imports/{import_id}': {
    summary: 'The import record: status, progress, messages, parameters, files.',
    responses: { 200: 'ImportRecord', 404: 'Fault', ...FAULTS_AUTHED },
  },
  'GET /api/v2/imports/{import_id}/blobs/{blob_id}': {
    summary: 'A stored upload or attachment, as a download.',
    responses: { 200: 'binary', 404: 'Fault', ...FAULTS_AUTHED },
  },
  // Managing profiles and reports (plugins/manage.ts).
  'POST /api/v2/profiles': {
    summary: "Creates a profile in the key's account; answers it as GET /api/v2/profile/{profile_id} does.",
    responses: { 201: 'Profile', 400: 'Fault', 413: 'Fault', 415: 'Fault', ...FAULTS_AUTHED },
    body: 'profileName',
  },
  'PATCH /api/v2/profiles/{id}': {
    summary: 'Renames a profile.',
    responses: {
      200: 'Profile',
      400: 'Fault',
      403: 'Fault',
      404: 'Fault',
      413: 'Fault',
      415: 'Fault',
      ...FAULTS_AUTHED,
    },
    body: 'profileName',
  },
  'DELETE /api/v2/profiles/{id}': {
    summary:
      'Deletes a profile with its reports, their containers, history and stored files, and its imports ' +
      '(409 import_in_progress while an import into it runs).',
    responses: { 200: 'Deleted', 403: 'Fault', 404: 'Fault', 409: 'Fault', ...FAULTS_AUTHED },
  },
  'GET /api/v2/profiles/{id}/ci': {
    summary: "The profile's CI link; the token is never shown, only `token_set`.",
    responses: { 200: 'CiLink', 403: 'Fault', 404: 'Fault', ...FAULTS_AUTHED },
  },
  'PUT /api/v2/profiles/{id}/ci': {
    summary:
      'Links the profile to a CI job, or changes its link; the token is encrypted (TALLY_SECRET_KEY, 503 ' +
      'ci_secret_key_missing without it) and may be left out to keep the one saved.',
    responses: {
      200: 'CiLink',
      400: 'Fault',
      403: 'Fault',
      404: 'Fault',
      413: 'Fault',
      415: 'Fault',
      503: 'Fault',
      ...FAULTS_AUTHED,
    },
    body: 'ciLink',
  },
  'DELETE /api/v2/profiles/{id}/ci': {
    summary: "Removes the profile's CI link and its encrypted token.",
    responses: { 200: 'CiLinkDeleted', 403: 'Fault', 404: 'Fault', ...FAULTS_AUTHED },
  },
  'POST /api/v2/profiles/{id}/ci/runs': {
    summary:
      "Starts the linked job on the link's branch and answers the run. A provider's fault is its code: " +
      'ci_bad_token, ci_unknown_job (422), ci_provider_down (502), ci_rate_limited (503, Retry-After).',
    responses: { 201: 'CiRun', 403: 'Fault', 404: 'Fault', 422: 'Fault', 502: 'Fault', 503: 'Fault', ...FAULTS_AUTHED },
  },
  'GET /api/v2/profiles/{id}/ci/runs': {
    summary:
      "The linked job's recent runs, newest first, each with `report_id`: the report of this profile that came " +
      "from it (matched by the report's CI build URL, else build number and commit or branch), or null.",
    responses: {
      200: 'CiRunList',
      400: 'Fault',
      403: 'Fault',
      404: 'Fault',
      422: 'Fault',
      502: 'Fault',
      503: 'Fault',
      ...FAULTS_AUTHED,
    },
  },
  'GET /api/v2/profiles/{id}/ci/runs/{run}/log': {
    summary:
      "One chunk of a run's log from a byte offset (ANSI escapes left in): `text`, `next_offset` to ask for " +
      'next, and `complete` once the run has ended and the log has no more.',
    responses: {
      200: 'CiLogChunk',
      400: 'Fault',
      403: 'Fault',
      404: 'Fault',
      422: 'Fault',
      502: 'Fault',
      503: 'Fault',
      ...FAULTS_AUTHED,
    },
  },
  'GET /api/v2/profiles/{id}/ci/schedules': {
    summary: "The linked job's schedules: cron, branch, next run when the provider tells it, description.",
    responses: {
      200: 'CiScheduleList',
      403: 'Fault',
      404: 'Fault',
      422: 'Fault',
      502: 'Fault',
      503: 'Fault',
      ...FAULTS_AUTHED,
    },
  },
  // Retention (plugins/retention.ts).
  'GET /api/v2/profiles/{id}/retention': {
    summary: "The profile's retention policy: `keep_reports` and `keep_days`, each null when not set.",
    responses: { 200: 'RetentionPolicy', 403: 'Fault', 404: 'Fault', ...FAULTS_AUTHED },
  },
  'PUT /api/v2/profiles/{id}/retention': {
    summary:
      'Saves the retention policy (both limits null: keep everything) and applies it at once, then after each ' +
      'import and at every sweep; pinned reports and the newest report are always kept.',
    responses: {
      200: 'RetentionPolicy',
      400: 'Fault',
      403: 'Fault',
      404: 'Fault',
      413: 'Fault',
      415: 'Fault',
      ...FAULTS_AUTHED,
    },
    body: 'retention',
  },
  'POST /api/v2/profiles/{id}/retention/dry-run': {
    summary:
      'What the policy in the body (the saved one without a body) would delete now: reports, tests, bytes, ' +
      'the first 100 reports by id. Nothing is changed.',
    responses: {
      200: 'RetentionPreview',
      400: 'Fault',
      403: 'Fault',
      404: 'Fault',
      413: 'Fault',
      415: 'Fault',
      ...FAULTS_AUTHED,
    },
    body: 'retentionDryRun',
  },
  'PUT /api/v2/reports/{report_id}/pin': {
    summary: 'Pins a completed report: retention never deletes it (a DELETE of the report still does).',
    responses: { 200: 'Pin', 404: 'Fault', ...FAULTS_AUTHED },
  },
  'DELETE /api/v2/reports/{report_id}/pin': {
    summary: 'Unpins a report: retention may delete it again.',
    responses: { 200: 'Pin', 404: 'Fault', ...FAULTS_AUTHED },
  },
  'GET /api/v2/profiles/{id}/notifications': {
    summary: "The profile's notification rules, oldest first; a webhook shows its host and a masked tail only.",
    responses: { 200: 'NotificationRuleList', 403: 'Fault', 404: 'Fault', ...FAULTS_AUTHED },
  },
  'POST /api/v2/profiles/{id}/notifications': {
    summary:
      'Adds a rule: events to a webhook (Tally JSON, Slack or Teams body) or to e-mail addresses. A webhook URL is ' +
      'encrypted (503 notification_secret_key_missing without TALLY_SECRET_KEY) and refused when it reaches a ' +
      'private address (400 notification_url_refused); e-mail needs TALLY_SMTP_URL (503 notification_smtp_missing).',
    responses: {
      201: 'NotificationRule',
      400: 'Fault',
      403: 'Fault',
      404: 'Fault',
      413: 'Fault',
      415: 'Fault',
      503: 'Fault',
      ...FAULTS_AUTHED,
    },
    body: 'notificationRule',
  },
  'DELETE /api/v2/profiles/{id}/notifications/{rule}': {
    summary: 'Removes a rule (404 notification_rule_not_found); its deliveries stay in the log.',
    responses: { 200: 'NotificationRuleDeleted', 403: 'Fault', 404: 'Fault', ...FAULTS_AUTHED },
  },
  'POST /api/v2/profiles/{id}/notifications/{rule}/test': {
    summary: "Queues a test message to the rule's target; the delivery is answered (202) and shows in the log.",
    responses: { 202: 'Delivery', 403: 'Fault', 404: 'Fault', ...FAULTS_AUTHED },
  },
  'GET /api/v2/profiles/{id}/notifications/deliveries': {
    summary:
      "The profile's delivery log, newest first: event, masked target, status (pending, sending, delivered, " +
      "dead), attempts, last error and the receiver's status; `before` takes the `next_before` of a page.",
    responses: { 200: 'DeliveryList', 400: 'Fault', 403: 'Fault', 404: 'Fault', ...FAULTS_AUTHED },
  },
  'DELETE /api/v2/reports/{report_id}': {
    summary:
      'Deletes a report with its containers, history, stored files and import record ' +
      '(409 import_in_progress while its import runs).',
    responses: { 200: 'Deleted', 404: 'Fault', 409: 'Fault', ...FAULTS_AUTHED },
  },
  // The web pages' JSON twins (plugins/page-api.ts): what each page shows, for scripts.
  'GET /api/v2/profiles': {
    summary: "The key's account's profiles, each with its newest report and a pass/fail trend (the Profiles page).",
    responses: { 200: 'View', ...FAULTS_AUTHED },
  },
  'GET /api/v2/profiles/{id}/reports': {
    summary: "A profile's reports with tag, branch and date filters (the Reports page).",
    responses: { 200: 'View', 400: 'Fault', 403: 'Fault', 404: 'Fault', ...FAULTS_AUTHED },
  },
  'GET /api/v2/profiles/{id}/history': {
    summary: 'Tests × the last n reports: statuses, flaky, first failed, last passed (the History page).',
    responses: { 200: 'View', 400: 'Fault', 403: 'Fault', 404: 'Fault', ...FAULTS_AUTHED },
  },
  'GET /api/v2/profiles/{id}/history/{key}': {
    summary: "One test across the last n reports, with its durations (the test's history page).",
    responses: { 200: 'View', 400: 'Fault', 403: 'Fault', 404: 'Fault', ...FAULTS_AUTHED },
  },
  'GET /api/v2/profiles/{id}/upload': {
    summary: "What the Upload page shows: this profile's import commands, formatter keys, tags and flags.",
    responses: { 200: 'View', 403: 'Fault', 404: 'Fault', ...FAULTS_AUTHED },
  },
  'GET /api/v2/reports/{id}/search': {
    summary: "Containers of a report by status and title, at any depth (the Report page's filter).",
    responses: { 200: 'View', 400: 'Fault', 404: 'Fault', ...FAULTS_AUTHED },
  },
  'GET /api/v2/account': {
    summary: 'The account: its masked API keys and users (the Account page).',
    responses: { 200: 'View', ...FAULTS_AUTHED },
  },
  'GET /healthz': { summary: '200 when the store answers, else 503.', responses: { 200: 'Health', 503: 'Health' } },
  'GET /openapi.json': { summary: 'This document.', responses: { 200: 'OpenApi' } },
};
