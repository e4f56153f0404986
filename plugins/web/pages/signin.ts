/**
 * Sign-in, sign-out and the password change a one-time password leads to. Failed sign-ins count per
 * address and per e-mail address in a FailureWindow (the same brute-force guard as API keys).
 */
import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { FailureWindow } from '../../../lib/limits/rate.js';
import {
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  burnVerification,
  hashPassword,
  verifyPassword,
} from '../../../lib/passwords.js';
import { message } from '../../../lib/messages.js';
import type { WebContext } from '../context.js';
import { html } from '../html.js';
import { messageList, page } from '../layout.js';
import {
  SESSION_COOKIE,
  SIGNIN_CSRF_COOKIE,
  credentialsOf,
  newToken,
  startSession,
  type WebRouteSettings,
} from '../session.js';
import { FORM_PAYLOAD, respond } from './common.js';

/** Only a path on this site: `//evil.example` and absolute URLs fall back to the profiles. */
function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/(?![/\\])/.test(next) && next.length < 2000 ? next : '/profiles';
}

export function signinRoutes(ctx: WebContext): ServerRoute[] {
  const perAddress = new FailureWindow(ctx.signinFailuresPerMinute, 60_000);
  const perEmail = new FailureWindow(ctx.signinFailuresPerMinute, 60_000);
  const web = (s: WebRouteSettings = {}) => ({ 'tally-web': s });

  const form = (csrf: string, next: string, email = '', error: ReturnType<typeof messageList> | null = null) =>
    page(
      ctx,
      { title: 'Sign in' },
      html`<section class="narrow">
        <h1>Sign in to Tally</h1>
        ${error}
        <form method="post" action="/signin" class="stack">
          <input type="hidden" name="csrf" value="${csrf}" />
          <input type="hidden" name="next" value="${next}" />
          <label
            >E-mail address <input type="email" name="email" autocomplete="username" required value="${email}"
          /></label>
          <label>Password <input type="password" name="password" autocomplete="current-password" required /></label>
          <button type="submit">Sign in</button>
        </form>
        <p class="muted">
          No user yet? An operator runs <code>tally user create --account ID EMAIL</code>, which prints a one-time
          password.
        </p>
      </section>`,
    );

  const passwordForm = (
    csrf: string,
    email: string,
    forced: boolean,
    error: ReturnType<typeof messageList> | null = null,
  ) =>
    page(
      ctx,
      { title: 'Choose a password', user: null },
      html`<section class="narrow">
        <h1>${forced ? 'Choose your password' : 'Change your password'}</h1>
        ${
          forced
            ? html`<p>
                You signed in as <strong>${email}</strong> with a one-time password. Choose your own to go on.
              </p>`
            : ''
        }
        ${error}
        <form method="post" action="/account/password" class="stack">
          <input type="hidden" name="csrf" value="${csrf}" />
          <label
            >Current password <input type="password" name="current" autocomplete="current-password" required
          /></label>
          <label
            >New password (at least ${MIN_PASSWORD_LENGTH} characters)
            <input
              type="password"
              name="password"
              autocomplete="new-password"
              minlength="${MIN_PASSWORD_LENGTH}"
              required
          /></label>
          <label
            >New password again
            <input
              type="password"
              name="confirm"
              autocomplete="new-password"
              minlength="${MIN_PASSWORD_LENGTH}"
              required
          /></label>
          <button type="submit">Save the password</button>
        </form>
      </section>`,
    );

  return [
    {
      method: 'GET',
      path: '/signin',
      options: { auth: { mode: 'try', strategy: 'session' }, plugins: web() },
      handler: (request, h) => {
        if (request.auth.isAuthenticated) return h.redirect(safeNext(request.query.next));
        const existing = (request.state as Record<string, unknown> | null)?.[SIGNIN_CSRF_COOKIE];
        const csrf = typeof existing === 'string' && existing.length === 43 ? existing : newToken();
        return respond(h, form(csrf, safeNext(request.query.next))).state(SIGNIN_CSRF_COOKIE, csrf);
      },
    },
    {
      method: 'POST',
      path: '/signin',
      options: {
        auth: false,
        plugins: web({ signin: true }),
        payload: FORM_PAYLOAD,
        validate: {
          payload: Joi.object({
            email: Joi.string().max(320).required(),
            password: Joi.string().max(MAX_PASSWORD_LENGTH).required(),
            csrf: Joi.string().required(),
            next: Joi.string().allow('').max(2000),
          }),
          failAction: (request, h) => {
            const csrf =
              ((request.state as Record<string, unknown> | null)?.[SIGNIN_CSRF_COOKIE] as string | undefined) ??
              newToken();
            return respond(h, form(csrf, '/profiles', '', messageList([message('signin_failed')])), 401).takeover();
          },
        },
      },
      handler: async (request, h) => {
        const p = request.payload as { email: string; password: string; csrf: string; next?: string };
        const email = p.email.trim().toLowerCase();
        const address = request.info.remoteAddress;
        const wait = Math.max(perAddress.blockedFor(address), perEmail.blockedFor(email));
        const again = (code: 'signin_failed' | 'too_many_attempts', status: number) =>
          respond(h, form(p.csrf, safeNext(p.next), email, messageList([message(code)])), status);
        if (wait > 0) return again('too_many_attempts', 429).header('retry-after', String(Math.ceil(wait / 1000)));
        const user = await ctx.store.users.findByEmail(email);
        // An unknown address costs the same time as a wrong password: the answer tells nothing.
        const ok = user
          ? await verifyPassword(p.password, user.passwordHash)
          : (await burnVerification(p.password), false);
        if (!user || !ok) {
          perAddress.fail(address);
          perEmail.fail(email);
          return again('signin_failed', 401);
        }
        const token = await startSession(ctx.store, user);
        return h
          .redirect(user.mustChangePassword ? '/account/password' : safeNext(p.next))
          .state(SESSION_COOKIE, token)
          .unstate(SIGNIN_CSRF_COOKIE);
      },
    },
    {
      method: 'POST',
      path: '/signout',
      options: { auth: 'session', plugins: web({ beforePasswordChange: true }), payload: FORM_PAYLOAD },
      handler: async (request, h) => {
        await ctx.store.sessions.delete(credentialsOf(request).sessionHash);
        return h.redirect('/signin').unstate(SESSION_COOKIE);
      },
    },
    {
      method: 'GET',
      path: '/account/password',
      options: { auth: 'session', plugins: web({ beforePasswordChange: true }) },
      handler: (request, h) => {
        const c = credentialsOf(request);
        return respond(h, passwordForm(c.csrfToken, c.email, c.mustChangePassword)).header('cache-control', 'no-store');
      },
    },
    {
      method: 'POST',
      path: '/account/password',
      options: { auth: 'session', plugins: web({ beforePasswordChange: true }), payload: FORM_PAYLOAD },
      handler: async (request, h) => {
        const c = credentialsOf(request);
        const p = (request.payload ?? {}) as Record<string, unknown>;
        const [current, next, confirm] = [p.current, p.password, p.confirm].map((v) =>
          typeof v === 'string' ? v : '',
        );
        const user = await ctx.store.users.get(c.userId);
        const rejected = (code: 'signin_failed' | 'password_rejected') =>
          respond(
            h,
            passwordForm(c.csrfToken, c.email, c.mustChangePassword, messageList([message(code)])),
            code === 'signin_failed' ? 401 : 400,
          );
        if (!user || current!.length > MAX_PASSWORD_LENGTH || !(await verifyPassword(current!, user.passwordHash)))
          return rejected('signin_failed');
        if (
          next!.length < MIN_PASSWORD_LENGTH ||
          next!.length > MAX_PASSWORD_LENGTH ||
          next !== confirm ||
          next === current
        )
          return rejected('password_rejected');
        await ctx.store.users.setPassword(user.id, await hashPassword(next!), false);
        // Every other browser signed in as this person is signed out.
        await ctx.store.sessions.deleteOfUser(user.id, c.sessionHash);
        return h.redirect('/profiles');
      },
    },
  ];
}
