/**
 * `tally upload` against a started Tally: globs and directories zipped on the fly, tags,
 * attachments, messages printed, progress in a CI log, the final line whatever went wrong, and the
 * exit code a CI step relies on.
 */
import t from 'tap';
import { execFile } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTally, type Harness } from './helpers/tally.js';
import { junitXml } from './helpers/junit.js';
import { TALLY } from './helpers/tally-command.js';

const exec = promisify(execFile);

/** The last line the command printed (stdout and stderr together). */
function lastLine(out: string): string {
  return out.trimEnd().split('\n').pop() ?? '';
}

async function tallyUpload(
  h: Harness,
  cwd: string,
  args: string[],
  key = h.apiKey,
): Promise<{ code: number; out: string }> {
  try {
    const r = await exec(process.execPath, [...TALLY, 'upload', '--url', h.url, '--profile', h.profileId, ...args], {
      cwd,
      env: { ...process.env, TALLY_API_KEY: key },
    });
    return { code: 0, out: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout + err.stderr };
  }
}

t.test('tally upload', async (t) => {
  const h = await startTally(t);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tally-upload-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await mkdir(path.join(dir, 'build/test-results/unit'), { recursive: true });
  await mkdir(path.join(dir, 'build/test-results/it'), { recursive: true });
  await writeFile(path.join(dir, 'build/test-results/unit/TEST-a.xml'), junitXml({ suite: 'a' }));
  await writeFile(path.join(dir, 'build/test-results/unit/TEST-b.xml'), junitXml({ suite: 'b' }));
  await writeFile(
    path.join(dir, 'build/test-results/it/TEST-c.xml'),
    junitXml({ suite: 'c', cases: [{ name: 'x', out: '[[ATTACHMENT|shots/x.png]]' }] }),
  );
  await writeFile(path.join(dir, 'x.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
  await writeFile(path.join(dir, 'notes.txt'), 'not a result');

  const ok = await tallyUpload(h, dir, [
    '--formatter',
    'junit',
    '--tag',
    'branch:main',
    '--attachment',
    'x.png',
    'build/test-results/**/*.xml',
  ]);
  t.equal(ok.code, 0, ok.out);
  t.match(ok.out, /3 result files \(zipped on the fly\), 1 attachment/);
  t.match(ok.out, /uploading: .*\(100%\)/, 'plain progress lines when not on a terminal');
  t.match(ok.out, /Imported 5 tests from 3 files/);
  const [report] = await h.store.reports.list(h.profileId, { limit: 1 });
  t.same(report?.tags, ['branch:main']);
  t.same(
    report?.files.map((f) => f.name).sort(),
    ['it/TEST-c.xml', 'unit/TEST-a.xml', 'unit/TEST-b.xml'],
    'entries named relative to their common folder',
  );
  t.notMatch(ok.out, /failed_to_attach_asset/, 'the attachment was found');
  t.equal(lastLine(ok.out), 'tally: ok: HTTP 201, completed', 'the final line says it landed');

  // A directory is every file under it, at any depth; hidden files are left out.
  await writeFile(path.join(dir, 'build/test-results/.DS_Store'), 'not a result');
  const folder = await tallyUpload(h, dir, ['--formatter', 'junit', 'build/test-results']);
  t.equal(folder.code, 0, folder.out);
  t.match(folder.out, /3 result files \(zipped on the fly\)/);
  t.match(folder.out, /Imported 5 tests from 3 files/);
  const [fromFolder] = await h.store.reports.list(h.profileId, { limit: 1 });
  t.same(
    fromFolder?.files.map((f) => f.name).sort(),
    ['it/TEST-c.xml', 'unit/TEST-a.xml', 'unit/TEST-b.xml'],
    'a directory argument uploads the files under it',
  );
  const emptyDir = await tallyUpload(h, dir, ['build/test-results/unit', 'build/nothing-here']);
  t.equal(emptyDir.code, 1);
  t.match(lastLine(emptyDir.out), /^tally: failed: no file matches build\/nothing-here .*; nothing was sent$/);
  await mkdir(path.join(dir, 'empty'));
  const noneUnder = await tallyUpload(h, dir, ['empty']);
  t.equal(noneUnder.code, 1);
  t.equal(lastLine(noneUnder.out), 'tally: failed: no file under the directory empty; nothing was sent');

  const warned = await tallyUpload(h, dir, ['build/test-results/unit/TEST-a.xml', 'notes.txt']);
  t.equal(warned.code, 0, 'warnings alone do not fail the step');
  t.match(warned.out, /warning +files_moved_to_attachments/);
  const strict = await tallyUpload(h, dir, ['--strict', 'build/test-results/unit/TEST-a.xml', 'notes.txt']);
  t.equal(strict.code, 1, 'with --strict a warning fails the step');
  t.equal(
    lastLine(strict.out),
    'tally: failed: HTTP 201, completed, but --strict and 2 warnings (files_moved_to_attachments, specify_formatter)',
  );

  const bad = await tallyUpload(h, dir, ['notes.txt']);
  t.equal(bad.code, 1, 'an error message fails the step');
  t.match(bad.out, /error +zero_files_matched_formatters/);
  t.equal(lastLine(bad.out), 'tally: failed: HTTP 422, failed: 1 error (zero_files_matched_formatters)');
  const wrongKey = await tallyUpload(
    h,
    dir,
    ['build/test-results/unit/TEST-a.xml'],
    'tly_AAAAAAAAAAAA_' + 'A'.repeat(43),
  );
  t.equal(wrongKey.code, 1);
  t.match(wrongKey.out, /invalid_api_key/);
  // Answered before the body has gone (plugins/linger.ts keeps the answer readable): the step prints it.
  await writeFile(path.join(dir, 'big.xml'), Buffer.alloc(64 * 1024 * 1024, 0x61));
  const wrongKeyBig = await tallyUpload(h, dir, ['big.xml'], 'tly_AAAAAAAAAAAA_' + 'A'.repeat(43));
  t.equal(wrongKeyBig.code, 1);
  t.match(wrongKeyBig.out, /invalid_api_key/, 'a large upload with a wrong key gets the coded answer');
  t.notMatch(wrongKeyBig.out, /\(100%\)/, 'answered before the file had gone');
  t.match(
    lastLine(wrongKeyBig.out),
    /^tally: failed: HTTP 401, failed \(answered after [\d.]+ MB of 64\.0 MB \(\d+%\)\): 1 error \(invalid_api_key\)$/,
    'the final line comes last, after every progress line',
  );
  const none = await tallyUpload(h, dir, ['nothing/**/*.xml']);
  t.equal(none.code, 1);
  t.equal(lastLine(none.out), 'tally: failed: no file matches nothing/**/*.xml; nothing was sent');
  const noKey = await tallyUpload(h, dir, ['build/test-results/unit/TEST-a.xml'], '');
  t.equal(noKey.code, 2);
  t.match(noKey.out, /TALLY_API_KEY/);
});

t.test('progress in a CI log reaches 100% when the zip is smaller than its files', async (t) => {
  const h = await startTally(t);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tally-upload-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  // Three files of 4 MB each that deflate to almost nothing: the request carries far fewer bytes than
  // the files hold, which is where the percent used to stop short.
  for (const name of ['a', 'b', 'c'])
    await writeFile(
      path.join(dir, `TEST-${name}.xml`),
      junitXml({ suite: name, cases: [{ name: 'x', out: 'all quiet on the test front\n'.repeat(150_000) }] }),
    );
  const r = await tallyUpload(h, dir, ['--formatter', 'junit', '.']);
  t.equal(r.code, 0, r.out);
  t.notMatch(r.out, /\r/, 'no carriage return in a log');
  const lines = r.out.trimEnd().split('\n');
  const progress = lines.filter((l) => l.startsWith('uploading: '));
  t.ok(progress.length >= 1 && progress.length <= 11, `${progress.length} progress lines, at most one per 10%`);
  t.match(progress.at(-1), /^uploading: ([\d.]+) MB of \1 MB \(100%\)$/, 'the last progress line says 100%');
  t.equal(progress.filter((l) => l.endsWith('(100%)')).length, 1, 'once');
  t.ok(lines.indexOf(progress.at(-1)!) < lines.length - 1, 'before the answer');
  t.equal(lines.at(-1), 'tally: ok: HTTP 201, completed');
});

t.test('no answer: the final line says what failed, and nothing follows it', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tally-upload-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeFile(path.join(dir, 'big.xml'), Buffer.alloc(32 * 1024 * 1024, 0x61));
  await writeFile(path.join(dir, 'small.xml'), junitXml());
  const fake = { url: '', profileId: 'p', apiKey: 'tly_AAAAAAAAAAAA_' + 'A'.repeat(43) } as Harness;

  // Nothing listens on the port.
  const closed = await new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
  const refused = await tallyUpload({ ...fake, url: `http://127.0.0.1:${closed}` }, dir, ['small.xml']);
  t.equal(refused.code, 1);
  t.equal(
    lastLine(refused.out),
    `tally: failed: could not connect to 127.0.0.1:${closed}: connection refused (ECONNREFUSED)`,
  );

  // A server that reads 1 MB of the body, then drops the connection without an answer.
  const dropper = http.createServer((req) => {
    let n = 0;
    req.on('data', (c: Buffer) => {
      n += c.length;
      if (n > 1024 * 1024) req.socket.destroy();
    });
  });
  await new Promise<void>((resolve) => dropper.listen(0, '127.0.0.1', resolve));
  t.teardown(() => dropper.close());
  const port = (dropper.address() as net.AddressInfo).port;
  const broken = await tallyUpload({ ...fake, url: `http://127.0.0.1:${port}` }, dir, ['big.xml']);
  t.equal(broken.code, 1, broken.out);
  t.match(
    lastLine(broken.out),
    new RegExp(
      `^tally: failed: the connection to 127\\.0\\.0\\.1:${port} broke after [\\d.]+ MB of 32\\.0 MB \\(\\d+%\\) ` +
        'without an answer: .+$',
    ),
  );
  t.notMatch(broken.out, /\(100%\)/);

  // An answer that is not Tally's (a proxy's error page).
  const proxy = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(502, { 'content-type': 'text/html' }).end('<html><h1>Bad Gateway</h1></html>'));
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  t.teardown(() => proxy.close());
  const proxyPort = (proxy.address() as net.AddressInfo).port;
  const notTally = await tallyUpload({ ...fake, url: `http://127.0.0.1:${proxyPort}` }, dir, ['small.xml']);
  t.equal(notTally.code, 1);
  t.equal(
    lastLine(notTally.out),
    `tally: failed: HTTP 502 from 127.0.0.1:${proxyPort}, not a Tally answer: <html><h1>Bad Gateway</h1></html>`,
  );
});
