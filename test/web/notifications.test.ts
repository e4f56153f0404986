/**
 * The notifications page: add a webhook rule and an e-mail rule through the form (refused without the
 * CSRF token; a refused form shown again without the URL), send a test and see it in the delivery
 * log, remove a rule; the webhook URL's secret on no page; another account's profile not found.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { startTally } from '../helpers/tally.js';
import { signedIn } from '../helpers/web.js';

t.test('rules are added, tested and removed on the page; the URL is on no page', async (t) => {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    req.resume();
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise((r) => server.close(r)));
  const port = (server.address() as AddressInfo).port;
  const h = await startTally(t, {
    secretKey: randomBytes(32).toString('hex'),
    env: { TALLY_WEBHOOK_ALLOW_CIDRS: '127.0.0.1', TALLY_SMTP_URL: 'smtp://127.0.0.1:2525' },
  });
  const { client, csrf } = await signedIn(h);
  const secret = randomBytes(12).toString('hex');
  const path = `/profiles/${h.profileNumber}/notifications`;
  const pages: string[] = [];
  const get = async (p: string) => {
    const r = await client.get(p);
    pages.push(r.text);
    return r;
  };
  const post = async (p: string, form: [string, string][]) => {
    const r = await client.post(p, new URLSearchParams(form));
    pages.push(r.text);
    return r;
  };

  const empty = await get(path);
  t.equal(empty.status, 200);
  t.match(empty.text, 'No rules yet.');
  t.match(empty.text, new RegExp(`href="${path}"\\s+aria-current="page"`), 'the Notifications tab is current');
  t.match(empty.text, 'Nothing sent yet.');

  const webhook = `http://127.0.0.1:${port}/hooks/${secret}/tally`;
  const form: [string, string][] = [
    ['events', 'new_failure'],
    ['events', 'import'],
    ['webhook', webhook],
    ['format', 'slack'],
    ['email', ''],
  ];
  t.equal((await post(path, form)).status, 403, 'without the CSRF token');
  t.strictSame(await h.store.notificationRules.list(h.profileId), []);

  const saved = await post(path, [...form, ['csrf', csrf]]);
  t.equal(saved.status, 303);
  t.equal(saved.headers.location, path);
  const [rule] = await h.store.notificationRules.list(h.profileId);
  t.strictSame(rule!.events, ['import', 'new_failure']);
  t.match(rule!.target, { kind: 'webhook', format: 'slack', hint: `http://127.0.0.1:${port}/…ally` });
  const listed = await get(path);
  t.match(listed.text, 'Notification rule added.');
  t.match(listed.text, 'Every import, A new failure');
  t.match(listed.text, `Slack webhook <code>http://127.0.0.1:${port}/…ally</code>`);

  const refused = await post(path, [
    ['events', 'import'],
    ['webhook', `http://10.0.0.1/${secret}`],
    ['format', 'json'],
    ['csrf', csrf],
  ]);
  t.equal(refused.status, 400);
  t.match(refused.text, 'notification_url_refused');
  t.match(refused.text, '10.0.0.1 is a private address');
  t.match(refused.text, /value="import" checked/, 'the chosen events are kept');

  const both = await post(path, [
    ['events', 'import_failed'],
    ['webhook', webhook],
    ['email', 'dev@example.org'],
    ['csrf', csrf],
  ]);
  t.equal(both.status, 400);
  t.match(both.text, 'notification_rule_invalid');
  t.match(both.text, 'value="dev@example.org"', 'the addresses typed are kept');

  const mail = await post(path, [
    ['events', 'import_failed'],
    ['email', 'dev@example.org, qa@example.org'],
    ['format', 'json'],
    ['csrf', csrf],
  ]);
  t.equal(mail.status, 303);
  t.equal((await h.store.notificationRules.list(h.profileId)).length, 2);

  t.equal((await post(`${path}/${rule!.id}/test`, [['csrf', csrf]])).status, 303);
  await h.tally.notifications.idle();
  t.strictSame(hits, [`/hooks/${secret}/tally`], 'the test reached the receiver');
  const logged = await get(path);
  t.match(logged.text, 'A test message is on its way');
  t.match(logged.text, /<span class="ci-status notify-delivered">delivered<\/span>/);

  t.equal((await post(`${path}/${rule!.id}/delete`, [['csrf', csrf]])).status, 303);
  t.equal((await h.store.notificationRules.list(h.profileId)).length, 1);
  t.match((await get(path)).text, 'Notification rule removed.');
  t.equal((await post(`${path}/${rule!.id}/delete`, [['csrf', csrf]])).status, 404, 'gone');
  t.equal((await get(`/profiles/${h.foreignProfileId}/notifications`)).status, 404, "another account's profile");

  for (const page of pages) t.notOk(page.includes(secret), "the URL's secret is on no page");
});
