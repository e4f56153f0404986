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
import type { CiProvider } from '../../lib/ci/api.js';
import type { Formatter } from '../../lib/formatter/api.js';
import { silentLogger, type Logger } from '../../lib/log.js';
import { createEmbeddedStore } from '../../lib/store/embedded/index.js';
import { createMongoStore } from '../../lib/store/mongo/index.js';
import { MongoClient } from 'mongodb';
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import type { Store } from '../../lib/store/store.js';
import { createTally, type Tally } from '../../plugins/server.js';

export type StoreKind = 'embedded' | 'mongo';

/**
 * The stores an HTTP test runs against: always the embedded one, and MongoDB when the suite was
 * given a MongoDB-wire server (`npm test` starts one). TALLY_REQUIRE_MONGODB=1 makes its absence a failure.
 */
export function storeKinds(t: { fail(message: string): void; comment(message: string): void }): StoreKind[] {
  // The second Node version of .ci/run: the store's own suite (test/store/mongo.test.ts) still runs on MongoDB.
  if (process.env.TALLY_TEST_STORES === 'embedded') {
    t.comment('HTTP tests on the embedded store only (TALLY_TEST_STORES=embedded)');
    return ['embedded'];
  }
  if (process.env.TALLY_TEST_MONGODB_URL) return ['embedded', 'mongo'];
  if (process.env.TALLY_REQUIRE_MONGODB === '1')
    t.fail(
      'TALLY_REQUIRE_MONGODB=1 but no MongoDB-wire server was given: run the suite with `npm test`, which starts one',
    );
  else t.comment('MongoDB half skipped: TALLY_TEST_MONGODB_URL is not set (`npm test` starts a MongoDB-wire server)');
  return ['embedded'];
}

