/**
 * The `tally` command against a real data dir: account, profile and key rotation, and the first
 * start of `tally serve` that prints a demo key and a curl command that works.
 */
import t from 'tap';
import { spawn, execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { send } from './helpers/tally.js';
import { file, multipart } from './helpers/multipart.js';
import { junitXml } from './helpers/junit.js';
import { WebClient } from './helpers/web.js';
import { TALLY } from './helpers/tally-command.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = promisify(execFile);

async function tally(dataDir: string, ...args: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, [...TALLY, ...args], {
    cwd: root,
    env: { ...process.env, TALLY_DATA_DIR: dataDir },
  });
  return JSON.parse(stdout);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

t.test('serve on an empty data dir, then the admin commands', async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tally-cli-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const child = spawn(process.execPath, [...TALLY, 'serve'], {
    cwd: root,
    env: { ...process.env, TALLY_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' },
  });
  t.teardown(() => {
    child.kill('SIGTERM');
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  for (let i = 0; i < 300 && !out.includes('server.started'); i++) await new Promise((r) => setTimeout(r, 100));
  t.match(out, /API key: +tly_/, 'prints the demo key');
  // The printed command, run as printed by a shell, from a folder with nothing in it.
  const printed = /^curl [^\n]*<<'EOF'\n[\s\S]*?\nEOF$/m.exec(out)?.[0];
  t.ok(printed, 'prints a ready-to-paste curl command, its file inline');
  t.match(printed, /x-api-key: tly_/, 'with the demo key');
  const empty = await mkdtemp(path.join(os.tmpdir(), 'tally-cli-cwd-'));
  t.teardown(() => rm(empty, { recursive: true, force: true }));
  const ran = await run('sh', ['-c', printed!], { cwd: empty });
  const answer = JSON.parse(ran.stdout);
  t.match(
    answer,
    { status: 'completed', messages: [], report: { files: [{ name: 'results.xml', formatter: 'junit' }] } },
    'the printed command imports, with no message',
  );
  t.strictSame(answer.messages, [], 'no warning or notice');
  t.match(answer.report.totals, { tests: 2, passed: 1, failed: 1 });
  const base = `http://127.0.0.1:${port}`;
  const m = multipart([file('file[]', 'results.xml', junitXml())]);

  const account = await tally(dataDir, 'account', 'create', 'team', '--json');
  t.match(account, { account_id: String, api_key: /^tly_/ });
  const profile = await tally(dataDir, 'profile', 'create', 'nightly', '--account', account.account_id, '--json');
  t.match(profile, { profile_id: Number, uuid: String });
  const path1 = `/api/v2/profile/${profile.profile_id}/import/junit`;
  t.equal(
    (await send(base, account.api_key, { path: path1, headers: { 'content-type': m.contentType }, body: m.body }))
      .status,
    201,
    'the new key imports',
  );
  const rotated = await tally(dataDir, 'key', 'rotate', '--account', account.account_id, '--json');
  t.not(rotated.api_key, account.api_key);
  const old = await send(base, account.api_key, {
    path: path1,
    headers: { 'content-type': m.contentType },
    body: m.body,
  });
  t.equal(old.status, 401, 'the old key stops working');
  t.equal(old.json.messages[0].code, 'invalid_api_key');
  t.equal(
    (await send(base, rotated.api_key, { path: path1, headers: { 'content-type': m.contentType }, body: m.body }))
      .status,
    201,
    'the new key works',
  );

  // The demo user: the printed sign-in URL and one-time password open the web interface.
  const demo = /Open the web interface at (http:\/\/\S+)\/signin and sign in as (\S+)\n[^\n]*\n +(\S+)/.exec(out);
  t.ok(demo, 'prints the sign-in URL, the demo user and its one-time password');
  const web = new WebClient(base);
  const form = await web.get('/signin');
  const signin = await web.post('/signin', { email: demo![2]!, password: demo![3]!, csrf: WebClient.csrfOf(form) });
  t.equal(signin.headers.location, '/account/password', 'the printed password signs in (and asks for a new one)');

  const user = await tally(dataDir, 'user', 'create', '--account', account.account_id, 'Dev@Example.com', '--json');
  t.match(user, {
    user_id: String,
    account_id: account.account_id,
    email: 'dev@example.com',
    password: /^[A-Za-z0-9_-]{20}$/,
  });
  const twice = await run(
    process.execPath,
    [...TALLY, 'user', 'create', '--account', account.account_id, 'dev@example.com'],
    { cwd: root, env: { ...process.env, TALLY_DATA_DIR: dataDir } },
  ).catch((e) => e);
  t.equal(twice.code, 2, 'an address has one user');
  t.match(twice.stderr, /already has a user/);
  t.notMatch(
    out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .join('\n'),
    /tly_/,
    'log lines never carry a key',
  );
  await writeFile(path.join(dataDir, 'x'), '');
});

t.test('usage errors exit 2 with a sentence', async (t) => {
  const r = await run(process.execPath, [...TALLY, 'profile', 'create', 'x'], { cwd: root }).catch((e) => e);
  t.equal(r.code, 2);
  t.match(r.stderr, /profile create needs a NAME and --account ID/);
});

t.test('profile create refuses a name the API and the web form refuse, before opening the store', async (t) => {
  for (const [name, why] of [
    ['   ', /The name is empty/],
    ['two\nlines', /control character/],
    ['x'.repeat(101), /101 characters/],
  ] as const) {
    const r = await run(process.execPath, [...TALLY, 'profile', 'create', name, '--account', 'acc'], {
      cwd: root,
    }).catch((e) => e);
    t.equal(r.code, 2, JSON.stringify(name.slice(0, 12)));
    t.match(r.stderr, /profile_name_invalid/);
    t.match(r.stderr, why);
  }
});
