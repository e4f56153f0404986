/**
 * Notifications over HTTP, on both stores, with real receivers: webhook receivers on 127.0.0.1 (one
 * that answers, one slower than the send timeout, one down until a restart) and a real SMTP server
 * (aiosmtpd, scripts/smtp.ts). A rule on "a new failure" delivers exactly one POST for the import that
 * had new failures; "every import" and "an import that failed" and "a fix" fire when they should and
 * not otherwise; `suppress_notifications=true` sends nothing; a delivery to a receiver that is down
 * is retried after a restart of Tally and lands, with the same id; a slow receiver delays no import
 * and its delivery dies with its last error after the bounded attempts; a private address is refused
 * without the operator's allowance; and the webhook URL's secret is in no answer and no log line.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { builtinFormatters } from '../../formatters/index.js';
import { loadConfig } from '../../lib/config.js';
import { createTally } from '../../plugins/server.js';
import { freePort } from '../../scripts/mongo-wire.js';
import { startSmtp } from '../../scripts/smtp.js';
import { junitXml } from '../helpers/junit.js';
import { field, file, multipart } from '../helpers/multipart.js';
import { send, startTally, storeKinds, type Harness, type Reply } from '../helpers/tally.js';

interface Hit {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** An HTTP receiver on 127.0.0.1 keeping what it was sent; `hold` keeps requests unanswered. */
async function receiver(t: { teardown(f: () => unknown): void }, o: { hold?: boolean; port?: number } = {}) {
  const hits: Hit[] = [];
  const held: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hits.push({ path: req.url ?? '', headers: req.headers, body });
      if (o.hold) held.push(res);
      else res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(o.port ?? 0, '127.0.0.1', r));
  const close = () =>
    new Promise<void>((r) => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      server.close(() => r());
    });
  t.teardown(close);
  return { port: (server.address() as AddressInfo).port, hits, held, close };
}

const json = (h: Harness, method: string, p: string, body?: unknown): Promise<Reply> =>
  send(h.url, h.apiKey, {
    method,
    path: p,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });

async function upload(h: Harness, cases: { name: string; status?: 'failed' }[], extra: [string, string][] = []) {
  const { body, contentType } = multipart([
    field('ci_branch', 'main'),
    ...extra.map(([n, v]) => field(n, v)),
    file('file[]', 'TEST-a.xml', junitXml({ cases })),
  ]);
  return h.send({
    path: `/api/v2/profile/${h.profileNumber}/import/junit`,
    headers: { 'content-type': contentType },
    body,
  });
}

async function until(what: string, ok: () => Promise<boolean> | boolean): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`still waiting: ${what}`);
}

const PASSING = [{ name: 'one' }, { name: 'two' }, { name: 'three' }];
const FAILING = [
  { name: 'one' },
  { name: 'two', status: 'failed' as const },
  { name: 'three', status: 'failed' as const },
];

