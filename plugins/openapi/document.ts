/**
 * Builds the OpenAPI 3.0 document from hapi's route table: paths, methods, path parameters, auth
 * and joi-validated query parameters come from the routes themselves; summaries and answers from
 * `OPERATIONS`. Routes outside the API (the web interface) are not part of the contract.
 */
import type { RequestRoute } from '@hapi/hapi';
import type Joi from 'joi';
import { FLAGS } from '../../lib/messages.js';
import { MAX_PROFILE_NAME } from '../../lib/profile-name.js';
import { MAX_KEEP_DAYS, MAX_KEEP_REPORTS } from '../../lib/retention/policy.js';
import { MAX_RECIPIENTS, MAX_URL_CHARS } from '../../lib/notify/rule-input.js';
import { NOTIFY_EVENTS, WEBHOOK_FORMATS } from '../../lib/store/notifications.js';
import { OPERATIONS, type Operation } from './operations.js';
import { SCHEMAS, publicId } from './schemas.js';

type Schema = Record<string, unknown>;

export interface Built {
  document: Schema;
  /** API routes without an entry in OPERATIONS. */
  undocumented: string[];
  /** OPERATIONS entries without a route. */
  unrouted: string[];
}

export const isApiPath = (path: string): boolean =>
  path.startsWith('/api/') || path === '/healthz' || path === '/openapi.json';

export const routeKey = (r: Pick<RequestRoute, 'method' | 'path'>): string =>
  `${r.method === '*' ? '*' : r.method.toUpperCase()} ${r.path}`;

export function buildDocument(
  routes: readonly RequestRoute[],
  version: string,
  operations: Record<string, Operation> = OPERATIONS,
): Built {
  const paths: Record<string, Record<string, unknown>> = {};
  const undocumented: string[] = [];
  const seen = new Set<string>();
  for (const route of routes) {
    if (!isApiPath(route.path)) continue;
    const key = routeKey(route);
    const op = operations[key];
    if (!op) {
      undocumented.push(key);
      continue;
    }
    seen.add(key);
    const methods = route.method === '*' ? (op.methods ?? []) : [route.method.toLowerCase()];
    for (const method of methods) (paths[route.path] ??= {})[method] = operation(route, op);
  }
  return {
    document: {
      openapi: '3.0.3',
      info: {
        title: 'Tally',
        version,
        description: 'Imports automated-test results from CI. Messages carry codes; README "Message codes" lists them.',
      },
      paths,
      components: {
        schemas: SCHEMAS,
        securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
      },
    },
    undocumented,
    unrouted: Object.keys(operations).filter((k) => !seen.has(k)),
  };
}

function operation(route: RequestRoute, op: Operation): Schema {
  // hapi lists `auth: false` routes with no auth settings, and api-key routes with their strategies.
  const authed =
    ((route.settings.auth as { strategies?: string[] } | false | undefined) || null)?.strategies?.includes('api-key') ??
    false;
  const parameters: Schema[] = [];
  for (const m of route.path.matchAll(/\{(\w+)\??\}/g))
    parameters.push({ name: m[1], in: 'path', required: true, schema: pathSchema(route.path, m[1]!) });
  const query = route.settings.validate?.query;
  if (query && typeof (query as Joi.Schema).describe === 'function') {
    const described = (query as Joi.Schema).describe() as { keys?: Record<string, Joi.Description> };
    for (const [name, d] of Object.entries(described.keys ?? {})) {
      const description = (d.flags as { description?: string } | undefined)?.description;
      parameters.push({
        name,
        in: 'query',
        required: false,
        ...(description ? { description } : {}),
        schema: joiToSchema(d),
      });
    }
  }
  for (const q of op.query ?? []) {
    parameters.push({
      name: q.name,
      in: 'query',
      required: false,
      description: q.description,
      schema: q.schema,
      ...(q.deprecated ? { deprecated: true } : {}),
      ...(q.schema.type === 'array' ? { style: 'form', explode: true } : {}),
    });
  }
  const responses: Record<string, Schema> = {};
  // Any request may carry a request line or headers over Node's limit (plugins/client-error.ts).
  for (const [status, name] of Object.entries({ ...op.responses, 431: 'Fault' })) {
    responses[status] =
      name === 'binary'
        ? {
            description: 'The stored file, as a download',
            content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
          }
        : { description: name, content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } };
  }
  return {
    summary: op.summary,
    operationId: `${route.method === '*' ? 'any' : route.method}${camelPath(route.path)}`,
    security: authed ? [{ apiKey: [] }] : [],
    parameters,
    ...(op.body === 'import'
      ? { requestBody: importBody() }
      : op.body === 'profileName'
        ? { requestBody: nameBody() }
        : op.body === 'ciLink'
          ? { requestBody: ciLinkBody() }
          : op.body === 'retention' || op.body === 'retentionDryRun'
            ? { requestBody: retentionBody(op.body === 'retention') }
            : op.body === 'notificationRule'
              ? { requestBody: notificationRuleBody() }
              : {}),
    responses,
  };
}

/** A report's or profile's id in a path: the integer, or the UUID older links carry. */
const idParameter: Schema = {
  description: "The report's or profile's integer id; its UUID (older links) is accepted too.",
  anyOf: [publicId, { type: 'string', format: 'uuid' }],
};

function pathSchema(path: string, name: string): Schema {
  const names = name === 'profile_id' || name === 'report_id';
  const owner = name === 'id' && /^\/api\/v2\/(profiles|reports)\/\{id\}/.test(path);
  return names || owner ? idParameter : { type: 'string', minLength: 1 };
}

