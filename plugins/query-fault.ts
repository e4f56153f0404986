/**
 * The answer of a read route whose query string its joi schema refuses: `invalid_query` (400) naming
 * the parameter, what it allows (read from the schema itself, so the sentence and the validation
 * cannot drift apart) and what was sent. Import codes are for imports; a read route never answers one.
 */
import type { Request, ResponseToolkit } from '@hapi/hapi';
import type Joi from 'joi';
import { fault } from './replies.js';

interface Rule {
  name: string;
  args?: Record<string, unknown>;
}

/** What a parameter's schema allows, as words: "an integer from 1 to 1000", "one of all, failing, flaky". */
export function allowedOf(d: Joi.Description): { allowed: string; min?: number; max?: number } {
  const flags = (d.flags ?? {}) as { description?: string; only?: boolean };
  if (flags.description) return { allowed: flags.description };
  const rules = (d.rules ?? []) as Rule[];
  const limit = (name: string) => rules.find((r) => r.name === name)?.args?.limit as number | undefined;
  const min = limit('min');
  const max = limit('max');
  if (flags.only && Array.isArray(d.allow)) return { allowed: `one of ${d.allow.join(', ')}` };
  if (d.type === 'number') {
    const what = rules.some((r) => r.name === 'integer') ? 'an integer' : 'a number';
    const range =
      min !== undefined && max !== undefined
        ? ` from ${min} to ${max}`
        : min !== undefined
          ? ` of at least ${min}`
          : max !== undefined
            ? ` of at most ${max}`
            : '';
    return { allowed: `${what}${range}`, ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
  }
  if (d.type === 'boolean') return { allowed: 'true or false' };
  if (d.type === 'string') {
    if (rules.some((r) => r.name === 'isoDate')) return { allowed: 'an ISO 8601 date or date-time' };
    return { allowed: max !== undefined ? `text of at most ${max} characters` : 'text' };
  }
  if (d.type === 'alternatives') {
    const matches = ((d as { matches?: { schema?: Joi.Description }[] }).matches ?? []).map((m) => m.schema!);
    return { allowed: matches.map((m) => allowedOf(m).allowed).join(', or ') };
  }
  if (d.type === 'array') {
    const items = ((d as { items?: Joi.Description[] }).items ?? []).map((i) => allowedOf(i).allowed);
    return { allowed: `several, each ${items.join(' or ')}` };
  }
  return { allowed: d.type ?? 'a value' };
}

/** A route's `validate.failAction` for its query: the first refused parameter, in words. */
export function queryFailAction(request: Request, h: ResponseToolkit, err?: Error) {
  const detail = (err as (Error & { details?: Joi.ValidationErrorItem[] }) | undefined)?.details?.[0];
  const name = String(detail?.path[0] ?? detail?.context?.key ?? '');
  const schema = request.route.settings.validate?.query as Joi.ObjectSchema | undefined;
  const sent = detail?.context?.value;
  const got = typeof sent === 'string' || typeof sent === 'number' ? ` (got "${String(sent).slice(0, 60)}")` : '';
  if (detail?.type === 'object.unknown') {
    const known = Object.keys((schema?.describe() as { keys?: Record<string, unknown> } | undefined)?.keys ?? {});
    return fault(
      h,
      'invalid_query',
      `${name.slice(0, 60)} is not a parameter of this route; it takes ${known.join(', ')}.`,
      {
        parameter: name.slice(0, 60),
        allowed: known,
      },
    ).takeover();
  }
  let allowed: ReturnType<typeof allowedOf> = { allowed: 'a valid value' };
  try {
    if (schema && name) allowed = allowedOf(schema.extract(name).describe());
  } catch {
    // Not a key of the schema: the generic words stay.
  }
  return fault(h, 'invalid_query', `${name} must be ${allowed.allowed}${got}.`, {
    parameter: name,
    ...allowed,
  }).takeover();
}
