/**
 * autocannon against the import endpoint of a started Tally (a child process, embedded store, or
 * MongoDB with MONGODB_URL): small JUnit files at several concurrencies; prints imports/s, latency
 * percentiles, answers by status (201, 429 from the per-account limit, anything else), errors.
 *
 *   npm run bench:load -- [--sizes 1,10,100] [--connections 1,10,100] [--seconds 10]
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { junitBuffer } from './generate.js';
import { serveArgs } from './server.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1,10,100' },
    connections: { type: 'string', default: '1,10,100' },
    seconds: { type: 'string', default: '10' },
  },
});
const BOUNDARY = 'tallyloadboundary';

function form(file: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file[]"; filename="TEST-load.xml"\r\nContent-Type: ` +
        `application/xml\r\n\r\n`,
    ),
    file,
    Buffer.from(
      `\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="ignore_old_report_date"\r\n\r\ntrue\r\n--` +
        `${BOUNDARY}--\r\n`,
    ),
  ]);
}

async function main(): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'tally-load-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawn(process.execPath, serveArgs(), {
    // One account sends every request here: its concurrent-import limit (32 by default) would answer
    // the excess with 429, which measures the limit, not the service. Set it in the env to measure it.
    env: {
      TALLY_MAX_CONCURRENT_IMPORTS: String(Math.max(...values.connections!.split(',').map(Number))),
      ...process.env,
      TALLY_DATA_DIR: path.join(work, 'data'),
      PORT: String(port),
      HOST: '127.0.0.1',
    },
  });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  for (let i = 0; i < 400 && !out.includes('server.started'); i++) await new Promise((r) => setTimeout(r, 50));
  const apiKey = /API key: +(tly_\S+)/.exec(out)?.[1];
  const profileId = /profile id: +(\S+)/.exec(out)?.[1];
  if (!apiKey || !profileId) throw new Error(`server did not start:\n${out}`);
  const rows: string[] = [];
  try {
    for (const kb of values.sizes!.split(',').map(Number)) {
      const body = form(await junitBuffer(kb, kb));
      for (const connections of values.connections!.split(',').map(Number)) {
        const result = await autocannon({
          url: `http://127.0.0.1:${port}/api/v2/profile/${profileId}/import/junit`,
          method: 'POST',
          headers: { 'x-api-key': apiKey, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
          body,
          connections,
          duration: Number(values.seconds),
        });
        const stats = (result.statusCodeStats ?? {}) as Record<string, { count: number }>;
        const created = stats['201']?.count ?? 0;
        // 429 is the per-account limit on concurrent imports (TALLY_MAX_CONCURRENT_IMPORTS) answering as designed.
        const limited = stats['429']?.count ?? 0;
        const other = Object.entries(stats)
          .filter(([code]) => code !== '201' && code !== '429')
          .reduce((n, [, v]) => n + v.count, 0);
        rows.push(
          `| ${kb} KB | ${connections} | ${(created / Number(values.seconds)).toFixed(0)} | ` +
            `${result.requests.average.toFixed(0)} | ${result.latency.p50} | ${result.latency.p90} | ` +
            `${result.latency.p99} | ${created} | ${limited} | ${other} | ${result.errors} | ${result.timeouts} |`,
        );
        process.stdout.write(`${rows[rows.length - 1]}\n`);
      }
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await rm(work, { recursive: true, force: true });
  }
  process.stdout.write(
    `\n${new Date().toISOString()} node ${process.version}, ${os.cpus().length} cores ` +
      `(${os.cpus()[0]?.model ?? ''}), ${values.seconds}s per row, TALLY_MAX_CONCURRENT_IMPORTS=` +
      `${process.env.TALLY_MAX_CONCURRENT_IMPORTS ?? Math.max(...values.connections!.split(',').map(Number))}\n`,
  );
  process.stdout.write(
    '| file | connections | imports/s (201) | answers/s | p50 ms | p90 ms | p99 ms | 201 | 429 | other status | ' +
      'errors | timeouts |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n',
  );
  process.stdout.write(`${rows.join('\n')}\n`);
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
