/**
 * The archive benchmark: a generated JUnit zip imported over HTTP into a started Tally, next to
 * `unzip -p` of the same archive and the peers' whole-file xml2js parse of it (an entry at a time,
 * and every file read first as dorny/test-reporter does), as ratios.
 *
 *   npm run bench:archive -- --size 1GiB --files 1000
 *   MONGODB_URL=mongodb://… npm run bench:archive -- --size 200MiB --files 200
 *   npm run bench:archive -- --size 200MiB --files 200 --mix dense   (6,600 testcases/MiB instead of ~1,900)
 */
import { spawn, execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { junitZip, type JunitMix } from './generate.js';
import { serveArgs } from './server.js';
import type { ImportResponseBody } from '../lib/import/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = promisify(execFile);
const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '1GiB' },
    files: { type: 'string', default: '1000' },
    'skip-xml2js': { type: 'boolean', default: false },
    mix: { type: 'string', default: 'realistic' },
  },
});
const MB = 1024 * 1024;

function bytesOf(s: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(GiB|MiB|KiB|GB|MB|KB|B)?$/i.exec(s.trim());
  if (!m) throw new Error(`--size: ${s} is not a size like 1GiB or 200MiB`);
  const unit = (m[2] ?? 'B').toLowerCase();
  const mult = { gib: 1024 ** 3, mib: 1024 ** 2, kib: 1024, gb: 1e9, mb: 1e6, kb: 1e3, b: 1 }[unit] ?? 1;
  return Math.round(Number(m[1]) * mult);
}

async function peakRss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** CPU seconds (user + system) a process has used, all its threads. */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(stat[11]) + Number(stat[12])) / 100;
}

