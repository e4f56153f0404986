/**
 * The operator's notification settings, from the environment at start: the SMTP server and the From
 * address of e-mails, which webhook addresses an operator allows beyond the public internet, and the
 * send timeout and retry schedule. A bad value fails at boot with a sentence naming the variable,
 * never repeating a password.
 */
import { inspect } from 'node:util';
import { BlockList, isIP } from 'node:net';
import os from 'node:os';

/**
 * `TALLY_SMTP_URL` read: `smtps://` is TLS from the first byte (port 465 by default); `smtp://`
 * upgrades with STARTTLS whenever the server offers it, and must when the URL carries a user, so a
 * password never crosses in clear (port 587 by default). `?starttls=required` asks for it without a
 * user too. The password is held where neither JSON nor a log line reaches it.
 */
export class SmtpSettings {
  readonly #password: string | null;
  constructor(
    readonly host: string,
    readonly port: number,
    readonly secure: boolean,
    readonly requireStartTls: boolean,
    readonly user: string | null,
    password: string | null,
  ) {
    this.#password = password;
  }
  /** @internal for the mail sender only. */
  password(): string | null {
    return this.#password;
  }
  toJSON(): string {
    return `[smtp ${this.secure ? 'smtps' : 'smtp'}://${this.user ? `${this.user}:…@` : ''}${this.host}:${this.port}]`;
  }
  toString(): string {
    return this.toJSON();
  }
  [inspect.custom](): string {
    return this.toJSON();
  }
}

export interface NotifyConfig {
  smtp: SmtpSettings | null;
  /** `TALLY_SMTP_FROM`, else `Tally <tally@host>` with the host of TALLY_PUBLIC_URL or the machine's name. */
  from: string;
  /** `TALLY_WEBHOOK_ALLOW_PRIVATE=1`: any address; else only public ones and `allowCidrs`. */
  allowPrivate: boolean;
  /** `TALLY_WEBHOOK_ALLOW_CIDRS`: ranges allowed although private (`10.1.0.0/16,fd00::/8`); null when none. */
  allowCidrs: BlockList | null;
  /** The CIDRs as given, for messages. */
  allowCidrsText: string[];
  /** One attempt's limit, connection to answer (`TALLY_NOTIFY_TIMEOUT_MS`, 10 s). */
  timeoutMs: number;
  /** The wait before the first retry, doubled for each next one (`TALLY_NOTIFY_RETRY_MS`, 30 s). */
  retryMs: number;
  /** Attempts before a delivery is dead (`TALLY_NOTIFY_ATTEMPTS`, 8: the last about an hour after the first). */
  attempts: number;
}

export const NOTIFY_DEFAULTS = { timeoutMs: 10_000, retryMs: 30_000, attempts: 8 } as const;

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0 || n > max)
    throw new Error(`${name} must be a whole number from 1 to ${max}, got "${raw}"`);
  return n;
}

export function parseSmtpUrl(raw: string, name = 'TALLY_SMTP_URL'): SmtpSettings {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw new Error(`${name} must be a URL such as smtp://user:password@mail.example.org:587 or smtps://…`);
  }
  if (u.protocol !== 'smtp:' && u.protocol !== 'smtps:')
    throw new Error(`${name} must start with smtp:// (STARTTLS) or smtps:// (TLS), not ${u.protocol}//`);
  if (!u.hostname) throw new Error(`${name} names no host`);
  const secure = u.protocol === 'smtps:';
  const starttls = u.searchParams.get('starttls');
  if (starttls !== null && starttls !== 'required')
    throw new Error(`${name}: the only starttls value is "required" (an smtp:// URL with a user requires it anyway)`);
  const user = u.username ? decodeURIComponent(u.username) : null;
  const host = u.hostname.replace(/^\[|\]$/g, '');
  return new SmtpSettings(
    host,
    u.port ? Number(u.port) : secure ? 465 : 587,
    secure,
    !secure && (user !== null || starttls === 'required'),
    user,
    u.password ? decodeURIComponent(u.password) : null,
  );
}

/** `10.0.0.0/8, fd00::/8, 192.168.1.7` as a BlockList (a lone address is its own /32 or /128). */
export function parseCidrs(raw: string, name = 'TALLY_WEBHOOK_ALLOW_CIDRS'): { list: BlockList; text: string[] } {
  const list = new BlockList();
  const text: string[] = [];
  for (const item of raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [address, bits, extra] = item.split('/');
    const family = isIP(address ?? '');
    const prefix = bits === undefined ? (family === 6 ? 128 : 32) : Number(bits);
    if (!family || extra !== undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > (family === 6 ? 128 : 32))
      throw new Error(`${name}: "${item}" is not an address or CIDR range (e.g. 10.0.0.0/8, fd00::/8)`);
    list.addSubnet(address!, prefix, family === 6 ? 'ipv6' : 'ipv4');
    text.push(item);
  }
  return { list, text };
}

export function loadNotifyConfig(env: NodeJS.ProcessEnv): NotifyConfig {
  const cidrs = env.TALLY_WEBHOOK_ALLOW_CIDRS ? parseCidrs(env.TALLY_WEBHOOK_ALLOW_CIDRS) : null;
  const allow = env.TALLY_WEBHOOK_ALLOW_PRIVATE;
  if (allow !== undefined && allow !== '' && allow !== '0' && allow !== '1')
    throw new Error(`TALLY_WEBHOOK_ALLOW_PRIVATE must be 1 (allow) or 0, got "${allow}"`);
  let host = os.hostname();
  try {
    if (env.TALLY_PUBLIC_URL) host = new URL(env.TALLY_PUBLIC_URL).hostname;
  } catch {
    // A bad public URL is refused where it is read; the From address only borrows its host.
  }
  return {
    smtp: env.TALLY_SMTP_URL ? parseSmtpUrl(env.TALLY_SMTP_URL) : null,
    from: env.TALLY_SMTP_FROM?.trim() || `Tally <tally@${host}>`,
    allowPrivate: allow === '1',
    allowCidrs: cidrs?.list ?? null,
    allowCidrsText: cidrs?.text ?? [],
    timeoutMs: positive(env, 'TALLY_NOTIFY_TIMEOUT_MS', NOTIFY_DEFAULTS.timeoutMs, 600_000),
    retryMs: positive(env, 'TALLY_NOTIFY_RETRY_MS', NOTIFY_DEFAULTS.retryMs, 86_400_000),
    attempts: positive(env, 'TALLY_NOTIFY_ATTEMPTS', NOTIFY_DEFAULTS.attempts, 30),
  };
}
