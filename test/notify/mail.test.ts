/**
 * The mail sender (lib/notify/mail.ts) against a real SMTP server (aiosmtpd, scripts/smtp.ts): plain,
 * STARTTLS with a login, TLS from the first byte with a login; the message read back as the server
 * received it (From, To, Subject, the Message-ID made from the delivery id, the text); a refused
 * mailbox is final, a wrong password and a dead server are worth another try; and a URL with a user
 * never sends its password in clear to a server that offers no STARTTLS.
 */
import t from 'tap';
import { parseSmtpUrl } from '../../lib/notify/config.js';
import { sendMail, type Mail } from '../../lib/notify/mail.js';
import { DeliveryFailure } from '../../lib/notify/webhook.js';
import { freePort } from '../../scripts/mongo-wire.js';
import { startSmtp, type SmtpMode } from '../../scripts/smtp.js';

const mail = (id: string, to = ['dev@example.org']): Mail => ({
  from: 'Tally <tally@example.org>',
  to,
  subject: 'Tally · web: report #7 failed, 2 new failures — größe ✓',
  text: 'Tally · web: report #7 failed\n\n.leading dot\n2 passed, 2 failed\n',
  deliveryId: id,
});

const failure = async (p: Promise<unknown>): Promise<DeliveryFailure> => {
  try {
    await p;
  } catch (e) {
    if (e instanceof DeliveryFailure) return e;
    throw e;
  }
  throw new Error('expected a DeliveryFailure');
};

for (const [mode, login] of [
  ['plain', false],
  ['starttls', true],
  ['smtps', true],
] as [SmtpMode, boolean][]) {
  t.test(`${mode}${login ? ' with a login' : ''}: the message arrives as sent`, async (t) => {
    const server = await startSmtp({ mode, login, log: t.comment });
    t.teardown(() => server.stop());
    const smtp = parseSmtpUrl(server.url);
    t.equal(smtp.secure, mode === 'smtps');
    t.equal(smtp.requireStartTls, mode === 'starttls', 'STARTTLS required where a password would cross');
    const id = 'd2b7c1a0-0000-4000-8000-000000000001';
    const code = await sendMail(smtp, mail(id, ['dev@example.org', 'qa@example.org']), {
      timeoutMs: 10_000,
      ...(server.ca ? { ca: server.ca } : {}),
    });
    t.equal(code, 250);
    const [got, ...more] = await server.messages();
    t.equal(more.length, 0, 'one message');
    t.equal(got!.mail_from, 'tally@example.org');
    t.strictSame(got!.rcpt_tos, ['dev@example.org', 'qa@example.org']);
    t.equal(got!.tls, mode !== 'plain', 'over TLS unless plain');
    t.equal(got!.login, login ? 'tally' : null);
    t.match(got!.data, `Message-ID: <${id}@tally>`);
    t.match(got!.data, `X-Tally-Delivery: ${id}`);
    t.match(got!.data, /^Subject: =\?UTF-8\?/m, 'a subject beyond ASCII is encoded');
    t.match(got!.data, /leading dot/);
    t.notMatch(got!.data, /pw-/, 'no password in the message');
  });
}

t.test('a refused mailbox is final; a wrong password and a dead server are worth another try', async (t) => {
  const server = await startSmtp({ mode: 'starttls', login: true, log: t.comment });
  t.teardown(() => server.stop());
  const o = { timeoutMs: 10_000, ca: server.ca! };
  const refused = await failure(sendMail(parseSmtpUrl(server.url), mail('r1', ['reject@example.org']), o));
  t.equal(refused.retry, false, 'a 5xx is final');
  t.equal(refused.status, 550);
  t.match(refused.message, /127\.0\.0\.1/);

  const wrong = parseSmtpUrl(server.url.replace(/:pw-[^@]+@/, ':not-the-password@'));
  const denied = await failure(sendMail(wrong, mail('r2'), o));
  t.equal(denied.retry, false, 'a 535 is a 5xx too');
  t.notMatch(denied.message, /not-the-password/, 'the password is not in the sentence');

  const dead = parseSmtpUrl(`smtp://127.0.0.1:${await freePort()}`);
  const down = await failure(sendMail(dead, mail('r3'), { timeoutMs: 5_000 }));
  t.equal(down.retry, true);
  t.match(down.message, /could not be reached/);
  t.equal((await server.messages()).length, 0, 'nothing was accepted');
});

t.test('a URL with a user never logs in over a connection without TLS', async (t) => {
  const server = await startSmtp({ mode: 'plain', log: t.comment });
  t.teardown(() => server.stop());
  const smtp = parseSmtpUrl(`smtp://someone:secret-pw@127.0.0.1:${server.port}`);
  t.equal(smtp.requireStartTls, true);
  const refused = await failure(sendMail(smtp, mail('s1'), { timeoutMs: 10_000 }));
  t.equal(refused.retry, true);
  t.notMatch(refused.message, /secret-pw/);
  t.equal((await server.messages()).length, 0, 'nothing sent');
  t.notMatch(JSON.stringify(smtp), /secret-pw/, 'the settings never show the password');
});

t.test('TALLY_SMTP_URL is read or refused with a sentence', async (t) => {
  t.match(parseSmtpUrl('smtp://mail.example.org'), { host: 'mail.example.org', port: 587, secure: false, user: null });
  t.match(parseSmtpUrl('smtps://u%40x:p@mail.example.org'), { port: 465, secure: true, user: 'u@x' });
  t.match(parseSmtpUrl('smtp://mail.example.org:25?starttls=required'), { port: 25, requireStartTls: true });
  t.throws(() => parseSmtpUrl('http://mail.example.org'), /smtp:\/\/ \(STARTTLS\) or smtps:\/\//);
  t.throws(() => parseSmtpUrl('smtp://h?starttls=maybe'), /starttls/);
  t.throws(() => parseSmtpUrl('not a url'), /must be a URL/);
});