export interface Harness {
  kind: StoreKind;
  tally: Tally;
  store: Store;
  dataDir: string;
  url: string;
  apiKey: string;
  accountId: string;
  /** The profile's UUID (the store's key; routes accept it beside the number). */
  profileId: string;
  /** The profile's public number, what the API and the pages show. */
  profileNumber: number;
  /** A profile of another account. */
  foreignProfileId: string;
  send(req: RawRequest): Promise<Reply>;
  /** Stops this Tally and starts another on the same store and data dir (a restart); `url` changes. */
  restart(): Promise<Tally>;
  /** Files left in the spool and blob folders. */
  leftovers(): Promise<{ tmp: string[]; blobs: number }>;
  /** The id of the newest import record, read from the store's own database. */
  latestImportId(): Promise<string | null>;
  /**
   * The records of every table or collection that holds any, blob files included, read behind the
   * store's back; the public numbers given and their counters left out (a number is never given twice).
   */
  countRecords(): Promise<Record<string, number>>;
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

export async function startTally(
  t: TapLike,
  o: {
    store?: StoreKind;
    limits?: Partial<Limits>;
    formatters?: readonly Formatter[];
    publicUrl?: string;
    parseWorkers?: number;
    dataDirIn?: string;
    reserveBytes?: number;
    log?: Logger;
    /** TALLY_SECRET_KEY, for CI links. */
    secretKey?: string;
    ciProviders?: readonly CiProvider[];
    /** More of the environment the configuration is read from (notification settings, …). */
    env?: NodeJS.ProcessEnv;
  } = {},
): Promise<Harness> {
  const kind = o.store ?? 'embedded';
  const dataDir = await mkdtemp(path.join(o.dataDirIn ?? os.tmpdir(), 'tally-test-'));
  const base = loadConfig({
    ...o.env,
    TALLY_DATA_DIR: dataDir,
    TALLY_PUBLIC_URL: o.publicUrl,
    TALLY_SECRET_KEY: o.secretKey,
  });
  const config = {
    ...base,
    port: 0,
    host: '127.0.0.1',
    limits: { ...DEFAULT_LIMITS, ...o.limits },
    parseWorkers: o.parseWorkers ?? base.parseWorkers,
  };
  const mongo = kind === 'mongo' ? await testDatabase() : null;
  const store: Store = mongo
    ? createMongoStore({ url: mongo.url, dbName: mongo.dbName })
    : createEmbeddedStore({ dataDir, reserveBytes: o.reserveBytes ?? 1024 * 1024 });
  await store.init();
  const makeTally = () =>
    createTally({
      config,
      store,
      formatters: o.formatters ?? builtinFormatters,
      log: o.log ?? silentLogger,
      ...(o.ciProviders ? { ciProviders: o.ciProviders } : {}),
    });
  let tally = await makeTally();
  await tally.start();
  const { accountId, apiKey } = await createAccountWithKey(store, 'test');
  const profile = await store.profiles.create(accountId, 'main');
  const other = await createAccountWithKey(store, 'other');
  const foreign = await store.profiles.create(other.accountId, 'theirs');
  t.teardown(async () => {
    await h.tally.stop();
    await store.close().catch(() => undefined);
    await mongo?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });
  let url = tally.url();
  const h: Harness = {
    kind,
    tally,
    store,
    dataDir,
    url,
    apiKey,
    accountId,
    profileId: profile.id,
    profileNumber: profile.number,
    foreignProfileId: foreign.id,
    send: (req) => send(url, apiKey, req),
    async restart() {
      await tally.stop();
      tally = await makeTally();
      await tally.start();
      h.tally = tally;
      h.url = url = tally.url();
      return tally;
    },
    async leftovers() {
      const tmp = await readdir(path.join(dataDir, 'tmp')).catch(() => []);
      return { tmp, blobs: mongo ? await mongo.countBlobs() : await countFiles(path.join(dataDir, 'blobs')) };
    },
    async latestImportId() {
      if (mongo) return mongo.latestImportId();
      const db = new Database(path.join(dataDir, 'tally.sqlite'), { readonly: true });
      try {
        return (
          (
            db.prepare('select id from imports order by created_at desc, rowid desc limit 1').get() as
              { id: string } | undefined
          )?.id ?? null
        );
      } finally {
        db.close();
      }
    },
    async countRecords() {
      const counts = mongo ? await mongo.countRecords() : await countRows(path.join(dataDir, 'tally.sqlite'));
      if (!mongo) counts['blob files'] = await countFiles(path.join(dataDir, 'blobs'));
      const kept = new Set(['numbers', 'counters', 'schema_version']);
      return Object.fromEntries(Object.entries(counts).filter(([name, n]) => n > 0 && !kept.has(name)));
    },
  };
  return h;
}

async function countRows(file: string): Promise<Record<string, number>> {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db.prepare("select name from sqlite_master where type = 'table'").pluck().all() as string[];
    return Object.fromEntries(
      tables.map((name) => [name, db.prepare(`select count(*) from "${name}"`).pluck().get() as number]),
    );
  } finally {
    db.close();
  }
}

/** A fresh database on the suite's MongoDB-wire server, dropped afterwards. */
async function testDatabase(): Promise<{
  url: string;
  dbName: string;
  countBlobs(): Promise<number>;
  latestImportId(): Promise<string | null>;
  countRecords(): Promise<Record<string, number>>;
  drop(): Promise<void>;
}> {
  const url = process.env.TALLY_TEST_MONGODB_URL;
  if (!url) throw new Error('TALLY_TEST_MONGODB_URL is not set');
  const dbName = `tally_test_${randomBytes(6).toString('hex')}`;
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
  return {
    url,
    dbName,
    countBlobs: () => client.db(dbName).collection('blobs.files').countDocuments(),
    async countRecords() {
      const db = client.db(dbName);
      const counts: Record<string, number> = {};
      for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray())
        counts[name] = await db.collection(name).countDocuments();
      return counts;
    },
    async latestImportId() {
      const doc = await client
        .db(dbName)
        .collection<{ _id: string }>('imports')
        .find()
        .sort({ createdAt: -1 })
        .limit(1)
        .next();
      return doc?._id ?? null;
    },
    async drop() {
      await client
        .db(dbName)
        .dropDatabase()
        .catch(() => undefined);
      await client.close();
    },
  };
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
    if (typeof body === 'string' || Buffer.isBuffer(body))
      headers['content-length'] ??= String(Buffer.byteLength(body));
    const r = http.request(
      { method: req.method ?? 'POST', hostname: u.hostname, port: u.port, path: `${u.pathname}${u.search}`, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = null;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on('error', reject);
      },
    );
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
