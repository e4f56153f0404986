/**
 * Imports a generated single JUnit file and a generated zip over HTTP into a started Tally
 * (embedded store, a child process) and prints MB/s, tests/s and the server's peak RSS (VmHWM).
 *
 *   npm run bench:rss -- --file-mb 200 --zip-files 2000 --zip-mb 200
 */
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { junitFile, junitZip } from './generate.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { 'file-mb': { type: 'string', default: '200' }, 'zip-files': { type: 'string', default: '2000' }, 'zip-mb': { type: 'string', default: '200' } } });
const MB = 1024 * 1024;

async function peakRss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

function upload(port: number, apiKey: string, profileId: string, filePath: string, name: string, type: string): Promise<{ status: number; body: any }> {
  const boundary = 'benchboundary';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file[]"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: 'POST', path: `/api/v2/profile/${profileId}/import/junit`, headers: { 'x-api-key': apiKey, 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked' } },
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

async function main(): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'tally-bench-'));
  const dataDir = path.join(work, 'data');
  const port = 20000 + Math.floor(Math.random() * 20000);
  const fileMb = Number(values['file-mb']);
  const zipMb = Number(values['zip-mb']);
  const zipFiles = Number(values['zip-files']);
  const single = path.join(work, 'single.xml');
  const zip = path.join(work, 'archive.zip');
  process.stdout.write(`generating ${fileMb} MB file and ${zipFiles}-file zip of ${zipMb} MB …\n`);
  const singleCases = await junitFile(single, fileMb * MB, 1);
  const zipCases = await junitZip(zip, zipMb * MB, zipFiles, 2);

  const child = spawn(process.execPath, [path.join(root, 'dist/bin/tally.js'), 'serve'], { env: { ...process.env, TALLY_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' } });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  for (let i = 0; i < 200 && !out.includes('server.started'); i++) await new Promise((r) => setTimeout(r, 50));
  const apiKey = /API key: +(tly_\S+)/.exec(out)?.[1];
  const profileId = /profile id: +(\S+)/.exec(out)?.[1];
  if (!apiKey || !profileId) throw new Error(`server did not start:\n${out}`);
  const idle = await peakRss(child.pid!);
  const rows: string[] = [];
  for (const [label, p, name, type, cases] of [
    [`single ${fileMb} MB file`, single, 'single.xml', 'application/xml', singleCases],
    [`zip of ${zipFiles} files, ${zipMb} MB`, zip, 'archive.zip', 'application/zip', zipCases],
  ] as const) {
    const size = (await stat(p)).size;
    const t0 = process.hrtime.bigint();
    const r = await upload(port, apiKey, profileId, p, name, type);
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    if (r.status !== 201 || r.body.report.totals.tests !== cases) throw new Error(`${label}: ${r.status} ${JSON.stringify(r.body.messages)} tests ${r.body.report?.totals.tests} != ${cases}`);
    const uncompressed = label.startsWith('zip') ? zipMb * MB : size;
    rows.push(`| ${label} | ${(size / MB).toFixed(1)} MB | ${cases} | ${s.toFixed(1)} s | ${(uncompressed / MB / s).toFixed(1)} | ${Math.round(cases / s)} | ${((await peakRss(child.pid!)) / MB).toFixed(0)} MiB |`);
  }
  child.kill('SIGTERM');
  process.stdout.write(`\nserver RSS after start: ${(idle / MB).toFixed(0)} MiB (peak RSS is the process high-water mark, cumulative)\n`);
  process.stdout.write('| input | upload size | tests | time | MB/s (uncompressed) | tests/s | server peak RSS |\n|---|---:|---:|---:|---:|---:|---:|\n');
  process.stdout.write(`${rows.join('\n')}\n`);
  await rm(work, { recursive: true, force: true });
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
