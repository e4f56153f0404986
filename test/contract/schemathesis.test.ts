/**
 * The API contract, property-based: schemathesis reads /openapi.json from a started Tally and sends
 * generated requests (valid and invalid) to every operation, checking that no answer is a 5xx and
 * that every status, content type and body is the one the document promises. Bounded: a few
 * examples per operation, a fixed seed (TALLY_CONTRACT_EXAMPLES / TALLY_CONTRACT_SEED to widen it;
 * `npm run contract` runs a longer one).
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startTally } from '../helpers/tally.js';
import { junitXml } from '../helpers/junit.js';
import { file, multipart } from '../helpers/multipart.js';
import { schemathesisBinary } from '../../scripts/schemathesis.js';

const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
  'negative_data_rejection',
];

t.test('schemathesis finds no failure against /openapi.json', async (t) => {
  let bin: string;
  try {
    bin = await schemathesisBinary((line) => t.comment(line));
  } catch (e) {
    t.fail(`schemathesis is not available: ${(e as Error).message}`);
    return;
  }
  // Generated requests carry wrong keys on purpose; the address must not be locked out for the run.
  const h = await startTally(t, { limits: { maxKeyFailuresPerMinute: 1_000_000 } });
  // One real import, so the report and import ids the run may reuse exist.
  const m = multipart([file('file[]', 'a.xml', junitXml())]);
  const seeded = await h.send({
    path: `/api/v2/profile/${h.profileId}/import/junit`,
    headers: { 'content-type': m.contentType },
    body: m.body,
  });
  t.equal(seeded.status, 201);

  const work = await mkdtemp(path.join(os.tmpdir(), 'tally-contract-'));
  t.teardown(() => rm(work, { recursive: true, force: true }));
  // Import routes get the real profile, so generated bodies reach the import graph instead of a 404.
  const config = path.join(work, 'schemathesis.toml');
  // A request Tally refuses for its size (413 over a limit, 431 a query over Node's 16 KiB) is rejected too.
  await writeFile(
    config,
    `[parameters]\n"path.profile_id" = ${h.profileNumber}\n\n[checks.negative_data_rejection]\n` +
      `expected-statuses = ["400", "401", "403", "404", "405", "413", "415", "422", "429", "431"]\n`,
  );
  const args = [
    '--config-file',
    config,
    'run',
    `${h.url}/openapi.json`,
    '--checks',
    CHECKS.join(','),
    '--max-examples',
    process.env.TALLY_CONTRACT_EXAMPLES ?? '25',
    '--seed',
    process.env.TALLY_CONTRACT_SEED ?? '1',
    '--header',
    `x-api-key: ${h.apiKey}`,
    '--request-timeout',
    '30',
    // One worker: two threads that reach hypothesis' first lambda description at once both parse
    // schemathesis' source with ast.parse, which the CPython 3.11 it runs on cannot do in parallel
    // (python/cpython#106905: a Runtime Error "AST constructor recursion depth mismatch", no check
    // failed). On this 2-core machine the one-worker run is also the faster one (52 s against 83-110 s).
    '--workers',
    '1',
    '--no-color',
  ];
  const child = spawn(bin, args, {
    cwd: work,
    env: { ...process.env, SCHEMATHESIS_TELEMETRY: 'false', NO_COLOR: '1' },
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (process.env.TALLY_CONTRACT_LOG) await writeFile(process.env.TALLY_CONTRACT_LOG, out);
  // The failures section (with a curl line per failure) comes first, the long summary after it.
  const failures = out.includes('FAILURES')
    ? out.slice(out.indexOf('FAILURES'), out.indexOf('FAILURES') + 12_000)
    : out.slice(-12_000);
  t.equal(code, 0, 'schemathesis exits 0');
  if (code !== 0) t.comment(failures);
  else
    t.comment(
      out
        .split('\n')
        .filter((l) => /passed|failed|Test cases|Operations/i.test(l))
        .slice(-6)
        .join('\n'),
    );
});
