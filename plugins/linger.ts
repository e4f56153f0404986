/**
 * Lingering close for answers sent before their request's body has all arrived: a wrong API key,
 * a limit, an upload refused after its first bytes. hapi marks such an answer `Connection: close`
 * (it will not read the rest), and Node then closes the socket as soon as the answer is written.
 * The client is still sending, so its next bytes meet a closed socket; the reset that comes back
 * discards the answer from the client's receive buffer before it was read, and a CI log shows
 * `EPIPE` instead of the coded message. Here the socket closes only its sending side after the
 * answer and keeps reading, and dropping, what still arrives, for a bounded time — what web
 * servers call a lingering close.
 */
import type { Plugin, Request, ResponseToolkit } from '@hapi/hapi';
import { Socket } from 'node:net';

/** How long a socket keeps taking a refused body after its answer, before it is closed anyway. */
export const LINGER_MS = 2_000;

const lingering = new WeakSet<Socket>();

/** Makes Node's close-after-answer of this socket a lingering one. */
export function lingerOnClose(socket: Socket, ms: number): void {
  if (lingering.has(socket)) return;
  lingering.add(socket);
  // Node's HTTP server ends a `Connection: close` exchange with `socket.destroySoon()`.
  socket.destroySoon = function lingeringClose(this: Socket): void {
    if (this.destroyed) return;
    // The answer goes out, then our FIN; the HTTP parser goes on reading the body into
    // `req._dump()`, which drops it. The client closes its side once it has sent everything.
    this.end();
    const timer = setTimeout(() => this.destroy(), ms);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
  };
}

export const lingerPlugin: Plugin<{ ms?: number }> = {
  name: 'tally-linger',
  register(server, { ms = LINGER_MS }) {
    server.ext('onPreResponse', (request: Request, h: ResponseToolkit) => {
      const req = request.raw.req;
      // Injected requests (server.inject) have no socket of their own.
      if (!req.complete && req.socket instanceof Socket) lingerOnClose(req.socket, ms);
      return h.continue;
    });
  },
};
