/**
 * The upload client a Tally serves: fetched from a started Tally into a folder with no node_modules
 * anywhere above it, run with plain `node` (no loader, no NODE_OPTIONS), it uploads a folder of
 * result files and the import completes. The upload page shows how, with this server's address.
 */
import t from 'tap';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildClient } from '../../scripts/build-client.js';
import { uploadClientFile } from '../../plugins/upload-client.js';
import { send, startTally } from '../helpers/tally.js';
import { junitXml } from '../helpers/junit.js';
import { signedIn } from '../helpers/web.js';

const exec = promisify(execFile);

/** The environment of a CI runner: no loader of ours, no NODE_OPTIONS, no npm. */
function plainEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: os.tmpdir(), ...extra };
  return env;
}

async function node(cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string }> {
  try {
    const r = await exec(process.execPath, args, { cwd, env });
    return { code: 0, out: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout + err.stderr };
  }
}

t.test('GET /tally-upload.mjs, then node tally-upload.mjs uploads a folder', async (t) => {
  // What `npm run build` does, so the file under test is built from these sources.
  await buildClient();
  t.ok(uploadClientFile(), 'dist/client/tally-upload.mjs is where the route looks');
  const h = await startTally(t);

  const script = await send(h.url, '', { method: 'GET', path: '/tally-upload.mjs', noKey: true });
  t.equal(script.status, 200, 'no key needed');
  t.equal(script.headers['content-type'], 'text/javascript; charset=utf-8');
  t.equal(script.headers['cache-control'], 'public, max-age=3600');
  t.match(script.headers.etag, /^"[0-9a-f]{32}"$/);
  t.match(script.text, /^#!\/usr\/bin\/env node\n/);
  const again = await send(h.url, '', {
    method: 'GET',
    path: '/tally-upload.mjs',
    noKey: true,
    headers: { 'if-none-match': script.headers.etag! },
  });
  t.equal(again.status, 304, 'revalidated by its ETag');
  const imports = [...script.text.matchAll(/(?:^import .* from |\b__require\()['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
  t.ok(imports.length > 0, `${imports.length} imports`);
  t.same(
    imports.filter((s) => !builtinModules.includes(s.replace(/^node:/, ''))),
    [],
    "imports and requires only Node's own modules",
  );

  const dir = await mkdtemp(path.join(os.tmpdir(), 'tally-ci-runner-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  for (let d = dir; path.dirname(d) !== d; d = path.dirname(d))
    t.notOk(existsSync(path.join(d, 'node_modules')), `no node_modules in ${d}`);
  await writeFile(path.join(dir, 'tally-upload.mjs'), script.text);
  await mkdir(path.join(dir, 'results/unit'), { recursive: true });
  await mkdir(path.join(dir, 'results/it'), { recursive: true });
  await writeFile(path.join(dir, 'results/unit/TEST-a.xml'), junitXml({ suite: 'a' }));
  await writeFile(path.join(dir, 'results/unit/TEST-b.xml'), junitXml({ suite: 'b' }));
  await writeFile(path.join(dir, 'results/it/TEST-c.xml'), junitXml({ suite: 'c' }));

  const help = await node(dir, ['tally-upload.mjs', '--help'], plainEnv({}));
  t.equal(help.code, 0);
  t.match(help.out, /^Usage: node tally-upload\.mjs --url URL --profile ID/);
  t.match(help.out, /TALLY_API_KEY/, 'says where the key comes from');
  t.match(help.out, /`tally upload` and `node tally-upload\.mjs` .* are the same command/s);
  t.match(help.out, /a directory \(every file under it/);

  const noKey = await node(
    dir,
    ['tally-upload.mjs', '--url', h.url, '--profile', h.profileId, 'results'],
    plainEnv({}),
  );
  t.equal(noKey.code, 2);
  t.match(noKey.out, /TALLY_API_KEY, which is not set/);

  const run = await node(
    dir,
    [
      'tally-upload.mjs',
      '--url',
      h.url,
      '--profile',
      h.profileId,
      '--formatter',
      'junit',
      '--tag',
      'ci:yes',
      'results',
    ],
    // A GitLab job: the served client sends its CI context too.
    plainEnv({
      TALLY_API_KEY: h.apiKey,
      GITLAB_CI: 'true',
      CI_PIPELINE_IID: '311',
      CI_PIPELINE_URL: 'https://gitlab.example.com/grp/app/-/pipelines/1000123',
      CI_COMMIT_BRANCH: 'main',
      CI_COMMIT_SHA: '9fceb02d0ae598e95dc970b74767f19372d61af8',
      CI_JOB_NAME: 'test',
      CI_MERGE_REQUEST_IID: '7',
    }),
  );
  t.equal(run.code, 0, run.out);
  t.match(run.out, /tally: gitlab build 311 on main at 9fceb02d0ae5/);
  t.match(run.out, /tally: 3 result files \(zipped on the fly\)/);
  t.match(run.out, /Imported 6 tests from 3 files/);
  t.equal(run.out.trimEnd().split('\n').at(-1), 'tally: ok: HTTP 201, completed');
  const [report] = await h.store.reports.list(h.profileId, { limit: 1 });
  t.equal(report?.status, 'completed', 'the import completed');
  t.same(report?.tags, ['ci:yes']);
  t.same(report?.files.map((f) => f.name).sort(), ['it/TEST-c.xml', 'unit/TEST-a.xml', 'unit/TEST-b.xml']);
  t.same(report?.ci, {
    provider: 'gitlab',
    buildNumber: '311',
    buildUrl: 'https://gitlab.example.com/grp/app/-/pipelines/1000123',
    branch: 'main',
    commit: '9fceb02d0ae598e95dc970b74767f19372d61af8',
    job: 'test',
    pullRequest: 7,
  });
});

t.test('the upload page and its JSON twin show the client and the CI steps', async (t) => {
  const h = await startTally(t);
  const { client } = await signedIn(h);
  const page = await client.get(`/profiles/${h.profileId}/upload`);
  t.equal(page.status, 200);
  t.match(
    page.text,
    `curl -fsSO ${h.url}/tally-upload.mjs &amp;&amp; node tally-upload.mjs --url ${h.url} --profile ${h.profileNumber}`,
  );
  t.notMatch(page.text, /npx tally/, 'no command from a package that is not published');
  t.match(page.text, '<a href="/tally-upload.mjs">');
  for (const heading of ['GitHub Actions', 'GitLab CI', 'Jenkins']) t.match(page.text, `<h4>${heading}</h4>`);
  t.match(page.text, `TALLY: ${h.url}`);
  t.notMatch(page.text, h.apiKey, 'never the key');
  const twin = (await h.send({ method: 'GET', path: `/api/v2/profiles/${h.profileId}/upload` })).json;
  t.match(twin.tally_upload, /^curl -fsSO \S+\/tally-upload\.mjs && node tally-upload\.mjs /);
  t.match(twin.ci, {
    github_actions: /secrets\.TALLY_API_KEY/,
    gitlab_ci: /stage: \.post/,
    jenkins: /withCredentials/,
  });
});

t.test('docs/uploading-from-ci.md shows the steps the page shows', async (t) => {
  const { ciSnippets, uploadCommand } = await import('../../lib/client/snippets.js');
  const root = path.resolve(import.meta.dirname, '../..');
  const doc = await readFile(path.join(root, 'docs/uploading-from-ci.md'), 'utf8');
  const snippets = ciSnippets('https://tally.example.com', 'PROFILE_ID');
  for (const [name, text] of Object.entries(snippets)) t.ok(doc.includes(text), `${name} is in the doc as generated`);
  t.ok(doc.includes(uploadCommand('https://tally.example.com', 'PROFILE_ID')), 'the one-line command too');
  const readme = await readFile(path.join(root, 'README.md'), 'utf8');
  t.match(readme, '(docs/uploading-from-ci.md)', 'the README links it');
  t.match(readme, 'curl -fsSO "$TALLY/tally-upload.mjs" && node tally-upload.mjs');
});
