/**
 * Soak: a started Tally (a child process, embedded store) takes a steady mix of small and large
 * imports for a long time. Every 30 s it samples the server's RSS, its open file descriptors
 * (/proc/PID/fd) and the spool files in the data dir; at the end it prints the samples, the
 * answers by status, and every answer that is neither 201 nor a limit (429).
 *
 * Small imports come from `--clients` clients, each pausing `--pause-ms` between imports; one more
 * client sends large imports one after the other (a JUnit file, then a zip of 200 files), pausing
 * `--large-pause-s` between them, so the data written stays within a few GiB.
 *
 *   npm run bench:soak -- [--minutes 20] [--clients 4] [--small-kb 2] [--pause-ms 25] [--large-mb 10]
 *                         [--large-pause-s 5]
 */
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { junitBuffer, junitFile, junitZip } from './generate.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '20' },
    clients: { type: 'string', default: '4' },
    'small-kb': { type: 'string', default: '2' },
    'pause-ms': { type: 'string', default: '25' },
    'large-mb': { type: 'string', default: '10' },
    'large-pause-s': { type: 'string', default: '5' },
  },
});
const MB = 1024 * 1024;
const BOUNDARY = 'tallysoakboundary';
const SAMPLE_MS = 30_000;

interface Sample {
  atS: number;
  rssMiB: number;
  fds: number;
  spool: number;
  imports: number;
}

/** One import: a multipart form around a buffer or a file on disk, streamed chunked. */
function post(
  port: number,
  apiKey: string,
  profileId: string,
  name: string,
  content: Buffer | string,
): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/api/v2/profile/${profileId}/import/junit`,
        headers: {
          'x-api-key': apiKey,
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'transfer-encoding': 'chunked',
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(-1));
      },
    );
    req.on('error', () => resolve(-1));
    req.write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file[]"; filename="${name}"\r\n\r\n`);
    const tail =
      `\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="ignore_old_report_date"\r\n\r\ntrue\r\n` +
      `--${BOUNDARY}--\r\n`;
    if (Buffer.isBuffer(content)) req.end(Buffer.concat([content, Buffer.from(tail)]));
    else {
      const file = createReadStream(content);
      file.pipe(req, { end: false });
      file.on('end', () => req.end(tail));
    }
  });
}

async function sample(pid: number, dataDir: string, startedAt: number, imports: number): Promise<Sample> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return {
    atS: Math.round((Date.now() - startedAt) / 1000),
    rssMiB: Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024),
    fds: (await readdir(`/proc/${pid}/fd`)).length,
    spool: (await readdir(path.join(dataDir, 'tmp')).catch(() => [])).length,
    imports,
  };
}

