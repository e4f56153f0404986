/**
 * The verdict sender's bound (lib/ci/verdict.ts): past MAX_PENDING_VERDICTS waiting at once a
 * verdict is dropped with one `ci.verdict_failed` line (`ci_verdict_backlog`) rather than queued
 * without end, and the ones kept are sent one after another for a profile. Driven on a real store
 * and a real HTTP server on 127.0.0.1 that answers as a Gitea would.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { github } from '../../ci-providers/github/index.js';
import { createCiRegistry } from '../../lib/ci/registry.js';
import { createSecretBox, parseSecretKey } from '../../lib/ci/secret-box.js';
import { MAX_PENDING_VERDICTS, verdictSender } from '../../lib/ci/verdict.js';
import { junitXml } from '../helpers/junit.js';
import { field, file, multipart } from '../helpers/multipart.js';
import { startTally } from '../helpers/tally.js';

t.test('a bounded number of verdicts wait; the rest are dropped with a line', async (t) => {
  let inFlight = 0;
  let most = 0;
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests++;
    inFlight++;
    most = Math.max(most, inFlight);
    req.resume();
    req.on('end', () =>
      setTimeout(() => {
        inFlight--;
        res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
      }, 1),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise((r) => server.close(r)));
  const port = (server.address() as AddressInfo).port;

  const key = randomBytes(32).toString('hex');
  const h = await startTally(t, { secretKey: key });
  const { body, contentType } = multipart([
    field('ci_commit', '9fceb02d0ae598e95dc970b74767f19372d61af8'),
    file('file[]', 'TEST-a.xml', junitXml()),
  ]);
  const imported = await h.send({
    path: `/api/v2/profile/${h.profileId}/import/junit`,
    headers: { 'content-type': contentType },
    body,
  });
  const report = (await h.store.reports.get(imported.json.report_id as number))!;
  const box = createSecretBox(parseSecretKey(key));
  await h.store.ciLinks.put({
    profileId: h.profileId,
    provider: 'github',
    url: `http://127.0.0.1:${port}`,
    repository: 'acme/web',
    branch: 'main',
    job: 'tests.yml',
    sealedToken: box.seal('tok', h.profileId),
    updatedAt: new Date().toISOString(),
    verdict: true,
  });

  const lines: { event: string; code?: unknown }[] = [];
  const sender = verdictSender({
    store: h.store,
    providers: createCiRegistry([github]),
    box,
    log: (event, data) => lines.push({ event, ...data }),
    publicBase: () => 'https://tally.example.org',
  });
  const extra = 6;
  for (let i = 0; i < MAX_PENDING_VERDICTS + extra; i++)
    sender.completed({ profileId: h.profileId, reportId: report.id, baseUrl: '' });
  await sender.idle();

  const dropped = lines.filter((l) => l.code === 'ci_verdict_backlog');
  t.equal(dropped.length, extra, 'the ones past the bound are dropped, each with a line');
  t.equal(lines.filter((l) => l.event === 'ci.verdict_sent').length, MAX_PENDING_VERDICTS, 'the others are sent');
  t.equal(requests, MAX_PENDING_VERDICTS, 'one status request each (no pull request, no comment)');
  t.equal(most, 1, "one profile's verdicts go one after another");

  sender.completed({ profileId: h.profileId, reportId: report.id, baseUrl: '' });
  await sender.idle();
  t.equal(requests, MAX_PENDING_VERDICTS + 1, 'once drained, a new one is taken again');
});
