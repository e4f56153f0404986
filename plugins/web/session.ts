/**
 * Sessions of people in the browser: the `tally-session` auth scheme, the cookies, and CSRF.
 *
 * - The cookie holds 32 random bytes; the store keeps only their SHA-256, so a copy of the database
 *   signs nobody in. HttpOnly, SameSite=Lax, Secure when TALLY_PUBLIC_URL is https.
 * - CSRF: every non-GET request of a signed-in page must carry the session's token (form field
 *   `csrf`, header `x-csrf-token`, or `csrf` in the query of the upload form, whose body is a
 *   stream); the sign-in form, which has no session yet, uses a double-submit cookie. A request whose
 *   Origin is another site is refused first.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, ResponseObject, ResponseToolkit, Server, ServerAuthScheme, Lifecycle } from '@hapi/hapi';
import Boom from '@hapi/boom';
import type { Session, User } from '../../lib/store/types.js';
import type { Store } from '../../lib/store/store.js';
import { baseUrl } from '../profiles.js';

export const SESSION_COOKIE = 'tally_session';
export const SIGNIN_CSRF_COOKIE = 'tally_signin';
/** A session lasts this long from sign-in; signing in again starts a new one. */
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface WebCredentials {
  accountId: string;
  userId: string;
  email: string;
  csrfToken: string;
  sessionHash: string;
  mustChangePassword: boolean;
}

/** Per-route settings under `options.plugins['tally-web']`. */
export interface WebRouteSettings {
  /** The route answers while the password must still be changed (the change form, sign-out). */
  beforePasswordChange?: boolean;
  /** A sign-in form post: checked against the double-submit cookie, not a session. */
  signin?: boolean;
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function settingsOf(request: Request): WebRouteSettings | null {
  return (
    ((request.route.settings.plugins as Record<string, unknown> | undefined)?.['tally-web'] as
      WebRouteSettings | undefined) ?? null
  );
}

export function credentialsOf(request: Request): WebCredentials {
  return request.auth.credentials as unknown as WebCredentials;
}

export function registerSessions(
  server: Server,
  o: {
    store: Store;
    publicUrl: string | null;
    fault: (h: ResponseToolkit, code: 'session_required' | 'csrf_rejected') => ResponseObject;
  },
): void {
  const secure = (o.publicUrl ?? '').startsWith('https:');
  const cookie = {
    isSecure: secure,
    isHttpOnly: true,
    isSameSite: 'Lax' as const,
    path: '/',
    encoding: 'none' as const,
    strictHeader: true,
    clearInvalid: true,
    ignoreErrors: true,
  };
  server.state(SESSION_COOKIE, { ...cookie, ttl: SESSION_TTL_MS });
  server.state(SIGNIN_CSRF_COOKIE, { ...cookie, ttl: 60 * 60 * 1000 });

  const scheme: ServerAuthScheme = () => ({
    async authenticate(request, h) {
      const away = (): Lifecycle.ReturnValue => {
        // `try` routes (the sign-in page) go on without a session.
        if (request.auth.mode === 'try') return h.unauthenticated(Boom.unauthorized(null, 'tally-session'));
        // Pages send people to sign in and back; scripts and forms get a coded 401.
        if (request.method !== 'get' || request.headers['x-requested-with'])
          return o.fault(h, 'session_required').takeover();
        const next = request.url.pathname + request.url.search;
        return h
          .redirect(`/signin?next=${encodeURIComponent(next)}`)
          .unstate(SESSION_COOKIE)
          .takeover();
      };
      const token = (request.state as Record<string, unknown> | null)?.[SESSION_COOKIE];
      if (typeof token !== 'string' || token.length === 0 || token.length > 100) return away();
      const session = await o.store.sessions.find(tokenHash(token));
      if (!session || session.expiresAt < new Date().toISOString()) return away();
      const user = await o.store.users.get(session.userId);
      if (!user || user.accountId !== session.accountId) return away();
      if (user.mustChangePassword && !settingsOf(request)?.beforePasswordChange) {
        if (request.method !== 'get') return o.fault(h, 'session_required').takeover();
        return h.redirect('/account/password').takeover();
      }
      const credentials: WebCredentials = {
        accountId: user.accountId,
        userId: user.id,
        email: user.email,
        csrfToken: session.csrfToken,
        sessionHash: session.idHash,
        mustChangePassword: user.mustChangePassword,
      };
      return h.authenticated({ credentials: credentials as never });
    },
  });
  server.auth.scheme('tally-session', scheme);
  server.auth.strategy('session', 'tally-session');

  // After auth and payload parsing: every state-changing web request proves it comes from our page.
  server.ext('onPostAuth', (request, h) => {
    const settings = settingsOf(request);
    if (!settings || request.method === 'get' || request.method === 'head') return h.continue;
    const origin = request.headers.origin;
    if (origin && origin !== 'null' && origin !== baseUrl(request, o.publicUrl))
      return o.fault(h, 'csrf_rejected').takeover();
    if (origin === 'null') return o.fault(h, 'csrf_rejected').takeover();
    const payload = request.payload as Record<string, unknown> | null;
    const sent =
      (request.headers['x-csrf-token'] as string | undefined) ??
      (payload && typeof payload === 'object' && !Buffer.isBuffer(payload) && typeof payload.csrf === 'string'
        ? payload.csrf
        : undefined) ??
      (typeof request.query.csrf === 'string' ? request.query.csrf : undefined);
    const expected = settings.signin
      ? ((request.state as Record<string, unknown> | null)?.[SIGNIN_CSRF_COOKIE] as string | undefined)
      : request.auth.isAuthenticated
        ? credentialsOf(request).csrfToken
        : undefined;
    if (!sent || !expected || !sameToken(sent, expected)) return o.fault(h, 'csrf_rejected').takeover();
    return h.continue;
  });
}

/** Starts a session for the user; returns the cookie value. */
export async function startSession(store: Store, user: User): Promise<string> {
  const token = newToken();
  const now = Date.now();
  const session: Session = {
    idHash: tokenHash(token),
    userId: user.id,
    accountId: user.accountId,
    csrfToken: newToken(),
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + SESSION_TTL_MS).toISOString(),
  };
  await store.sessions.add(session);
  // Housekeeping at a moment that is rare and not on a page's path.
  await store.sessions.deleteExpired(new Date(now).toISOString());
  return token;
}
