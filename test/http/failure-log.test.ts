/**
 * Every failed import and every refused request writes one JSON log line (plugins/failure-log.ts)
 * with the request id the client got in X-Request-Id, the route, the status and the codes; the API
 * key, even its prefix, never appears in the log. A process_async import that fails once queued gets
 * the same line from the queue.
 */
import t from 'tap';
import { PassThrough } from 'node:stream';
import { jsonLogger } from '../../lib/log.js';
import { startTally, type Reply } from '../helpers/tally.js';
import { field, file, multipart } from '../helpers/multipart.js';
import { junitXml } from '../helpers/junit.js';

t.test('failed answers are logged once each, by request id; keys never', async (t) => {
  const out = new PassThrough();
  let text = '';
  out.on('data', (c: Buffer) => (text += c.toString()));
  const h = await startTally(t, { log: jsonLogger(out) });
  const lines = () =>
    text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  const form = (name: string, body: string) => {
    const m = multipart([file('file[]', name, body)]);
    return { headers: { 'content-type': m.contentType }, body: m.body };
  };
  const importPath = `/api/v2/profile/${h.profileId}/import/junit`;
  const wrongKey = 'tly_WRONGKEYID00_' + 'S'.repeat(43);

  const cases: [name: string, send: () => Promise<Reply>, expected: Record<string, unknown>][] = [
    [
      'a failed import',
      () =>
        h.send({ path: importPath, ...form('a.xml', '<?xml version="1.0"?><testsuite name="x"><testcase name="y">') }),
      {
        event: 'import.failed',
        route: 'POST /api/v2/profile/{profile_id}/import/{formatter}',
        status: 422,
        codes: ['report_validation_error'],
        profile_id: h.profileId,
      },
    ],
    [
      'no key',
      () => h.send({ path: importPath, noKey: true, ...form('a.xml', junitXml()) }),
      { event: 'request.refused', status: 401, codes: ['missing_api_key'] },
    ],
    [
      'a wrong key',
      () =>
        h.send({
          path: importPath,
          ...form('a.xml', junitXml()),
          headers: { ...form('a.xml', junitXml()).headers, 'x-api-key': wrongKey },
        }),
      { event: 'request.refused', status: 401, codes: ['invalid_api_key'] },
    ],
    [
      "another account's profile",
      () => h.send({ method: 'GET', path: `/api/v2/profile/${h.foreignProfileId}` }),
      {
        event: 'request.refused',
        route: 'GET /api/v2/profile/{profile_id}',
        status: 403,
        codes: ['profile_forbidden'],
      },
    ],
    [
      'a refused query',
      () => h.send({ method: 'GET', path: `/api/v2/profile/${h.profileId}/reports?limit=5000` }),
      { event: 'request.refused', status: 400, codes: ['invalid_query'] },
    ],
    [
      'not POST',
      () => h.send({ method: 'GET', path: importPath }),
      { event: 'request.refused', status: 405, codes: ['invalid_request_method'] },
    ],
    [
      'an unknown route',
      () => h.send({ method: 'GET', path: '/api/v2/nothing-here' }),
      { event: 'request.refused', status: 404, codes: ['not_found'] },
    ],
  ];
  for (const [name, send, expected] of cases) {
    const before = lines().length;
    const reply = await send();
    // The line is written before the answer leaves.
    const written = lines().slice(before);
    t.equal(written.length, 1, `${name}: one line`, { written });
    t.match(written[0], { ...expected, request_id: reply.headers['x-request-id'] }, `${name}: its line`);
    if (expected.event === 'import.failed') t.equal(written[0]!.import_id, reply.json.import_id, `${name}: import id`);
  }

  const before = lines().length;
  const ok = await h.send({ path: importPath, ...form('a.xml', junitXml()) });
  t.equal(ok.status, 201);
  t.notOk(
    lines()
      .slice(before)
      .some((l) => l.event === 'import.failed' || l.event === 'request.refused'),
    'a completed import is no failure',
  );

  // process_async: the 202 is no failure; the queued import that then fails gets its line from the queue.
  const beforeQueued = lines().length;
  const m = multipart([
    field('process_async', '1'),
    file('file[]', 'a.xml', '<?xml version="1.0"?><testsuite name="x"><testcase name="y">'),
  ]);
  const queued = await h.send({ path: importPath, headers: { 'content-type': m.contentType }, body: m.body });
  t.equal(queued.status, 202, 'queued');
  await h.tally.queue.idle();
  const failures = lines()
    .slice(beforeQueued)
    .filter((l) => l.event === 'import.failed' || l.event === 'request.refused');
  t.equal(failures.length, 1, 'a queued import that fails: one line', { failures });
  t.match(
    failures[0],
    { route: 'queue', status: 422, codes: ['report_validation_error'], import_id: queued.json.import_id },
    'its line names the queue and the import',
  );

  const [, keyId] = /^(tly_[^_]+)_/.exec(h.apiKey)!;
  for (const secret of [h.apiKey, keyId!, wrongKey, 'tly_WRONGKEYID00'])
    t.notOk(text.includes(secret), `the log never holds ${secret.slice(0, 8)}…`);
});
