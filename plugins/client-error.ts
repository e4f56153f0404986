/**
 * Requests Node's HTTP parser refuses before hapi sees them (a request line or headers over
 * Node's 16 KiB, a malformed request, the whole-request timeout) get Tally's answer shape with a
 * code, instead of Node's empty 400/431/408.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { entry, message, type MessageCode } from '../lib/messages.js';

export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  // A connection reset or already answered: nothing to say to it.
  if (err.code === 'ECONNRESET' || !socket.writable || (socket as Duplex & { _httpMessage?: unknown })._httpMessage) {
    socket.destroy();
    return;
  }
  const code: MessageCode =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? 'request_headers_too_large'
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'upload_timeout'
        : 'malformed_request';
  const status = entry(code).status;
  const body = JSON.stringify({ status: 'failed', messages: [message(code)] });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n` +
      `${body}`,
  );
}
