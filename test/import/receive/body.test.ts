/**
 * The request body's pipeline (lib/import/receive/body.ts) on a real HTTP server: bytes counted as
 * they pass; a failure anywhere (the reader, the limit) tears the chain down but holds the request,
 * neither read on nor destroyed, until the import has answered; then its rest is read and dropped,
 * so the answer still reaches the client. The client going away (the signal) destroys it, and its
 * AbortError is the import's upload_aborted.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { DEFAULT_LIMITS } from '../../../lib/config.js';
import { ImportFault } from '../../../lib/messages.js';
import { receiveBody, receiveFault } from '../../../lib/import/receive/body.js';

const KiB = 1024;
const MiB = 1024 * KiB;

/** Runs `handle` on the server for one POST of `bytes` bytes; resolves with the answer's status (or the error). */
async function post(
  t: Test,
  bytes: number,
  handle: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>,
): Promise<number | Error> {
  const server = http.createServer((req, res) => void handle(req, res).catch((e) => t.fail(String(e))));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve) => {
    const req = http.request(
      { method: 'POST', host: '127.0.0.1', port, headers: { 'content-length': bytes } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', resolve);
    const chunk = Buffer.alloc(64 * KiB, 0x61);
    let sent = 0;
    const write = (): void => {
      while (sent < bytes) {
        const n = Math.min(chunk.length, bytes - sent);
        sent += n;
        if (!req.write(chunk.subarray(0, n))) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}

/** Reads `stream` to the end, or until `stopAfter` bytes, and says how it ended. */
async function read(stream: AsyncIterable<Buffer>, stopAfter = Infinity): Promise<{ bytes: number; error?: unknown }> {
  let bytes = 0;
  try {
    for await (const chunk of stream) {
      bytes += chunk.length;
      if (bytes >= stopAfter) throw new ImportFault('report_validation_error', { detail: 'the reader gave up' });
    }
    return { bytes };
  } catch (error) {
    return { bytes, error };
  }
}

/** Until the import has answered, the request is held: paused, not read on, not destroyed. */
async function held(t: Test, req: http.IncomingMessage): Promise<void> {
  const before = req.socket.bytesRead;
  await new Promise((resolve) => setTimeout(resolve, 100));
  t.equal(req.readableFlowing, false, 'the request is paused while the import cleans up');
  t.notOk(req.destroyed || req.complete, 'neither destroyed nor read to its end');
  t.ok(req.socket.bytesRead - before < 1 * MiB, `little is read meanwhile (${req.socket.bytesRead - before})`);
}

const ended = (req: http.IncomingMessage): Promise<void> =>
  req.readableEnded ? Promise.resolve() : new Promise((resolve) => req.once('end', () => resolve()));

t.test('every byte, counted', async (t) => {
  const status = await post(t, 3 * MiB + 5, async (req, res) => {
    const body = receiveBody(req, { limits: DEFAULT_LIMITS, signal: new AbortController().signal }, () => undefined);
    const got = await read(body.stream);
    body.stop();
    t.strictSame(got, { bytes: 3 * MiB + 5 });
    t.equal(body.stream.bytes, 3 * MiB + 5);
    res.end();
  });
  t.equal(status, 200);
});

t.test('a reader that fails: the request lives on, its rest is dropped, the answer arrives', async (t) => {
  const status = await post(t, 8 * MiB, async (req, res) => {
    const body = receiveBody(req, { limits: DEFAULT_LIMITS, signal: new AbortController().signal }, () => undefined);
    const got = await read(body.stream, 256 * KiB);
    t.match(got.error, { code: 'report_validation_error' });
    t.ok(body.stream.destroyed, 'the chain is torn down');
    await held(t, req);
    body.stop();
    await ended(req);
    t.ok(req.complete, 'the request was read to its end, not destroyed');
    res.statusCode = 422;
    res.end();
  });
  t.equal(status, 422, 'the client gets the answer');
});

t.test('the limit: payload_too_large, and the answer still arrives', async (t) => {
  const limits = { ...DEFAULT_LIMITS, maxUploadBytes: 1 * MiB };
  const status = await post(t, 4 * MiB, async (req, res) => {
    const body = receiveBody(req, { limits, signal: new AbortController().signal }, () => undefined);
    const got = await read(body.stream);
    t.match(got.error, { code: 'payload_too_large', msg: { details: { limit: MiB } } });
    t.ok(got.bytes <= MiB, `nothing past the limit was handed on (${got.bytes})`);
    await held(t, req);
    body.stop();
    await ended(req);
    t.ok(req.complete, 'the request was read to its end, not destroyed');
    res.statusCode = 413;
    res.end();
  });
  t.equal(status, 413);
});

t.test('the client gone: the request is destroyed, the fault is upload_aborted', async (t) => {
  const controller = new AbortController();
  const status = await post(t, 8 * MiB, async (req) => {
    const body = receiveBody(req, { limits: DEFAULT_LIMITS, signal: controller.signal }, () => {
      if (body.stream.bytes > 256 * KiB) controller.abort();
    });
    const got = await read(body.stream);
    body.stop();
    t.match(receiveFault(got.error, controller.signal), { code: 'upload_aborted' });
    t.ok(req.destroyed && !req.complete, 'the request is destroyed');
    const other = new Error('other');
    t.equal(receiveFault(other, controller.signal), other, 'other errors stay as they are');
  });
  t.type(status, Error, 'the client sees its connection closed');
});

t.test('a client gone before the body was read', async (t) => {
  const controller = new AbortController();
  controller.abort();
  const status = await post(t, 1024, async (req, res) => {
    t.throws(() => receiveBody(req, { limits: DEFAULT_LIMITS, signal: controller.signal }, () => undefined), {
      code: 'upload_aborted',
    });
    res.end();
  });
  t.equal(status, 200);
});
