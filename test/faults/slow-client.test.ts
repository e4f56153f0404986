/**
 * A slow client (one byte a second) does not hold its connection, its import slot or a spool file
 * until the request timeout: the import ends `failed` with upload_timeout (408), nothing is left,
 * and the account can import again at once. A client that keeps up is not cut off.
 */
import t from 'tap';
import net from 'node:net';
import { startTally, storeKinds } from '../helpers/tally.js';
import { BOUNDARY, file, multipart } from '../helpers/multipart.js';
import { junitXml } from '../helpers/junit.js';

const TIMEOUT_MS = 2000;

for (const kind of storeKinds(t)) {
  t.test(`slow client (${kind} store)`, async (t) => {
    // One import slot: a slow client that kept it would lock the account out.
    const h = await startTally(t, {
      store: kind,
      limits: { uploadTimeoutMs: TIMEOUT_MS, minUploadBytes: 1024, maxConcurrentImportsPerAccount: 1 },
    });
    const port = Number(new URL(h.url).port);

    await t.test('one byte a second ends in upload_timeout within two windows', async (t) => {
      const before = await h.leftovers();
      const s = net.connect(port, '127.0.0.1');
      await new Promise<void>((ok) => s.once('connect', () => ok()));
      let answer = '';
      s.on('data', (c) => (answer += c.toString()));
      s.on('error', () => undefined);
      const closed = new Promise<void>((ok) => s.once('close', () => ok()));
      const startedAt = Date.now();
      // A zip, so the upload is spooled to tmp/ while it arrives.
      s.write(
        `POST /api/v2/profile/${h.profileId}/import HTTP/1.1\r\nHost: x\r\nx-api-key: ${h.apiKey}\r\n` +
          `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nTransfer-Encoding: chunked\r\n\r\n`,
      );
      const head =
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file[]"; filename="results.zip"\r\n\r\n` + 'PK\x03\x04';
      s.write(`${Buffer.byteLength(head).toString(16)}\r\n${head}\r\n`);
      const drip = setInterval(() => {
        if (!s.destroyed) s.write('1\r\nA\r\n');
      }, 1000);
      // Cut off after at most two windows; the wait allows for a loaded machine, and its end is only
      // reached when the server never cuts the client off (the drip would go on for the hour).
      await Promise.race([closed, new Promise((r) => setTimeout(r, TIMEOUT_MS * 5))]);
      clearInterval(drip);
      const took = Date.now() - startedAt;
      t.ok(s.destroyed || answer.length > 0, 'the server answered or closed the connection');
      s.destroy();
      t.match(answer, /^HTTP\/1\.1 408 /, `answered 408 (after ${took} ms, window ${TIMEOUT_MS} ms)`);
      t.match(answer, /"code":"upload_timeout"/, 'with upload_timeout');
      const id = await h.latestImportId();
      const record = await h.send({ method: 'GET', path: `/api/v2/imports/${id}` });
      t.equal(record.json.status, 'failed', 'the import ended failed');
      t.equal(record.json.messages.find((m: { severity: string }) => m.severity === 'error')?.code, 'upload_timeout');
      const after = await h.leftovers();
      t.same(after.tmp, [], 'no spool file left');
      t.equal(after.blobs, before.blobs, 'no blob left');
    });

    await t.test('the slot is free again and a client that keeps up imports', async (t) => {
      // Sent in chunks well above the minimum rate, with pauses shorter than the window.
      const m = multipart([
        file('file[]', 'a.xml', junitXml({ cases: Array.from({ length: 200 }, (_, i) => ({ name: `case ${i}` })) })),
      ]);
      const chunks: Buffer[] = [];
      for (let i = 0; i < m.body.length; i += 1024) chunks.push(m.body.subarray(i, i + 1024));
      async function* paced(): AsyncGenerator<Buffer> {
        for (const c of chunks) {
          yield c;
          await new Promise((r) => setTimeout(r, 400));
        }
      }
      const r = await h.send({
        path: `/api/v2/profile/${h.profileId}/import/junit`,
        headers: { 'content-type': m.contentType },
        body: paced(),
      });
      t.equal(r.status, 201, `imported (${chunks.length} chunks over ${(chunks.length * 0.4).toFixed(1)} s)`, {
        body: r.text.slice(0, 500),
      });
      t.equal(r.json.report.totals.tests, 200);
    });
  });
}
