/**
 * `npm start`'s telemetry entry (lib/telemetry/register.ts) in a real process: with
 * OTEL_EXPORTER_OTLP_ENDPOINT set, `tally serve` sends its spans over OTLP/HTTP to that endpoint
 * (flushed when it stops); the parse workers, which run the same `--import`, start no SDK of their own.
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../scripts/mongo-wire.js';
import { TALLY_WITH_TELEMETRY } from './helpers/tally-command.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

t.test('with an OTLP endpoint, serve exports its spans and flushes them on SIGTERM', async (t) => {
  const received: { path: string; body: Buffer }[] = [];
  const collector = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((ok) => collector.listen(0, '127.0.0.1', ok));
  t.teardown(() => collector.close());
  const endpoint = `http://127.0.0.1:${(collector.address() as { port: number }).port}`;

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tally-otel-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const child = spawn(process.execPath, [...TALLY_WITH_TELEMETRY, 'serve'], {
    cwd: root,
    env: {
      ...process.env,
      TALLY_DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      MONGODB_URL: '',
      TALLY_PARSE_WORKERS: '2',
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_METRIC_EXPORT_INTERVAL: '600000',
    },
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  for (let i = 0; i < 150 && !out.includes('server.started'); i++) await new Promise((r) => setTimeout(r, 100));
  t.match(out, /server\.started/, 'the server started');
  const key = /API key: +(tly_\S+)/.exec(out)?.[1];
  const profile = /profile id: +(\S+)/.exec(out)?.[1];
  const xml = '<?xml version="1.0"?><testsuite name="s" tests="1"><testcase classname="c" name="t"/></testsuite>';
  const r = await fetch(`http://127.0.0.1:${port}/api/v2/profile/${profile}/import/junit`, {
    method: 'POST',
    headers: { 'x-api-key': key!, 'content-type': 'application/xml' },
    body: xml,
  });
  t.equal(r.status, 201, 'an import');

  child.kill('SIGTERM');
  t.equal(await exited, 0, 'exits 0 after flushing');
  const traces = received.filter((x) => x.path === '/v1/traces');
  t.ok(traces.length >= 1, `spans exported to ${endpoint}/v1/traces`);
  const sent = Buffer.concat(traces.map((x) => x.body)).toString('latin1');
  t.match(sent, /tally\.import/, 'the import span is among them');
  t.match(sent, /tally\.file/, 'and its file span');
  // The loader wraps only what an instrumentation hooks: hapi's and http's spans must still come.
  t.match(sent, /@opentelemetry\/instrumentation-hapi/, 'the hapi instrumentation is loaded and reports');
  t.match(sent, /@opentelemetry\/instrumentation-http/, 'and the http one');
  t.notMatch(out, /error/i, 'no telemetry errors in the log');
});