async function main(): Promise<void> {
  const size = bytesOf(values.size!);
  const files = Number(values.files);
  const work = await mkdtemp(path.join(os.tmpdir(), 'tally-archive-'));
  const zip = path.join(work, 'archive.zip');
  process.stdout.write(`generating a ${files}-file JUnit zip of ${(size / MB).toFixed(0)} MiB uncompressed …\n`);
  if (values.mix !== 'realistic' && values.mix !== 'dense') throw new Error('--mix: realistic or dense');
  const tests = await junitZip(zip, size, files, 7, values.mix as JunitMix);
  const zipSize = (await stat(zip)).size;

  // unzip -p: the disk-speed reference.
  let t0 = process.hrtime.bigint();
  await run('sh', ['-c', `unzip -p '${zip}' > /dev/null`]);
  const unzipSeconds = Number(process.hrtime.bigint() - t0) / 1e9;

  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawn(process.execPath, serveArgs(), {
    env: {
      ...process.env,
      TALLY_DATA_DIR: path.join(work, 'data'),
      PORT: String(port),
      HOST: '127.0.0.1',
      ...(process.env.MONGODB_URL ? { MONGODB_URL: `${process.env.MONGODB_URL}` } : {}),
    },
  });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  for (let i = 0; i < 600 && !out.includes('server.started'); i++) await new Promise((r) => setTimeout(r, 50));
  const apiKey = /API key: +(tly_\S+)/.exec(out)?.[1];
  const profileId = /profile id: +(\S+)/.exec(out)?.[1];
  if (!apiKey || !profileId)
    throw new Error(
      `server did not start (with MONGODB_URL the database must be empty so a demo account is made):\n${out}`,
    );
  const idleRss = await peakRss(child.pid!);
  const idleCpu = await cpuSeconds(child.pid!);
  t0 = process.hrtime.bigint();
  const answer = await new Promise<ImportResponseBody>((resolve, reject) => {
    const b = 'tallyarchivebench';
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/api/v2/profile/${profileId}/import/junit`,
        headers: {
          'x-api-key': apiKey,
          'content-type': `multipart/form-data; boundary=${b}`,
          'transfer-encoding': 'chunked',
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve(JSON.parse(text)));
      },
    );
    req.on('error', reject);
    req.write(
      `--${b}\r\nContent-Disposition: form-data; name="file[]"; filename="archive.zip"\r\nContent-Type: application/` +
        `zip\r\n\r\n`,
    );
    const src = createReadStream(zip, { highWaterMark: 256 * 1024 });
    src.pipe(req, { end: false });
    src.on('end', () => req.end(`\r\n--${b}--\r\n`));
  });
  const tallySeconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const tallyRss = await peakRss(child.pid!);
  const tallyCpu = (await cpuSeconds(child.pid!)) - idleCpu;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  if (answer.report?.totals?.tests !== tests)
    throw new Error(
      `Tally counted ${answer.report?.totals?.tests} tests, the generator wrote ${tests}: ` +
        `${JSON.stringify(answer.messages)}`,
    );

  // The peers' whole-file parse, twice: an entry at a time (kind to xml2js), and in dorny/test-reporter's
  // order (every file's text read first). The second gets a heap big enough to finish (12 GiB).
  type Peer = { seconds: number; testcases: number; peakRss: number };
  const peer = async (args: string[], node: string[] = []): Promise<Peer> => {
    const r = await run(
      process.execPath,
      [...node, '--import', 'tsx', path.join(root, 'bench/xml2js-parse.ts'), zip, ...args],
      { cwd: root, maxBuffer: 1024 * 1024 },
    );
    const p = JSON.parse(r.stdout.trim().split('\n').pop()!) as Peer;
    if (p.testcases !== tests)
      throw new Error(`xml2js ${args.join(' ')} counted ${p.testcases} testcases, the generator wrote ${tests}`);
    return p;
  };
  let xml: Peer | null = null;
  let dorny: Peer | null = null;
  if (!values['skip-xml2js']) {
    xml = await peer([]);
    dorny = await peer(['--all-first'], ['--max-old-space-size=12288']);
  }
  await rm(work, { recursive: true, force: true });

  const mbps = (s: number): string => (size / MB / s).toFixed(1);
  process.stdout.write(
    `\n${new Date().toISOString()} node ${process.version}, ${os.cpus().length} cores ` +
      `(${os.cpus()[0]?.model ?? ''}), store ${process.env.MONGODB_URL ? 'mongo' : 'embedded'}\n`,
  );
  process.stdout.write(
    `archive: ${files} files (${values.mix} mix), ${(size / MB).toFixed(0)} MiB uncompressed, ` +
      `${(zipSize / MB).toFixed(1)} MiB zipped, ${tests} testcases\n\n`,
  );
  process.stdout.write(
    '| run | seconds | MB/s (uncompressed) | containers/s | peak RSS | vs unzip -p | vs xml2js (entry at a time / ' +
      'all files first) |\n|---|---:|---:|---:|---:|---:|---:|\n',
  );
  process.stdout.write(
    `| unzip -p > /dev/null | ${unzipSeconds.toFixed(1)} | ${mbps(unzipSeconds)} | — | — | 1.00× | — |\n`,
  );
  const against = (p: Peer | null): string =>
    p ? `${(p.seconds / tallySeconds).toFixed(2)}× speed, ${(tallyRss / p.peakRss).toFixed(2)}× RSS` : '—';
  process.stdout.write(
    `| Tally import over HTTP | ${tallySeconds.toFixed(1)} | ${mbps(tallySeconds)} | ` +
      `${Math.round(answer.report.totals.containers / tallySeconds)} | ${(tallyRss / MB).toFixed(0)} MiB (idle ` +
      `${(idleRss / MB).toFixed(0)}) | ${(unzipSeconds / tallySeconds).toFixed(2)}× | ${against(xml)} / ` +
      `${against(dorny)} |\n`,
  );
  if (xml)
    process.stdout.write(
      `| xml2js whole-file parse, an entry at a time | ${xml.seconds.toFixed(1)} | ${mbps(xml.seconds)} | — | ` +
        `${(xml.peakRss / MB).toFixed(0)} MiB | ${(unzipSeconds / xml.seconds).toFixed(2)}× | 1.00× / — |\n`,
    );
  if (dorny)
    process.stdout.write(
      `| xml2js, every file read first (dorny/test-reporter's order) | ${dorny.seconds.toFixed(1)} | ` +
        `${mbps(dorny.seconds)} | — | ${(dorny.peakRss / MB).toFixed(0)} MiB | ` +
        `${(unzipSeconds / dorny.seconds).toFixed(2)}× | — / 1.00× |\n`,
    );
  process.stdout.write(
    `\nTally server CPU: ${tallyCpu.toFixed(1)} s for ${tallySeconds.toFixed(1)} s of wall time ` +
      `(${(tallyCpu / tallySeconds).toFixed(2)} cores busy on average), ` +
      `${((tallyCpu * 1000) / (size / MB)).toFixed(1)} ms of CPU per MiB\n`,
  );
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
