/**
 * JSON Schemas (OpenAPI 3.0 dialect) of Tally's answers. They describe what the handlers return
 * today; `test/openapi.test.ts` and the schemathesis run (`scripts/contract.ts`) hold them to it.
 */
import { MAX_NUMBER } from '../../lib/store/numbers.js';

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
  required: ['name', 'blobId', 'size', 'formatter'],
  properties: {
    name: str,
    blobId: str,
    size: int,
    sha256: str,
    contentType: nullable(str),
    formatter: nullable(str),
    archive: str,
  },
};

const progress: Schema = {
  type: 'object',
  required: ['bytes', 'files', 'containers'],
  properties: { bytes: int, files: int, containers: int, totalBytes: nullable(int) },
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
      'profileId',
      'importId',
      'status',
      'createdAt',
      'date',
      'tags',
      'totals',
      'files',
      'messages',
    ],
    properties: {
      id: publicId,
      uuid,
      profileId: publicId,
      importId: str,
      status: { type: 'string', enum: ['building', 'completed', 'failed'] },
      createdAt: str,
      date: str,
      tags: strings,
      totals,
      files: { type: 'array', items: reportFile },
      messages: { type: 'array', items: { $ref: '#/components/schemas/Message' } },
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
          required: ['seq', 'parentSeq', 'type', 'title', 'status'],
          properties: {
            reportId: publicId,
            seq: int,
            parentSeq: nullable(int),
            type: str,
            title: str,
            status: str,
            durationMs: nullable({ type: 'number' }),
            startedAt: nullable(str),
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
      'profileId',
      'status',
      'createdAt',
      'finishedAt',
      'endpoint',
      'formatter',
      'params',
      'tags',
      'files',
      'attachments',
      'messages',
      'reportId',
      'progress',
    ],
    properties: {
      id: str,
      profileId: nullable(publicId),
      accountId: str,
      status: importStatus,
      createdAt: str,
      finishedAt: nullable(str),
      endpoint: str,
      formatter: nullable(str),
      contentType: nullable(str),
      params: { type: 'object' },
      tags: strings,
      files: { type: 'array', items: storedFile },
      attachments: { type: 'array', items: storedFile },
      messages: { type: 'array', items: { $ref: '#/components/schemas/Message' } },
      reportId: nullable(publicId),
      progress,
    },
  },
  Profile: {
    type: 'object',
    required: ['profile_id', 'id', 'uuid', 'name'],
    properties: { profile_id: publicId, id: publicId, uuid, name: str, created_at: str },
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
