/**
 * A real HTTP server on 127.0.0.1 that answers as a CI system's documentation says it does, for the
 * providers whose servers cannot run here (GitLab, Jenkins). Each answer is a JSON file under
 * `test/fixtures/ci/<provider>/` naming the documentation page it was taken from, so a reader can
 * check the recording against its source. A request no recording matches is answered 404 and kept,
 * so a test can assert that the provider asked only what the documentation describes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Test } from 'tap';

export interface RecordedExchange {
  /** The documentation page the answer follows. */
  doc: string;
  request: {
    method: string;
    /** The path and query, matched exactly, or a regular expression source when it starts with `^`. */
    path: string;
    /** A JSON body the request must carry (compared as JSON, keys in any order), when it matters. */
    json?: unknown;
  };
  response: { status: number; headers?: Record<string, string>; body?: unknown };
}

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  matched: boolean;
}

export interface RecordedServer {
  url: string;
  seen: SeenRequest[];
  /** Answers the next request matching `path` (and `method`) with `response` instead, once. */
  once(method: string, path: string, response: RecordedExchange['response']): void;
}

/** Every recording of a provider, by file name without `.json`. */
export function loadRecordings(dir: string): Map<string, RecordedExchange> {
  const out = new Map<string, RecordedExchange>();
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const exchange = JSON.parse(readFileSync(join(dir, name), 'utf8')) as RecordedExchange;
    if (!/^https:\/\//.test(exchange.doc)) throw new Error(`${name}: "doc" must name the documentation page`);
    out.set(name.slice(0, -'.json'.length), exchange);
  }
  return out;
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (v === null || typeof v !== 'object') return v;
  const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
  return Object.fromEntries(entries.map(([k, x]) => [k, sorted(x)]));
}

function matches(exchange: RecordedExchange, method: string, path: string, body: string): boolean {
  if (exchange.request.method !== method) return false;
  const p = exchange.request.path;
  if (p.startsWith('^') ? !new RegExp(p).test(path) : p !== path) return false;
  if (exchange.request.json === undefined) return true;
  try {
    return sameJson(JSON.parse(body), exchange.request.json);
  } catch {
    return false;
  }
}

/**
 * Starts the server for one test. `authorized` decides from a request's headers whether its
 * credentials are the good ones; a request that is not gets `unauthorized` (the documented 401).
 */
export async function startRecordedServer(
  t: Test,
  exchanges: Iterable<RecordedExchange>,
  auth: { authorized: (headers: IncomingMessage['headers']) => boolean; unauthorized: RecordedExchange['response'] },
): Promise<RecordedServer> {
  const list = [...exchanges];
  const seen: SeenRequest[] = [];
  const overrides: { method: string; path: string; response: RecordedExchange['response'] }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const method = req.method ?? 'GET';
      const path = req.url ?? '/';
      const body = Buffer.concat(chunks).toString('utf8');
      const override = overrides.findIndex((o) => o.method === method && o.path === path);
      let response: RecordedExchange['response'] | undefined;
      if (override >= 0) response = overrides.splice(override, 1)[0]?.response;
      else if (!auth.authorized(req.headers)) response = auth.unauthorized;
      else response = list.find((e) => matches(e, method, path, body))?.response;
      seen.push({ method, path, headers: req.headers, body, matched: response !== undefined });
      const answer = response ?? { status: 404, body: { message: '404 Not Found' } };
      const text =
        answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      const type = typeof answer.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json';
      res.writeHead(answer.status, { 'content-type': type, ...answer.headers });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    once: (method, path, response) => overrides.push({ method, path, response }),
  };
}
