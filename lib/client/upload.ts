/**
 * `tally upload`: what a CI step runs. Streams the files its arguments name as one request — several
 * files are zipped on the fly into the request body (no temp file, constant memory) — shows progress,
 * prints the answer's messages, and ends with one line that starts `tally: ok` or `tally: failed:`
 * and says what failed, whatever went wrong (no file, no connection, a broken connection, an answer
 * that is not Tally's, an error message). The exit code says whether the results landed.
 */
import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { PassThrough, Readable, pipeline } from 'node:stream';
import yazl from 'yazl';
import { expand } from './files.js';
import { progress, type Progress, type ProgressOut } from './progress.js';

export interface UploadOptions {
  url: string;
  profile: string;
  apiKey: string;
  formatter: string | null;
  tags: string[];
  /** Further form fields, sent before the files: the CI context (ci-env.ts). */
  fields?: [string, string][];
  attachments: string[];
  patterns: string[];
  strict: boolean;
  cwd: string;
  out: ProgressOut;
}

/** What the client reads of Tally's JSON answer (an import answer, or a fault outside an import). */
export interface TallyAnswer {
  status?: string;
  messages?: { severity: string; code: string | null; message: string }[];
  message?: string;
  report_url?: string | null;
  [field: string]: unknown;
}

export interface UploadResult {
  exitCode: number;
  status: number | null;
  body: TallyAnswer | null;
}

const BOUNDARY = `----tally-upload-${Math.random().toString(36).slice(2)}`;

function partHead(name: string, fileName: string, type: string): Buffer {
  const quoted = fileName.replace(/"/g, '%22');
  return Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${quoted}"\r\n` +
      `Content-Type: ${type}\r\n\r\n`,
  );
}

/** An error of reading a file, tagged with the file: a socket's reset is a `read` error too. */
type FileError = NodeJS.ErrnoException & { tallyFile?: string };

/** A file's bytes, counted into the progress as they are read. */
function counted(file: string, bar: Progress): Readable {
  const counter = new PassThrough({ highWaterMark: 256 * 1024 });
  counter.on('data', (c: Buffer) => bar.add(c.length));
  const source = createReadStream(file, { highWaterMark: 256 * 1024 });
  source.on('error', (err: FileError) => (err.tallyFile = file));
  return pipeline(source, counter, () => undefined);
}

/** The zip of `files`, entries named relative to their common folder, produced while it is read. */
function zipStream(files: string[], cwd: string, bar: Progress): Readable {
  const zip = new yazl.ZipFile();
  const base = commonDir(files, cwd);
  const output = zip.outputStream as unknown as Readable;
  // yazl leaves a lazy stream's errors to its caller: a file that cannot be read ends the zip.
  zip.on('error', (err: Error) => output.destroy(err));
  // Each file is opened only when its turn comes: thousands of files, one descriptor at a time.
  for (const f of files)
    zip.addReadStreamLazy(path.relative(base, f).split(path.sep).join('/'), { mtime: statSync(f).mtime }, (cb) =>
      cb(
        null,
        counted(f, bar).on('error', (err) => output.destroy(err)),
      ),
    );
  zip.end();
  return output;
}

function commonDir(files: string[], cwd: string): string {
  let dir = path.dirname(files[0] ?? cwd);
  while (!files.every((f) => f.startsWith(dir + path.sep))) dir = path.dirname(dir);
  return dir;
}