for (const kind of storeKinds(t)) {
  t.test(
    `${kind}: rules deliver what happened, once, to webhooks and e-mail; suppressed imports send nothing`,
    async (t) => {
      const secret = randomBytes(16).toString('hex');
      const lines: string[] = [];
      const ok = await receiver(t);
      const smtp = await startSmtp({ log: t.comment });
      t.teardown(() => smtp.stop());
      const h = await startTally(t, {
        store: kind,
        secretKey: randomBytes(32).toString('base64'),
        log: (event, data) => lines.push(JSON.stringify({ event, ...data })),
        env: {
          TALLY_SMTP_URL: smtp.url,
          TALLY_SMTP_FROM: 'Tally <tally@example.org>',
          TALLY_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
        },
      });
      const answers: Reply[] = [];
      const call = async (method: string, p: string, body?: unknown) => {
        const r = await json(h, method, p, body);
        answers.push(r);
        return r;
      };
      const base = `/api/v2/profiles/${h.profileNumber}/notifications`;
      const hook = (name: string) => `http://127.0.0.1:${ok.port}/hooks/${secret}/${name}`;

      const onNew = await call('POST', base, { events: ['new_failure'], webhook: hook('new'), format: 'json' });
      t.equal(onNew.status, 201, 'saved', { body: onNew.text });
      t.match(onNew.json, { events: ['new_failure'], format: 'json', email: null });
      t.equal(onNew.json.webhook, `http://127.0.0.1:${ok.port}/…/new`, 'the host and a masked tail only');
      const onEvery = await call('POST', base, { events: ['import'], webhook: hook('every'), format: 'slack' });
      t.equal(onEvery.status, 201);
      const onMail = await call('POST', base, { events: ['import_failed', 'fixed'], email: 'dev@example.org' });
      t.equal(onMail.status, 201, 'saved', { body: onMail.text });
      t.strictSame(onMail.json.email, ['dev@example.org']);
      const listed = await call('GET', base);
      t.strictSame(
        listed.json.rules.map((r: { id: string }) => r.id),
        [onNew.json.id, onEvery.json.id, onMail.json.id],
      );

      const settle = () => h.tally.notifications.idle();
      const hitsTo = (name: string) => ok.hits.filter((x) => x.path.endsWith(`/${name}`));

      // 1: all pass, the branch's first report: only "every import".
      t.equal((await upload(h, PASSING)).status, 201);
      await settle();
      t.equal(hitsTo('every').length, 1);
      t.equal(hitsTo('new').length, 0, 'nothing new failed');

      // 2: two tests fail that passed before: exactly one POST to the "new failure" rule.
      const second = await upload(h, FAILING);
      t.equal(second.status, 201);
      await settle();
      const news = hitsTo('new');
      t.equal(news.length, 1, 'exactly one POST for that import');
      const body = JSON.parse(news[0]!.body);
      t.equal(news[0]!.headers['x-tally-delivery'], body.id, 'the id a receiver drops repeats by');
      t.equal(news[0]!.headers['x-tally-event'], 'new_failure');
      t.match(news[0]!.headers['content-type'], /^application\/json/);
      t.match(body, {
        trigger: 'completed',
        events: ['new_failure'],
        profile: { id: h.profileNumber, name: 'main' },
        report: { id: second.json.report_id, status: 'failed', ci: { branch: 'main' } },
        import: null,
      });
      t.equal(body.changes.new_failures.total, 2);
      t.strictSame(body.changes.new_failures.tests.map((x: { title_path: string[] }) => x.title_path.at(-1)).sort(), [
        'three',
        'two',
      ]);
      t.match(body.changes.new_failures.tests[0].url, new RegExp(`/reports/${second.json.report_id}/nodes/\\d+$`));
      const slack = JSON.parse(hitsTo('every')[1]!.body);
      t.match(slack.text, `report #${second.json.report_id} failed`);
      t.match(slack.blocks[0].text.text, `report #${second.json.report_id} failed>*`, 'a link to the report');
      t.equal((await smtp.messages()).length, 0, 'no fix, no failed import: no e-mail');

      // 3: an import that fails: the e-mail rule and "every import".
      const broken = await h.send({
        path: `/api/v2/profile/${h.profileNumber}/import/junit`,
        headers: { 'content-type': 'application/xml' },
        body: '<testsuites><testsuite name="x"><testcase name="a">',
      });
      t.equal(broken.json.status, 'failed');
      await settle();
      const [failedMail, ...others] = await smtp.messages();
      t.equal(others.length, 0);
      t.strictSame(failedMail!.rcpt_tos, ['dev@example.org']);
      t.match(failedMail!.data, /^From: Tally <tally@example\.org>/m);
      t.match(failedMail!.data, /^Subject: =\?UTF-8\?/m);
      t.match(failedMail!.data, /main: an import failed \(report_validation_error\)/);
      t.match(failedMail!.data, broken.json.import_id, 'names the failed import');
      t.equal(hitsTo('every').length, 3);
      t.equal(JSON.parse(hitsTo('every')[2]!.body).text.includes('an import failed'), true);

      // 4: suppress_notifications=true: failing again, nothing is sent by any rule.
      const before = { hits: ok.hits.length, mails: (await smtp.messages()).length };
      const quiet = await upload(h, FAILING, [['suppress_notifications', 'true']]);
      t.equal(quiet.status, 201);
      await settle();
      t.equal(ok.hits.length, before.hits, 'no POST');
      t.equal((await smtp.messages()).length, before.mails, 'no e-mail');

      // 5: all pass again: two tests fixed, e-mailed.
      t.equal((await upload(h, PASSING)).status, 201);
      await settle();
      const mails = await smtp.messages();
      t.equal(mails.length, before.mails + 1);
      t.match(mails.at(-1)!.data, /Fixed:/);
      t.equal(hitsTo('new').length, 1, 'still the one POST of import 2');

      // The log: newest first, every delivery delivered at its first attempt, targets masked.
      const log = await call('GET', `${base}/deliveries?limit=50`);
      t.equal(log.status, 200);
      t.ok(log.json.deliveries.length >= 6);
      for (const d of log.json.deliveries) {
        t.match(d, { status: 'delivered', attempts: 1, last_error: null });
        t.equal(d.response_status, d.target.startsWith('e-mail') ? 250 : 200, 'the HTTP status, or the SMTP reply');
      }
      t.ok(log.json.deliveries.some((d: { target: string }) => d.target === 'e-mail dev@example.org'));
      const page = await call('GET', `${base}/deliveries?limit=2`);
      const next = await call('GET', `${base}/deliveries?limit=2&before=${encodeURIComponent(page.json.next_before)}`);
      t.not(next.json.deliveries[0].id, page.json.deliveries[1].id, 'the next page goes on');
      t.equal((await call('GET', `${base}/deliveries?limit=0`)).json.messages[0].code, 'invalid_query');

      // A test message, from the API; removing a rule; another account's profile.
      const test = await call('POST', `${base}/${onEvery.json.id}/test`);
      t.equal(test.status, 202);
      t.match(test.json, { trigger: 'test', status: 'pending' });
      await settle();
      t.match(JSON.parse(hitsTo('every').at(-1)!.body).text, 'a test notification');
      t.equal((await call('DELETE', `${base}/${onMail.json.id}`)).json.deleted, true);
      t.equal((await call('DELETE', `${base}/${onMail.json.id}`)).json.messages[0].code, 'notification_rule_not_found');
      t.equal((await call('GET', `/api/v2/profiles/${h.foreignProfileId}/notifications`)).status, 403);

      const everything = [...answers.map((a) => a.text), ...lines].join('\n');
      t.notOk(everything.includes(secret), "the URL's secret is in no answer and no log line");
      t.ok(
        lines.some((l) => l.includes('"notify.delivered"')),
        'deliveries are logged',
      );
    },
  );

  t.test(`${kind}: a receiver that is down gets the delivery after a restart of Tally`, async (t) => {
    const port = await freePort();
    let stopAfterFirst: (() => void) | null = null;
    const lines: string[] = [];
    const h = await startTally(t, {
      store: kind,
      secretKey: randomBytes(32).toString('base64'),
      log: (event, data) => {
        lines.push(JSON.stringify({ event, ...data }));
        // Stop sending at once after the first failed attempt, as a Tally that is shut down would.
        if (event === 'notify.retry') stopAfterFirst?.();
      },
      env: { TALLY_WEBHOOK_ALLOW_PRIVATE: '1', TALLY_NOTIFY_RETRY_MS: '200' },
    });
    stopAfterFirst = () => void h.tally.notifications.stop();
    const base = `/api/v2/profiles/${h.profileNumber}/notifications`;
    const rule = await json(h, 'POST', base, { events: ['import'], webhook: `http://localhost:${port}/in` });
    t.equal(rule.status, 201, 'saved', { body: rule.text });
    t.equal((await upload(h, PASSING)).status, 201);
    await until('the first attempt failed', () => lines.some((l) => l.includes('"notify.retry"')));
    await h.tally.notifications.idle();
    const [waiting] = (await json(h, 'GET', `${base}/deliveries`)).json.deliveries;
    t.match(waiting, {
      status: 'pending',
      attempts: 1,
      last_error: `localhost:${port} refused the connection (nothing listening)`,
    });

    stopAfterFirst = null;
    const up = await receiver(t, { port });
    await h.restart();
    await until(
      'delivered after the restart',
      async () => (await json(h, 'GET', `${base}/deliveries`)).json.deliveries[0].status === 'delivered',
    );
    const [landed] = (await json(h, 'GET', `${base}/deliveries`)).json.deliveries;
    t.match(landed, { id: waiting.id, status: 'delivered', attempts: 2, response_status: 200, last_error: null });
    t.equal(up.hits.length, 1, 'one POST');
    t.equal(up.hits[0]!.headers['x-tally-delivery'], waiting.id, 'under the id it was queued with');
  });

  t.test(`${kind}: a slow receiver delays no import; its delivery dies after its attempts`, async (t) => {
    const slow = await receiver(t, { hold: true });
    const h = await startTally(t, {
      store: kind,
      secretKey: randomBytes(32).toString('base64'),
      env: {
        TALLY_WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
        TALLY_NOTIFY_TIMEOUT_MS: '1000',
        TALLY_NOTIFY_RETRY_MS: '100',
        TALLY_NOTIFY_ATTEMPTS: '2',
      },
    });
    const base = `/api/v2/profiles/${h.profileNumber}/notifications`;
    const rule = await json(h, 'POST', base, { events: ['import'], webhook: `http://127.0.0.1:${slow.port}/slow` });
    t.equal(rule.status, 201);
    t.equal((await upload(h, PASSING)).status, 201);
    await until('the receiver holds the first request', () => slow.held.length === 1);
    const during = await upload(h, FAILING);
    t.equal(during.status, 201, 'an import is answered while the receiver holds a delivery');
    t.equal(slow.held.filter((r) => !r.writableEnded).length >= 1, true, 'the held request is still unanswered');
    await until('both deliveries are dead', async () => {
      const list = (await json(h, 'GET', `${base}/deliveries`)).json.deliveries;
      return list.length === 2 && list.every((d: { status: string }) => d.status === 'dead');
    });
    const dead = (await json(h, 'GET', `${base}/deliveries`)).json.deliveries;
    for (const d of dead)
      t.match(d, {
        status: 'dead',
        attempts: 2,
        last_error: `127.0.0.1:${slow.port} did not answer within 1 s`,
        next_attempt_at: null,
      });
    t.equal(slow.hits.length, 4, 'two attempts each');
  });

  t.test(
    `${kind}: private addresses are refused without the operator's allowance; keys and SMTP missing`,
    async (t) => {
      const h = await startTally(t, { store: kind, secretKey: randomBytes(32).toString('base64') });
      const base = `/api/v2/profiles/${h.profileNumber}/notifications`;
      const refuse = async (webhook: string, sentence: RegExp) => {
        const r = await json(h, 'POST', base, { events: ['import'], webhook });
        t.equal(r.status, 400, webhook);
        t.equal(r.json.messages[0].code, 'notification_url_refused');
        t.match(r.json.messages[0].message, sentence);
      };
      await refuse('http://127.0.0.1:9/hook', /127\.0\.0\.1 is a loopback address/);
      await refuse('http://localhost:9/hook', /localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
      await refuse('http://[::1]:9/hook', /::1 is a loopback address/);
      await refuse('https://10.1.2.3/hook', /private/);
      await refuse('https://169.254.169.254/latest/meta-data', /link-local/);
      await refuse('https://[fd00::1]/hook', /unique local/);
      await refuse('https://[::ffff:192.168.0.1]/hook', /private/);
      const bad = await json(h, 'POST', base, { events: ['soon'], webhook: 'https://hooks.example.org/x' });
      t.equal(bad.json.messages[0].code, 'notification_rule_invalid');
      t.match(bad.json.messages[0].message, /"events" must list one or more of/);
      const mail = await json(h, 'POST', base, { events: ['import'], email: 'dev@example.org' });
      t.equal(mail.status, 503);
      t.equal(mail.json.messages[0].code, 'notification_smtp_missing');
      t.strictSame((await json(h, 'GET', base)).json.rules, [], 'nothing was saved');

      const keyless = await startTally(t, { store: kind, env: { TALLY_WEBHOOK_ALLOW_PRIVATE: '1' } });
      const r = await json(keyless, 'POST', `/api/v2/profiles/${keyless.profileNumber}/notifications`, {
        events: ['import'],
        webhook: 'https://hooks.example.org/services/x',
      });
      t.equal(r.status, 503);
      t.equal(r.json.messages[0].code, 'notification_secret_key_missing');

      // Once a webhook rule exists, a Tally without the key that sealed its URL refuses to start.
      const open = await startTally(t, {
        store: kind,
        secretKey: randomBytes(32).toString('base64'),
        env: { TALLY_WEBHOOK_ALLOW_PRIVATE: '1' },
      });
      const saved = await json(open, 'POST', `/api/v2/profiles/${open.profileNumber}/notifications`, {
        events: ['import'],
        webhook: 'https://hooks.example.org/services/x',
      });
      t.equal(saved.status, 201);
      const config = { ...loadConfig({ TALLY_DATA_DIR: open.dataDir }), port: 0, host: '127.0.0.1', parseWorkers: 0 };
      const without = await createTally({
        config,
        store: open.store,
        formatters: builtinFormatters,
        log: () => undefined,
      });
      await t.rejects(without.start(), { message: /^TALLY_SECRET_KEY is not set, but 1 notification rule\(s\)/ });
      await without.stop();
    },
  );
}
