/**
 * Account: the API key, masked (its secret is shown once, on the page that answers a rotation),
 * rotation, and the account's users (adding one shows its one-time password once).
 */
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import { rotateKey } from '../../../lib/api-keys.js';
import { message } from '../../../lib/messages.js';
import { UserError, createUserWithPassword } from '../../../lib/users.js';
import { accountInfo } from '../../../lib/page-data.js';
import type { WebContext } from '../context.js';
import { when } from '../format.js';
import { html, type Html } from '../html.js';
import { messageList, page } from '../layout.js';
import { credentialsOf } from '../session.js';
import { errorPage, FORM_PAYLOAD, respond } from './common.js';

export function accountRoutes(ctx: WebContext): ServerRoute[] {
  const render = async (request: Request, h: ResponseToolkit, once: Html | null = null, status = 200) => {
    const user = credentialsOf(request);
    const info = await accountInfo(ctx.store, user.accountId);
    if (!info) return errorPage(ctx, request, h, 'not_found');
    const key = info.api_key
      ? html`<p>
          <code class="key" id="masked-key">${info.api_key.masked}</code>
          <span class="muted small">made ${when(info.api_key.created_at)}</span>
        </p>`
      : html`<p>This account has no live API key.</p>`;
    const body = html`<h1>Account ${info.name}</h1>
      <p class="muted">Account id <code>${info.account_id}</code></p>
      ${once}
      <section>
        <h2>API key</h2>
        ${key}
        <p class="muted">
          Tally keeps only a hash of the key, so its secret part cannot be shown again. Rotating makes a new key, shows
          it once, and the old one stops working at once.
        </p>
        <form
          method="post"
          action="/account/key"
          data-confirm="Rotate the API key? CI jobs using the current key will fail until they get the new one."
        >
          <input type="hidden" name="csrf" value="${user.csrfToken}" /><button type="submit" class="danger">
            Rotate the API key
          </button>
        </form>
      </section>
      <section>
        <h2>Users</h2>
        <table class="grid compact">
          <thead>
            <tr>
              <th>E-mail address</th>
              <th>Since</th>
              <th></th>
            </tr>
          </thead>
          <tbody>
            ${info.users.map(
              (u) =>
                html`<tr>
                  <td>${u.email}${u.id === user.userId ? html` <span class="muted">(you)</span>` : ''}</td>
                  <td>${when(u.created_at)}</td>
                  <td>${u.must_change_password ? html`<span class="muted">has not signed in yet</span>` : ''}</td>
                </tr>`,
            )}
          </tbody>
        </table>
        <form method="post" action="/account/users" class="inline-form">
          <input type="hidden" name="csrf" value="${user.csrfToken}" /><label
            >Add a user <input type="email" name="email" required placeholder="name@example.com"
          /></label>
          <button type="submit">Add</button>
        </form>
        <p><a href="/account/password">Change your password</a></p>
      </section>`;
    // The page may carry a secret shown once: never cached, anywhere.
    return respond(h, page(ctx, { title: 'Account', user, section: 'account' }, body), status).header(
      'cache-control',
      'no-store',
    );
  };
  return [
    {
      method: 'GET',
      path: '/account',
      options: { auth: 'session', plugins: { 'tally-web': {} } },
      handler: (request, h) => render(request, h),
    },
    {
      method: 'POST',
      path: '/account/key',
      options: { auth: 'session', plugins: { 'tally-web': {} }, payload: FORM_PAYLOAD },
      handler: async (request, h) => {
        const key = await rotateKey(ctx.store, credentialsOf(request).accountId);
        return render(
          request,
          h,
          html`<div class="once" role="alert">
            <h2>The new API key</h2>
            <p>Copy it now: it is shown only this once. The previous key no longer works.</p>
            <pre class="command" id="new-key">${key}</pre>
          </div>`,
        );
      },
    },
    {
      method: 'POST',
      path: '/account/users',
      options: { auth: 'session', plugins: { 'tally-web': {} }, payload: FORM_PAYLOAD },
      handler: async (request, h) => {
        const email = String((request.payload as Record<string, unknown> | null)?.email ?? '');
        try {
          const { user, password } = await createUserWithPassword(ctx.store, credentialsOf(request).accountId, email);
          return render(
            request,
            h,
            html`<div class="once" role="alert">
              <h2>${user.email} can sign in</h2>
              <p>Their one-time password, shown only now (they choose their own at the first sign-in):</p>
              <pre class="command" id="one-time-password">${password}</pre>
            </div>`,
          );
        } catch (e) {
          if (!(e instanceof UserError)) throw e;
          return render(request, h, messageList([message('user_invalid', { detail: e.message })]), 400);
        }
      },
    },
  ];
}
