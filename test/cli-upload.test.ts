/**
 * `tally upload` against a started Tally: globs zipped on the fly, tags, attachments, messages
 * printed, and the exit code a CI step relies on.
 */
import t from 'tap';
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startTally, type Harness } from './helpers/tally.js';
import { junitXml } from './helpers/junit.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const exec = promisify(execFile);
// The upload runs in the user's folder, where `--import tsx` would not resolve: name the loader by path.
const tsx = pathToFileURL(path.join(root, 'node_modules/tsx/dist/loader.mjs')).href;

async function tallyUpload(
  h: Harness,
  cwd: string,
  args: string[],
  key = h.apiKey,
): Promise<{ code: number; out: string }> {
  try {
    const r = await exec(
      process.execPath,
      ['--import', tsx, path.join(root, 'bin/tally.ts'), 'upload', '--url', h.url, '--profile', h.profileId, ...args],
      {
        cwd,
        env: { ...process.env, TALLY_API_KEY: key },
      },
    );
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

  const warned = await tallyUpload(h, dir, ['build/test-results/unit/TEST-a.xml', 'notes.txt']);
  t.equal(warned.code, 0, 'warnings alone do not fail the step');
  t.match(warned.out, /warning +files_moved_to_attachments/);
  const strict = await tallyUpload(h, dir, ['--strict', 'build/test-results/unit/TEST-a.xml', 'notes.txt']);
  t.equal(strict.code, 1, 'with --strict a warning fails the step');
  t.match(strict.out, /--strict: failing the step/);

  const bad = await tallyUpload(h, dir, ['notes.txt']);
  t.equal(bad.code, 1, 'an error message fails the step');
  t.match(bad.out, /error +zero_files_matched_formatters/);
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
  const none = await tallyUpload(h, dir, ['nothing/**/*.xml']);
  t.equal(none.code, 1);
  t.match(none.out, /no file matches nothing\/\*\*\/\*\.xml/);
  const noKey = await tallyUpload(h, dir, ['build/test-results/unit/TEST-a.xml'], '');
  t.equal(noKey.code, 2);
  t.match(noKey.out, /TALLY_API_KEY/);
});
