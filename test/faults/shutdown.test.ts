/**
 * SIGTERM with an import in flight: new connections are refused, the in-flight upload gets the
 * grace period and is then cut off (its import ends `failed`, nothing half-written stays), and the
 * process exits 0.
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { freePort } from '../../scripts/mongo-wire.js';
import { BOUNDARY } from '../helpers/multipart.js';
import { TALLY } from '../helpers/tally-command.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}

t.test('SIGTERM: refuse new requests, end in-flight imports within the grace period, exit 0', async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tally-sigterm-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const child = spawn(process.execPath, [...TALLY, 'serve'], {
    cwd: root,
    env: {
      ...process.env,
      TALLY_DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      TALLY_SHUTDOWN_GRACE_MS: '1500',
      MONGODB_URL: '',
    },
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.on('exit', (code) => resolve({ code, at: Date.now() })),
  );
  for (let i = 0; i < 100 && !out.includes('server.started'); i++) await new Promise((r) => setTimeout(r, 100));
  const key = /API key: +(tly_\S+)/.exec(out)?.[1];
  const profile = /profile id: +(\S+)/.exec(out)?.[1];
  t.ok(key && profile, 'started with a demo account');

  // An upload that never ends: headers, the start of a file part, some testcases.
  const slow = net.connect(port, '127.0.0.1');
  const slowClosed = new Promise<string>((resolve) => {
    let answer = '';
    slow.on('data', (c) => (answer += c.toString()));
    slow.on('close', () => resolve(answer));
    slow.on('error', () => undefined);
  });
  await new Promise<void>((ok) => slow.on('connect', () => ok()));
  slow.write(
    `POST /api/v2/profile/${profile}/import/junit HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\n` +
      `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nTransfer-Encoding: chunked\r\n\r\n`,
  );
  const part =
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file[]"; filename="slow.xml"\r\n\r\n` +
    `<?xml version="1.0"?><testsuite name="s">${'<testcase name="a"/>'.repeat(500)}`;
  slow.write(`${Buffer.byteLength(part).toString(16)}\r\n${part}\r\n`);
  await new Promise((r) => setTimeout(r, 300));

  const sentAt = Date.now();
  child.kill('SIGTERM');
  let refused = false;
  for (let i = 0; i < 250 && !refused; i++) {
    refused = !(await connects(port));
    if (!refused) await new Promise((r) => setTimeout(r, 20));
  }
  t.ok(refused, 'new connections are refused once SIGTERM arrived');
  const { code, at } = await exited;
  t.equal(code, 0, 'exits 0');
  // The grace period plus room for a loaded machine: what this catches is a wait for the slow upload itself.
  t.ok(at - sentAt < 1500 + 10_000, `exits within the grace period and its clean-up (${at - sentAt} ms)`);
  await slowClosed;
  t.match(out, /"event":"server\.stopping","signal":"SIGTERM"/);

  const db = new Database(path.join(dataDir, 'tally.sqlite'), { readonly: true });
  t.teardown(() => db.close());
  const imports = db.prepare('select status, messages, report_id from imports').all() as {
    status: string;
    messages: string;
    report_id: string;
  }[];
  t.equal(imports.length, 1);
  t.equal(imports[0]!.status, 'failed', 'the cut-off import ended failed');
  t.match(imports[0]!.messages, /upload_aborted/);
  const report = db.prepare('select status from reports where id = ?').get(imports[0]!.report_id) as { status: string };
  t.equal(report.status, 'failed', 'its report is not shown');
  t.equal((db.prepare('select count(*) n from containers').get() as { n: number }).n, 0, 'no containers left');
  t.same(await readdir(path.join(dataDir, 'tmp')).catch(() => []), [], 'no spool files left');
});
