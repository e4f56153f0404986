/**
 * Starts a real Tally (embedded store in a temp dir, real sockets on 127.0.0.1) for one test file.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { builtinFormatters } from '../../formatters/index.js';
import { createAccountWithKey } from '../../lib/api-keys.js';
import { DEFAULT_LIMITS, loadConfig, type Limits } from '../../lib/config.js';
import type { Formatter } from '../../lib/formatter-api.js';
import { silentLogger } from '../../lib/log.js';
import { createEmbeddedStore } from '../../lib/store/embedded/index.js';
import type { Store } from '../../lib/store/store.js';
import { createTally, type Tally } from '../../plugins/server.js';

export interface Harness {
  tally: Tally;
  store: Store;
  dataDir: string;
  url: string;
  apiKey: string;
  accountId: string;
  profileId: string;
  /** A profile of another account. */
  foreignProfileId: string;
  send(req: RawRequest): Promise<Reply>;
  /** Files left in the spool and blob folders. */
  leftovers(): Promise<{ tmp: string[]; blobs: number }>;
}

export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string | AsyncIterable<Buffer>;
  /** Leave x-api-key out. */
  noKey?: boolean;
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: any;
}

interface TapLike {
  teardown(fn: () => unknown): void;
}

export async function startTally(t: TapLike, o: { limits?: Partial<Limits>; formatters?: readonly Formatter[] } = {}): Promise<Harness> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tally-test-'));
  const config = { ...loadConfig({ TALLY_DATA_DIR: dataDir }), port: 0, host: '127.0.0.1', limits: { ...DEFAULT_LIMITS, ...o.limits } };
  const store = createEmbeddedStore({ dataDir });
  await store.init();
  const tally = await createTally({ config, store, formatters: o.formatters ?? builtinFormatters, log: silentLogger });
  await tally.start();
  const { accountId, apiKey } = await createAccountWithKey(store, 'test');
  const profile = await store.createProfile(accountId, 'main');
  const other = await createAccountWithKey(store, 'other');
  const foreign = await store.createProfile(other.accountId, 'theirs');
  t.teardown(async () => {
    await tally.stop();
    await store.close().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  });
  const url = tally.url();
  const h: Harness = {
    tally,
    store,
    dataDir,
    url,
    apiKey,
    accountId,
    profileId: profile.id,
    foreignProfileId: foreign.id,
    send: (req) => send(url, apiKey, req),
    async leftovers() {
      const tmp = await readdir(path.join(dataDir, 'tmp')).catch(() => []);
      return { tmp, blobs: await countFiles(path.join(dataDir, 'blobs')) };
    },
  };
  return h;
}

async function countFiles(dir: string): Promise<number> {
  let n = 0;
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    n += e.isDirectory() ? await countFiles(path.join(dir, e.name)) : 1;
  }
  return n;
}

export function send(base: string, apiKey: string, req: RawRequest): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const u = new URL(req.path, base);
    const headers: Record<string, string> = { ...(req.noKey ? {} : { 'x-api-key': apiKey }), ...req.headers };
    const body = req.body;
    if (typeof body === 'string' || Buffer.isBuffer(body)) headers['content-length'] ??= String(Buffer.byteLength(body));
    const r = http.request({ method: req.method ?? 'POST', hostname: u.hostname, port: u.port, path: `${u.pathname}${u.search}`, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown = null;
        try {
          json = JSON.parse(text);
        } catch {
          json = null;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    r.on('error', reject);
    if (body === undefined) r.end();
    else if (typeof body === 'string' || Buffer.isBuffer(body)) r.end(body);
    else {
      (async () => {
        for await (const chunk of body) if (!r.write(chunk)) await new Promise((ok) => r.once('drain', ok));
        r.end();
      })().catch((e) => r.destroy(e));
    }
  });
}
