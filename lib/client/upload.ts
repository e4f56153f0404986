/**
 * `tally upload`: what a CI step runs. Matches files by path or glob, streams them as one request —
 * several files are zipped on the fly into the request body (no temp file, constant memory) — shows
 * progress (a live line on a terminal, plain lines in CI logs), prints the messages, and says by its
 * exit code whether the results landed.
 */
import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { Readable, pipeline } from 'node:stream';
import { glob } from 'tinyglobby';
import yazl from 'yazl';

export interface UploadOptions {
  url: string;
  profile: string;
  apiKey: string;
  formatter: string | null;
  tags: string[];
  attachments: string[];
  patterns: string[];
  strict: boolean;
  cwd: string;
  out: NodeJS.WritableStream & { isTTY?: boolean };
}

/** What the client reads of Tally's JSON answer (an import answer, or a fault outside an import). */
export interface TallyAnswer {
  messages?: { severity: string; code: string | null; message: string }[];
  message?: string;
  report_url?: string;
  [field: string]: unknown;
}

export interface UploadResult {
  exitCode: number;
  status: number | null;
  body: TallyAnswer | null;
}

const BOUNDARY = `----tally-upload-${Math.random().toString(36).slice(2)}`;

/** Paths and globs → files, in a stable order; a pattern that matches nothing is an error. */
export async function expand(patterns: string[], cwd: string): Promise<string[]> {
  const files = new Set<string>();
  for (const p of patterns) {
    const matched = /[*?[{]/.test(p)
      ? await glob(p, { cwd, absolute: true, onlyFiles: true, dot: false })
      : [path.resolve(cwd, p)];
    const existing = matched.filter((f) => {
      try {
        return statSync(f).isFile();
      } catch {
        return false;
      }
    });
    if (existing.length === 0) throw new Error(`no file matches ${p}`);
    for (const f of existing.sort()) files.add(f);
  }
  return [...files];
}

function partHead(name: string, fileName: string, type: string): Buffer {
  const quoted = fileName.replace(/"/g, '%22');
  return Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${quoted}"\r\n` +
      `Content-Type: ${type}\r\n\r\n`,
  );
}

/** The zip of `files`, entries named relative to their common folder, produced while it is read. */
function zipStream(files: string[], cwd: string): Readable {
  const zip = new yazl.ZipFile();
  const base = commonDir(files, cwd);
  for (const f of files) zip.addFile(f, path.relative(base, f).split(path.sep).join('/'));
  zip.end();
  return zip.outputStream as unknown as Readable;
}

function commonDir(files: string[], cwd: string): string {
  let dir = path.dirname(files[0] ?? cwd);
  while (!files.every((f) => f.startsWith(dir + path.sep))) dir = path.dirname(dir);
  return dir;
}

async function* body(
  files: string[],
  attachments: string[],
  tags: string[],
  cwd: string,
  onBytes: (n: number) => void,
): AsyncGenerator<Buffer> {
  const emit = (b: Buffer): Buffer => {
    onBytes(b.length);
    return b;
  };
  for (const tag of tags)
    yield emit(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="tag[]"\r\n\r\n${tag}\r\n`));
  if (files.length === 1) {
    yield emit(partHead('file[]', path.basename(files[0]!), 'application/octet-stream'));
    for await (const c of createReadStream(files[0]!, { highWaterMark: 256 * 1024 })) yield emit(c as Buffer);
  } else {
    yield emit(partHead('file[]', 'results.zip', 'application/zip'));
    for await (const c of zipStream(files, cwd)) yield emit(c as Buffer);
  }
  yield emit(Buffer.from('\r\n'));
  for (const a of attachments) {
    yield emit(partHead('attachment[]', path.basename(a), 'application/octet-stream'));
    for await (const c of createReadStream(a)) yield emit(c as Buffer);
    yield emit(Buffer.from('\r\n'));
  }
  yield emit(Buffer.from(`--${BOUNDARY}--\r\n`));
}

function progress(out: UploadOptions['out'], total: number, files: number): { add(n: number): void; done(): void } {
  let sent = 0;
  let lastLine = 0;
  let lastPercent = -10;
  const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MB`;
  return {
    add(n) {
      sent += n;
      const now = Date.now();
      const percent = total ? Math.min(100, Math.floor((sent / total) * 100)) : 0;
      if (out.isTTY) {
        if (now - lastLine > 100) {
          out.write(
            `\r  uploading ${files} file${files === 1 ? '' : 's'}: ${mb(sent)} of ~${mb(total)} (${percent}%)   `,
          );
          lastLine = now;
        }
      } else if (percent >= lastPercent + 10 || now - lastLine > 5000) {
        // CI logs: a plain line every 10% or 5 s, never a carriage return.
        out.write(`uploading: ${mb(sent)} of ~${mb(total)} (${percent}%)\n`);
        lastPercent = percent - (percent % 10);
        lastLine = now;
      }
    },
    done() {
      if (out.isTTY) out.write('\n');
    },
  };
}

export async function upload(o: UploadOptions): Promise<UploadResult> {
  const files = await expand(o.patterns, o.cwd);
  const attachments = o.attachments.length ? await expand(o.attachments, o.cwd) : [];
  const size = [...files, ...attachments].reduce((n, f) => n + statSync(f).size, 0);
  o.out.write(
    `tally: ${files.length} result file${files.length === 1 ? '' : 's'}` +
      `${files.length > 1 ? ' (zipped on the fly)' : ''}` +
      `${attachments.length ? `, ${attachments.length} attachment(s)` : ''}` +
      `, ${(size / 1024 / 1024).toFixed(1)} MB\n`,
  );
  const target = new URL(
    `${o.url.replace(/\/+$/, '')}/api/v2/profile/${encodeURIComponent(o.profile)}/import` +
      `${o.formatter ? `/${encodeURIComponent(o.formatter)}` : ''}`,
  );
  const bar = progress(o.out, size, files.length);
  const client = target.protocol === 'https:' ? https : http;
  const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = client.request(target, {
      method: 'POST',
      headers: {
        'x-api-key': o.apiKey,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'transfer-encoding': 'chunked',
        'user-agent': 'tally-upload',
      },
    });
    const source = Readable.from(body(files, attachments, o.tags, o.cwd, (n) => bar.add(n)));
    // Tally may answer before the body has all gone (a wrong key, a limit, a refused file): that
    // answer is what the step reports, and the rest of the body is not sent.
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, text });
        if (!req.writableFinished) req.destroy();
      });
      res.on('error', reject);
    });
    pipeline(source, req, (err) => {
      if (err && !answered) reject(err);
    });
  });
  bar.done();
  let json: TallyAnswer;
  try {
    json = JSON.parse(answer.text) as TallyAnswer;
  } catch {
    o.out.write(`tally: HTTP ${answer.status}, not a Tally answer: ${answer.text.slice(0, 300)}\n`);
    return { exitCode: 1, status: answer.status, body: null };
  }
  for (const m of json.messages ?? [])
    o.out.write(`  ${m.severity.padEnd(7)} ${m.code ?? '(uncoded)'}: ${m.message}\n`);
  if (json.message) o.out.write(`tally: ${json.message}\n`);
  if (json.report_url) o.out.write(`tally: report ${json.report_url}\n`);
  const errors = (json.messages ?? []).filter((m) => m.severity === 'error').length;
  const warnings = (json.messages ?? []).filter((m) => m.severity === 'warning').length;
  const landed = answer.status === 201 || answer.status === 202;
  const exitCode = !landed || errors > 0 ? 1 : o.strict && warnings > 0 ? 1 : 0;
  if (exitCode && landed && o.strict && !errors)
    o.out.write(`tally: ${warnings} warning(s) and --strict: failing the step\n`);
  return { exitCode, status: answer.status, body: json };
}
