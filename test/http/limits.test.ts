/**
 * Per-account concurrent imports and brute-force protection for API keys: 429 with a coded
 * message and Retry-After; everything else goes on.
 */
import t from 'tap';
import net from 'node:net';
import { startTally, storeKinds } from '../helpers/tally.js';
import { BOUNDARY, file, multipart } from '../helpers/multipart.js';
import { junitXml } from '../helpers/junit.js';

for (const kind of storeKinds(t)) {
  t.test(`limits (${kind} store)`, async (t) => {
    const h = await startTally(t, {
      store: kind,
      limits: { maxConcurrentImportsPerAccount: 2, maxKeyFailuresPerMinute: 3 },
    });
    const port = Number(new URL(h.url).port);

    await t.test('a third concurrent import of one account gets 429 too_many_imports', async (t) => {
      // Two uploads that stay open hold the account's two slots.
      const open = await Promise.all(
        [1, 2].map(
          () =>
            new Promise<net.Socket>((resolve) => {
              const s = net.connect(port, '127.0.0.1', () => {
                s.write(
                  `POST /api/v2/profile/${h.profileId}/import/junit HTTP/1.1\r\nHost: x\r\n` +
                    `x-api-key: ${h.apiKey}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
                    `Transfer-Encoding: chunked\r\n\r\n`,
                );
                const part =
                  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file[]"; filename="slow.xml"\r\n\r\n` +
                  `<testsuite name="s">`;
                s.write(`${Buffer.byteLength(part).toString(16)}\r\n${part}\r\n`);
                resolve(s);
              });
              s.on('error', () => undefined);
            }),
        ),
      );
      await new Promise((r) => setTimeout(r, 200));
      const m = multipart([file('file[]', 'a.xml', junitXml())]);
      const third = await h.send({
        path: `/api/v2/profile/${h.profileId}/import/junit`,
        headers: { 'content-type': m.contentType },
        body: m.body,
      });
      t.equal(third.status, 429);
      t.equal(third.json.messages[0].code, 'too_many_imports');
      t.equal(third.json.messages[0].severity, 'error');
      t.equal(third.headers['retry-after'], '5');
      for (const s of open) s.destroy();
      await new Promise((r) => setTimeout(r, 300));
      const after = await h.send({
        path: `/api/v2/profile/${h.profileId}/import/junit`,
        headers: { 'content-type': m.contentType },
        body: m.body,
      });
      t.equal(after.status, 201, 'slots come back when imports end');
    });

    await t.test('repeated wrong keys from one address get 429 too_many_attempts', async (t) => {
      const wrong = 'tly_AAAAAAAAAAAA_' + 'A'.repeat(43);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push(
          (
            await h.send({
              method: 'GET',
              path: `/api/v2/profile/${h.profileId}/reports`,
              headers: { 'x-api-key': wrong },
            })
          ).status,
        );
      t.same(statuses, [401, 401, 401, 429, 429]);
      const blocked = await h.send({
        method: 'GET',
        path: `/api/v2/profile/${h.profileId}/reports`,
        headers: { 'x-api-key': wrong },
      });
      t.equal(blocked.json.messages[0].code, 'too_many_attempts');
      t.ok(Number(blocked.headers['retry-after']) > 0);
      const right = await h.send({ method: 'GET', path: `/api/v2/profile/${h.profileId}/reports` });
      t.equal(right.status, 429, 'the address waits, whatever key it sends next');
    });
  });
}
