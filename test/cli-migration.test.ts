/**
 * Moving a team from Calliope with the real `tally` command, on both stores: `profile create --id
 * 4390` and `key import` against a data dir (or a MongoDB database), then `tally serve` and a POST
 * to `/api/v2/profile/4390/import/junit` with the imported key answers 201. The key is nowhere in
 * clear afterwards: not in the store's files or documents, not in any output or log line. And two
 * `tally serve` processes on one MongoDB database, imported into at once, never give two reports
 * the same id.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import t, { type Test } from 'tap';
import { file, multipart } from './helpers/multipart.js';
import { junitXml } from './helpers/junit.js';
import { send, storeKinds, type StoreKind } from './helpers/tally.js';
import { freePort } from '../scripts/mongo-wire.js';
import { TALLY } from './helpers/tally-command.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** What a team's pipelines send today: a key made by another service. */
const CALLIOPE_KEY = `cal_${randomBytes(24).toString('base64url')}`;

interface Place {
  env: Record<string, string>;
  /** Every byte the store keeps, as text, for the look for the key in clear. */
  everything(): Promise<Buffer>;
}

async function place(t: Test, kind: StoreKind): Promise<Place> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tally-migrate-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  if (kind === 'embedded')
    return {
      env: { TALLY_DATA_DIR: dataDir },
      async everything() {
        const parts: Buffer[] = [];
        const walk = async (dir: string): Promise<void> => {
          for (const name of await readdir(dir)) {
            const full = path.join(dir, name);
            if ((await stat(full)).isDirectory()) await walk(full);
            else parts.push(await readFile(full));
          }
        };
        await walk(dataDir);
        return Buffer.concat(parts);
      },
    };
  const server = process.env.TALLY_TEST_MONGODB_URL!;
  const dbName = `tally_test_${randomBytes(6).toString('hex')}`;
  const [hosts, options] = server.split('?');
  const url = `${hosts!.replace(/\/+$/, '')}/${dbName}${options ? `?${options}` : ''}`;
  const client = new MongoClient(server, { serverSelectionTimeoutMS: 5_000 });
  t.teardown(async () => {
    await client.db(dbName).dropDatabase();
    await client.close();
  });
  return {
    env: { TALLY_DATA_DIR: dataDir, MONGODB_URL: url },
    async everything() {
      const db = client.db(dbName);
      const parts: string[] = [];
      for (const c of await db.listCollections().toArray())
        for (const doc of await db.collection(c.name).find().toArray()) parts.push(JSON.stringify(doc));
      return Buffer.from(parts.join('\n'));
    },
  };
}

interface Cli {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(env: Record<string, string>, args: string[], stdin?: string): Promise<Cli> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [...TALLY, ...args],
      { cwd: root, env: { ...process.env, ...env } },
      (err, stdout, stderr) => resolve({ code: err ? ((err.code as number) ?? 1) : 0, stdout, stderr }),
    );
    child.stdin!.end(stdin ?? '');
  });
}

interface Served {
  base: string;
  output(): string;
  stop(): Promise<void>;
}

async function serve(t: Test, env: Record<string, string>): Promise<Served> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [...TALLY, 'serve'], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  t.teardown(stop);
  // Generous: tsx compiles the sources at start, and a shared CI machine may be busy.
  for (let i = 0; i < 1200 && !out.includes('server.started'); i++) {
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!out.includes('server.started')) throw new Error(`tally serve did not start:\n${out}`);
  return { base: `http://127.0.0.1:${port}`, output: () => out, stop };
}

const results = multipart([file('file[]', 'TEST-results.xml', junitXml())]);

function importInto(base: string, profile: number, apiKey: string) {
  return send(base, apiKey, {
    path: `/api/v2/profile/${profile}/import/junit`,
    headers: { 'content-type': results.contentType },
    body: results.body,
  });
}

const kinds = storeKinds(t);

