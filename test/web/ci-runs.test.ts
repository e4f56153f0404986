/**
 * The CI page's runs and schedules and a run's log page over plain HTTP (no JavaScript), with a
 * small provider speaking to a real HTTP server on 127.0.0.1 that serves a hostile log: markup,
 * an OSC 8 `javascript:` link, cursor moves, colours. The page escapes all of it and shows colours
 * as classes only; the log is read a chunk at a time through "more" links to its end, and the
 * page's JSON route hands out the same chunks; a provider that is down is its coded message on the
 * page, never a 500; the token is on no page.
 */
import t from 'tap';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { CiProvider, CiRun } from '../../lib/ci/api.js';
import { bearerGet } from '../helpers/ci-providers.js';
import { freePort } from '../../scripts/mongo-wire.js';
import { startTally } from '../helpers/tally.js';
import { signedIn } from '../helpers/web.js';

const E = '\u001b';
const LINES = [
  `${E}[1;32mok${E}[0m first line`,
  '<script>alert("log")</script> & <img src=x onerror=alert(1)>',
  `${E}]8;;javascript:alert(1)${E}\\click me${E}]8;;${E}\\`,
  `${E}[2K${E}[1Aprogress${E}[31m red carried`,
  ...Array.from({ length: 40 }, (_, i) => `still red ${i} ✓ ünïcödé`),
  `${E}[0mthe end`,
];
const LOG = `${LINES.join('\n')}\n`;
/** What the page shows of the log: the escapes gone, the text kept. */
// eslint-disable-next-line no-control-regex
const SHOWN = LOG.replace(/\u001b\]8;;[^\u001b]*\u001b\\/g, '').replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');

const RUN: CiRun = {
  id: '77',
  number: 12,
  status: 'passed',
  branch: 'main',
  commit: 'c'.repeat(40),
  webUrl: 'https://ci.example.org/runs/77',
  startedAt: '2026-11-24T10:00:00.000Z',
  durationMs: 61_000,
};

async function ciServer(token: string): Promise<{ url: string; started: () => number }> {
  let started = 0;
  const server = http.createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${token}`) return void res.writeHead(401).end();
    const u = new URL(req.url ?? '/', 'http://x');
    const json = (body: unknown) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (u.pathname === '/start') return (started++, json(RUN));
    if (u.pathname === '/runs') return json([RUN]);
    if (u.pathname === '/schedules') return json([{ id: 'n', cron: '0 3 * * 1-5', branch: 'main' }]);
    if (u.pathname === '/runs/77/log') {
      const bytes = Buffer.from(LOG);
      const from = Number(u.searchParams.get('from'));
      const part = bytes.subarray(from, from + Number(u.searchParams.get('max')));
      return res.writeHead(200, { 'x-complete': String(from + part.length >= bytes.length) }).end(part);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, started: () => started };
}

const get = bearerGet;

const served: CiProvider = {
  key: 'served',
  title: 'A CI on 127.0.0.1',
  docs: 'https://example.org/served',
  startRun: async (call) => (await get(call, '/start')).json() as Promise<CiRun>,
  listRuns: async (call) => (await get(call, '/runs')).json() as Promise<CiRun[]>,
  async readLog(call, run, from, max) {
    const r = await get(call, `/runs/${run}/log?from=${from}&max=${max}`);
    // Bytes cut inside a character are read again with the next chunk.
    const bytes = new Uint8Array(await r.arrayBuffer());
    const text = new TextDecoder().decode(bytes).replace(/\uFFFD+$/, '');
    const complete = r.headers.get('x-complete') === 'true' && Buffer.byteLength(text) === bytes.length;
    return { text, nextOffset: from + Buffer.byteLength(text), complete };
  },
  listSchedules: async (call) =>
    ((await (await get(call, '/schedules')).json()) as { id: string; cron: string; branch: string }[]).map((s) => ({
      ...s,
      nextRunAt: null,
      description: '<b>weekday</b> nights',
    })),
};

/** The log's text as a page without JavaScript shows it: the <pre>'s content, tags out, entities read. */
function logText(page: string): string {
  const pre = /<pre\s+class="ci-log"[^>]*>\n?([\s\S]*?)<\/pre>/.exec(page)?.[1] ?? '';
  return pre
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#96;/g, '`')
    .replace(/&amp;/g, '&');
}

