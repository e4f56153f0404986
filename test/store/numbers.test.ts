/**
 * The public numbers where the conformance suite cannot reach: data written before them gets
 * numbers at start-up in creation order (a SQLite data dir at schema 4; MongoDB documents without
 * one, with two instances starting at once), and several stores on one MongoDB database never hand
 * out the same number.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MongoClient } from 'mongodb';
import t, { type Test } from 'tap';
import { createEmbeddedStore } from '../../lib/store/embedded/index.js';
import { MIGRATIONS } from '../../lib/store/embedded/schema.js';
import { createMongoStore } from '../../lib/store/mongo/index.js';
import type { Store } from '../../lib/store/store.js';

const zero = JSON.stringify({ containers: 0, tests: 0, passed: 0, failed: 0, errored: 0, skipped: 0 });

/** Creation times, oldest first; two share a millisecond (insert order breaks the tie). */
const TIMES = [
  '2024-01-01T00:00:00.000Z',
  '2024-01-02T00:00:00.000Z',
  '2024-01-02T00:00:00.000Z',
  '2024-01-03T00:00:00.000Z',
  '2024-01-04T00:00:00.000Z',
];

/** Ids in creation order, inserted out of that order so the numbering cannot follow the insert order alone. */
const INSERT_ORDER = [3, 0, 1, 4, 2];

t.test('embedded: a data dir at schema 4 numbers its rows in creation order on start', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'tally-numbers-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const raw = new Database(join(dataDir, 'tally.sqlite'));
  raw.exec('create table schema_version (version integer not null)');
  for (const step of MIGRATIONS.slice(0, 4)) raw.exec(step);
  raw.prepare('insert into schema_version (version) values (4)').run();
  raw.prepare("insert into accounts values ('a', 'Acme', ?)").run(TIMES[0]);
  const profiles = TIMES.map(() => randomUUID());
  const reports = TIMES.map(() => randomUUID());
  for (const i of INSERT_ORDER)
    raw.prepare('insert into profiles values (?, ?, ?, ?)').run(profiles[i], 'a', `p${i}`, TIMES[i]);
  raw
    .prepare(
      'insert into imports (id, profile_id, account_id, status, created_at, endpoint, params, tags, files, ' +
        "attachments, messages, progress) values ('i', ?, 'a', 'completed', ?, 'import', '{}', '[]', '[]', '[]', " +
        "'[]', '{}')",
    )
    .run(profiles[0], TIMES[0]);
  // The tie: reports 1 and 2 share a millisecond; 1 is inserted first, so it is the older one.
  for (const i of [1, 2, 3, 0, 4])
    raw
      .prepare("insert into reports values (?, ?, 'i', 'completed', ?, ?, '[]', ?, '[]', '[]')")
      .run(reports[i], profiles[0], TIMES[i], TIMES[i], zero);
  raw.close();

  const store = createEmbeddedStore({ dataDir });
  t.teardown(() => store.close());
  await store.init();
  const profileNumbers = await Promise.all(profiles.map(async (id) => (await store.profiles.get(id))!.number));
  t.strictSame(profileNumbers, [1, 2, 3, 4, 5], 'profiles numbered in creation order');
  const reportNumbers = await Promise.all(reports.map(async (id) => (await store.reports.get(id))!.number));
  t.strictSame(reportNumbers, [1, 2, 3, 4, 5], 'reports numbered in creation order, ties in insert order');
  t.equal((await store.reports.get(3))!.id, reports[2], 'found by number');
  const next = await store.reports.create({ profileId: profiles[0]!, importId: 'i', tags: [], date: TIMES[4]! });
  t.equal(next.number, 6, 'the counter goes on after them');
  t.equal((await store.profiles.create('a', 'new')).number, 6);
});

const url = process.env.TALLY_TEST_MONGODB_URL;

