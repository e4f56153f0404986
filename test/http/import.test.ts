/**
 * Import behaviour beyond the message table: attachments, zips, the read API, the raw body,
 * uploaders' quirks, a client that goes away, and what a failed import leaves (nothing).
 */
import t from 'tap';
import net from 'node:net';
import { builtinFormatters } from '../../formatters/index.js';
import { startTally, storeKinds, type Harness } from '../helpers/tally.js';
import { BOUNDARY, field, file, multipart, type Part } from '../helpers/multipart.js';
import { junitXml } from '../helpers/junit.js';
import { zipOf } from '../helpers/zip.js';

const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

async function upload(h: Harness, parts: Part[], suffix = '/import/junit', query = '') {
  const m = multipart(parts);
  return h.send({
    path: `/api/v2/profile/${h.profileId}${suffix}${query}`,
    headers: { 'content-type': m.contentType },
    body: m.body,
  });
}

for (const kind of storeKinds(t))
  t.test(`import (${kind} store)`, async (t) => {
    const h = await startTally(t, { store: kind });

    await t.test('attachments are matched by path suffix and served as downloads', async (t) => {
      const xml = junitXml({
        cases: [{ name: 'shows a page', status: 'failed', out: 'see\n[[ATTACHMENT|/ci/work/shots/page.png]]\n' }],
      });
      const reply = await upload(h, [file('file[]', 'a.xml', xml), file('attachment[]', 'page.png', png, 'image/png')]);
      t.equal(reply.status, 201, `status 201`, { body: reply.text });
      t.notOk(reply.json.messages.some((m: any) => m.code === 'failed_to_attach_asset'));
      const suites = await h.send({ method: 'GET', path: `/api/v2/reports/${reply.json.report_id}/containers` });
      const tests = await h.send({
        method: 'GET',
        path: `/api/v2/reports/${reply.json.report_id}/containers?parent=${suites.json.containers[0].seq}`,
      });
      const test = tests.json.containers[0];
      t.equal(test.status, 'failed');
      t.equal(test.attachments.length, 1);
      t.equal(test.attachments[0].name, 'page.png');
      const blob = await h.send({
        method: 'GET',
        path: `/api/v2/imports/${reply.json.import_id}/blobs/${test.attachments[0].blob_id}`,
      });
      t.equal(blob.status, 200);
      t.match(blob.headers['content-disposition'], /^attachment; filename\*=UTF-8''page\.png$/);
      t.equal(blob.headers['x-content-type-options'], 'nosniff');
    });

    await t.test('a zip: results parsed, a screenshot inside matched, other files moved', async (t) => {
      const zip = await zipOf([
        {
          name: 'reports/TEST-a.xml',
          data: junitXml({ suite: 'a', cases: [{ name: 'x', out: '[[ATTACHMENT|screens/x.png]]' }] }),
        },
        { name: 'reports/TEST-b.xml', data: junitXml({ suite: 'b' }) },
        { name: 'reports/screens/x.png', data: png },
        { name: 'reports/', data: '' },
      ]);
      const reply = await upload(h, [file('file[]', 'results.zip', zip, 'application/zip')], '/import');
      t.equal(reply.status, 201, `status 201`, { body: reply.text });
      t.equal(reply.json.report.totals.tests, 3);
      t.same(
        reply.json.report.files.map((f: any) => f.name),
        ['reports/TEST-a.xml', 'reports/TEST-b.xml'],
      );
      t.ok(reply.json.messages.some((m: any) => m.code === 'files_moved_to_attachments'));
      t.notOk(
        reply.json.messages.some((m: any) => m.code === 'failed_to_attach_asset'),
        'x.png found inside the zip',
      );
      const record = await h.send({ method: 'GET', path: `/api/v2/imports/${reply.json.import_id}` });
      t.equal(record.json.status, 'completed');
      t.equal(record.json.files.length, 1, 'the zip is kept whole as the uploaded file');
      t.equal(record.json.attachments[0].name, 'reports/screens/x.png');
    });

    await t.test('the read API: reports newest first, tag filter, report, paging, import record', async (t) => {
      const a = await upload(
        h,
        [file('file[]', 'a.xml', junitXml()), field('tag[]', 'branch:main')],
        '/import/junit',
        '?tag[]=os:linux',
      );
      const b = await upload(h, [file('file[]', 'b.xml', junitXml()), field('tag[]', 'branch:dev')]);
      t.equal(a.status, 201);
      t.equal(b.status, 201);
      const main = await h.send({ method: 'GET', path: `/api/v2/profile/${h.profileId}/reports?tag[]=branch:main` });
      t.same(
        main.json.reports.map((r: any) => r.id),
        [a.json.report_id],
      );
      t.same(main.json.reports[0].tags.sort(), ['branch:main', 'os:linux']);
      const all = await h.send({ method: 'GET', path: `/api/v2/profile/${h.profileId}/reports?limit=2` });
      t.equal(all.json.reports[0].id, b.json.report_id, 'newest first');
      t.ok(all.json.next_before, 'a cursor for the next page');
      const report = await h.send({ method: 'GET', path: `/api/v2/reports/${a.json.report_id}` });
      t.equal(report.json.totals.tests, 2);
      t.same(
        report.json.files.map((f: any) => f.formatter),
        ['junit'],
      );
      const top = await h.send({ method: 'GET', path: `/api/v2/reports/${a.json.report_id}/containers?limit=1` });
      const page1 = await h.send({
        method: 'GET',
        path: `/api/v2/reports/${a.json.report_id}/containers?parent=${top.json.containers[0].seq}&limit=1`,
      });
      const page2 = await h.send({
        method: 'GET',
        path:
          `/api/v2/reports/${a.json.report_id}/containers?parent=${top.json.containers[0].seq}&limit=1&after=` +
          `${page1.json.next_after}`,
      });
      t.same(
        [...page1.json.containers, ...page2.json.containers].map((c: any) => c.title),
        ['passes', 'fails'],
      );
      const record = await h.send({ method: 'GET', path: `/api/v2/imports/${a.json.import_id}` });
      t.same(record.json.params['tag[]'], ['os:linux', 'branch:main'], 'the record keeps the request');
      t.equal(record.json.files[0].name, 'a.xml');
      const bad = await h.send({ method: 'GET', path: `/api/v2/reports/${a.json.report_id}/containers?limit=0` });
      t.equal(bad.status, 400);
      const missing = await h.send({ method: 'GET', path: '/api/v2/reports/nope' });
      t.equal(missing.status, 404);
      t.equal(missing.json.messages[0].code, 'not_found');
    });

    await t.test("another account cannot read this account's reports or imports", async (t) => {
      const a = await upload(h, [file('file[]', 'a.xml', junitXml())]);
      const { createAccountWithKey } = await import('../../lib/api-keys.js');
      const other = await createAccountWithKey(h.store, 'intruder');
      for (const p of [
        `/api/v2/reports/${a.json.report_id}`,
        `/api/v2/imports/${a.json.import_id}`,
        `/api/v2/reports/${a.json.report_id}/containers`,
      ]) {
        const r = await h.send({ method: 'GET', path: p, headers: { 'x-api-key': other.apiKey } });
        t.equal(r.status, 404, p);
      }
      const list = await h.send({
        method: 'GET',
        path: `/api/v2/profile/${h.profileId}/reports`,
        headers: { 'x-api-key': other.apiKey },
      });
      t.equal(list.status, 403);
    });

    await t.test('raw body import: the file is the body', async (t) => {
      const reply = await h.send({
        path: `/api/v2/profile/${h.profileId}/import`,
        headers: { 'content-type': 'application/xml; charset=utf-8' },
        body: junitXml(),
      });
      t.equal(reply.status, 201, `status 201`, { body: reply.text });
      t.equal(reply.json.report.totals.tests, 2);
      const codes = reply.json.messages.map((m: any) => m.code);
      t.ok(
        codes.includes('parameter_file_empty') &&
          codes.includes('invalid_content_type') &&
          codes.includes('specify_formatter'),
      );
    });

    await t.test("uploaders' quirks", async (t) => {
      const xml = junitXml();
      // Windows path as file name, quoted boundary with a charset, a binary transfer encoding, a flag as a file part.
      const parts: Part[] = [
        {
          name: 'file[]',
          filename: 'C:\\ci\\out\\results.xml',
          value: xml,
          contentType: 'text/xml',
          headers: { 'Content-Transfer-Encoding': 'binary' },
        },
        { name: 'ignore_old_report_date', filename: 'flag.txt', value: 'True', contentType: 'text/plain' },
      ];
      const m = multipart(parts);
      const reply = await h.send({
        path: `/api/v2/profile/${h.profileId}/import/junit?tag[]=build:1.2:3`,
        headers: {
          'content-type': `multipart/form-data; boundary="${BOUNDARY}"; charset=US-ASCII`,
          'transfer-encoding': 'chunked',
        },
        body: (async function* () {
          for (let i = 0; i < m.body.length; i += 7) yield m.body.subarray(i, i + 7);
        })(),
      });
      t.equal(reply.status, 201, `status 201`, { body: reply.text });
      t.equal(reply.json.report.files[0].name, 'results.xml');
      t.same(reply.json.report.tags, ['build:1.2:3']);
      t.notOk(
        reply.json.messages.some((m: any) => m.code === null),
        'the flag part is not an unknown parameter',
      );
    });

    await t.test('a client that goes away mid-upload leaves a failed record and nothing else', async (t) => {
      const before = await h.leftovers();
      const head =
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file[]"; filename="big.xml"\r\n` +
        `Content-Type: application/xml\r\n\r\n<?xml version="1.0"?><testsuite name="s">`;
      const u = new URL(h.url);
      await new Promise<void>((resolve) => {
        const socket = net.connect(Number(u.port), u.hostname, () => {
          socket.write(
            `POST /api/v2/profile/${h.profileId}/import/junit HTTP/1.1\r\nHost: x\r\nx-api-key: ${h.apiKey}\r\n` +
              `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: 10000000\r\n\r\n${head}`,
          );
          socket.write('<testcase name="a"/>'.repeat(2000));
          setTimeout(() => {
            socket.destroy();
            resolve();
          }, 300);
        });
      });
      let record: any = null;
      for (let i = 0; i < 50 && record?.status !== 'failed'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        const id = await h.latestImportId();
        record = id ? await h.store.imports.get(id) : null;
      }
      t.equal(record?.status, 'failed');
      t.ok(
        record?.messages.some((m: any) => m.code === 'upload_aborted'),
        JSON.stringify(record?.messages),
      );
      const after = await h.leftovers();
      t.same(after.tmp, []);
      t.equal(after.blobs, before.blobs);
    });

    await t.test('the formatter as a form field: before the files it counts, after them it is refused', async (t) => {
      const first = await upload(h, [field('formatter', 'junit'), file('file[]', 'a.xml', junitXml())], '/import');
      t.equal(first.status, 201, 'status 201', { body: first.text });
      t.notOk(
        first.json.messages.some((m: any) => m.code === 'specify_formatter'),
        'named, so not detected',
      );
      const late = await upload(h, [file('file[]', 'a.xml', junitXml()), field('formatters', 'nosuch')], '/import');
      t.equal(late.status, 400);
      t.equal(late.json.messages.find((m: any) => m.severity === 'error').code, 'invalid_formatter');
      const after = await upload(h, [file('file[]', 'a.xml', junitXml()), field('formatter', 'junit')], '/import');
      t.equal(after.status, 201, 'naming the formatter that was detected anyway is fine', { body: after.text });
    });

    await t.test('formatters are listed without a key', async (t) => {
      const r = await h.send({ method: 'GET', path: '/api/v2/formatters', noKey: true });
      t.equal(r.status, 200);
      t.match(
        r.json.formatters.find((f: any) => f.key === 'junit'),
        { key: 'junit', title: String, extensions: ['.xml'], media_types: Array },
      );
      t.same(
        r.json.formatters.map((f: any) => f.key),
        builtinFormatters.map((f) => f.key),
        'every built-in formatter',
      );
    });

    await t.test('a Content-Length over the limit is refused before the body is read', async (t) => {
      const u = new URL(h.url);
      const answer = await new Promise<string>((resolve) => {
        let text = '';
        const socket = net.connect(Number(u.port), u.hostname, () => {
          socket.write(
            `POST /api/v2/profile/${h.profileId}/import/junit HTTP/1.1\r\nHost: x\r\nx-api-key: ${h.apiKey}\r\n` +
              `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${9 * 1024 ** 3}\r\n\r\n` +
              `--${BOUNDARY}\r\n`,
          );
        });
        socket.on('data', (c) => (text += c.toString()));
        socket.on('close', () => resolve(text));
        setTimeout(() => socket.destroy(), 2000);
      });
      t.match(answer, /^HTTP\/1\.1 413 /);
      t.match(answer, /"code":"payload_too_large"/);
    });

    await t.test('an import its process never finished is ended at the next start', async (t) => {
      const reply = await upload(h, [file('file[]', 'a.xml', junitXml())]);
      const record = await h.store.imports.create({
        profileId: h.profileId,
        accountId: h.accountId,
        endpoint: 'import',
        formatter: null,
      });
      await h.store.imports.update(record.id, { status: 'processing' });
      // A later start, long after: the sweep at start ends what a dead process left behind.
      const future = new Date(Date.now() + h.tally.config.limits.requestTimeoutMs + 120_000);
      const ended = await h.tally.sweep(future);
      t.equal(ended, 1);
      const after = await h.send({ method: 'GET', path: `/api/v2/imports/${record.id}` });
      t.equal(after.json.status, 'failed');
      t.equal(after.json.messages.at(-1).code, 'import_interrupted');
      t.equal(
        (await h.send({ method: 'GET', path: `/api/v2/imports/${reply.json.import_id}` })).json.status,
        'completed',
        'finished imports stay',
      );
    });

    await t.test('a large file that turns out broken only at its end still gets an answer', async (t) => {
      // Regression: the blob copy of the upload had already ended, and was destroyed without an error,
      // so its store write never settled and the request hung.
      const before = await h.leftovers();
      const cases = Array.from({ length: 4000 }, (_, i) => ({ name: `case ${i}`, out: 'x'.repeat(50) }));
      const whole = junitXml({ cases });
      const cut = whole.slice(0, whole.lastIndexOf('</testsuite>'));
      const reply = await upload(h, [file('file[]', 'cut-off.xml', cut)]);
      t.ok(cut.length > 300_000);
      t.equal(reply.status, 422);
      t.equal(reply.json.messages.find((m: any) => m.severity === 'error')?.code, 'report_validation_error');
      const after = await h.leftovers();
      t.same(after.tmp, []);
      t.equal(after.blobs, before.blobs, 'no blob left');
    });

    await t.test('healthz', async (t) => {
      const r = await h.send({ method: 'GET', path: '/healthz', noKey: true });
      t.equal(r.status, 200);
      t.same(r.json, { status: 'ok', store: h.kind });
    });
  });
