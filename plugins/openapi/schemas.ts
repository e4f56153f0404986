/**
 * JSON Schemas (OpenAPI 3.0 dialect) of Tally's answers. They describe what the handlers return
 * today; `test/openapi.test.ts` and the schemathesis run (`scripts/contract.ts`) hold them to it.
 */
import { MAX_NUMBER } from '../../lib/store/numbers.js';
import { NOTIFY_EVENTS, WEBHOOK_FORMATS } from '../../lib/store/notifications.js';

type Schema = Record<string, unknown>;

const nullable = (s: Schema): Schema => ({ ...s, nullable: true });
const str: Schema = { type: 'string' };
const int: Schema = { type: 'integer', minimum: 0 };
const strings: Schema = { type: 'array', items: str };
/** A report's or profile's id as clients see it (lib/store/numbers.ts): a Java `Integer`, a Go `int32`. */
export const publicId: Schema = { type: 'integer', format: 'int32', minimum: 1, maximum: MAX_NUMBER };
const uuid: Schema = { type: 'string', format: 'uuid', description: 'The internal key; routes accept it too.' };

const message: Schema = {
  type: 'object',
  required: ['severity', 'code', 'message'],
  properties: {
    severity: { type: 'string', enum: ['error', 'warning', 'notice'] },
    code: nullable(str),
    message: str,
    file: str,
    at: str,
    details: { type: 'object' },
  },
};

/** A CI run as the provider tells it (lib/ci/api.ts). */
const ciRun: Schema = {
  type: 'object',
  required: ['id', 'number', 'status', 'branch', 'commit', 'web_url', 'started_at', 'duration_ms'],
  properties: {
    id: str,
    number: nullable({ type: 'integer' }),
    status: { type: 'string', enum: ['queued', 'running', 'passed', 'failed', 'cancelled', 'unknown'] },
    branch: nullable(str),
    commit: nullable(str),
    web_url: nullable(str),
    started_at: nullable(str),
    duration_ms: nullable(int),
  },
};

/** A profile's retention policy as answers show it (plugins/retention.ts): each limit null when not set. */
const policy: Schema = {
  profile_id: publicId,
  keep_reports: nullable({ type: 'integer', minimum: 1 }),
  keep_days: nullable({ type: 'integer', minimum: 1 }),
};

/** A notification rule as answers show it: a webhook's hint, never its URL. */
const notificationRule: Schema = {
  type: 'object',
  required: ['id', 'events', 'webhook', 'format', 'email', 'created_at'],
  properties: {
    id: str,
    events: { type: 'array', items: { type: 'string', enum: [...NOTIFY_EVENTS] } },
    webhook: nullable({ ...str, description: 'The scheme, host and a masked tail of the URL.' }),
    format: nullable({ type: 'string', enum: [...WEBHOOK_FORMATS] }),
    email: nullable(strings),
    created_at: str,
  },
};

/** One delivery of the log. */
const delivery: Schema = {
  type: 'object',
  required: ['id', 'rule_id', 'trigger', 'events', 'target', 'status', 'attempts', 'last_error', 'response_status'],
  properties: {
    id: { ...str, description: 'Sent as X-Tally-Delivery (and the Message-ID): a receiver drops repeats by it.' },
    rule_id: str,
    trigger: { type: 'string', enum: ['completed', 'failed', 'test'] },
    events: strings,
    target: str,
    status: { type: 'string', enum: ['pending', 'sending', 'delivered', 'dead'] },
    attempts: int,
    last_error: nullable(str),
    response_status: nullable(int),
    import_id: nullable(str),
    report_id: nullable(publicId),
    created_at: str,
    next_attempt_at: nullable(str),
    finished_at: nullable(str),
  },
};