t.test('runs, schedules and a hostile log on the pages, without JavaScript', async (t) => {
  const token = `tok_${randomBytes(12).toString('hex')}`;
  const ci = await ciServer(token);
  const h = await startTally(t, { secretKey: randomBytes(32).toString('hex'), ciProviders: [served] });
  const { client, csrf } = await signedIn(h);
  const base = `/profiles/${h.profileNumber}/ci`;
  const pages: string[] = [];
  const page = async (p: string) => {
    const r = await client.get(p);
    pages.push(r.text);
    t.not(r.status, 500, p);
    return r;
  };
  const link = { provider: 'served', url: ci.url, repository: 'r', branch: 'main', job: 'j', token, csrf };
  t.equal((await client.post(base, link)).status, 303);

  const linked = await page(base);
  t.match(linked.text, /<form method="post" action="\/profiles\/\d+\/ci\/runs"[^>]*id="ci-start"/);
  t.match(linked.text, /<button type="submit">Start a run<\/button>/);
  t.match(linked.text, '<a href="https://ci.example.org/runs/77" rel="noopener noreferrer">#12</a>');
  t.match(linked.text, `href="${base}/runs/77"`);
  t.match(linked.text, '1 min 1 s');
  t.match(linked.text, '<code>0 3 * * 1-5</code>');
  t.match(linked.text, '&lt;b&gt;weekday&lt;/b&gt; nights', 'a description is escaped');

  t.equal((await client.post(`${base}/runs`, {})).status, 403, 'no start without the CSRF token');
  t.equal(ci.started(), 0);
  const start = await client.post(`${base}/runs`, { csrf });
  t.equal(start.status, 303);
  t.equal(start.headers.location, `${base}?started=77#ci-runs`);
  t.equal(ci.started(), 1);
  const after = await page(`${base}?started=77`);
  t.match(after.text, 'Run #12 started.');
  t.match(after.text, /<tr data-run="77"\s+class="started">/, 'the new run is shown');

  // The log, without JavaScript: chunk after chunk through the "more" links, to its end.
  let next = `${base}/runs/77?max_bytes=200`;
  let text = '';
  let chunks = 0;
  for (; chunks < 100; chunks++) {
    const r = await page(next);
    t.equal(r.status, 200);
    text += logText(r.text);
    if (r.text.includes('End of the log.')) break;
    const more = /<a href="([^"]+)" id="ci-log-more">/.exec(r.text)?.[1];
    if (!more) return t.fail('no more link and no end');
    next = `${more.replace(/&amp;/g, '&')}&max_bytes=200`;
  }
  t.ok(chunks > 5, `read in ${chunks + 1} chunks`);
  t.equal(text, SHOWN, 'the whole log, in order, once, without its escapes');
  const all = pages.slice(-chunks - 1).join('\n');
  t.notMatch(all, /<script>alert|<img src=x|javascript:/, 'no markup and no link from the log');
  t.match(all, '&lt;script&gt;alert(&quot;log&quot;)&lt;/script&gt;');
  t.match(all, '<span class="ansi-fg-2 ansi-bold">ok</span>');
  t.match(all, /<span class="ansi-fg-1">[^<]*still red 39/, 'a colour carried across chunks by the more link');
  // eslint-disable-next-line no-control-regex
  t.notMatch(all, /[\u0000-\u0008\u000b-\u001f]/, 'no control character reaches a page');

  // The page's JSON route: the same chunks, as [classes, text] runs.
  const chunk = await client.get(`${base}/runs/77/log?offset=0&max_bytes=40`);
  t.equal(chunk.status, 200);
  const body = JSON.parse(chunk.text) as { runs: [string, string][]; next_offset: number; style: string };
  t.strictSame(body.runs[0], ['ansi-fg-2 ansi-bold', 'ok']);
  t.equal(body.next_offset, 40);
  // An escape cut at a chunk's end is carried to the next, whatever the provider's offsets mean.
  const cut = JSON.parse((await client.get(`${base}/runs/77/log?offset=0&max_bytes=3`)).text);
  t.strictSame([cut.runs, cut.carry, cut.next_offset], [[], `${E}[1`, 3], 'nothing shown, the escape carried');
  const rest = await client.get(`${base}/runs/77/log?offset=3&max_bytes=10&carry=${encodeURIComponent(cut.carry)}`);
  t.strictSame(JSON.parse(rest.text).runs[0], ['ansi-fg-2 ansi-bold', 'ok'], 'and read whole with the next chunk');
  t.equal((await client.get(`${base}/runs/77/log?carry=%3Cscript%3E`)).status, 400, 'a carry is an escape or nothing');
  t.equal((await client.get(`${base}/runs/77/log?offset=-1`)).status, 400);
  t.equal((await client.get(`${base}/runs/77?offset=x`)).status, 400);

  // The provider down: the coded message on each page, never a 500.
  t.equal((await client.post(base, { ...link, url: `http://127.0.0.1:${await freePort()}` })).status, 303);
  const down = await page(base);
  t.equal(down.status, 200, 'the CI page still shows the link');
  t.match(down.text, 'ci_provider_down');
  const logDown = await page(`${base}/runs/77`);
  t.equal(logDown.status, 502);
  t.match(logDown.text, 'ci_provider_down');
  const startDown = await client.post(`${base}/runs`, { csrf });
  pages.push(startDown.text);
  t.equal(startDown.status, 502);
  t.match(startDown.text, 'ci_provider_down');
  const jsonDown = await client.get(`${base}/runs/77/log`);
  t.equal(jsonDown.status, 502);
  t.equal(JSON.parse(jsonDown.text).messages[0].code, 'ci_provider_down');
  t.equal((await page(`/profiles/${h.foreignProfileId}/ci/runs/77`)).status, 404, "another account's run");

  for (const p of pages) t.notOk(p.includes(token), 'the token is on no page');
});
