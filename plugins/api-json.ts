/**
 * The API's JSON field names are snake_case, like the spec's (`report_id`, `import_status`): the
 * store's domain objects (camelCase in TypeScript) are renamed here, at the edge, key by key, deep.
 * Maps whose keys are data, not field names, pass as they are: an import's `params` (the parameter
 * names a client sent) and a container's `meta` (the names its formatter chose). README "Decisions".
 */
import type { Request, ResponseObject, ResponseToolkit } from '@hapi/hapi';
import type { Boom } from '@hapi/boom';

/** Keys whose values keep their own keys. */
const VERBATIM: ReadonlySet<string> = new Set(['params', 'meta']);

/** `profileId` → `profile_id`; a snake_case name stays as it is. */
export function snakeName(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** A JSON value with every field name in snake_case (but inside VERBATIM maps). */
export function apiJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(apiJson);
  if (value === null || typeof value !== 'object' || !isPlain(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[snakeName(key)] = VERBATIM.has(key) ? v : apiJson(v);
  return out;
}

function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * An `onPreResponse` for a plugin's own routes (`{ sandbox: 'plugin' }`): its JSON answers are
 * renamed as they leave, so a route added later cannot forget to.
 */
export function snakeCaseAnswers(request: Request, h: ResponseToolkit): symbol {
  const response = request.response as ResponseObject | Boom;
  if ('isBoom' in response && response.isBoom) return h.continue;
  // hapi serialises `source` when the answer is sent, after this step.
  const r = response as unknown as { variety: string; source: unknown };
  if (r.variety === 'plain' && r.source !== null && typeof r.source === 'object') r.source = apiJson(r.source);
  return h.continue;
}
