/**
 * CI runs in a real browser (Debian's chromium via playwright-core): link a profile to a real Gitea
 * with the form, start a run with the button, see it in the runs list and the workflow's schedule;
 * link it to a real Buildbot, start a build and follow its log on the run page while it runs, to its
 * end; and a long log followed live by tally.js, from a real HTTP server on 127.0.0.1 that keeps writing
 * it: every line once and in order while the page keeps at most about 1 MiB of it, the older part
 * dropped with a link to read it from its offset. The token is in no page and no log line. A
 * missing chromium is a failure, never a skip.
 */
import t, { type Test } from 'tap';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { CiProvider, CiRun } from '../../lib/ci/api.js';
import { bearerGet } from '../helpers/ci-providers.js';
import { createUserWithPassword } from '../../lib/users.js';
import { signInFirstTime } from '../../scripts/browser.js';
import { BUILDER, FORCE_SCHEDULER, STEP_LINES, SUMMARY_STDOUT } from '../../scripts/buildbot.js';
import { createRepoWithWorkflow } from '../../scripts/gitea.js';
import { buildbotForTest, FIRST_BUILD_TIMEOUT, giteaForTest } from '../helpers/ci-servers.js';
import { startTally, type Harness } from '../helpers/tally.js';
import { fileBrowser } from '../helpers/web.js';

t.setTimeout(FIRST_BUILD_TIMEOUT);
const browser = await fileBrowser(t);

/** A signed-in page that records every HTML page it is shown, and every script error. */
async function signedInPage(t: Test, h: Harness): Promise<{ page: Page; seen: string[]; problems: string[] }> {
  const { password } = await createUserWithPassword(h.store, h.accountId, 'ci@example.com');
  const page = await browser!.context.newPage();
  t.teardown(() => page.close());
  const seen: string[] = [];
  const problems: string[] = [];
  page.on('console', (m) => void (m.type() === 'error' && problems.push(`${m.text()} ${m.location().url}`)));
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('response', (r) => {
    if ((r.headers()['content-type'] ?? '').match(/html|json/))
      void r.text().then(
        (text) => seen.push(text),
        () => {},
      );
  });
  await signInFirstTime(page, h.url, 'ci@example.com', password, 'a browser test password');
  return { page, seen, problems };
}

async function fillLink(
  page: Page,
  link: Record<'provider' | 'url' | 'repository' | 'branch' | 'job' | 'token', string>,
) {
  await page.selectOption('#ci-link select[name=provider]', link.provider);
  for (const name of ['url', 'repository', 'branch', 'job', 'token'] as const)
    await page.fill(`#ci-link input[name=${name}]`, link[name]);
  await Promise.all([page.waitForURL(/\/ci$/), page.click('#ci-link button[type=submit]')]);
}

