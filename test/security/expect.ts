/**
 * What every hostile-input case asserts: the coded answer, a failed import record with nothing left
 * behind (no spool file, no blob), and a process that still serves (`/healthz` and a normal import).
 */
import http from 'node:http';
import { multipart, file, type Part } from '../helpers/multipart.js';
import { junitXml } from '../helpers/junit.js';
import type { Harness, RawRequest, Reply } from '../helpers/tally.js';

export interface Expected {
  status: number;
  code: string;
  severity: 'error' | 'warning' | 'notice';
}

type Tap = any;

export const importPath = (h: Harness, suffix = '/import/junit'): string => `/api/v2/profile/${h.profileId}${suffix}`;

export function form(h: Harness, parts: Part[], suffix?: string): RawRequest {
  const m = multipart(parts);
  return { path: importPath(h, suffix), headers: { 'content-type': m.contentType }, body: m.body };
}

export function upload(h: Harness, name: string, content: Buffer | string, suffix = '/import'): Promise<Reply> {
  return h.send(form(h, [file('file[]', name, content)], suffix));
}

/** The answer carries `code` with `severity`, and the HTTP status; for a failed import, its record ended failed. */
export async function assertCoded(t: Tap, h: Harness, reply: Reply, e: Expected): Promise<void> {
  t.equal(reply.status, e.status, `status ${e.status}`, { body: reply.text.slice(0, 1500) });
  const messages: any[] = reply.json?.messages ?? [];
  const found = messages.filter((m) => m.code === e.code);
  t.ok(found.length > 0, `answered with ${e.code}`, { messages: messages.map((m) => `${m.code}: ${m.message}`) });
  t.ok(
    found.every((m) => m.severity === e.severity),
    `severity ${e.severity}`,
  );
  if (e.severity === 'error') {
    t.equal(messages.find((m) => m.severity === 'error')?.code, e.code, `${e.code} is the first error`);
    t.equal(reply.json?.status, 'failed', 'the import failed');
    if (reply.json?.import_id) {
      const record = await h.send({ method: 'GET', path: `/api/v2/imports/${reply.json.import_id}` });
      t.equal(record.json?.status, 'failed', 'its record ended failed');
    }
  }
}

/** After a case: no spool file, the blob count unchanged (for failed imports), and the server still imports. */
export async function assertClean(
  t: Tap,
  h: Harness,
  before: { blobs: number },
  o: { blobsAdded?: number } = {},
): Promise<void> {
  const after = await h.leftovers();
  t.same(after.tmp, [], 'no spool file left in tmp/');
  t.equal(
    after.blobs,
    before.blobs + (o.blobsAdded ?? 0),
    o.blobsAdded ? `exactly ${o.blobsAdded} blob(s) stored` : 'no blob left behind',
  );
}

export async function assertHealthy(t: Tap, h: Harness): Promise<void> {
  const health = await h.send({ method: 'GET', path: '/healthz', noKey: true });
  t.equal(health.status, 200, '/healthz still answers 200');
  const normal = await h.send(form(h, [file('file[]', 'normal.xml', junitXml())]));
  t.equal(normal.status, 201, 'a normal import still works', { body: normal.text.slice(0, 500) });
  t.equal(normal.json?.report?.totals?.tests, 2, 'and counts its tests');
}

/** Runs one hostile case as a subtest: before/after leftovers, the coded answer, health afterwards. */
export async function hostile(
  t: Tap,
  h: Harness,
  name: string,
  send: (t: Tap) => Promise<Reply>,
  e: Expected,
  check?: (t: Tap, reply: Reply) => Promise<void> | void,
  o: { blobsAdded?: number } = {},
): Promise<void> {
  await t.test(name, async (t: Tap) => {
    const before = await h.leftovers();
    const reply = await send(t);
    await assertCoded(t, h, reply, e);
    await check?.(t, reply);
    await assertClean(t, h, before, o);
    await assertHealthy(t, h);
  });
}

/** Every container of a report at any depth, in `seq` order, as the search route lists them. */
export async function allContainers(h: Harness, reportId: number): Promise<any[]> {
  // The search route lists containers at any depth, 1,000 a page: one request a page, where a walk of
  // the tree costs one a container (and the tests' MongoDB-wire server reads the whole collection for each).
  const out: any[] = [];
  for (let after: number | null = null; ;) {
    const q = new URLSearchParams({ limit: '1000' });
    if (after !== null) q.set('after', String(after));
    const r = await h.send({ method: 'GET', path: `/api/v2/reports/${reportId}/search?${q}` });
    out.push(...r.json.containers);
    if (r.json.next_after === null || r.json.next_after === undefined) return out;
    after = r.json.next_after;
  }
}