function importBody(): Schema {
  const files = { type: 'array', items: { type: 'string', format: 'binary' } };
  const flags = Object.fromEntries(FLAGS.map((f) => [f, { type: 'string', enum: ['true', 'false'] }]));
  return {
    required: true,
    description:
      'A multipart form with result files (a .zip is allowed), attachments, tags and flags. The raw result file ' +
      'may also be sent as the body with its content type (SPEC 4.3).',
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          properties: {
            'file[]': files,
            'attachment[]': files,
            'tag[]': { type: 'array', items: { type: 'string' } },
            ...flags,
          },
        },
      },
    },
  };
}

/** A profile's name, to create or rename it (lib/profile-name.ts). */
function ciLinkBody(): Schema {
  const text = (maxLength: number, description: string): Schema => ({
    type: 'string',
    minLength: 1,
    maxLength,
    description,
  });
  return {
    required: true,
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['provider', 'url', 'repository', 'branch', 'job'],
          additionalProperties: false,
          properties: {
            provider: text(40, 'A CI provider key (README "CI links" lists them).'),
            url: text(2048, "The CI system's http or https base URL."),
            repository: text(200, 'Repository or project, as the provider names it.'),
            branch: text(250, 'The branch runs start on.'),
            job: text(200, 'Job, workflow file or builder.'),
            token: text(4096, 'Write-only: encrypted at rest, never shown again; leave out to keep the saved one.'),
            verdict: {
              type: 'boolean',
              default: false,
              description: 'Send a commit status and a pull-request comment after each import (providers that can).',
            },
          },
        },
      },
    },
  };
}

/** A retention policy (lib/retention/policy.ts); a dry run without one previews the saved policy. */
function retentionBody(required: boolean): Schema {
  const limit = (maximum: number, description: string): Schema => ({
    type: 'integer',
    minimum: 1,
    maximum,
    nullable: true,
    description,
  });
  return {
    required,
    content: {
      'application/json': {
        schema: {
          type: 'object',
          additionalProperties: false,
          properties: {
            keep_reports: limit(MAX_KEEP_REPORTS, 'Keep the newest N completed reports; null or absent: no limit.'),
            keep_days: limit(MAX_KEEP_DAYS, 'Keep the reports imported in the last N days; null or absent: no limit.'),
          },
        },
      },
    },
  };
}

/** A notification rule: its events, and one target (lib/notify/rule-input.ts). */
function notificationRuleBody(): Schema {
  return {
    required: true,
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['events'],
          additionalProperties: false,
          oneOf: [{ required: ['webhook'] }, { required: ['email'] }],
          properties: {
            events: { type: 'array', minItems: 1, items: { type: 'string', enum: [...NOTIFY_EVENTS] } },
            webhook: {
              type: 'string',
              maxLength: MAX_URL_CHARS,
              description: 'An http(s) URL, write-only: encrypted at rest, shown again only as its host and tail.',
            },
            format: { type: 'string', enum: [...WEBHOOK_FORMATS], default: 'json', description: 'For a webhook.' },
            email: {
              description: 'Addresses, as a list or one comma-separated string.',
              anyOf: [
                { type: 'string', minLength: 1 },
                { type: 'array', minItems: 1, maxItems: MAX_RECIPIENTS, items: { type: 'string', minLength: 1 } },
              ],
            },
          },
        },
      },
    },
  };
}

function nameBody(): Schema {
  return {
    required: true,
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['name'],
          properties: {
            name: {
              type: 'string',
              minLength: 1,
              maxLength: MAX_PROFILE_NAME,
              description: 'Spaces at either end are dropped; no control characters.',
            },
          },
        },
      },
    },
  };
}

/** The joi types Tally's routes use, as JSON Schema. */
export function joiToSchema(d: Joi.Description): Schema {
  const rules = (d.rules ?? []) as { name: string; args?: Record<string, unknown> }[];
  const flags = (d.flags ?? {}) as Record<string, unknown>;
  const out: Schema = {};
  if (d.type === 'alternatives') {
    const matches = (d as { matches?: { schema?: Joi.Description }[] }).matches ?? [];
    return { oneOf: matches.map((m) => joiToSchema(m.schema!)) };
  }
  if (d.type === 'array') {
    const items = ((d as { items?: Joi.Description[] }).items ?? []).map(joiToSchema);
    return { type: 'array', items: items.length === 1 ? items[0] : items.length ? { oneOf: items } : {} };
  }
  if (d.type === 'number') out.type = rules.some((r) => r.name === 'integer') ? 'integer' : 'number';
  else if (d.type === 'string') out.type = 'string';
  else if (d.type === 'boolean') out.type = 'boolean';
  else throw new Error(`openapi: joi type ${d.type} has no JSON Schema mapping yet`);
  for (const r of rules) {
    if (r.name === 'min') out[d.type === 'string' ? 'minLength' : 'minimum'] = r.args?.limit;
    if (r.name === 'max') out[d.type === 'string' ? 'maxLength' : 'maximum'] = r.args?.limit;
    if (r.name === 'pattern') {
      const source = String((r.args?.regex as string | undefined) ?? '');
      out.pattern = source.replace(/^\/(.*)\/[a-z]*$/s, '$1');
    }
  }
  // `.valid(...)` sets the only flag; the allowed values are then the whole domain.
  if (flags.only && Array.isArray(d.allow)) out.enum = d.allow;
  if (flags.default !== undefined) out.default = flags.default;
  return out;
}

/** A route's path as the camel-case tail of its operation id: `/api/v2/reports/{id}` → `ApiV2ReportsId`. */
function camelPath(path: string): string {
  return path.replace(/[{}]/g, '').replace(/[^a-zA-Z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase());
}
