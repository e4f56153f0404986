/**
 * The MongoDB store against a real MongoDB-wire server (MongoDB or FerretDB) named by
 * TALLY_TEST_MONGODB_URL; each harness gets a database of its own that cleanup() drops.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { BSON, MongoClient } from 'mongodb';
import t from 'tap';
import { createMongoStore, databaseInUrl, type MongoStore } from '../../lib/store/mongo/index.js';
import { container, cutDeletionCase, seed, storeConformance, type StoreHarness } from './conformance/index.js';

const url = process.env.TALLY_TEST_MONGODB_URL;
const TIME = '2024-01-01T00:00:00.000Z';

async function harness(
  serverUrl: string,
): Promise<StoreHarness & { store: MongoStore; dbName: string; raw: () => Promise<MongoClient> }> {
  const dbName = `tally_test_${randomBytes(6).toString('hex')}`;
  const first = createMongoStore({ url: serverUrl, dbName });
  const stores = [first];
  let peek: MongoClient | null = null;
  const raw = async () => (peek ??= await new MongoClient(serverUrl, { serverSelectionTimeoutMS: 5_000 }).connect());
  return {
    store: first,
    dbName,
    keepsReserve: false,
    async countRecords() {
      const db = (await raw()).db(dbName);
      const counts: Record<string, number> = {};
      for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray())
        counts[name] = await db.collection(name).countDocuments();
      return counts;
    },
    async findText(text) {
      const db = (await raw()).db(dbName);
      const found: string[] = [];
      for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray())
        for await (const doc of db.collection(name).find({}))
          if (BSON.EJSON.stringify(doc).includes(text) || Buffer.from(BSON.serialize(doc)).includes(text))
            found.push(`${name} ${String(doc._id)}`);
      return found;
    },
    async reopen() {
      const next = createMongoStore({ url: serverUrl, dbName });
      stores.push(next);
      return next;
    },
    /** A client of its own, for looking at the documents behind the store's back. */
    raw,
    async cleanup() {
      for (const s of stores) await s.close();
      const client = peek ?? (await new MongoClient(serverUrl, { serverSelectionTimeoutMS: 5_000 }).connect());
      try {
        await client.db(dbName).dropDatabase();
      } finally {
        await client.close();
      }
    },
  };
}

t.test('mongo: the database name', async (t) => {
  t.equal(databaseInUrl('mongodb://127.0.0.1:27017/'), null);
  t.equal(databaseInUrl('mongodb://127.0.0.1:27017'), null);
  t.equal(databaseInUrl('mongodb://u:p%40ss@a:1,b:2/ci_db?replicaSet=rs'), 'ci_db');
  t.equal(databaseInUrl('mongodb+srv://cluster.example.net/x%20y'), 'x y');
  t.equal(createMongoStore({ url: 'mongodb://h/' }).dbName, 'tally', 'tally when the URL names none');
  t.equal(createMongoStore({ url: 'mongodb://h/from_url?w=1' }).dbName, 'from_url', 'else the URL path');
  t.equal(
    createMongoStore({ url: 'mongodb://h/from_url', dbName: 'given' }).dbName,
    'given',
    'an explicit dbName wins',
  );
});

t.test("mongo: a dead server fails fast, with the URL's own timeout", async (t) => {
  const store = createMongoStore({ url: 'mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=300' });
  const started = Date.now();
  await t.rejects(store.init());
  t.ok(Date.now() - started < 3_000, 'well under the 5 s default');
  await t.rejects(store.ping(), /not open/, 'a store that failed to open stays closed');
  await store.close();
});

