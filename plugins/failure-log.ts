/**
 * One log line per failed answer: a failed import, or a request refused (a missing or wrong key,
 * another account's profile, a query a route refuses, an unknown route). It carries the request id
 * the client got in X-Request-Id, the route, the status and the codes, so a user's failed upload
 * can be found from its id. Only what the answer already told the client is logged: never a header,
 * a query string or a key (not even its prefix).
 */
import type { Request } from '@hapi/hapi';
import type { Logger } from '../lib/log.js';
import { errorCodes } from '../lib/messages.js';

interface AnswerBody {
  import_id?: string | null;
  messages?: { code: string | null; severity: string }[];
}

export function logFailure(log: Logger, request: Request, status: number, body: unknown): void {
  if (status < 400) return;
  const answer = (body && typeof body === 'object' ? body : {}) as AnswerBody;
  const messages = Array.isArray(answer.messages) ? answer.messages : [];
  const isImport = 'import_id' in answer;
  const params = request.params as Record<string, string | undefined>;
  log(isImport ? 'import.failed' : 'request.refused', {
    request_id: request.info.id,
    // The route's pattern, not the URL: a path or query string can hold anything a client typed.
    route: `${request.method.toUpperCase()} ${request.route.path}`,
    status,
    codes: errorCodes(messages),
    ...(isImport ? { import_id: answer.import_id ?? null } : {}),
    ...(params.profile_id ? { profile_id: params.profile_id } : {}),
  });
}
