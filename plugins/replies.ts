/** The answer shape for faults outside an import: `{ status: 'failed', messages: [...] }`. */
import type { ResponseToolkit, ResponseObject } from '@hapi/hapi';
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