if (browser)
  t.test('link to Gitea, start a run with the button, see it and the schedule', async (t) => {
    const gitea = await giteaForTest(t);
    if (!gitea) return;
    const { fullName, workflow } = await createRepoWithWorkflow(gitea, { name: 'project' });
    const lines: string[] = [];
    const h = await startTally(t, {
      secretKey: randomBytes(32).toString('hex'),
      log: (event, data) => lines.push(JSON.stringify({ event, ...data })),
    });
    const { page, seen, problems } = await signedInPage(t, h);
    await page.goto(`${h.url}/profiles/${h.profileNumber}/ci`);
    await fillLink(page, {
      provider: 'github',
      url: gitea.url,
      repository: fullName,
      branch: 'main',
      job: workflow,
      token: gitea.token,
    });
    t.equal(await page.textContent('.flash'), 'CI link saved.');
    t.match(await page.textContent('#ci-runs'), /No runs yet/);
    t.match(await page.textContent('#ci-schedules'), /30 2 \* \* \*/, 'the schedule');

    await Promise.all([page.waitForURL(/\/ci\?started=\d+#ci-runs$/), page.click('#ci-start button')]);
    t.equal(await page.textContent('.flash'), 'Run #1 started.');
    const row = page.locator('#ci-runs tr.started');
    t.equal(await row.count(), 1, 'the new run is shown');
    t.match(await row.textContent(), /queued[\s\S]*#1[\s\S]*main/);
    const runId = await row.getAttribute('data-run');
    t.equal(
      await row.locator('a:has-text("#1")').getAttribute('href'),
      `${gitea.url}${fullName}/actions/runs/${runId}`,
      "the number links to the provider's page",
    );
    const listed = await gitea.api<{ total_count: number }>('GET', `/repos/${fullName}/actions/runs`);
    t.equal(listed.total_count, 1, 'one run started on Gitea');

    // Its log page: queued, so nothing yet, and followed.
    await Promise.all([page.waitForURL(/\/ci\/runs\/\d+$/), row.locator('a:has-text("log")').click()]);
    await page.waitForFunction(() => document.getElementById('ci-log-state')?.textContent === 'Following the log…');

    t.same(problems, [], 'no script error');
    t.ok(seen.length >= 4, `${seen.length} pages and answers seen`);
    for (const text of seen) t.notOk(text.includes(gitea.token), 'the token is in no page');
    t.notOk(lines.join('\n').includes(gitea.token), 'the token is in no log line');
  });

if (browser)
  t.test('link to Buildbot, start a build, follow its log on the run page to the end', async (t) => {
    const buildbot = await buildbotForTest(t);
    if (!buildbot) return;
    const lines: string[] = [];
    const h = await startTally(t, {
      secretKey: randomBytes(32).toString('hex'),
      log: (event, data) => lines.push(JSON.stringify({ event, ...data })),
    });
    const { page, seen, problems } = await signedInPage(t, h);
    await page.goto(`${h.url}/profiles/${h.profileNumber}/ci`);
    await fillLink(page, {
      provider: 'buildbot',
      url: buildbot.url,
      repository: BUILDER,
      branch: 'main',
      job: FORCE_SCHEDULER,
      token: buildbot.token,
    });
    t.equal(await page.textContent('.flash'), 'CI link saved.');
    await Promise.all([page.waitForURL(/\/ci\?started=[\w-]+#ci-runs$/), page.click('#ci-start button')]);
    const row = page.locator('#ci-runs tr.started');
    t.equal(await row.count(), 1, 'the new build is shown');
    await Promise.all([page.waitForURL(/\/ci\/runs\/[\w-]+$/), row.locator('a:has-text("log")').click()]);

    // Followed as it is written: the page's state and line count looked at while the build runs.
    const counts: number[] = [];
    const deadline = Date.now() + 120_000;
    for (;;) {
      const state = await page.textContent('#ci-log-state');
      const text = (await page.textContent('#ci-log')) ?? '';
      if (state === 'End of the log.') break;
      counts.push(text.match(/^line \d+$/gm)?.length ?? 0);
      if (Date.now() > deadline) return t.fail(`the log did not end within 120 s (${state})`);
      await page.waitForTimeout(300);
    }
    t.ok(
      counts.some((n) => n > 0 && n < STEP_LINES),
      `some lines shown while the build ran (${[...new Set(counts)].join(', ')})`,
    );
    const text = (await page.textContent('#ci-log')) ?? '';
    t.strictSame(
      [...text.matchAll(/^line (\d+)$/gm)].map((m) => Number(m[1])),
      Array.from({ length: STEP_LINES }, (_, i) => i + 1),
      `all ${STEP_LINES} lines, in order, once`,
    );
    t.match(text, SUMMARY_STDOUT, "the next step's log follows");
    t.match(await page.textContent('#ci-run-status'), /^(ended|passed)$/, 'the run is no longer shown running');

    t.same(problems, [], 'no script error');
    for (const body of seen) t.notOk(body.includes(buildbot.token), 'the token is in no page');
    t.notOk(lines.join('\n').includes(buildbot.token), 'the token is in no log line');
  });

/** A log served as it is written: `written` lines so far, each `line <n>` padded to `width` bytes. */
async function growingLog(token: string, o: { lines: number; width: number }) {
  let written = 0;
  const line = (n: number) => `${`line ${n} `.padEnd(o.width - 1, '.')}\n`;
  const text = () => Array.from({ length: written }, (_, i) => line(i + 1)).join('');
  const server = http.createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${token}`) return void res.writeHead(401).end();
    const u = new URL(req.url ?? '/', 'http://x');
    if (u.pathname === '/runs') return void res.writeHead(200).end('[]');
    if (u.pathname === '/schedules') return void res.writeHead(200).end('[]');
    if (u.pathname !== '/log') return void res.writeHead(404).end();
    // Each read finds the log grown by a quarter, until it is whole.
    written = Math.min(o.lines, written + Math.ceil(o.lines / 4));
    const bytes = Buffer.from(text());
    const from = Number(u.searchParams.get('from'));
    const part = bytes.subarray(from, from + Number(u.searchParams.get('max')));
    const complete = written === o.lines && from + part.length >= bytes.length;
    res.writeHead(200, { 'x-complete': String(complete) }).end(part);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, line };
}

const get = bearerGet;
const none = async (): Promise<CiRun> => {
  throw new Error('not started here');
};
const growing: CiProvider = {
  key: 'growing',
  title: 'A log that grows',
  docs: 'https://example.org/growing',
  startRun: none,
  listRuns: async (call) => (await get(call, '/runs')).json() as Promise<CiRun[]>,
  async readLog(call, _run, from, max) {
    const r = await get(call, `/log?from=${from}&max=${max}`);
    const text = await r.text();
    return { text, nextOffset: from + Buffer.byteLength(text), complete: r.headers.get('x-complete') === 'true' };
  },
  listSchedules: async () => [],
};

if (browser)
  t.test('a long log followed live: every line once, in order, at most ~1 MiB kept', async (t) => {
    const token = `tok_${randomBytes(12).toString('hex')}`;
    const LINES = 30_000;
    const WIDTH = 100; // 3 MB of log
    const log = await growingLog(token, { lines: LINES, width: WIDTH });
    const h = await startTally(t, { secretKey: randomBytes(32).toString('hex'), ciProviders: [growing] });
    const { page, seen, problems } = await signedInPage(t, h);
    await page.goto(`${h.url}/profiles/${h.profileNumber}/ci`);
    await fillLink(page, { provider: 'growing', url: log.url, repository: 'r', branch: 'main', job: 'j', token });

    // Every chunk the page appends is checked as it comes: the lines follow on, none twice or missed.
    await page.goto(`${h.url}/profiles/${h.profileNumber}/ci/runs/1`);
    // A string, not a function: the test's TypeScript build would name inner functions with a helper
    // the page does not have.
    const order = (await page.evaluate(`new Promise((resolve) => {
      const pre = document.getElementById('ci-log');
      let next = 1;
      let bad = null;
      let maxKept = 0;
      // A chunk may end inside a line: the part after its last line end waits for the next chunk.
      let carry = '';
      function read(node) {
        const lines = (carry + (node.textContent || '')).split('\\n');
        carry = lines.pop();
        for (const line of lines) {
          const n = Number(/^line (\\d+) /.exec(line)?.[1]);
          if (n !== next && !bad) bad = 'line ' + n + ' where ' + next + ' was due';
          next = n + 1;
        }
      }
      for (const c of Array.from(pre.children)) read(c);
      new MutationObserver(function (records) {
        for (const r of records) for (const n of Array.from(r.addedNodes)) if (n instanceof Element) read(n);
        maxKept = Math.max(maxKept, pre.textContent.length);
        if (next > ${LINES} || bad) resolve({ next, bad, maxKept });
      }).observe(pre, { childList: true });
      setTimeout(function () { resolve({ next, bad: bad || 'not within 120 s', maxKept }); }, 120000);
    })`)) as { next: number; bad: string | null; maxKept: number };
    t.equal(order.bad, null, 'each line once, in order');
    t.equal(order.next, LINES + 1, `all ${LINES} lines`);
    t.ok(order.maxKept <= 1024 * 1024 + 64 * 1024, `at most ~1 MiB kept in the page (${order.maxKept})`);
    await page.waitForFunction(() => document.getElementById('ci-log-state')?.textContent === 'End of the log.');
    const last = await page.evaluate((w) => document.getElementById('ci-log')!.textContent!.slice(-w), WIDTH);
    t.equal(last, log.line(LINES), 'the log ends with its last line');
    t.notOk(await page.isHidden('#ci-log-dropped'), 'the page says older parts were dropped');
    const href = await page.getAttribute('#ci-log-dropped a', 'href');
    t.match(href, /^\/profiles\/\d+\/ci\/runs\/1\?offset=\d+$/, 'with a link to read them from their offset');
    const first = await page.getAttribute('#ci-log .ci-chunk', 'data-offset');
    t.ok(Number(new URL(href!, h.url).searchParams.get('offset')) < Number(first), 'an earlier offset');

    t.same(problems, [], 'no script error');
    for (const text of seen) t.notOk(text.includes(token), 'the token is in no page');
  });
