/**
 * Names the contract run (test/contract/) found ending imports with internal_error: a form field
 * called `__proto__`, and a formatter path segment holding an encoded `%` (hapi decodes path
 * segments once; decoding again threw), and requests Node's parser refuses before hapi (a query
 * over 16 KiB, a malformed request line), which got Node's empty answers instead of a coded one.
 */
import t from 'tap';
import net from 'node:net';
import { startTally, storeKinds } from '../helpers/tally.js';
import { field, file, multipart } from '../helpers/multipart.js';
import { junitXml } from '../helpers/junit.js';

for (const kind of storeKinds(t)) {
  t.test(`odd parameter and path names (${kind} store)`, async (t) => {
    const h = await startTally(t, { store: kind });

    await t.test('a field named __proto__ is an unused parameter, kept on the record', async (t) => {
      const m = multipart([field('__proto__', '{}'), field('constructor', 'x'), file('file[]', 'a.xml', junitXml())]);
      const r = await h.send({
        path: `/api/v2/profile/${h.profileId}/import/junit`,
        headers: { 'content-type': m.contentType },
        body: m.body,
      });
      t.equal(r.status, 201, 'imported', { body: r.text.slice(0, 800) });
      const unused = r.json.messages.find((x: { code: string | null }) => x.code === null);
      t.same(unused?.details?.parameters, ['__proto__', 'constructor'], 'named in the unused-parameters warning');
      const record = await h.send({ method: 'GET', path: `/api/v2/imports/${r.json.import_id}` });
      t.equal(record.status, 200);
      t.same(record.json.params.__proto__, ['{}'], 'kept as received');
    });

    await t.test('a formatter segment with an encoded % is invalid_formatter, not a fault', async (t) => {
      const m = multipart([file('file[]', 'a.xml', junitXml())]);
      for (const segment of ['%25', '%25E0%25A4%25A', 'jun%25it']) {
        const r = await h.send({
          path: `/api/v2/profile/${h.profileId}/import/${segment}`,
          headers: { 'content-type': m.contentType },
          body: m.body,
        });
        t.equal(r.status, 400, segment);
        t.equal(r.json.messages.at(-1).code, 'invalid_formatter');
      }
    });

    await t.test("a request line over Node's header limit is 431 request_headers_too_large, as JSON", async (t) => {
      const r = await h.send({
        method: 'GET',
        path: `/api/v2/profile/${h.profileId}/reports?${'tag[]=x&'.repeat(2500)}`,
      });
      t.equal(r.status, 431);
      t.match(r.headers['content-type'], /application\/json/);
      t.equal(r.json?.messages?.[0]?.code, 'request_headers_too_large');
    });

    await t.test('a malformed request is 400 malformed_request, as JSON', async (t) => {
      const answer = await new Promise<string>((resolve) => {
        const s = net.connect(Number(new URL(h.url).port), '127.0.0.1', () =>
          s.write('GET /healthz HTTP/1.1\r\nHost x\r\n\r\n'),
        );
        let text = '';
        s.on('data', (c) => (text += c.toString()));
        s.on('close', () => resolve(text));
        s.on('error', () => undefined);
      });
      t.match(answer, /^HTTP\/1\.1 400 /);
      t.match(answer, /"code":"malformed_request"/);
      const health = await h.send({ method: 'GET', path: '/healthz', noKey: true });
      t.equal(health.status, 200, 'the server goes on');
    });
  });
}
