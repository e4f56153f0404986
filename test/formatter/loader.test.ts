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
import { fileURLToPath, pathToFileURL } from 'node:url';
import { builtinFormatters } from '../../formatters/index.js';
import { loadFormatters } from '../../lib/formatter/loader.js';
import { FormatError } from '../../lib/formatter/api.js';
import { createRegistry } from '../../lib/formatter/registry.js';
import { startTally } from '../helpers/tally.js';
import { file, multipart } from '../helpers/multipart.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const example = path.join(root, 'docs/example-formatter');
const run = promisify(execFile);

// Runs the command as a user would, from `cwd`, where `--import tsx` may not resolve: the loader by path.
const tsx = pathToFileURL(path.join(root, 'node_modules/tsx/dist/loader.mjs')).href;

async function check(target: string, cwd = root): Promise<{ code: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', tsx, path.join(root, 'bin/tally.ts'), 'formatter', 'check', target],
      { cwd },
    );
    return { code: 0, out: stdout, err: stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout, err: err.stderr };
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

t.test("the guide's command: a path with or without ./", async (t) => {
  for (const target of ['docs/example-formatter', './docs/example-formatter', 'docs/example-formatter/libtest']) {
    const r = await check(target);
    t.equal(r.code, 0, target, { output: r.out + r.err });
    t.match(r.out, /all checks passed/, target);
  }
  const missing = await check('./no/such/folder');
  t.equal(missing.code, 1);
  t.match(missing.err, /^tally formatter check: \.\/no\/such\/folder does not exist \(resolved to /);
  t.notMatch(missing.err, /TALLY_FORMATTERS/, 'the error names the command that was run');
  const neither = await check('docs/no-such-formatter');
  t.equal(neither.code, 1);
  t.match(
    neither.err,
    /^tally formatter check: docs\/no-such-formatter is neither a file or folder \(there is no .*\) nor an installed/,
  );
});

/** A small formatter written as a plugin author would, importing the API by its package name. */
const PLUGIN = `import { FormatError, forEachLine, newContainer } from 'tally/formatter-api';

export const demo = {
  key: 'demo-lines',
  title: 'Demo lines',
  extensions: ['.txt'],
  mediaTypes: ['text/plain'],
  sniff(head) {
    return head.kind === 'text' && head.text.startsWith('demo-results v1\\n') ? 0.9 : 0;
  },
  async parse(input, out, ctx) {
    ctx.setProducer('demo');
    let header = false;
    await forEachLine(input, out, (line, n) => {
      if (n === 1) {
        if (line !== 'demo-results v1') throw new FormatError('not demo-results v1', 1);
        header = true;
        return;
      }
      const m = /^(ok|not ok) (.+)$/.exec(line);
      if (!m) return;
      const status = m[1] === 'ok' ? 'passed' : 'failed';
      out.emit(newContainer({ id: ctx.nextId(), parentId: null, type: 'test', title: m[2], status }));
    });
    if (!header) throw new FormatError('empty: not demo-results v1');
  },
};
`;

async function writePlugin(dir: string, pkg: Record<string, unknown>): Promise<void> {
  await mkdir(path.join(dir, 'fixtures'), { recursive: true });
  await writeFile(path.join(dir, 'package.json'), JSON.stringify(pkg));
  await writeFile(path.join(dir, 'index.js'), PLUGIN);
  await writeFile(path.join(dir, 'fixtures', 'run.txt'), 'demo-results v1\nok a\nnot ok b\nok c\n');
  await writeFile(
    path.join(dir, 'fixtures', 'MANIFEST.json'),
    JSON.stringify({
      files: [{ path: 'run.txt', expected: { tests: 3, passed: 2, failed: 1, errored: 0, skipped: 0 } }],
    }),
  );
}

t.test('a plugin outside the checkout imports tally/formatter-api', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tally-plugin-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  t.notOk(dir.startsWith(root), 'outside the checkout');
  await writePlugin(dir, { name: 'demo-lines', type: 'module' });

  const checked = await check(dir, dir);
  t.equal(checked.code, 0, checked.out + checked.err);
  t.match(checked.out, /demo-lines \(Demo lines\)/);
  t.match(checked.out, /ok\s+run\.txt totals match MANIFEST\.json/, 'its fixtures, found beside it');
  t.match(checked.out, /all checks passed/);

  // TALLY_FORMATTERS: the same module as the running Tally's API, classes included.
  const [demo] = await loadFormatters([dir], root);
  t.equal(demo?.key, 'demo-lines');
  const refused = demo!.parse(
    (async function* () {
      yield 'something else\n';
    })(),
    { emit: () => undefined, ready: () => null },
    {
      fileName: 'x.txt',
      nextId: () => 1,
      limits: { maxTextChars: 100 },
      setProducer: () => undefined,
      options: { smart: true },
    },
  );
  await t.rejects(refused, FormatError, "the plugin's FormatError is Tally's own class");
  const h = await startTally(t, { formatters: [...builtinFormatters, demo!] });
  const m = multipart([file('file[]', 'run.txt', 'demo-results v1\nok a\nnot ok b\n', 'text/plain')]);
  const reply = await h.send({
    path: `/api/v2/profile/${h.profileId}/import`,
    headers: { 'content-type': m.contentType },
    body: m.body,
  });
  t.equal(reply.status, 201, reply.text);
  t.match(reply.json.report.totals, { tests: 2, passed: 1, failed: 1 });
});

t.test('a name that is not a path is an installed package', async (t) => {
  const project = await mkdtemp(path.join(os.tmpdir(), 'tally-project-'));
  t.teardown(() => rm(project, { recursive: true, force: true }));
  const pkg = path.join(project, 'node_modules', 'tally-formatter-demo');
  // An ES-only package: its entry is under `exports` for `import`, not `require`.
  await writePlugin(pkg, {
    name: 'tally-formatter-demo',
    type: 'module',
    exports: { '.': { import: './index.js' } },
  });
  const found = await loadFormatters(['tally-formatter-demo'], project);
  t.same(
    found.map((f) => f.key),
    ['demo-lines'],
  );
  const checked = await check('tally-formatter-demo', project);
  t.equal(checked.code, 0, checked.out + checked.err);
  t.match(checked.out, /ok\s+run\.txt totals match MANIFEST\.json/, "fixtures at the package's root");
  await t.rejects(loadFormatters(['tally-formatter-none'], project), {
    message: /^TALLY_FORMATTERS: tally-formatter-none is neither a file or folder .* nor an installed package$/,
  });
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