async function main(): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'tally-soak-'));
  const dataDir = path.join(work, 'data');
  const largeMb = Number(values['large-mb']);
  const largeFile = path.join(work, 'large.xml');
  const largeZip = path.join(work, 'large.zip');
  await junitFile(largeFile, largeMb * MB, 7);
  await junitZip(largeZip, largeMb * MB, 200, 8);
  const small = await junitBuffer(Number(values['small-kb']), 1);

  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawn(process.execPath, [path.join(root, 'dist/bin/tally.js'), 'serve'], {
    env: { ...process.env, TALLY_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' },
  });
  let out = '';
  child.stdout.on('data', (c) => (out = (out + c).slice(-20_000)));
  child.stderr.on('data', (c) => (out = (out + c).slice(-20_000)));
  for (let i = 0; i < 400 && !out.includes('server.started'); i++) await new Promise((r) => setTimeout(r, 50));
  const apiKey = /API key: +(tly_\S+)/.exec(out)?.[1];
  const profileId = /profile id: +(\S+)/.exec(out)?.[1];
  if (!apiKey || !profileId || !child.pid) throw new Error(`server did not start:\n${out}`);
  const pid = child.pid;

  const statuses = new Map<string, number>();
  const others: string[] = [];
  let done = 0;
  let largeDone = 0;
  const startedAt = Date.now();
  const endAt = startedAt + Number(values.minutes) * 60_000;
  const samples: Sample[] = [await sample(pid, dataDir, startedAt, 0)];
  const sampler = setInterval(() => {
    void sample(pid, dataDir, startedAt, done).then((s) => {
      samples.push(s);
      process.stdout.write(`${JSON.stringify(s)}\n`);
    });
  }, SAMPLE_MS);

  const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
  const record = (which: string, status: number): void => {
    done++;
    const label = `${which} ${status}`;
    statuses.set(label, (statuses.get(label) ?? 0) + 1);
    if (status !== 201 && status !== 429 && others.length < 20) others.push(`${which}: ${status}`);
  };
  const smallClient = async (): Promise<void> => {
    while (Date.now() < endAt) {
      record('small', await post(port, apiKey, profileId, 'small.xml', small));
      await sleep(Number(values['pause-ms']));
    }
  };
  const largeClient = async (): Promise<void> => {
    for (let n = 0; Date.now() < endAt; n++) {
      const zip = n % 2 === 1;
      record(
        zip ? 'large zip' : 'large file',
        await post(port, apiKey, profileId, zip ? 'large.zip' : 'large.xml', zip ? largeZip : largeFile),
      );
      largeDone++;
      await sleep(Number(values['large-pause-s']) * 1000);
    }
  };
  await Promise.all([largeClient(), ...Array.from({ length: Number(values.clients) }, () => smallClient())]);
  clearInterval(sampler);
  // Idle for a few seconds so what is left is what stays, not what is still being cleaned up.
  await new Promise((r) => setTimeout(r, 5000));
  const final = await sample(pid, dataDir, startedAt, done);
  samples.push(final);
  const dbBytes = (await stat(path.join(dataDir, 'tally.sqlite')).catch(() => ({ size: 0 }))).size;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  await rm(work, { recursive: true, force: true });

  const quarter = Math.max(1, Math.floor(samples.length / 4));
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const firstQ = samples.slice(1, 1 + quarter);
  const lastQ = samples.slice(-quarter);
  process.stdout.write(
    `\n${new Date().toISOString()} node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? ''})\n`,
  );
  process.stdout.write(
    `${values.minutes} min; ${values.clients} clients of ${values['small-kb']} KB imports (${values['pause-ms']} ms ` +
      `apart); 1 client of large imports (${largeMb} MB JUnit file, or a zip of 200 files with ${largeMb} MB ` +
      `uncompressed; ${values['large-pause-s']} s apart)\n`,
  );
  process.stdout.write(
    `imports: ${done} (${largeDone} large); SQLite file at the end: ${(dbBytes / MB).toFixed(0)} MiB\n`,
  );
  process.stdout.write(`answers: ${[...statuses].map(([k, v]) => `${k}: ${v}`).join(', ')}\n`);
  process.stdout.write(`answers other than 201 and 429: ${others.length === 0 ? 'none' : others.join(', ')}\n`);
  process.stdout.write(`| | RSS MiB | open fds | spool files |\n|---|---:|---:|---:|\n`);
  process.stdout.write(`| at start (idle) | ${samples[0]!.rssMiB} | ${samples[0]!.fds} | ${samples[0]!.spool} |\n`);
  process.stdout.write(
    `| median, first quarter | ${median(firstQ.map((s) => s.rssMiB))} | ${median(firstQ.map((s) => s.fds))} | ` +
      `${median(firstQ.map((s) => s.spool))} |\n`,
  );
  process.stdout.write(
    `| median, last quarter | ${median(lastQ.map((s) => s.rssMiB))} | ${median(lastQ.map((s) => s.fds))} | ` +
      `${median(lastQ.map((s) => s.spool))} |\n`,
  );
  process.stdout.write(
    `| max during the run | ${Math.max(...samples.map((s) => s.rssMiB))} | ` +
      `${Math.max(...samples.map((s) => s.fds))} | ${Math.max(...samples.map((s) => s.spool))} |\n`,
  );
  process.stdout.write(`| at the end (5 s idle) | ${final.rssMiB} | ${final.fds} | ${final.spool} |\n`);
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
