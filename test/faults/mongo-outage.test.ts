/**
 * The MongoDB-wire server goes away in the middle of a large import: the client gets 503
 * `store_unavailable`, nothing is reported as complete, the import is ended by the sweep once the
 * server is back, and the next import succeeds. Runs against a FerretDB this test starts itself
 * (it must be able to kill it); a user's own MongoDB is never stopped.
 */
import t from 'tap';
import net from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { builtinFormatters } from '../../formatters/index.js';
import { createAccountWithKey } from '../../lib/api-keys.js';
import { DEFAULT_LIMITS, loadConfig } from '../../lib/config.js';
import { silentLogger } from '../../lib/log.js';
import { createMongoStore } from '../../lib/store/mongo/index.js';
import { createTally } from '../../plugins/server.js';
import { freePort, startFerretDB } from '../../scripts/mongo-wire.js';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { send } from '../helpers/tally.js';
import { BOUNDARY, file, multipart } from '../helpers/multipart.js';
import { junitXml } from '../helpers/junit.js';
import { TALLY } from '../helpers/tally-command.js';

const bin = process.env.TALLY_FERRETDB_BIN;
if (!bin) {
  if (process.env.TALLY_REQUIRE_MONGODB === '1')
    t.fail(
      'TALLY_REQUIRE_MONGODB=1 but no FerretDB binary was given (TALLY_FERRETDB_BIN): run the suite with `npm test`',
    );
  else
    t.skip(
      'MongoDB outage test skipped: it needs a FerretDB it can stop (TALLY_FERRETDB_BIN, set by `npm test` when ' +
        'it starts FerretDB)',
      () => undefined,
    );
} else {
  t.test('the store goes away mid-import', async (t) => {
    const ferret = await startFerretDB({ bin });
    t.teardown(() => ferret.stop());
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tally-outage-'));
    t.teardown(() => rm(dataDir, { recursive: true, force: true }));
    const store = createMongoStore({
      url: `${ferret.url}tally_outage?serverSelectionTimeoutMS=1500`,
      dbName: 'tally_outage',
    });
    await store.init();
    const config = { ...loadConfig({ TALLY_DATA_DIR: dataDir }), port: 0, host: '127.0.0.1', limits: DEFAULT_LIMITS };
    const tally = await createTally({ config, store, formatters: builtinFormatters, log: silentLogger });
    await tally.start();
    t.teardown(async () => {
      await tally.stop();
      await store.close().catch(() => undefined);
    });
    const { accountId, apiKey } = await createAccountWithKey(store, 'ci');
    const profile = await store.profiles.create(accountId, 'main');
    const port = Number(new URL(tally.url()).port);

    // A JUnit file of ~24 MB streamed in pieces; the server is killed after the first ~4 MB.
    const head = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file[]"; filename="big.xml"\r\n` +
        `Content-Type: application/xml\r\n\r\n<?xml version="1.0"?>\n<testsuite name="big">\n`,
    );
    const block = Buffer.from(
      Array.from(
        { length: 1000 },
        (_, i) =>
          `<testcase classname="c" name="t${i}" time="0.1"><system-out>${'x'.repeat(60)}</system-out></testcase>\n`,
      ).join(''),
    );
    const answer = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      let raw = '';
      const socket = net.connect(port, '127.0.0.1');
      socket.on('data', (c) => (raw += c.toString()));
      socket.on('error', () => undefined); // the server may close while we still write
      socket.on('close', () => {
        const [statusLine, ...rest] = raw.split('\r\n');
        const body = rest.join('\r\n').split('\r\n\r\n').slice(1).join('\r\n\r\n');
        try {
          resolve({ status: Number(statusLine?.split(' ')[1]), body: JSON.parse(body) });
        } catch (e) {
          reject(new Error(`no JSON answer: ${raw.slice(0, 500)}`, { cause: e }));
        }
      });
      socket.on('connect', async () => {
        socket.write(
          `POST /api/v2/profile/${profile.id}/import/junit HTTP/1.1\r\nHost: x\r\nx-api-key: ${apiKey}\r\n` +
            `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nTransfer-Encoding: chunked\r\n\r\n`,
        );
        const chunk = (b: Buffer) => socket.write(`${b.length.toString(16)}\r\n${b.toString('latin1')}\r\n`, 'latin1');
        chunk(head);
        for (let i = 0; i < 200 && !socket.destroyed && raw === ''; i++) {
          chunk(block);
          if (i === 40) await ferret.kill();
          await new Promise((r) => setTimeout(r, i > 40 ? 50 : 1));
        }
      });
    });
    t.equal(answer.status, 503, 'the client hears 503');
    const error = answer.body.messages.find((m: any) => m.severity === 'error');
    t.equal(error?.code, 'store_unavailable');
    t.match(error?.at, /^\d{4}-/, 'with a timestamp');
    t.equal(answer.body.status, 'failed');

    await ferret.restart();
    t.same(await store.reports.list(profile.id, { limit: 10 }), [], 'nothing is reported as complete');
    const ended = await tally.sweep(new Date(Date.now() + config.limits.requestTimeoutMs + 120_000));
    t.ok(ended <= 1, 'the import the outage cut off is ended by the sweep (if its own clean-up could not run)');
    if (answer.body.import_id) {
      const record = await store.imports.get(answer.body.import_id);
      t.equal(record?.status, 'failed');
      if (record?.reportId)
        t.same(
          await store.containers.list(record.reportId, { parentSeq: null, limit: 5 }),
          [],
          'no containers of the failed import remain',
        );
    }

    const m = multipart([file('file[]', 'a.xml', junitXml())]);
    const next = await send(tally.url(), apiKey, {
      path: `/api/v2/profile/${profile.id}/import/junit`,
      headers: { 'content-type': m.contentType },
      body: m.body,
    });
    t.equal(next.status, 201, 'the next import after the server is back succeeds');
    t.equal((await store.reports.list(profile.id, { limit: 10 })).length, 1);
  });

  t.test('tally serve with the database down says so and retries until it is up', async (t) => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
    const dbPort = await freePort();
    const port = await freePort();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tally-dbdown-'));
    t.teardown(() => rm(dataDir, { recursive: true, force: true }));
    const child = spawn(process.execPath, [...TALLY, 'serve'], {
      cwd: root,
      env: {
        ...process.env,
        TALLY_DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        MONGODB_URL: `mongodb://127.0.0.1:${dbPort}/tally_down?serverSelectionTimeoutMS=500`,
      },
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    t.teardown(() => {
      child.kill('SIGKILL');
    });
    for (let i = 0; i < 100 && !out.includes('store.unavailable'); i++) await new Promise((r) => setTimeout(r, 100));
    t.match(out, /"event":"store\.unavailable".*"retryInMs":\d+/, 'says the store is unavailable and when it retries');
    t.equal(child.exitCode, null, 'and keeps running');
    const ferret = await startFerretDB({ bin, port: dbPort });
    t.teardown(() => ferret.stop());
    for (let i = 0; i < 150 && !out.includes('server.started'); i++) await new Promise((r) => setTimeout(r, 100));
    t.match(out, /"event":"server\.started".*"store":"mongo"/, 'starts once the database answers');
    const health = await send(`http://127.0.0.1:${port}`, '', { method: 'GET', path: '/healthz', noKey: true });
    t.equal(health.status, 200);
  });
}
