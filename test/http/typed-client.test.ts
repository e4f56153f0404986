/**
 * A typed client parses Tally's answers: the Go program in test/helpers/typed-client/ declares the
 * report and profile ids as int32 (as Calliope's Java and Go clients do) and exits non-zero when an
 * answer does not decode. Run against a started Tally on each store; and, so the check can fail,
 * against a server answering with a UUID `report_id`, which it must refuse. Go is needed to build
 * it: where Go is missing the test is skipped with a line saying so; where Go is there, building
 * and passing are required.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { junitXml } from '../helpers/junit.js';
import { startTally, storeKinds } from '../helpers/tally.js';
import { typedClientBinary } from '../helpers/typed-client.js';

const run = promisify(execFile);

const bin = await typedClientBinary();
if (!bin) {
  t.skip('Go is not installed, so the typed-client check (a Go client with int32 ids) is skipped', () => undefined);
} else {
  const client = bin;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tally-typed-client-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const results = path.join(dir, 'TEST-results.xml');
  await writeFile(results, junitXml());
  const typed = (base: string, profile: string | number, apiKey: string) =>
    run(client, [base, String(profile), results], { env: { ...process.env, TALLY_API_KEY: apiKey } });

  for (const kind of storeKinds(t)) {
    t.test(`${kind}: a Go client with int32 ids parses the import answer and /status`, async (t) => {
      const h = await startTally(t, { store: kind });
      const { stdout } = await typed(h.url, h.profileNumber, h.apiKey);
      const m = /^report_id=(\d+) profile_id=(\d+) tests=(\d+)$/m.exec(stdout);
      t.ok(m, stdout);
      t.equal(Number(m![2]), h.profileNumber, 'profile_id is the profile number');
      t.ok(Number(m![3]) > 0, 'and it read the totals');
      // The UUID of the profile still works in the path, as older pipelines have it.
      t.match((await typed(h.url, h.profileId, h.apiKey)).stdout, /^report_id=\d+ /);
    });
  }

  t.test('the client refuses an answer whose report_id is a UUID', async (t) => {
    const server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          import_id: 'b7f1e0c4-0d1e-4a55-9d3f-1f2a3b4c5d6e',
          report_id: '5f0c3a2e-8b7d-4c1e-9a6f-2e3d4c5b6a79',
          profile_id: 4390,
          status: 'completed',
          import_status: 'completed',
          report_url: 'http://127.0.0.1/reports/x',
          report_status_url: 'http://127.0.0.1/api/v2/reports/x/status',
        }),
      );
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    t.teardown(() => new Promise((ok) => server.close(ok)));
    const port = (server.address() as { port: number }).port;
    const failed = await typed(`http://127.0.0.1:${port}`, 4390, 'k').then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    t.equal(failed?.code, 1, 'exits 1');
    t.match(failed?.stderr, /does not decode: json: cannot unmarshal string .*int32/);
  });
}
