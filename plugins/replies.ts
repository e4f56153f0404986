/** The answer shape for faults outside an import: `{ status: 'failed', messages: [...] }`. */
import type { Request, ResponseToolkit, ResponseObject, RouteOptionsPayload } from '@hapi/hapi';
import type { Boom } from '@hapi/boom';
import { entry, message, type MessageCode } from '../lib/messages.js';

/**
 * A failed answer carries its fault as an error: a warning or notice code here is a programmer's
 * mistake (a 405 once said "warning" inside `status: failed`), refused at once.
 */
export function fault(
  h: ResponseToolkit,
  code: MessageCode,
  detail?: string,
  details?: Record<string, unknown>,
): ResponseObject {
  if (entry(code).severity !== 'error') throw new Error(`fault(): ${code} is a ${entry(code).severity}, not an error`);
  return h
    .response({
      status: 'failed',
      messages: [message(code, { ...(detail ? { detail } : {}), ...(details ? { details } : {}) })],
    })
    .code(entry(code).status);
}

/**
 * The payload options of a route that reads a small JSON body (16 KiB): a body hapi cannot read gets a
 * coded answer, 415 `json_body_required`, 413 `payload_too_large`, or `invalid` (the route's own code)
 * for JSON that does not parse.
 */
export function jsonBody(invalid: MessageCode): RouteOptionsPayload {
  return {
    parse: true,
    output: 'data',
    allow: 'application/json',
    maxBytes: 16 * 1024,
    failAction: (_request: Request, h: ResponseToolkit, err?: Error) => {
      const status = (err as Boom | undefined)?.output?.statusCode;
      if (status === 415) return fault(h, 'json_body_required').takeover();
      if (status === 413) return fault(h, 'payload_too_large', 'The limit is 16 KiB.').takeover();
      return fault(h, invalid, 'The body is not valid JSON.').takeover();
    },
  };
}
