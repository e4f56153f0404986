/**
 * One POST of a webhook delivery: node:http(s) with the address guard as the connection's lookup
 * (lib/notify/address-guard.ts), one time limit from connecting to the end of the answer, and no
 * redirect followed (a 3xx is the receiver's answer, and a refusal). The answer's body is read up to
 * a few KiB and dropped. What goes wrong is a DeliveryFailure whose sentence names the host, never
 * the URL's path or query, where Slack and Teams keep their secret.
 */
import http from 'node:http';
import https from 'node:https';
import { AddressRefused, refusalSentence, type AddressGuard } from './address-guard.js';

/** An attempt that failed: `retry` false when trying again cannot help (the receiver refused it for good). */
export class DeliveryFailure extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
    readonly status: number | null = null,
    /** The receiver's Retry-After, in ms, when it gave one. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'DeliveryFailure';
  }
}

const ANSWER_BYTES = 4096;

/** Statuses worth another try: the receiver is busy, limiting, or down behind a proxy. */
const RETRIED = new Set([408, 425, 429, 500, 502, 503, 504]);

function retryAfter(header: string | undefined): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** A connection fault as a sentence about the host (Node's own messages may hold more than that). */
function faultSentence(e: NodeJS.ErrnoException, host: string): string {
  switch (e.code) {
    case 'ECONNREFUSED':
      return `${host} refused the connection (nothing listening)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `${host} was not found in DNS`;
    case 'ECONNRESET':
    case 'EPIPE':
      return `${host} closed the connection`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${host} cannot be reached from this network`;
    default:
      return e.code?.startsWith('ERR_TLS') || e.code?.includes('CERT')
        ? `TLS with ${host} failed (${e.code})`
        : `the connection to ${host} failed (${e.code ?? e.name})`;
  }
}

export interface PostOptions {
  guard: AddressGuard;
  timeoutMs: number;
  headers: Record<string, string>;
  signal?: AbortSignal;
}

/** Posts `body` as JSON; resolves to the receiver's 2xx status, else throws a DeliveryFailure. */
export async function postWebhook(url: URL, body: string, o: PostOptions): Promise<number> {
  const host = url.host;
  try {
    await o.guard.checkHost(url.hostname);
  } catch (e) {
    if (e instanceof AddressRefused) throw new DeliveryFailure(`refused: ${refusalSentence(url.hostname, e)}`, false);
    throw new DeliveryFailure(faultSentence(e as NodeJS.ErrnoException, host), true);
  }
  const client = url.protocol === 'https:' ? https : http;
  const bytes = Buffer.from(body, 'utf8');
  return new Promise<number>((resolve, reject) => {
    let settled = false;
    const done = (f: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      f();
    };
    const request = client.request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(bytes.length),
        'user-agent': 'Tally-Notifications',
        ...o.headers,
      },
      lookup: o.guard.lookup,
      // One connection per attempt: nothing of it outlives the attempt.
      agent: false,
    });
    const fail = (failure: DeliveryFailure) =>
      done(() => {
        request.destroy();
        reject(failure);
      });
    const timer = setTimeout(
      () => fail(new DeliveryFailure(`${host} did not answer within ${o.timeoutMs / 1000} s`, true)),
      o.timeoutMs,
    );
    const onAbort = () => fail(new DeliveryFailure('Tally stopped before the answer', true));
    o.signal?.addEventListener('abort', onAbort);
    request.on('error', (e: NodeJS.ErrnoException) => {
      if (e instanceof AddressRefused) fail(new DeliveryFailure(`refused: ${refusalSentence(url.hostname, e)}`, false));
      else fail(new DeliveryFailure(faultSentence(e, host), true));
    });
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > ANSWER_BYTES) response.destroy();
      });
      const finish = () => {
        if (status >= 200 && status < 300) return done(() => resolve(status));
        if (status >= 300 && status < 400)
          return fail(
            new DeliveryFailure(
              `${host} answered HTTP ${status}, a redirect, which Tally does not follow`,
              false,
              status,
            ),
          );
        const again = RETRIED.has(status);
        fail(
          new DeliveryFailure(
            `${host} answered HTTP ${status}`,
            again,
            status,
            again ? retryAfter(response.headers['retry-after']) : null,
          ),
        );
      };
      response.on('end', finish);
      response.on('close', finish);
      response.on('error', finish);
    });
    request.end(bytes);
  });
}