for (const kind of kinds) {
  t.test(`${kind}: profile create --id and key import, then an upload with the old key and id`, async (t) => {
    const p = await place(t, kind);
    const outputs: string[] = [];
    const run = async (args: string[], stdin?: string) => {
      const r = await cli(p.env, args, stdin);
      outputs.push(r.stdout, r.stderr);
      return r;
    };
    const account = JSON.parse((await run(['account', 'create', 'team', '--json'])).stdout);
    const profile = await run(['profile', 'create', 'team', '--account', account.account_id, '--id', '4390', '--json']);
    t.equal(profile.code, 0, profile.stderr);
    t.match(JSON.parse(profile.stdout), { profile_id: 4390, uuid: String });
    const imported = await run(['key', 'import', '--account', account.account_id, CALLIOPE_KEY, '--json']);
    t.equal(imported.code, 0, imported.stderr);
    t.match(JSON.parse(imported.stdout), { account_id: account.account_id, key_id: /^imported_/ });

    const taken = await run(['profile', 'create', 'other', '--account', account.account_id, '--id', '4390']);
    t.equal(taken.code, 2, 'a taken id is refused');
    t.match(taken.stderr, /profile id 4390 is taken by profile "team"/);
    const again = await run(['key', 'import', '--account', account.account_id, CALLIOPE_KEY]);
    t.equal(again.code, 2, 'a key registered already is refused');
    t.match(again.stderr, /the key is registered already/);
    const weak = await run(['key', 'import', '--account', account.account_id, 'changeme-please']);
    t.equal(weak.code, 2, 'a string too short to be a key is refused');
    t.match(weak.stderr, /15 characters long; an imported key has 20 to 512/);
    const second = `${randomBytes(20).toString('hex')}`;
    const fromStdin = await run(['key', 'import', '--account', account.account_id, '-'], `${second}\n`);
    t.equal(fromStdin.code, 0, `- reads the key from stdin: ${fromStdin.stderr}`);

    const tally = await serve(t, p.env);
    const reply = await importInto(tally.base, 4390, CALLIOPE_KEY);
    t.equal(reply.status, 201, `POST /api/v2/profile/4390/import/junit with the imported key: ${reply.text}`);
    t.equal(reply.json.profile_id, 4390);
    t.ok(Number.isInteger(reply.json.report_id), 'report_id is an integer');
    t.equal(reply.json.report_status_url, `${tally.base}/api/v2/reports/${reply.json.report_id}/status`);
    t.equal((await importInto(tally.base, 4390, second)).status, 201, 'the key read from stdin works too');
    // The key is random: its last character may be the one put in its place.
    const offByOne = `${CALLIOPE_KEY.slice(0, -1)}${CALLIOPE_KEY.endsWith('x') ? 'y' : 'x'}`;
    const wrong = await importInto(tally.base, 4390, offByOne);
    t.equal(wrong.status, 401, 'a key one character off does not');
    t.equal(wrong.json.messages[0].code, 'invalid_api_key');
    await tally.stop();

    for (const key of [CALLIOPE_KEY, second]) {
      t.notOk((await p.everything()).includes(key), 'the store does not hold the key in clear');
      t.notOk(
        [...outputs, tally.output()].some((o) => o.includes(key)),
        'no output or log line holds it',
      );
    }
  });
}

if (kinds.includes('mongo')) {
  t.test('mongo: two tally serve processes on one database, imported into at once: every id distinct', async (t) => {
    const p = await place(t, 'mongo');
    const account = JSON.parse((await cli(p.env, ['account', 'create', 'team', '--json'])).stdout);
    await cli(p.env, ['profile', 'create', 'team', '--account', account.account_id, '--id', '4390']);
    await cli(p.env, ['key', 'import', '--account', account.account_id, CALLIOPE_KEY]);
    const [a, b] = await Promise.all([serve(t, p.env), serve(t, p.env)]);
    const replies = await Promise.all(
      Array.from({ length: 24 }, (_, i) => importInto(i % 2 ? b.base : a.base, 4390, CALLIOPE_KEY)),
    );
    t.strictSame(
      replies.map((r) => r.status),
      replies.map(() => 201),
      'every import completed',
    );
    const ids = replies.map((r) => r.json.report_id as number);
    t.ok(
      ids.every((id) => Number.isInteger(id) && id >= 1 && id <= 2 ** 31 - 1),
      'every report_id a 32-bit integer',
    );
    t.equal(new Set(ids).size, ids.length, `${ids.length} imports, ${new Set(ids).size} distinct report ids`);
    // Each instance finds the reports the other made, by their ids.
    for (const r of replies.slice(0, 4)) {
      const other = r.json.report_status_url.startsWith(a.base) ? b : a;
      const status = await send(other.base, CALLIOPE_KEY, {
        method: 'GET',
        path: `/api/v2/reports/${r.json.report_id}/status`,
      });
      t.equal(status.json.report_id, r.json.report_id);
    }
  });
}
