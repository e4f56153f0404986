/**
 * Imports a generated single JUnit file and a generated zip over HTTP into a started Tally (a child
 * process) and prints MB/s, tests/s, containers/s and the server's peak RSS (VmHWM), for the
 * embedded store, MongoDB, or both (MONGODB_URL, else a FerretDB started for the run).
 *
 *   npm run bench:rss -- --file-mb 200 --zip-files 2000 --zip-mb 200
 *   npm run bench:rss -- --stores both --file-mb 50 --zip-files 500 --zip-mb 50
 *   npm run bench:rss -- --file-mb 4096 --zip-files 0      (a 4 GiB upload)
 */
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { junitFile, junitZip } from './generate.js';
import { mongoWireForTests, type MongoWire } from '../scripts/mongo-wire.js';
import { serveArgs } from './server.js';
import type { ImportResponseBody } from '../lib/import/index.js';

const { values } = parseArgs({
  options: {
    'file-mb': { type: 'string', default: '200' },
    'zip-files': { type: 'string', default: '2000' },
    'zip-mb': { type: 'string', default: '200' },
    stores: { type: 'string', default: 'embedded' },
  },
});
const MB = 1024 * 1024;

async function peakRss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

function upload(
  port: number,
  apiKey: string,
  profileId: string,
  filePath: string,
  name: string,
  type: string,
): Promise<{ status: number; body: ImportResponseBody }> {
  const boundary = 'benchboundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file[]"; filename="${name}"\r\nContent-Type: ` +
      `${type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/api/v2/profile/${profileId}/import/junit`,
        headers: {
          'x-api-key': apiKey,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'transfer-encoding': 'chunked',
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.write(head);
    const src = createReadStream(filePath, { highWaterMark: 256 * 1024 });
    src.pipe(req, { end: false });
    src.on('end', () => req.end(tail));
    src.on('error', reject);
  });
}

interface Input {
  label: string;
  path: string;
  name: string;
  type: string;
  cases: number;
  uncompressed: number;
}

async function runStore(
  store: 'embedded' | 'mongo',
  inputs: Input[],
  work: string,
  mongoUrl: string | null,
): Promise<string[]> {
  const dataDir = path.join(work, `data-${store}`);
  const port = 20000 + Math.floor(Math.random() * 20000);
  const env: NodeJS.ProcessEnv = { ...process.env, TALLY_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' };
  if (store === 'mongo') env.MONGODB_URL = `${mongoUrl}tally_bench_${Date.now()}`;
  else delete env.MONGODB_URL;
  const child = spawn(process.execPath, serveArgs(), { env });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  for (let i = 0; i < 400 && !out.includes('server.started'); i++) await new Promise((r) => setTimeout(r, 50));
  const apiKey = /API key: +(tly_\S+)/.exec(out)?.[1];
  const profileId = /profile id: +(\S+)/.exec(out)?.[1];
  if (!apiKey || !profileId) throw new Error(`server did not start:\n${out}`);
  const rows: string[] = [];
  try {
    for (const input of inputs) {
      const size = (await stat(input.path)).size;
      const t0 = process.hrtime.bigint();
      const r = await upload(port, apiKey, profileId, input.path, input.name, input.type);
      const s = Number(process.hrtime.bigint() - t0) / 1e9;
      if (r.status !== 201 || r.body.report?.totals.tests !== input.cases)
        throw new Error(
          `${input.label}: ${r.status} ${JSON.stringify(r.body.messages)} tests ${r.body.report?.totals.tests} != ` +
            `${input.cases}`,
        );
      const containers = r.body.report!.totals.containers;
      rows.push(
        `| ${store} | ${input.label} | ${(size / MB).toFixed(1)} MB | ${input.cases} | ${s.toFixed(1)} s | ` +
          `${(input.uncompressed / MB / s).toFixed(1)} | ${Math.round(containers / s)} | ` +
          `${((await peakRss(child.pid!)) / MB).toFixed(0)} MiB |`,
      );
    }
  } finally {
    child.kill('SIGTERM');
  }
  return rows;
}

async function main(): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'tally-bench-'));
  const fileMb = Number(values['file-mb']);
  const zipMb = Number(values['zip-mb']);
  const zipFiles = Number(values['zip-files']);
  const stores =
    values.stores === 'both' ? (['embedded', 'mongo'] as const) : ([values.stores as 'embedded' | 'mongo'] as const);
  const single = path.join(work, 'single.xml');
  const zip = path.join(work, 'archive.zip');
  process.stdout.write(`generating ${fileMb} MB file and ${zipFiles}-file zip of ${zipMb} MB …\n`);
  // --file-mb 0 or --zip-files 0 leaves that input out (a 4 GiB single file alone, say).
  const inputs: Input[] = [];
  if (fileMb > 0)
    inputs.push({
      label: `single ${fileMb} MB file`,
      path: single,
      name: 'single.xml',
      type: 'application/xml',
      cases: await junitFile(single, fileMb * MB, 1),
      uncompressed: fileMb * MB,
    });
  if (zipFiles > 0)
    inputs.push({
      label: `zip of ${zipFiles} files, ${zipMb} MB`,
      path: zip,
      name: 'archive.zip',
      type: 'application/zip',
      cases: await junitZip(zip, zipMb * MB, zipFiles, 2),
      uncompressed: zipMb * MB,
    });
  let wire: MongoWire | null = null;
  const rows: string[] = [];
  try {
    for (const store of stores) {
      if (store === 'mongo' && !wire) {
        const w = await mongoWireForTests((l) => process.stdout.write(`${l}\n`));
        if ('unavailable' in w) throw new Error(`no MongoDB-wire server: ${w.unavailable}`);
        wire = w;
        process.stdout.write(`MongoDB-wire server: ${w.kind} at ${w.url}\n`);
      }
      rows.push(...(await runStore(store, inputs, work, wire?.url ?? null)));
    }
  } finally {
    await wire?.stop();
    await rm(work, { recursive: true, force: true });
  }
  process.stdout.write(
    '\nserver peak RSS is the process high-water mark (VmHWM): cumulative over the inputs of one store\n',
  );
  process.stdout.write(
    '| store | input | upload size | tests | time | MB/s (uncompressed) | containers/s | server peak RSS ' +
      '|\n|---|---|---:|---:|---:|---:|---:|---:|\n',
  );
  process.stdout.write(`${rows.join('\n')}\n`);
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