if (!url) {
  if (process.env.TALLY_REQUIRE_MONGODB === '1')
    t.fail('TALLY_REQUIRE_MONGODB=1 but TALLY_TEST_MONGODB_URL is not set');
  else t.comment('MongoDB half skipped: TALLY_TEST_MONGODB_URL is not set (`npm test` starts a MongoDB-wire server)');
} else {
  const serverUrl = url;

  /** A database of its own, dropped at the end, and a raw client on it. */
  async function database(t: Test) {
    const dbName = `tally_test_${randomBytes(6).toString('hex')}`;
    const client = await new MongoClient(serverUrl, { serverSelectionTimeoutMS: 5_000 }).connect();
    const stores: Store[] = [];
    t.teardown(async () => {
      for (const s of stores) await s.close();
      await client.db(dbName).dropDatabase();
      await client.close();
    });
    return {
      db: client.db(dbName),
      store() {
        const s = createMongoStore({ url: serverUrl, dbName });
        stores.push(s);
        return s;
      },
    };
  }

  t.test('mongo: documents without numbers get them at start, in creation order, with two instances', async (t) => {
    const { db, store } = await database(t);
    const profiles = TIMES.map(() => randomUUID());
    const reports = Array.from({ length: 40 }, () => randomUUID());
    // What an older Tally left: no number, no counter. MongoDB keeps no insert order, so ties within
    // a millisecond go by _id: the times here are all distinct.
    const reportTime = (i: number) => new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString();
    for (const i of INSERT_ORDER)
      await db
        .collection('profiles')
        .insertOne({ _id: profiles[i] as never, accountId: 'a', name: `p${i}`, createdAt: reportTime(i) });
    const shuffled = reports.map((_, i) => i).sort((a, b) => ((a * 7919) % 41) - ((b * 7919) % 41));
    for (const i of shuffled)
      await db.collection('reports').insertOne({
        _id: reports[i] as never,
        profileId: profiles[0],
        importId: 'i',
        status: 'completed',
        createdAt: reportTime(i),
        date: reportTime(i),
        tags: [],
        totals: JSON.parse(zero),
        files: [],
        messages: [],
      });

    const [a, b] = [store(), store()];
    await Promise.all([a.init(), b.init()]);
    const byNumber = async (ids: string[]) =>
      Promise.all(ids.map(async (id) => (await a.reports.get(id)) ?? (await a.profiles.get(id))));
    const profileNumbers = (await byNumber(profiles)).map((p) => p!.number);
    const reportNumbers = (await byNumber(reports)).map((r) => r!.number);
    for (const [noun, numbers] of [
      ['profile', profileNumbers],
      ['report', reportNumbers],
    ] as const) {
      t.ok(
        numbers.every((n) => Number.isInteger(n) && n >= 1),
        `every ${noun} has a number`,
      );
      t.equal(new Set(numbers).size, numbers.length, `every ${noun} number distinct`);
      t.strictSame(
        numbers,
        [...numbers].sort((x, y) => x - y),
        `${noun}s numbered in creation order`,
      );
    }
    const next = await b.reports.create({ profileId: profiles[0]!, importId: 'i', tags: [], date: reportTime(0) });
    t.ok(next.number > Math.max(...reportNumbers), 'a new report takes a number after them');
    t.strictSame(await a.reports.get(next.number), next, 'and the other instance finds it by number');
  });

  t.test('mongo: two instances on one database never hand out the same number', async (t) => {
    const { store } = await database(t);
    const [a, b] = [store(), store()];
    await Promise.all([a.init(), b.init()]);
    const account = await a.accounts.create('Acme');
    const profile = await a.profiles.create(account.id, 'main');
    const imp = await a.imports.create({
      profileId: profile.id,
      accountId: account.id,
      endpoint: 'import',
      formatter: null,
    });
    const make = (s: Store) =>
      Array.from({ length: 20 }, () =>
        s.reports.create({ profileId: profile.id, importId: imp.id, tags: [], date: new Date().toISOString() }),
      );
    const made = await Promise.all([...make(a), ...make(b)]);
    t.equal(new Set(made.map((r) => r.number)).size, 40, '40 reports, 40 numbers');
    const profiles = await Promise.all([a, b, a, b, a, b].map((s, i) => s.profiles.create(account.id, `p${i}`)));
    t.equal(new Set([profile, ...profiles].map((p) => p.number)).size, 7, 'profiles too');
    const chosen = await b.profiles.create(account.id, 'team', { number: 4390 });
    await t.rejects(a.profiles.create(account.id, 'again', { number: 4390 }), { name: 'NumberTakenError' });
    t.equal((await a.profiles.get(4390))!.id, chosen.id, 'a chosen number is seen by every instance');
  });
}