const totals: Schema = {
  type: 'object',
  required: ['containers', 'tests', 'passed', 'failed', 'errored', 'skipped'],
  properties: Object.fromEntries(
    ['containers', 'tests', 'passed', 'failed', 'errored', 'skipped', 'pending', 'unknown', 'flaky'].map((k) => [
      k,
      int,
    ]),
  ),
};

const reportFile: Schema = {
  type: 'object',
  required: ['name', 'formatter', 'tests'],
  properties: { name: str, formatter: str, producer: nullable(str), tests: int },
};

const storedFile: Schema = {
  type: 'object',
  required: ['name', 'blob_id', 'size', 'formatter'],
  properties: {
    name: str,
    blob_id: str,
    size: int,
    sha256: str,
    content_type: nullable(str),
    formatter: nullable(str),
    archive: str,
  },
};

const progress: Schema = {
  type: 'object',
  required: ['bytes', 'files', 'containers'],
  properties: { bytes: int, files: int, containers: int, total_bytes: nullable(int) },
};

const importStatus: Schema = { type: 'string', enum: ['queued', 'receiving', 'processing', 'completed', 'failed'] };

export const SCHEMAS: Record<string, Schema> = {
  Message: message,
  /** Faults outside an import, and the common part of every failed answer. */
  Fault: {
    type: 'object',
    required: ['status', 'messages'],
    properties: {
      status: { type: 'string', enum: ['failed'] },
      messages: { type: 'array', items: { $ref: '#/components/schemas/Message' } },
    },
  },
  ImportAnswer: {
    type: 'object',
    required: [
      'import_id',
      'report_id',
      'profile_id',
      'status',
      'import_status',
      'import_progress',
      'message',
      'report_url',
      'report_status_url',
      'messages',
      'report',
    ],
    properties: {
      import_id: nullable(str),
      report_id: nullable(publicId),
      profile_id: publicId,
      status: { type: 'string', enum: ['completed', 'failed', 'queued'] },
      import_status: importStatus,
      import_progress: nullable({ type: 'integer', minimum: 0, maximum: 100 }),
      message: str,
      report_url: nullable(str),
      report_status_url: nullable(str),
      messages: { type: 'array', items: { $ref: '#/components/schemas/Message' } },
      report: nullable({
        type: 'object',
        required: ['date', 'url', 'tags', 'files', 'totals'],
        properties: { date: str, url: str, tags: strings, files: { type: 'array', items: reportFile }, totals },
      }),
    },
  },
  Report: {
    type: 'object',
    required: [
      'id',
      'uuid',
      'profile_id',
      'import_id',
      'status',
      'created_at',
      'date',
      'tags',
      'totals',
      'files',
      'messages',
      'ci',
      'pinned',
    ],
    properties: {
      id: publicId,
      uuid,
      profile_id: publicId,
      import_id: str,
      status: { type: 'string', enum: ['building', 'completed', 'failed'] },
      created_at: str,
      date: str,
      tags: strings,
      totals,
      files: { type: 'array', items: reportFile },
      messages: { type: 'array', items: { $ref: '#/components/schemas/Message' } },
      pinned: { type: 'boolean', description: 'Retention never deletes a pinned report.' },
      ci: nullable({
        type: 'object',
        description: "The CI build that produced the report (the import's ci_* fields); null when none was sent.",
        required: ['provider', 'build_number', 'build_url', 'branch', 'commit', 'job', 'pull_request'],
        properties: {
          provider: nullable(str),
          build_number: nullable(str),
          build_url: nullable(str),
          branch: nullable(str),
          commit: nullable(str),
          job: nullable(str),
          pull_request: nullable({ type: 'integer', minimum: 1 }),
        },
      }),
    },
  },
  ReportList: {
    type: 'object',
    required: ['profile_id', 'reports', 'next_before'],
    properties: {
      profile_id: publicId,
      reports: { type: 'array', items: { $ref: '#/components/schemas/Report' } },
      next_before: nullable(str),
    },
  },
  ReportStatus: {
    type: 'object',
    required: [
      'report_id',
      'import_id',
      'import_status',
      'import_progress',
      'progress',
      'report_url',
      'messages',
      'totals',
    ],
    properties: {
      report_id: publicId,
      import_id: str,
      import_status: importStatus,
      import_progress: nullable({ type: 'integer', minimum: 0, maximum: 100 }),
      progress,
      report_url: nullable(str),
      messages: { type: 'array', items: { $ref: '#/components/schemas/Message' } },
      totals: nullable(totals),
    },
  },
  ContainerList: {
    type: 'object',
    required: ['report_id', 'parent', 'containers', 'next_after'],
    properties: {
      report_id: publicId,
      parent: nullable(int),
      containers: {
        type: 'array',
        items: {
          type: 'object',
          required: ['seq', 'parent_seq', 'type', 'title', 'status'],
          properties: {
            report_id: publicId,
            seq: int,
            parent_seq: nullable(int),
            file_index: int,
            type: str,
            title: str,
            status: str,
            duration_ms: nullable({ type: 'number' }),
            started_at: nullable(str),
            failure: nullable({ type: 'object' }),
            output: nullable({ type: 'object' }),
            properties: { type: 'array', items: { type: 'object' } },
            attachment_refs: strings,
            attachments: { type: 'array', items: { type: 'object' } },
            flaky: { type: 'boolean' },
            attempts: { type: 'array', items: { type: 'object' } },
            meta: { type: 'object', description: "The formatter's own names and values, as it wrote them." },
          },
        },
      },
      next_after: nullable(int),
    },
  },
  ImportRecord: {
    type: 'object',
    required: [
      'id',
      'profile_id',
      'status',
      'created_at',
      'finished_at',
      'endpoint',
      'formatter',
      'params',
      'tags',
      'files',
      'attachments',
      'messages',
      'report_id',
      'progress',
    ],
    properties: {
      id: str,
      profile_id: nullable(publicId),
      account_id: str,
      status: importStatus,
      created_at: str,
      finished_at: nullable(str),
      endpoint: str,
      formatter: nullable(str),
      content_type: nullable(str),
      params: { type: 'object', description: 'Every parameter as received, under the name the client sent.' },
      tags: strings,
      files: { type: 'array', items: storedFile },
      attachments: { type: 'array', items: storedFile },
      messages: { type: 'array', items: { $ref: '#/components/schemas/Message' } },
      report_id: nullable(publicId),
      progress,
    },
  },
  Profile: {
    type: 'object',
    required: ['profile_id', 'id', 'uuid', 'name'],
    properties: { profile_id: publicId, id: publicId, uuid, name: str, created_at: str },
  },
  /** What a DELETE took: the completed reports and their tests. */
  Deleted: {
    type: 'object',
    required: ['deleted'],
    properties: {
      profile_id: publicId,
      report_id: publicId,
      deleted: { type: 'object', required: ['reports', 'tests'], properties: { reports: int, tests: int } },
    },
  },
  /** A profile's CI link: everything but the token. */
  CiLink: {
    type: 'object',
    required: ['profile_id', 'provider', 'url', 'repository', 'branch', 'job', 'verdict', 'token_set'],
    properties: {
      profile_id: publicId,
      provider: str,
      url: str,
      repository: str,
      branch: str,
      job: str,
      verdict: { type: 'boolean' },
      token_set: { type: 'boolean', const: true },
      updated_at: str,
    },
  },
  CiRun: ciRun,
  CiRunList: {
    type: 'object',
    required: ['profile_id', 'runs'],
    properties: {
      profile_id: publicId,
      runs: {
        type: 'array',
        items: {
          ...ciRun,
          required: [...(ciRun.required as string[]), 'report_id'],
          properties: {
            ...(ciRun.properties as Schema),
            report_id: nullable({ ...publicId, description: 'The report of this profile that came from the run.' }),
          },
        },
      },
    },
  },
  CiLogChunk: {
    type: 'object',
    required: ['text', 'next_offset', 'complete'],
    properties: { text: str, next_offset: int, complete: { type: 'boolean' } },
  },
  CiScheduleList: {
    type: 'object',
    required: ['profile_id', 'schedules'],
    properties: {
      profile_id: publicId,
      schedules: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'cron', 'branch', 'next_run_at', 'description'],
          properties: {
            id: str,
            cron: str,
            branch: nullable(str),
            next_run_at: nullable(str),
            description: nullable(str),
          },
        },
      },
    },
  },
  /** A profile's retention policy (plugins/retention.ts). */
  RetentionPolicy: { type: 'object', required: ['profile_id', 'keep_reports', 'keep_days'], properties: policy },
  /** What a policy would delete now. */
  RetentionPreview: {
    type: 'object',
    required: ['profile_id', 'keep_reports', 'keep_days', 'would_delete', 'pinned_kept', 'reports'],
    properties: {
      ...policy,
      would_delete: {
        type: 'object',
        required: ['reports', 'tests', 'bytes', 'file_bytes', 'row_bytes'],
        properties: {
          reports: int,
          tests: int,
          bytes: { ...int, description: 'file_bytes + row_bytes' },
          file_bytes: { ...int, description: "The stored files of the reports' imports, exactly." },
          row_bytes: { ...int, description: "The reports' rows or documents, estimated from the store's size." },
        },
      },
      pinned_kept: { ...int, description: 'Reports the policy would take, kept because they are pinned.' },
      reports: {
        type: 'array',
        description: 'The first 100 reports that would go, oldest first.',
        items: {
          type: 'object',
          required: ['report_id', 'created_at', 'date', 'tests', 'tags'],
          properties: { report_id: publicId, created_at: str, date: str, tests: int, tags: strings },
        },
      },
    },
  },
  Pin: {
    type: 'object',
    required: ['report_id', 'pinned'],
    properties: { report_id: publicId, pinned: { type: 'boolean' } },
  },
  NotificationRule: notificationRule,
  NotificationRuleList: {
    type: 'object',
    required: ['profile_id', 'rules'],
    properties: { profile_id: publicId, rules: { type: 'array', items: notificationRule } },
  },
  NotificationRuleDeleted: {
    type: 'object',
    required: ['profile_id', 'rule_id', 'deleted'],
    properties: { profile_id: publicId, rule_id: str, deleted: { type: 'boolean', const: true } },
  },
  Delivery: delivery,
  DeliveryList: {
    type: 'object',
    required: ['profile_id', 'deliveries', 'next_before'],
    properties: {
      profile_id: publicId,
      deliveries: { type: 'array', items: delivery },
      next_before: nullable({ ...str, description: 'The `before` of the next page; null on the last.' }),
    },
  },
  CiLinkDeleted: {
    type: 'object',
    required: ['profile_id', 'deleted'],
    properties: { profile_id: publicId, deleted: { type: 'boolean', const: true } },
  },
  FormatterList: {
    type: 'object',
    required: ['formatters'],
    properties: {
      formatters: {
        type: 'array',
        items: {
          type: 'object',
          required: ['key', 'title', 'extensions', 'media_types', 'merge_containers_by_default'],
          properties: {
            key: str,
            title: str,
            extensions: strings,
            media_types: strings,
            merge_containers_by_default: { type: 'boolean' },
          },
        },
      },
    },
  },
  Health: {
    type: 'object',
    required: ['status', 'store'],
    properties: {
      status: { type: 'string', enum: ['ok', 'unavailable'] },
      store: { type: 'string', enum: ['embedded', 'mongo'] },
    },
  },
  OpenApi: { type: 'object', required: ['openapi', 'paths'] },
  View: {
    type: 'object',
    description: "A web page's data; its fields are described in the README's Web interface section.",
  },
};
