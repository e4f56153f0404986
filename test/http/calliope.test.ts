/**
 * Drop-in for Calliope-style clients: the answer fields they read, the options they send, the
 * endpoints older clients call, and booleans as real uploaders spell them.
 */
import t from 'tap';
import { startTally, storeKinds, type Harness } from '../helpers/tally.js';
import { field, file, multipart, type Part } from '../helpers/multipart.js';
import { junitXml } from '../helpers/junit.js';

async function upload(h: Harness, parts: Part[], suffix = '/import/junit', query = '') {
  const m = multipart(parts);
  return h.send({
    path: `/api/v2/profile/${h.profileId}${suffix}${query}`,
    headers: { 'content-type': m.contentType },
    body: m.body,
  });
}

const cucumberJson = JSON.stringify([
  {
    uri: 'features/login.feature',
    id: 'login',
    keyword: 'Feature',
    name: 'Login',
    elements: [
      {
        id: 'login;ok',
        keyword: 'Scenario',
        name: 'ok',
        type: 'scenario',
        steps: [{ keyword: 'Given ', name: 'a user', result: { status: 'passed', duration: 1000000 } }],
      },
      {
        id: 'login;bad',
        keyword: 'Scenario',
        name: 'bad',
        type: 'scenario',
        steps: [{ keyword: 'Given ', name: 'a typo', result: { status: 'failed', error_message: 'boom' } }],
      },
    ],
  },
]);