if (!url) {
  if (process.env.TALLY_REQUIRE_MONGODB === '1') {
    t.fail(
      'TALLY_REQUIRE_MONGODB=1 but no MongoDB-wire server was given: ' +
        'set TALLY_TEST_MONGODB_URL (e.g. mongodb://127.0.0.1:27017/)',
    );
  } else {
    t.skip(
      'MongoDB store tests skipped: TALLY_TEST_MONGODB_URL is not set ' +
        '(point it at a MongoDB or FerretDB server to run them)',
      () => undefined,
    );
  }
} else {
  const serverUrl = url;
  storeConformance(t, 'mongo', () => harness(serverUrl));

  t.test('mongo: indexes exist after init, and init is idempotent', async (t) => {
    const h = await harness(serverUrl);
    t.teardown(() => h.cleanup());
    await Promise.all([h.store.init(), h.store.init()]);
    await h.store.init();
    const db = (await h.raw()).db(h.dbName);
    const expected: Record<string, { key: Record<string, number>; unique?: true }[]> = {
      api_keys: [{ key: { keyId: 1 }, unique: true }],
      profiles: [{ key: { accountId: 1, createdAt: 1 } }, { key: { number: 1 }, unique: true }],
      reports: [
        { key: { profileId: 1, status: 1, createdAt: -1, _id: -1 } },
        { key: { profileId: 1, tags: 1, createdAt: -1 } },
        { key: { profileId: 1, 'ci.branch': 1, createdAt: -1 } },
        { key: { number: 1 }, unique: true },
      ],
      imports: [{ key: { status: 1, createdAt: 1 } }],
      containers: [
        { key: { reportId: 1, parentSeq: 1, seq: 1 } },
        { key: { reportId: 1, seq: 1 }, unique: true },
        { key: { profileId: 1, title: 1, reportCreatedAt: -1 } },
      ],
      'blobs.files': [{ key: { 'metadata.importId': 1 } }],
    };
    for (const [collection, wanted] of Object.entries(expected)) {
      const found = await db.collection(collection).listIndexes().toArray();
      for (const w of wanted) {
        const match = found.find((i) => JSON.stringify(i.key) === JSON.stringify(w.key));
        t.ok(match, `${collection} has ${JSON.stringify(w.key)}`);
        t.equal(
          match?.unique === true,
          w.unique === true,
          `${collection} ${JSON.stringify(w.key)} unique: ${w.unique === true}`,
        );
        t.type(match?.name, 'string');
      }
    }

    await h.store.close();
    await h.store.init();
    await t.resolves(h.store.ping(), 'init after close opens a new client');
    t.equal(
      (await db.collection('containers').listIndexes().toArray()).length,
      4,
      'no index is created twice (3 + _id)',
    );
  });

  t.test('mongo: a failed blobs.put leaves no GridFS documents', async (t) => {
    const h = await harness(serverUrl);
    t.teardown(() => h.cleanup());
    await h.store.init();
    const db = (await h.raw()).db(h.dbName);
    async function* breaks(): AsyncGenerator<Buffer> {
      // Past the 255 KiB chunk size several times over, so chunks were written before the fault; the
      // pauses let the fault land while a chunk insert is in flight (piping straight into the
      // upload stream and aborting leaves a chunk behind most of the time here).
      for (let i = 0; i < 8; i++) {
        yield randomBytes(64 * 1024);
        await new Promise((resolve) => setImmediate(resolve));
      }
      throw new Error('source broke');
    }
    for (let i = 0; i < 10; i++) {
      await t.rejects(
        h.store.blobs.put(Readable.from(breaks()), { name: 'x', contentType: null, importId: randomUUID() }),
        { message: 'source broke' },
      );
    }
    const slow = new Readable({ read() {} });
    slow.push(randomBytes(300 * 1024));
    setTimeout(() => slow.destroy(new Error('client went away')), 20);
    await t.rejects(h.store.blobs.put(slow, { name: 'y', contentType: null }), { message: 'client went away' });
    t.equal(await db.collection('blobs.files').countDocuments(), 0, 'no blobs.files document');
    t.equal(await db.collection('blobs.chunks').countDocuments(), 0, 'no blobs.chunks document');

    const ref = await h.store.blobs.put(Readable.from([Buffer.from('ok')]), {
      name: 'n ü',
      contentType: 'text/plain',
      importId: 'imp-1',
    });
    const file = await db.collection('blobs.files').findOne({ _id: ref.id as never });
    t.strictSame(
      file?.metadata,
      { name: 'n ü', contentType: 'text/plain', importId: 'imp-1' },
      'metadata as the brief says',
    );
    t.equal(file?.length, 2);
  });

  t.test('mongo: containers carry profileId and reportCreatedAt', async (t) => {
    const h = await harness(serverUrl);
    t.teardown(() => h.cleanup());
    const store = h.store;
    await store.init();
    const { profile, imp } = await seed(store);
    const report = await store.reports.create({
      profileId: profile.id,
      importId: imp.id,
      tags: [],
      date: new Date().toISOString(),
    });
    const row = (seq: number) => container(report.id, seq, null, { title: `t${seq}`, durationMs: null });
    await store.containers.insert([row(1), row(2)]);
    // A second instance has an empty cache, so it must look the report up.
    const other = (await h.reopen!()) as MongoStore;
    await other.init();
    await other.containers.insert([row(3)]);
    const docs = await (
      await h.raw()
    )
      .db(h.dbName)
      .collection('containers')
      .find({ reportId: report.id })
      .sort({ seq: 1 })
      .toArray();
    t.strictSame(
      docs.map((d) => [d.seq, d.profileId, d.reportCreatedAt]),
      [1, 2, 3].map((seq) => [seq, profile.id, report.createdAt]),
    );
    t.strictSame(await store.containers.get(report.id, 1), row(1), 'the copies stay out of what the store returns');

    await t.rejects(
      store.containers.insert([{ ...row(1), reportId: randomUUID() }]),
      /no report/,
      'containers of an unknown report are refused',
    );
  });

  t.test('mongo: a history column read back equals the one kept while building', async (t) => {
    const h = await harness(serverUrl);
    t.teardown(() => h.cleanup());
    const store = h.store;
    await store.init();
    const { profile, imp } = await seed(store);
    const row = (
      reportId: string,
      seq: number,
      parentSeq: number | null,
      type: 'suite' | 'test' | 'step',
      title: string,
      status: 'passed' | 'failed',
    ) => container(reportId, seq, parentSeq, { type, title, status, durationMs: seq * 1.5, flaky: seq === 3 });
    const tree = (id: string) => [
      row(id, 1, 4, 'test', 'a', 'passed'),
      row(id, 2, 4, 'test', 'b', 'failed'),
      row(id, 3, 1, 'test', 'a.sub', 'passed'),
      row(id, 4, null, 'suite', 's', 'failed'),
      row(id, 5, 2, 'step', 'x', 'failed'),
      row(id, 6, 7, 'test', 'moved', 'passed'),
      row(id, 7, null, 'suite', 's2', 'passed'),
    ];
    const date = new Date().toISOString();
    const kept = await store.reports.create({ profileId: profile.id, importId: imp.id, tags: [], date });
    const read = await store.reports.create({ profileId: profile.id, importId: imp.id, tags: [], date });
    for (const id of [kept.id, read.id]) {
      await store.containers.insert(tree(id));
      // What a merge does: suite 7's children move under suite 4, suite 7 goes; a status changes.
      await store.containers.reparent(id, [7], 4);
      await store.containers.delete(id, [7]);
      await store.containers.update(id, 2, { status: 'passed', durationMs: 9 });
    }
    const totals = {
      containers: 6,
      tests: 4,
      passed: 4,
      failed: 0,
      errored: 0,
      skipped: 0,
      pending: 0,
      unknown: 0,
      flaky: 1,
    };
    await store.reports.complete(kept.id, { date, totals, files: [], messages: [], tags: [] });
    // Another instance has no draft of `read`: it reads the containers back.
    const other = await h.reopen!();
    await other.init();
    await other.reports.complete(read.id, { date, totals, files: [], messages: [], tags: [] });
    const [a, b] = await store.history.columns([kept.id, read.id]);
    const plain = (c: typeof a) => ({
      keys: [...c!.keys],
      seqs: [...c!.seqs],
      durations: [...c!.durations],
      flags: [...c!.flags],
    });
    t.equal(a!.keys.length, b!.keys.length);
    t.strictSame(plain(a), plain(b));
    t.equal(a!.keys.length, 4, 'four tests');
    t.strictSame([0, 1, 2, 3].map((i) => a!.pathOf(i).join('/')).sort(), ['s/a', 's/a/a.sub', 's/b', 's/moved']);
    t.strictSame(
      [0, 1, 2, 3].map((i) => b!.pathOf(i).join('/')),
      [0, 1, 2, 3].map((i) => a!.pathOf(i).join('/')),
    );
  });

  t.test('mongo: keys with dots and dollars round-trip', async (t) => {
    const h = await harness(serverUrl);
    t.teardown(() => h.cleanup());
    const store = h.store;
    await store.init();
    const { profile, imp } = await seed(store);
    // Query-string names arrive as typed; none of them may break the import record.
    const params = {
      'a.b': ['1'],
      $where: ['x'],
      '%2E': ['lit'],
      'tag[]': ['t'],
      '': ['empty'],
      nested: { 'x.y': [{ $z: null }] },
    };
    const messages = [
      { severity: 'notice' as const, code: 'N', message: 'm', details: { 'os.name': 'linux', $ref: 1 } },
    ];
    await store.imports.update(imp.id, { params, messages });
    const got = await store.imports.get(imp.id);
    t.strictSame(got?.params, params);
    t.strictSame(got?.messages, messages);

    const report = await store.reports.create({
      profileId: profile.id,
      importId: imp.id,
      tags: [],
      date: new Date().toISOString(),
    });
    const meta = { 'java.class': 'a.B', $x: '', '%': '%25' };
    await store.containers.insert([container(report.id, 1, null, { title: 't', durationMs: null, meta })]);
    t.strictSame((await store.containers.get(report.id, 1))?.meta, meta);
    await store.reports.complete(report.id, {
      date: report.date,
      totals: report.totals,
      files: [],
      messages,
      tags: [],
    });
    t.strictSame((await store.reports.get(report.id))?.messages, messages);
  });

  t.test('mongo: a deletion cut short by a crash is finished by resumeDeletions', async (t) => {
    const h = await harness(serverUrl);
    t.teardown(() => h.cleanup());
    await cutDeletionCase(t, h, async ({ reportId, profileId }) => {
      await h.store.close();
      // What a crash right after each deletion's mark leaves behind.
      const db = (await h.raw()).db(h.dbName);
      await db.collection('reports').updateOne({ _id: reportId as never }, { $set: { status: 'deleting' } });
      await db.collection('profiles').updateOne({ _id: profileId as never }, { $set: { deleting: true } });
    });
  });

  t.test('mongo: a report written before the CI context reads with ci null', async (t) => {
    const h = await harness(serverUrl);
    t.teardown(() => h.cleanup());
    const store = h.store;
    await store.init();
    const { profile, imp } = await seed(store);
    const report = await store.reports.create({ profileId: profile.id, importId: imp.id, tags: [], date: TIME });
    // A document as an older Tally wrote it: no ci field at all.
    await (
      await h.raw()
    )
      .db(h.dbName)
      .collection('reports')
      .updateOne({ _id: report.id as never }, { $unset: { ci: '' } });
    t.equal((await store.reports.get(report.id))?.ci, null);
  });

  t.test('mongo: a purge cut short by a crash is finished on init', async (t) => {
    const h = await harness(serverUrl);
    t.teardown(() => h.cleanup());
    const store = h.store;
    await store.init();
    const { profile, imp } = await seed(store);
    const report = await store.reports.create({
      profileId: profile.id,
      importId: imp.id,
      tags: [],
      date: new Date().toISOString(),
    });
    await store.containers.insert(
      Array.from({ length: 50 }, (_, i) => container(report.id, i + 1, null, { title: `t${i}`, durationMs: null })),
    );
    await store.close();
    // What a crash right after reports.fail's status flip leaves behind.
    await (
      await h.raw()
    )
      .db(h.dbName)
      .collection('reports')
      .updateOne({ _id: report.id as never }, { $set: { status: 'failed', purging: true } });

    const again = await h.reopen!();
    await again.init();
    t.strictSame(await again.containers.list(report.id, { parentSeq: null, limit: 5 }), []);
    t.strictSame(
      await again.reports.get(report.id),
      { ...report, status: 'failed' },
      'the marker is gone and never shown',
    );
  });
}
