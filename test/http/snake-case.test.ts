/**
 * Every field name in the API's JSON is snake_case (plugins/api-json.ts, README "Decisions"): every
 * GET route of the API (from the route table, so a new route is covered), the import answers, and
 * faults. Only an import's `params` and a container's `meta` keep the names they hold.
 */
import { randomBytes } from 'node:crypto';
import t, { type Test } from 'tap';
import { loadRecordings, startRecordedServer } from '../helpers/recorded-ci.js';
import { startTally } from '../helpers/tally.js';
import { field, file, multipart } from '../helpers/multipart.js';
import { junitXml } from '../helpers/junit.js';
import { isApiPath } from '../../plugins/openapi/document.js';
import { apiJson, snakeName } from '../../plugins/api-json.js';

const SNAKE = /^[a-z0-9]+(_[a-z0-9]+)*$/;

/** Field names that are not snake_case, with where they are. */
function camelKeys(value: unknown, where = '$', out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v, i) => camelKeys(v, `${where}[${i}]`, out));
  else if (value !== null && typeof value === 'object')
    for (const [key, v] of Object.entries(value)) {
      if (!SNAKE.test(key)) out.push(`${where}.${key}`);
      if (key !== 'params' && key !== 'meta') camelKeys(v, `${where}.${key}`, out);
    }
  return out;
}

t.test('apiJson renames deep, keeps params and meta', async (t) => {
  t.equal(snakeName('profileId'), 'profile_id');
  t.equal(snakeName('attachmentRefs'), 'attachment_refs');
  t.equal(snakeName('report_id'), 'report_id');
  t.strictSame(
    apiJson({
      reportId: 'r',
      list: [{ parentSeq: 1, attempts: [{ durationMs: 2 }] }],
      params: { 'tag[]': ['a'], fooBar: ['x'] },
      meta: { rawStatus: 'x' },
      none: null,
    }),
    {
      report_id: 'r',
      list: [{ parent_seq: 1, attempts: [{ duration_ms: 2 }] }],
      params: { 'tag[]': ['a'], fooBar: ['x'] },
      meta: { rawStatus: 'x' },
      none: null,
    },
  );
});

/** Jenkins as its documentation answers (ci-providers/jenkins/), so the CI routes have a link to read. */
async function jenkinsLink(t: Test): Promise<Record<string, unknown>> {
  const token = 'tally:11d4c2f0a9b8e7d6c5b4a3928170f6e5d4';
  const recordings = loadRecordings(new URL('../fixtures/ci/jenkins/', import.meta.url).pathname);
  const server = await startRecordedServer(t, recordings.values(), {
    authorized: (headers) => headers.authorization === `Basic ${Buffer.from(token).toString('base64')}`,
    unauthorized: { status: 401 },
  });
  return { provider: 'jenkins', url: server.url, repository: 'tally/tests', branch: 'main', job: 'tests', token };
}

t.test('every JSON answer of the API has snake_case field names', async (t) => {
  const h = await startTally(t, { secretKey: randomBytes(32).toString('hex') });
  const linked = await h.send({
    method: 'PUT',
    path: `/api/v2/profiles/${h.profileId}/ci`,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(await jenkinsLink(t)),
  });
  t.equal(linked.status, 200, 'the profile is linked to a CI job');
  const xml = junitXml({
    cases: [{ name: 'passes' }, { name: 'fails', status: 'failed', out: 'see [[ATTACHMENT|shot.png]]' }],
  });
  const m = multipart([
    file('file[]', 'a.xml', xml),
    file('attachment[]', 'shot.png', Buffer.from('89504e470d0a1a0a', 'hex'), 'image/png'),
    field('tag[]', 'branch:main'),
    field('someOption', 'x'),
  ]);
  const imported = await h.send({
    path: `/api/v2/profile/${h.profileId}/import/junit`,
    headers: { 'content-type': m.contentType },
    body: m.body,
  });
  t.equal(imported.status, 201);
  const report = imported.json.report_id;
  const record = await h.send({ method: 'GET', path: `/api/v2/imports/${imported.json.import_id}` });
  const top = await h.send({ method: 'GET', path: `/api/v2/reports/${report}/containers` });
  const key = (await h.send({ method: 'GET', path: `/api/v2/profiles/${h.profileId}/history` })).json.tests[0].key;
  const values: Record<string, string> = {
    profile_id: h.profileId,
    id: h.profileId,
    report_id: report,
    import_id: imported.json.import_id,
    blob_id: record.json.attachments[0].blob_id,
    key: String(key),
    // A finished build of the recorded Jenkins job (test/fixtures/ci/jenkins/log-finished.json).
    run: '7',
  };
  const answers: [string, unknown][] = [['import answer', imported.json]];
  const routes = h.tally.server
    .table()
    .filter((r) => r.method === 'get' && isApiPath(r.path) && r.path !== '/openapi.json');
  t.ok(routes.length >= 15, `${routes.length} GET routes`);
  for (const route of routes) {
    // /reports/{id}/... takes a report id, /profiles/{id}/... a profile id.
    const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      name === 'id' && route.path.startsWith('/api/v2/reports/') ? report : values[name]!,
    );
    const r = await h.send({ method: 'GET', path });
    if (!String(r.headers['content-type']).startsWith('application/json')) continue;
    t.equal(r.status, 200, `${path}: 200`);
    answers.push([route.path, r.json]);
  }
  answers.push([
    'containers',
    (await h.send({ method: 'GET', path: `/api/v2/reports/${report}/containers?parent=${top.json.containers[0].seq}` }))
      .json,
  ]);
  answers.push(['a fault', (await h.send({ method: 'GET', path: '/api/v2/reports/nope' })).json]);
  answers.push([
    'a raw body no formatter takes',
    (
      await h.send({
        path: `/api/v2/profile/${h.profileId}/import`,
        headers: { 'content-type': 'text/csv' },
        body: 'a,b',
      })
    ).json,
  ]);
  for (const [name, json] of answers) t.strictSame(camelKeys(json), [], `${name}: snake_case only`);
  t.ok(record.json.params.someOption, 'params keep the names as sent');
  t.match(record.json, { profile_id: h.profileNumber, created_at: String, files: [{ blob_id: String }] });
});
