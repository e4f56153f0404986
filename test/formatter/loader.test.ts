/**
 * The plugin kit: a formatter from a folder goes through the same API and registry as the
 * built-ins; `tally formatter check` passes the example and fails a formatter that steals files;
 * a duplicate key is a precise start-up error.
 */
import t from 'tap';
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { builtinFormatters } from '../../formatters/index.js';
import { loadFormatters } from '../../lib/formatter/loader.js';
import { createRegistry } from '../../lib/formatter/registry.js';
import { startTally } from '../helpers/tally.js';
import { file, multipart } from '../helpers/multipart.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const example = path.join(root, 'docs/example-formatter');
const run = promisify(execFile);

async function check(target: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'bin/tally.ts'), 'formatter', 'check', target],
      { cwd: root },
    );
    return { code: 0, out: stdout };
  } catch (e) {
    const err = e as { code: number; stdout: string };
    return { code: err.code, out: err.stdout };
  }
}

t.test('the example formatter passes the conformance kit', async (t) => {
  const r = await check(example);
  t.equal(r.code, 0, r.out);
  t.match(r.out, /libtest \(Rust libtest output/);
  t.match(r.out, /all checks passed/);
  t.match(r.out, /ok\s+sniff leaves the \d+ fixtures of other formats alone/);
  t.match(r.out, /ok\s+chunk boundaries/);
});

t.test('a formatter that claims every file fails the kit', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tally-greedy-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await mkdir(path.join(dir, 'fixtures'));
  await writeFile(path.join(dir, 'fixtures', 'one.txt'), 'anything\n');
  // .mjs: a folder without a package.json is CommonJS to Node, so ESM plugins say so by extension.
  await writeFile(
    path.join(dir, 'index.mjs'),
    [
      "export const greedy = { key: 'greedy', title: 'Greedy', extensions: ['.txt'], mediaTypes: ['text/plain'],",
      '  sniff: () => 1, async parse(input, out, ctx) { for await (const _ of input); out.emit({',
      "    id: ctx.nextId(), parentId: null, type: 'test', title: 'x', status: 'passed', durationMs: null,",
      '    startedAt: null, failure: null, output: null, properties: [], attachmentRefs: [] }); } };',
      '',
    ].join('\n'),
  );
  const r = await check(dir);
  t.equal(r.code, 1);
  t.match(r.out, /FAIL sniff leaves the \d+ fixtures of other formats alone — [a-z0-9-]+\//);
  t.match(r.out, /(FAIL|ok)\s+empty input/);
});

t.test('TALLY_FORMATTERS: loaded, registered and used by detection over HTTP', async (t) => {
  const external = await loadFormatters(['./docs/example-formatter'], root);
  t.same(
    external.map((f) => f.key),
    ['libtest'],
  );
  const h = await startTally(t, { formatters: [...builtinFormatters, ...external] });
  const bytes = await readFile(path.join(example, 'libtest/fixtures/cargo-test-demo.txt'));
  const m = multipart([file('file[]', 'cargo-test.txt', bytes, 'text/plain')]);
  const reply = await h.send({
    path: `/api/v2/profile/${h.profileId}/import`,
    headers: { 'content-type': m.contentType },
    body: m.body,
  });
  t.equal(reply.status, 201, 'status 201', { body: reply.text });
  t.same(
    reply.json.report.files.map((f: any) => f.formatter),
    ['libtest'],
  );
  t.match(reply.json.report.totals, { tests: 7, passed: 4, failed: 2, skipped: 1 });
  const listed = await h.send({ method: 'GET', path: '/api/v2/formatters', noKey: true });
  t.ok(
    listed.json.formatters.some((f: any) => f.key === 'libtest'),
    'listed with the built-ins',
  );
});

t.test('duplicate keys and bad modules are precise start-up errors', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tally-dup-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeFile(
    path.join(dir, 'index.mjs'),
    `export default { key: 'junit', title: 'Mine', extensions: ['.xml'], mediaTypes: [], sniff: () => 0, parse: ` +
      `async () => {} };\n`,
  );
  const mine = await loadFormatters([dir]);
  t.throws(() => createRegistry([...builtinFormatters, ...mine]), {
    message: /Formatter key "junit" is registered twice \("JUnit XML" and "Mine"\)/,
  });
  await t.rejects(loadFormatters(['./no/such/folder'], root), {
    message: /TALLY_FORMATTERS: \.\/no\/such\/folder does not exist/,
  });
  const empty = await mkdtemp(path.join(os.tmpdir(), 'tally-empty-'));
  t.teardown(() => rm(empty, { recursive: true, force: true }));
  await writeFile(path.join(empty, 'index.mjs'), 'export const nothing = 1;\n');
  await t.rejects(loadFormatters([empty]), { message: /exports no formatter/ });
});