/** Streams `total` bytes of one repeated chunk between a head and a tail, without holding them. */
export async function* streamed(
  head: string | Buffer,
  fill: Buffer,
  total: number,
  tail: string | Buffer,
): AsyncGenerator<Buffer> {
  yield Buffer.isBuffer(head) ? head : Buffer.from(head);
  for (let sent = 0; sent < total; sent += fill.length)
    yield sent + fill.length <= total ? fill : fill.subarray(0, total - sent);
  yield Buffer.isBuffer(tail) ? tail : Buffer.from(tail);
}

const readAtAnswer = new WeakMap<Harness, Map<string, Promise<number>>>();
let nextStream = 0;

/**
 * Bytes the server had read from each tagged request's connection when its answer was written.
 * The client's own count says little: after an early answer the server goes on reading and dropping
 * the rest for a while (plugins/linger.ts), so a client in this process may send far more before it
 * sees the answer.
 */
function answers(h: Harness): Map<string, Promise<number>> {
  let seen = readAtAnswer.get(h);
  if (!seen) {
    const map = new Map<string, Promise<number>>();
    h.tally.server.listener.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      const id = req.headers['x-tally-test-stream'];
      // Set as the request arrives, so it is there before the client can see any answer; 'close'
      // settles it too, for an answer that was never finished.
      if (typeof id === 'string') {
        map.set(
          id,
          new Promise((resolve) => {
            const read = (): void => resolve(req.socket.bytesRead);
            res.once('finish', read);
            res.once('close', read);
          }),
        );
      }
    });
    readAtAnswer.set(h, map);
    seen = map;
  }
  return seen;
}

/**
 * Sends a streamed body and stops writing as soon as the answer arrives (a server that refuses early
 * answers before the body ended). Returns the answer and how many bytes of the request the server
 * had read when it answered.
 */
export function streamRequest(
  h: Harness,
  path: string,
  headers: Record<string, string>,
  body: AsyncIterable<Buffer>,
): Promise<{ reply: Reply; bytesRead: number }> {
  const seen = answers(h);
  const id = String(++nextStream);
  return new Promise((resolve, reject) => {
    const u = new URL(path, h.url);
    let answered = false;
    const req = http.request(
      {
        method: 'POST',
        hostname: u.hostname,
        port: u.port,
        path: `${u.pathname}${u.search}`,
        headers: { 'x-api-key': h.apiKey, 'transfer-encoding': 'chunked', 'x-tally-test-stream': id, ...headers },
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        let finished = false;
        const finish = async (): Promise<void> => {
          if (finished) return;
          finished = true;
          const text = Buffer.concat(chunks).toString('utf8');
          let json: any;
          try {
            json = JSON.parse(text);
          } catch {
            json = null;
          }
          req.destroy();
          // The server's 'finish' and this side's 'end' are separate events, in either order.
          const bytesRead = (await seen.get(id)) ?? Number.NaN;
          seen.delete(id);
          resolve({ reply: { status: res.statusCode ?? 0, headers: res.headers, text, json }, bytesRead });
        };
        res.on('data', (c: Buffer) => chunks.push(c));
        // The server may close the connection right after its answer (the rest of the body is unread).
        res.on('end', () => void finish());
        res.on('close', () => void finish());
        res.on('error', () => void finish());
      },
    );
    req.on('error', (e) => {
      if (!answered) reject(e);
    });
    (async () => {
      for await (const chunk of body) {
        if (answered || req.destroyed) return;
        if (!req.write(chunk)) {
          await new Promise<void>((ok) => {
            const go = (): void => {
              req.off('drain', go);
              req.off('close', go);
              ok();
            };
            req.on('drain', go);
            req.on('close', go);
          });
        }
      }
      if (!answered && !req.destroyed) req.end();
    })().catch((e) => {
      if (!answered) reject(e);
    });
  });
}

/** Rejects when `p` takes longer than `ms`: a hang fails the test instead of stalling the suite. */
export function within<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms))),
  ]).finally(() => clearTimeout(timer));
}
