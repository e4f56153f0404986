/** The answer shape for faults outside an import: `{ status: 'failed', messages: [...] }`. */
import type { ResponseToolkit, ResponseObject } from '@hapi/hapi';
import { entry, message, type MessageCode } from '../lib/messages.js';

export function fault(
  h: ResponseToolkit,
  code: MessageCode,
  detail?: string,
  details?: Record<string, unknown>,
): ResponseObject {
  return h
    .response({
      status: 'failed',
      messages: [message(code, { ...(detail ? { detail } : {}), ...(details ? { details } : {}) })],
    })
    .code(entry(code).status);
}
