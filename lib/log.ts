/** Structured JSON log lines on stdout. Never given API keys or passwords. */
import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request a log line belongs to: every line written while a request is handled carries its id
 * (hapi's request.info.id, also sent back as X-Request-Id). The object is made when the request
 * arrives and its id filled in once hapi has named the request.
 */
export const requestContext = new AsyncLocalStorage<{ requestId?: string }>();

export type Logger = (event: string, data?: Record<string, unknown>) => void;

export function jsonLogger(stream: NodeJS.WritableStream = process.stdout): Logger {
  return (event, data = {}) => {
    const requestId = requestContext.getStore()?.requestId;
    const line = { time: new Date().toISOString(), event, ...(requestId ? { request_id: requestId } : {}), ...data };
    stream.write(`${JSON.stringify(line)}\n`);
  };
}

export const silentLogger: Logger = () => undefined;
