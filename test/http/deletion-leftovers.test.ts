/**
 * "Artefacts that are really deleted", through the real import, on both stores: every table or
 * collection (and every blob file, GridFS file and chunk) is counted before a report came and after
 * it went, for imports that carry all a report can own: a zip of several result files, attachments,
 * tags, a CI context, a pin, and a `process_async` import whose request was stored whole. The same
 * for a profile with its reports, retention policy and CI link.
 */
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { field, file, multipart } from '../helpers/multipart.js';
import { junitXml } from '../helpers/junit.js';
import { startTally, storeKinds, type Harness, type Reply } from '../helpers/tally.js';
import { zipOf } from '../helpers/zip.js';

const json = (h: Harness, method: string, p: string, body?: unknown): Promise<Reply> =>
  h.send({
    method,
    path: p,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });

const CI_FIELDS = [
  field('ci_provider', 'gitea'),
  field('ci_build_number', '41'),
  field('ci_build_url', 'https://ci.example.org/acme/web/actions/runs/41'),
  field('ci_branch', 'main'),
  field('ci_commit', 'c0ffee42c0ffee42'),
  field('ci_job', 'tests'),
  field('ci_pull_request', '7'),
];

/** An import that carries everything a report can own; its report's id once it completed. */
async function richImport(h: Harness, profile: number, query = ''): Promise<number> {
  const zip = await zipOf([
    { name: 'a/TEST-a.xml', data: junitXml({ suite: 'a', cases: [{ name: 'x', status: 'failed', out: 'out' }] }) },
    { name: 'b/TEST-b.xml', data: junitXml({ suite: 'b' }) },
    { name: 'shots/b.png', data: randomBytes(2048) },
  ]);
  const { body, contentType } = multipart([
    file('file[]', 'results.zip', zip, 'application/zip'),
    file('attachment[]', 'log.txt', 'a log\n'.repeat(200), 'text/plain'),
    field('tag[]', 'branch:main'),
    field('tag[]', 'os:linux'),
    ...CI_FIELDS,
  ]);
  const r = await h.send({
    path: `/api/v2/profile/${profile}/import${query}`,
    headers: { 'content-type': contentType },
    body,
  });
  if (r.status === 202) {
    for (let i = 0; i < 200; i++) {
      const status = (await json(h, 'GET', `/api/v2/reports/${r.json.report_id}/status`)).json;
      if (status.import_status === 'completed') return r.json.report_id as number;
      if (status.import_status === 'failed') throw new Error('the queued import failed');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the queued import never completed');
  }
  if (r.status !== 201) throw new Error(`import answered ${r.status}: ${r.text.slice(0, 300)}`);
  return r.json.report_id as number;
}

for (const kind of storeKinds(t)) {
  t.test(`${kind}: a deleted report leaves no record, document or file behind`, async (t) => {
    const h = await startTally(t, { store: kind });
    await richImport(h, h.profileNumber);
    const before = await h.countRecords();
    for (const query of ['', '?process_async=true']) {
      const id = await richImport(h, h.profileNumber, query);
      const report = (await json(h, 'GET', `/api/v2/reports/${id}`)).json;
      t.equal(report.files.length, 2, `${query || 'at once'}: two result files`);
      t.equal(report.ci.commit, 'c0ffee42c0ffee42', 'a CI context');
      t.equal((await json(h, 'PUT', `/api/v2/reports/${id}/pin`)).json.pinned, true, 'pinned');
      const grown = await h.countRecords();
      t.ok((grown['containers'] ?? 0) > (before['containers'] ?? 0), 'it added containers');
      t.ok(
        (grown['blob files'] ?? grown['blobs.files'] ?? 0) > (before['blob files'] ?? before['blobs.files'] ?? 0),
        'and stored files',
      );
      const deleted = await json(h, 'DELETE', `/api/v2/reports/${id}`);
      t.equal(deleted.status, 200);
      t.strictSame(await h.countRecords(), before, `${query || 'at once'}: every count as before the import`);
    }
  });

  t.test(`${kind}: a deleted profile leaves nothing, its policy and CI link included`, async (t) => {
    const h = await startTally(t, { store: kind, secretKey: randomBytes(32).toString('hex') });
    const before = await h.countRecords();
    const profile = (await json(h, 'POST', '/api/v2/profiles', { name: 'doomed' })).json.profile_id as number;
    await richImport(h, profile);
    await richImport(h, profile);
    t.equal(
      (await json(h, 'PUT', `/api/v2/profiles/${profile}/retention`, { keep_reports: 5, keep_days: 30 })).status,
      200,
    );
    const link = await json(h, 'PUT', `/api/v2/profiles/${profile}/ci`, {
      provider: 'github',
      url: 'https://gitea.example.org',
      repository: 'acme/web',
      branch: 'main',
      job: 'tests.yml',
      token: `tok_${randomBytes(12).toString('hex')}`,
    });
    t.equal(link.status, 200, 'a CI link');
    await h.tally.retention.idle();
    t.equal((await json(h, 'DELETE', `/api/v2/profiles/${profile}`)).status, 200);
    t.strictSame(await h.countRecords(), before, 'every count as before the profile');
  });
}