for (const kind of storeKinds(t)) {
  t.test(`Calliope-style clients (${kind} store)`, async (t) => {
    const h = await startTally(t, { store: kind });

    await t.test('the answer carries the fields clients read', async (t) => {
      const r = await upload(h, [file('file[]', 'a.xml', junitXml())]);
      t.equal(r.status, 201);
      t.equal(r.json.import_status, 'completed');
      t.equal(r.json.import_progress, 100);
      t.equal(
        r.json.report_url,
        `${h.url}/reports/${r.json.report_id}`.replace('127.0.0.1', new URL(h.url).host.split(':')[0]!),
      );
      t.equal(r.json.report_status_url, `${h.url}/api/v2/reports/${r.json.report_id}/status`);
      t.match(r.json.message, /^Imported 2 tests from 1 file: 1 passed, 1 failed\.$/);
      const status = await h.send({ method: 'GET', path: new URL(r.json.report_status_url).pathname });
      t.equal(status.status, 200);
      t.match(status.json, {
        report_id: r.json.report_id,
        import_id: r.json.import_id,
        import_status: 'completed',
        import_progress: 100,
        totals: { tests: 2 },
      });
      const failed = await upload(h, [file('file[]', 'a.xml', '<testsuite')]);
      t.equal(failed.json.import_status, 'failed');
      t.match(failed.json.message, /^The import failed: /);
      t.equal(failed.json.report_url, null);
    });

    await t.test('date overrides the report date; now; a bad date is refused', async (t) => {
      const old = await upload(h, [
        file('file[]', 'a.xml', junitXml()),
        field('date', '2020-05-01T12:00:00Z'),
        field('ignore_old_report_date', 'true'),
      ]);
      t.equal(old.json.report.date, '2020-05-01T12:00:00.000Z');
      const naive = await upload(h, [
        file('file[]', 'a.xml', junitXml({ timestamp: '2001-01-01T00:00:00' })),
        field('date', 'now'),
      ]);
      t.ok(Date.now() - Date.parse(naive.json.report.date) < 60_000, 'now replaces the detected date');
      t.notOk(naive.json.messages.some((m: any) => m.code === 'report_contains_old_date'));
      const bad = await upload(h, [file('file[]', 'a.xml', junitXml()), field('date', 'last tuesday')]);
      t.equal(bad.status, 400);
      t.equal(bad.json.messages.find((m: any) => m.severity === 'error').code, 'import_validation_error');
      const ahead = new Date(Date.now() + 60 * 60 * 1000).toISOString();
      const future = await upload(h, [file('file[]', 'a.xml', junitXml()), field('date', ahead)]);
      t.equal(future.status, 400, 'a date an hour ahead is refused');
      t.match(
        future.json.messages.find((m: any) => m.severity === 'error'),
        {
          code: 'import_validation_error',
          message: /is in the future/,
          details: { parameter: 'date' },
        },
      );
    });

    await t.test('smart, suppress_notifications and envelope are known options', async (t) => {
      const r = await upload(h, [
        file('file[]', 'a.xml', junitXml()),
        field('smart', 'false'),
        field('suppress_notifications', 'true'),
        field('envelope', 'x'),
      ]);
      t.equal(r.status, 201);
      t.notOk(
        r.json.messages.some((m: any) => m.code === null),
        'never in the unused-parameters warning',
      );
      const record = await h.send({ method: 'GET', path: `/api/v2/imports/${r.json.import_id}` });
      t.same(record.json.params.suppress_notifications, ['true'], 'kept on the record');
    });

    await t.test('ignore_empty_report: an empty report is not an error', async (t) => {
      const r = await upload(h, [
        file('file[]', 'a.xml', junitXml({ cases: [] })),
        field('ignore_empty_report', 'yes'),
      ]);
      t.equal(r.status, 201);
      t.equal(r.json.messages.find((m: any) => m.code === 'empty_import_after_processing')?.severity, 'notice');
    });

    await t.test('process_async: 202 queued, then the worker completes it with the same messages', async (t) => {
      const r = await upload(
        h,
        [file('files[]', 'a.xml', junitXml()), field('tag[]', 'branch:main'), field('colour', 'red')],
        '/import/junit',
        '?process_async=true',
      );
      t.equal(r.status, 202);
      t.equal(r.json.import_status, 'queued');
      t.equal(r.json.status, 'queued');
      t.equal(r.json.import_progress, 0);
      t.ok(r.json.report_status_url);
      t.match(r.json.message, /queued/);
      t.ok(
        r.json.messages.some((m: any) => m.code === 'parameter_plural_made_singular'),
        'request-time messages in the answer',
      );
      let status: any = null;
      for (let i = 0; i < 100; i++) {
        status = (await h.send({ method: 'GET', path: new URL(r.json.report_status_url).pathname })).json;
        if (status.import_status === 'completed' || status.import_status === 'failed') break;
        await new Promise((ok) => setTimeout(ok, 50));
      }
      t.equal(status.import_status, 'completed');
      t.equal(status.totals.tests, 2);
      const codes = status.messages.map((m: any) => m.code);
      t.ok(
        codes.includes('parameter_plural_made_singular') && codes.includes(null),
        'the same messages end up on the import record',
      );
      const report = await h.send({ method: 'GET', path: `/api/v2/reports/${r.json.report_id}` });
      t.same(report.json.tags, ['branch:main']);
      const record = await h.send({ method: 'GET', path: `/api/v2/imports/${r.json.import_id}` });
      t.equal(record.json.status, 'completed');
      t.equal(record.json.files[0].name, 'a.xml');
    });

    await t.test('process_async with a broken file ends failed, nothing kept', async (t) => {
      const before = await h.leftovers();
      const r = await upload(h, [field('process_async', '1'), file('file[]', 'a.xml', '<testsuite><testcase')]);
      t.equal(r.status, 202);
      await h.tally.queue.idle();
      let status: any = null;
      for (let i = 0; i < 100 && status?.import_status !== 'failed'; i++) {
        status = (await h.send({ method: 'GET', path: new URL(r.json.report_status_url).pathname })).json;
        await new Promise((ok) => setTimeout(ok, 30));
      }
      t.equal(status.import_status, 'failed');
      t.ok(status.messages.some((m: any) => m.code === 'report_validation_error'));
      t.equal((await h.leftovers()).blobs, before.blobs, 'its stored request is removed');
    });

    await t.test('report and profile ids are 32-bit integers; the UUIDs still work in paths', async (t) => {
      const r = await upload(h, [file('file[]', 'a.xml', junitXml())], '/import/junit');
      const id = r.json.report_id;
      t.ok(Number.isInteger(id) && id >= 1 && id <= 2 ** 31 - 1, `report_id ${id} is a 32-bit integer`);
      t.equal(r.json.profile_id, h.profileNumber, 'profile_id is the integer too');
      t.equal(r.json.report.url, `${h.url}/api/v2/reports/${id}`);
      const uuid = (await h.store.reports.get(id))!.id;
      for (const ref of [id, uuid]) {
        const get = (path: string) => h.send({ method: 'GET', path });
        const status = await get(`/api/v2/reports/${ref}/status`);
        t.equal(status.status, 200, `/status by ${ref}`);
        t.equal(status.json.report_id, id);
        t.equal(status.json.report_url, `${h.url}/reports/${id}`);
        const report = await get(`/api/v2/reports/${ref}`);
        t.match(report.json, { id, uuid, profile_id: h.profileNumber }, `the report by ${ref}`);
        const containers = await get(`/api/v2/reports/${ref}/containers`);
        t.equal(containers.json.report_id, id);
        t.ok(
          containers.json.containers.every((c: { report_id: unknown }) => c.report_id === id),
          'its containers carry the integer',
        );
      }
      const record = await h.send({ method: 'GET', path: `/api/v2/imports/${r.json.import_id}` });
      t.match(record.json, { profile_id: h.profileNumber, report_id: id }, 'the import record too');
      const listed = await h.send({ method: 'GET', path: `/api/v2/profile/${h.profileNumber}/reports?limit=1` });
      t.match(listed.json, { profile_id: h.profileNumber, reports: [{ id, uuid }] }, 'and the listing');
      const m = multipart([file('file[]', 'a.xml', junitXml())]);
      const byNumber = await h.send({
        path: `/api/v2/profile/${h.profileNumber}/import/junit`,
        headers: { 'content-type': m.contentType },
        body: m.body,
      });
      t.equal(byNumber.status, 201, 'an import to /profile/<integer>/import/junit (upload() posts to the UUID)');
      t.ok(byNumber.json.report_id > id, 'a later report has a larger id');
      for (const other of ['0', '2147483648', '99999', 'not-an-id'])
        t.equal(
          (await h.send({ method: 'GET', path: `/api/v2/reports/${other}/status` })).status,
          404,
          `/reports/${other}: not found`,
        );
      const foreign = (await h.store.profiles.get(h.foreignProfileId))!.number;
      t.equal(
        (await h.send({ method: 'GET', path: `/api/v2/profile/${foreign}` })).status,
        403,
        "another account's profile by its integer id",
      );
    });

    await t.test('GET /api/v2/profile/{id} lets clients check their settings', async (t) => {
      const mine = await h.send({ method: 'GET', path: `/api/v2/profile/${h.profileId}` });
      t.equal(mine.status, 200);
      t.match(mine.json, { profile_id: h.profileNumber, id: h.profileNumber, uuid: h.profileId, name: 'main' });
      const byNumber = await h.send({ method: 'GET', path: `/api/v2/profile/${h.profileNumber}` });
      t.strictSame(byNumber.json, mine.json, 'by its integer id as by its UUID');
      t.equal((await h.send({ method: 'GET', path: `/api/v2/profile/${h.foreignProfileId}` })).status, 403);
      t.equal((await h.send({ method: 'GET', path: '/api/v2/profile/nope' })).status, 404);
      t.equal((await h.send({ method: 'GET', path: `/api/v2/profile/${h.profileId}`, noKey: true })).status, 401);
    });

    await t.test('POST …/testresult takes a raw Cucumber JSON body with os/platform/build tags', async (t) => {
      const r = await h.send({
        path: `/api/v2/profile/${h.profileId}/testresult?os=linux&platform=chrome&build=7`,
        headers: { 'content-type': 'application/json' },
        body: cucumberJson,
      });
      t.equal(r.status, 201, 'status 201', { body: r.text });
      t.equal(r.json.report?.files[0]?.formatter, 'cucumber');
      t.match(r.json.report?.totals, { tests: 2, passed: 1, failed: 1 });
      t.same(r.json.report?.tags, ['os:linux', 'platform:chrome', 'build:7']);
    });

    await t.test('booleans as uploaders spell them', async (t) => {
      for (const value of ['true', 'True', 'TRUE', '1', 'yes', 'on']) {
        const r = await upload(h, [file('file[]', 'a.png', junitXml()), field('ignore_invalid_file_type', value)]);
        t.notOk(
          r.json.messages.some((m: any) => m.code === 'invalid_file_mime_type'),
          `${value} is true`,
        );
      }
      for (const value of ['false', 'False', '0', 'no', 'off', '']) {
        const r = await upload(h, [file('file[]', 'a.png', junitXml()), field('ignore_invalid_file_type', value)]);
        t.ok(
          r.json.messages.some((m: any) => m.code === 'invalid_file_mime_type'),
          `${JSON.stringify(value)} is false`,
        );
      }
    });
  });
}
