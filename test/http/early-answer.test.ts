/**
 * Answers sent before the request's body has all arrived (a missing key, a declared size over the
 * limit) reach a client that is still sending, through Node's own HTTP client as CI scripts use it:
 * the server reads and drops the rest for a while instead of resetting the connection under it
 * (plugins/linger.ts). Without that, most of these uploads ended in EPIPE with no answer.
 */
import t from 'tap';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import net from 'node:net';
import { startTally } from '../helpers/tally.js';
import { BOUNDARY } from '../helpers/multipart.js';
import { LINGER_MS } from '../../plugins/linger.js';
import type { Outcome } from '../helpers/post-while-sending.js';

const MiB = 1024 * 1024;

const exec = promisify(execFile);
const client = fileURLToPath(new URL('../helpers/post-while-sending.ts', import.meta.url));

/** Runs the client in a child process; its outcomes, one per try. */
async function postWhileSending(
  url: string,
  headers: Record<string, string>,
  bytes: number,
  tries: number,
): Promise<Outcome[]> {
  const { stdout } = await exec(process.execPath, [
    '--import',
    'tsx',
    client,
    url,
    JSON.stringify(headers),
    String(bytes),
    String(tries),
  ]);
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Outcome);
}

t.test('an early answer reaches a client that is still sending', async (t) => {
  const h = await startTally(t, { limits: { maxUploadBytes: MiB } });
  const path = `/api/v2/profile/${h.profileId}/import/junit`;
  const multipart = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };

  const cases: [name: string, headers: Record<string, string>, status: number, code: string][] = [
    ['no API key, chunked body', { ...multipart, 'transfer-encoding': 'chunked' }, 401, 'missing_api_key'],
    [
      'a declared size over the limit',
      { ...multipart, 'x-api-key': h.apiKey, 'content-length': String(4 * MiB) },
      413,
      'payload_too_large',
    ],
  ];
  for (const [name, headers, status, code] of cases) {
    // Without the lingering close, about two tries in three ended in EPIPE here.
    const outcomes = await postWhileSending(`${h.url}${path}`, headers, 4 * MiB, 20);
    const expected = { status, code };
    t.same(
      outcomes.filter((o) => !('status' in o) || o.status !== status || o.code !== code),
      [],
      `${name}: ${status} ${code} every time (${outcomes.length} tries)`,
      { expected },
    );
  }
  const after = await h.send({ method: 'GET', path: '/healthz', noKey: true });
  t.equal(after.status, 200, 'healthy afterwards');
});

t.test('a client that never stops sending is cut off after the lingering time', async (t) => {
  const h = await startTally(t);
  const port = Number(new URL(h.url).port);
  // Half-open allowed: the client keeps sending after the server's FIN, as an upload tool does.
  const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  socket.on('error', () => undefined);
  let answer = '';
  socket.setEncoding('latin1');
  socket.on('data', (c: string) => (answer += c));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(
    `POST /api/v2/profile/${h.profileId}/import HTTP/1.1\r\nHost: x\r\n` +
      `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nTransfer-Encoding: chunked\r\n\r\n`,
  );
  const chunk = `4000\r\n${'a'.repeat(0x4000)}\r\n`;
  // The client never ends: only the server's bound (LINGER_MS) closes this connection; without it
  // the test would wait for tap's timeout.
  const sender = setInterval(() => {
    if (socket.writable) socket.write(chunk);
  }, 5);
  await closed;
  clearInterval(sender);
  t.match(answer, /^HTTP\/1\.1 401 /, `it got the answer, then was closed (lingering up to ${LINGER_MS} ms)`);
  t.match(answer, /missing_api_key/);
});
