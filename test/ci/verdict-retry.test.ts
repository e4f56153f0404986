/**
 * The verdict's one retry, against a real HTTP server on 127.0.0.1 answering as a Gitea would: a
 * provider that failed (503) or limited (429) once is asked once more; one that keeps failing is
 * asked twice and no more; a refused token (401) is not asked again. Each outcome is one log line
 * (`ci.verdict_sent` or `ci.verdict_failed` with its code), without the token, and the import
 * answers 201 whatever the provider does.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { github } from '../../ci-providers/github/index.js';
import { junitXml } from '../helpers/junit.js';
import { field, file, multipart } from '../helpers/multipart.js';
import { startTally } from '../helpers/tally.js';

const SHA = '9fceb02d0ae598e95dc970b74767f19372d61af8';

type Answer = { status: number; headers?: Record<string, string> };

t.test('one retry when down or limited, none for a refused token', async (t) => {
  let answers: Answer[] = [];
  const seen: { path: string; authorization: string | undefined }[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ path: req.url ?? '', authorization: req.headers.authorization });
      const a = answers.shift() ?? { status: 201 };
      res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise((r) => server.close(r)));
  const port = (server.address() as AddressInfo).port;

  const lines: Record<string, unknown>[] = [];
  const h = await startTally(t, {
    secretKey: randomBytes(32).toString('hex'),
    ciProviders: [github],
    log: (event, data) => {
      if (event.startsWith('ci.')) lines.push({ event, ...data });
    },
  });
  const token = `tok_${randomBytes(12).toString('hex')}`;
  const linked = await h.send({
    method: 'PUT',
    path: `/api/v2/profiles/${h.profileNumber}/ci`,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      provider: 'github',
      url: `http://127.0.0.1:${port}`,
      repository: 'acme/web',
      branch: 'main',
      job: 'tests.yml',
      token,
      verdict: true,
    }),
  });
  t.equal(linked.status, 200);

  const run = async (given: Answer[]) => {
    answers = given;
    seen.length = 0;
    lines.length = 0;
    const { body, contentType } = multipart([field('ci_commit', SHA), file('file[]', 'TEST-a.xml', junitXml())]);
    const r = await h.send({
      path: `/api/v2/profile/${h.profileId}/import/junit`,
      headers: { 'content-type': contentType },
      body,
    });
    t.equal(r.status, 201, 'the import completes');
    await h.tally.verdicts.idle();
    return { requests: seen.length, lines: [...lines], report: r.json.report_id as number };
  };

  const once = await run([{ status: 503 }]);
  t.equal(once.requests, 2, 'down once: asked again');
  t.same(
    once.lines.map((l) => l.event),
    ['ci.verdict_sent'],
  );
  t.equal(seen[0]?.path, `/api/v1/repos/acme/web/statuses/${SHA}`);
  t.equal(seen[0]?.authorization, `Bearer ${token}`, 'the token went to the provider, and only there');

  const limited = await run([
    { status: 429, headers: { 'retry-after': '0' } },
    { status: 429, headers: { 'retry-after': '0' } },
    { status: 429, headers: { 'retry-after': '0' } },
  ]);
  t.equal(limited.requests, 2, 'limited twice: asked twice, no more');
  t.match(limited.lines, [
    { event: 'ci.verdict_failed', code: 'ci_rate_limited', step: 'status', attempts: 2, report_id: limited.report },
  ]);
  t.equal(limited.lines.length, 1, 'one line');

  const refused = await run([{ status: 401 }, { status: 201 }]);
  t.equal(refused.requests, 1, 'a refused token is not tried again');
  t.match(refused.lines, [{ event: 'ci.verdict_failed', code: 'ci_bad_token', attempts: 1 }]);

  t.notOk(JSON.stringify([...once.lines, ...limited.lines, ...refused.lines]).includes(token), 'no line has the token');
});