function field(name: string, value: string): Buffer {
  // A line break in a value would end the part early: the values come from the environment.
  const v = value.replace(/[\r\n]+/g, ' ');
  return Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${v}\r\n`);
}

async function* body(o: UploadOptions, files: string[], attachments: string[], bar: Progress) {
  for (const tag of o.tags) yield field('tag[]', tag);
  for (const [name, value] of o.fields ?? []) yield field(name, value);
  const cwd = o.cwd;
  if (files.length === 1) {
    yield partHead('file[]', path.basename(files[0]!), 'application/octet-stream');
    yield* counted(files[0]!, bar);
  } else {
    yield partHead('file[]', 'results.zip', 'application/zip');
    yield* zipStream(files, cwd, bar);
  }
  yield Buffer.from('\r\n');
  for (const a of attachments) {
    yield partHead('attachment[]', path.basename(a), 'application/octet-stream');
    yield* counted(a, bar);
    yield Buffer.from('\r\n');
  }
  yield Buffer.from(`--${BOUNDARY}--\r\n`);
}

/** Why the request ended without an answer, in words a CI log reader can act on. */
function whyNoAnswer(err: FileError, target: URL, connected: boolean, bar: Progress): string {
  const code = err.code ? ` (${err.code})` : '';
  if (err.tallyFile !== undefined) return `could not read ${err.tallyFile}: ${err.message}`;
  if (!connected) {
    if (err.code === 'ECONNREFUSED') return `could not connect to ${target.host}: connection refused${code}`;
    if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN')
      return `could not connect to ${target.host}: the name does not resolve${code}`;
    return `could not connect to ${target.host}: ${err.message}${code}`;
  }
  return `the connection to ${target.host} broke after ${bar.summary()} without an answer: ${err.message}${code}`;
}

interface Answer {
  status: number;
  text: string;
  /** The answer came before the whole body had gone (a wrong key, a limit, a refused file). */
  early: boolean;
}

class NoAnswer extends Error {}

function send(o: UploadOptions, target: URL, files: string[], attachments: string[], bar: Progress): Promise<Answer> {
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<Answer>((resolve, reject) => {
    const req = client.request(target, {
      method: 'POST',
      headers: {
        'x-api-key': o.apiKey,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'transfer-encoding': 'chunked',
        'user-agent': 'tally-upload',
      },
    });
    let connected = false;
    req.on('socket', (socket) => {
      if (!socket.connecting) connected = true;
      else socket.once('connect', () => (connected = true));
    });
    // The body has gone when the request has finished writing it, not when the files were read.
    req.on('finish', () => bar.complete());
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      const early = !req.writableFinished;
      // Tally may answer before the body has all gone: that answer is what the step reports, and
      // the rest of the body is not sent.
      if (early) bar.stop();
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, text, early });
        if (!req.writableFinished) req.destroy();
      });
      res.on('error', (err) => {
        bar.stop();
        reject(new NoAnswer(`the answer from ${target.host} broke off: ${err.message}`));
      });
    });
    const source = Readable.from(body(o, files, attachments, bar));
    pipeline(source, req, (err) => {
      if (!err || answered) return;
      bar.stop();
      reject(new NoAnswer(whyNoAnswer(err as FileError, target, connected, bar)));
    });
  });
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export async function upload(o: UploadOptions): Promise<UploadResult> {
  const finish = (exitCode: number, line: string, status: number | null = null, json: TallyAnswer | null = null) => {
    o.out.write(`tally: ${exitCode === 0 ? 'ok' : 'failed'}: ${line}\n`);
    return { exitCode, status, body: json };
  };
  let files: string[];
  let attachments: string[];
  try {
    files = await expand(o.patterns, o.cwd);
    attachments = o.attachments.length ? await expand(o.attachments, o.cwd) : [];
  } catch (e) {
    return finish(1, `${(e as Error).message}; nothing was sent`);
  }
  const size = [...files, ...attachments].reduce((n, f) => n + statSync(f).size, 0);
  o.out.write(
    `tally: ${plural(files.length, 'result file')}${files.length > 1 ? ' (zipped on the fly)' : ''}` +
      `${attachments.length ? `, ${plural(attachments.length, 'attachment')}` : ''}` +
      `, ${(size / 1024 / 1024).toFixed(1)} MB\n`,
  );
  let target: URL;
  try {
    target = new URL(
      `${o.url.replace(/\/+$/, '')}/api/v2/profile/${encodeURIComponent(o.profile)}/import` +
        `${o.formatter ? `/${encodeURIComponent(o.formatter)}` : ''}`,
    );
  } catch {
    return finish(1, `${o.url} is not a URL; nothing was sent`);
  }
  const bar = progress({ out: o.out, total: size });
  let answer: Answer;
  try {
    answer = await send(o, target, files, attachments, bar);
  } catch (e) {
    bar.stop();
    return finish(1, e instanceof NoAnswer ? e.message : `${(e as Error).message}`);
  }
  const early = answer.early ? ` (answered after ${bar.summary()})` : '';
  let json: TallyAnswer;
  try {
    json = JSON.parse(answer.text) as TallyAnswer;
  } catch {
    const text = answer.text.replace(/\s+/g, ' ').trim().slice(0, 200);
    return finish(1, `HTTP ${answer.status} from ${target.host}${early}, not a Tally answer: ${text}`, answer.status);
  }
  const messages = json.messages ?? [];
  for (const m of messages) o.out.write(`  ${m.severity.padEnd(7)} ${m.code ?? '(uncoded)'}: ${m.message}\n`);
  if (json.message) o.out.write(`tally: ${json.message}\n`);
  if (json.report_url) o.out.write(`tally: report ${json.report_url}\n`);
  const codes = (severity: string): string[] =>
    messages.filter((m) => m.severity === severity).map((m) => m.code ?? '(uncoded)');
  const errors = codes('error');
  const warnings = codes('warning');
  const landed = answer.status === 201 || answer.status === 202;
  const outcome = `HTTP ${answer.status}${json.status ? `, ${json.status}` : ''}${early}`;
  if (!landed || errors.length > 0)
    return finish(
      1,
      `${outcome}${errors.length ? `: ${plural(errors.length, 'error')} (${errors.join(', ')})` : ''}`,
      answer.status,
      json,
    );
  if (o.strict && warnings.length > 0)
    return finish(
      1,
      `${outcome}, but --strict and ${plural(warnings.length, 'warning')} (${warnings.join(', ')})`,
      answer.status,
      json,
    );
  return finish(
    0,
    `${outcome}${warnings.length ? `, ${plural(warnings.length, 'warning')}` : ''}`,
    answer.status,
    json,
  );
}
