/**
 * One e-mail of a delivery, through the operator's SMTP server (`TALLY_SMTP_URL`, lib/notify/config.ts)
 * with nodemailer: TLS from the first byte for `smtps://`, STARTTLS for `smtp://` when offered and
 * required when the URL has a user, the server's certificate verified. The Message-ID is made from
 * the delivery's id, so a mailbox or a filter can tell a repeat. A 5xx reply is final; anything else
 * (a 4xx, no connection, no answer in time) is worth another attempt. No log of nodemailer's own.
 */
import { createTransport } from 'nodemailer';
import type { SmtpSettings } from './config.js';
import { DeliveryFailure } from './webhook.js';

export interface Mail {
  from: string;
  to: readonly string[];
  subject: string;
  text: string;
  /** The delivery's id: Message-ID `<id@tally>` and header X-Tally-Delivery. */
  deliveryId: string;
}

export interface MailOptions {
  timeoutMs: number;
  /** Extra certificate authorities to trust (tests with their own CA); the system's are always trusted. */
  ca?: string;
}

/** Sends the mail; resolves to the server's reply code (250), else throws a DeliveryFailure. */
export async function sendMail(smtp: SmtpSettings, mail: Mail, o: MailOptions): Promise<number> {
  const password = smtp.password();
  const transport = createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    requireTLS: smtp.requireStartTls,
    ...(smtp.user ? { auth: { user: smtp.user, pass: password ?? '' } } : {}),
    connectionTimeout: o.timeoutMs,
    greetingTimeout: o.timeoutMs,
    socketTimeout: o.timeoutMs,
    ...(o.ca ? { tls: { ca: o.ca } } : {}),
    logger: false,
    debug: false,
  });
  try {
    const info = await transport.sendMail({
      from: mail.from,
      to: [...mail.to],
      subject: mail.subject,
      text: mail.text,
      messageId: `<${mail.deliveryId}@tally>`,
      headers: { 'X-Tally-Delivery': mail.deliveryId },
    });
    return Number.parseInt(String(info.response), 10) || 250;
  } catch (e) {
    const err = e as Error & { code?: string; responseCode?: number; response?: string };
    const where = `the SMTP server ${smtp.host}:${smtp.port}`;
    if (err.responseCode) {
      const reply = (err.response ?? '').replace(/\s+/g, ' ').slice(0, 200);
      throw new DeliveryFailure(
        `${where} answered ${reply || err.responseCode}`,
        err.responseCode < 500,
        err.responseCode,
      );
    }
    const what =
      err.code === 'ETIMEDOUT'
        ? `did not answer within ${o.timeoutMs / 1000} s`
        : err.code === 'ETLS' || /certificate|TLS/i.test(err.message)
          ? `could not be reached over TLS (${err.message.slice(0, 160)})`
          : `could not be reached (${err.code ?? err.name}: ${err.message.slice(0, 160)})`;
    throw new DeliveryFailure(`${where} ${what}`, true);
  } finally {
    transport.close();
  }
}
