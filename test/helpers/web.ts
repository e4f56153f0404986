/** A person's browser over plain HTTP: cookies kept, forms posted with their CSRF token. */
import { createUserWithPassword } from '../../lib/users.js';
import { CHROMIUM, launchBrowser, type Browser } from '../../scripts/browser.js';
import { send, type Harness, type Reply } from './tally.js';

export class WebClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly base: string) {}

  async get(path: string, headers: Record<string, string> = {}): Promise<Reply> {
    return this.#keep(
      await send(this.base, '', { method: 'GET', path, noKey: true, headers: { ...this.#cookieHeader(), ...headers } }),
    );
  }

  async post(
    path: string,
    form: Record<string, string> | URLSearchParams,
    headers: Record<string, string> = {},
  ): Promise<Reply> {
    const body = new URLSearchParams(form).toString();
    return this.#keep(
      await send(this.base, '', {
        method: 'POST',
        path,
        noKey: true,
        body,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...this.#cookieHeader(), ...headers },
      }),
    );
  }

  /** The CSRF token of a page's first form. */
  static csrfOf(reply: Reply): string {
    const m = /name="csrf" value="([^"]+)"/.exec(reply.text);
    if (!m) throw new Error(`no csrf field on the page (status ${reply.status})`);
    return m[1]!;
  }

  #cookieHeader(): Record<string, string> {
    return this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {};
  }

  #keep(reply: Reply): Reply {
    const set = reply.headers['set-cookie'] ?? [];
    for (const line of set) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return reply;
  }
}

export const NEW_PASSWORD = 'a new password for tests';

/** A user of the harness account, signed in, password changed; the client holds the session. */
export async function signedIn(
  h: Harness,
  email = `dev-${Math.random().toString(36).slice(2)}@example.com`,
  accountId = h.accountId,
): Promise<{ client: WebClient; email: string; csrf: string }> {
  const { password } = await createUserWithPassword(h.store, accountId, email);
  const client = new WebClient(h.url);
  const form = await client.get('/signin');
  const signin = await client.post('/signin', { email, password, csrf: WebClient.csrfOf(form) });
  if (signin.status !== 302) throw new Error(`sign-in answered ${signin.status}`);
  const change = await client.get('/account/password');
  const changed = await client.post('/account/password', {
    csrf: WebClient.csrfOf(change),
    current: password,
    password: NEW_PASSWORD,
    confirm: NEW_PASSWORD,
  });
  if (changed.status !== 302) throw new Error(`password change answered ${changed.status}`);
  const page = await client.get('/profiles');
  return { client, email, csrf: WebClient.csrfOf(page) };
}

/**
 * The chromium a browser test file shares between its tests, closed when the file ends; null (and a
 * failure, never a skip) when it does not start.
 */
export async function fileBrowser(t: {
  fail(message: string): void;
  teardown(fn: () => unknown): void;
}): Promise<Browser | null> {
  let browser: Browser | null = null;
  try {
    browser = await launchBrowser();
  } catch (e) {
    t.fail(`chromium did not start (${CHROMIUM}): ${(e as Error).message}`);
  }
  t.teardown(() => browser?.close());
  return browser;
}
