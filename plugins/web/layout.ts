/** The page shell: head with the one CSS and one JS file, the top bar, the profile tabs. */
import { html, type Html } from './html.js';
import type { WebContext } from './context.js';
import type { WebCredentials } from './session.js';
import type { Profile } from '../../lib/store/types.js';

export interface PageOptions {
  title: string;
  user?: WebCredentials | null;
  /** Which top-level section is current. */
  section?: 'profiles' | 'account';
  /** A profile's pages carry its tabs. */
  profile?: Pick<Profile, 'number' | 'name'>;
  tab?: 'reports' | 'history' | 'upload' | 'ci' | 'retention' | 'notifications';
  /** What the form that led here did (flash.ts). */
  flash?: string | null;
}

export function page(ctx: WebContext, o: PageOptions, body: Html): string {
  const user = o.user ?? null;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${o.title} · Tally</title>
        <link rel="stylesheet" href="${ctx.assets.css}" />
        <link rel="icon" href="${ctx.assets.icon}" type="image/svg+xml" />
        <script src="${ctx.assets.js}" defer></script>
        ${user ? html`<meta name="csrf-token" content="${user.csrfToken}" />` : ''}
      </head>
      <body>
        <header class="top">
          <a class="brand" href="/profiles">Tally</a>
          ${
            user
              ? html`<nav>
                    <a href="/profiles" ${o.section === 'profiles' ? html` aria-current="page"` : ''}>Profiles</a>
                    <a href="/account" ${o.section === 'account' ? html` aria-current="page"` : ''}>Account</a>
                  </nav>
                  <form class="signout" method="post" action="/signout">
                    <input type="hidden" name="csrf" value="${user.csrfToken}" /><span class="muted"
                      >${user.email}</span
                    >
                    <button type="submit" class="link">Sign out</button>
                  </form>`
              : ''
          }
        </header>
        ${o.profile ? profileTabs(o.profile, o.tab) : ''}
        <main>${o.flash ? html`<p class="flash" role="status">${o.flash}</p>` : ''}${body}</main>
      </body>
    </html> `.text;
}

function profileTabs(p: Pick<Profile, 'number' | 'name'>, tab: PageOptions['tab']): Html {
  const link = (name: NonNullable<PageOptions['tab']>, href: string, label: string) =>
    html`<a href="${href}" ${tab === name ? html` aria-current="page"` : ''}>${label}</a>`;
  const base = `/profiles/${p.number}`;
  const tabs = [
    link('reports', base, 'Reports'),
    link('history', `${base}/history`, 'History'),
    link('upload', `${base}/upload`, 'Upload'),
    link('ci', `${base}/ci`, 'CI'),
    link('retention', `${base}/retention`, 'Retention'),
    link('notifications', `${base}/notifications`, 'Notifications'),
  ];
  return html`<div class="profile-bar">
    <h1 class="profile-name">${p.name}</h1>
    <nav class="tabs">${tabs}</nav>
  </div>`;
}

/** A message box for coded messages (import answers, sign-in failures). */
export function messageList(
  messages: readonly { severity: string; code: string | null; message: string; file?: string }[],
): Html {
  if (messages.length === 0) return html``;
  return html`<ul class="messages">
    ${messages.map((m) => {
      const code = m.code ? html`<code>${m.code}</code> ` : '';
      const file = m.file ? html` <span class="muted">(${m.file})</span>` : '';
      return html`<li class="msg msg-${m.severity}">
        <span class="sev">${m.severity}</span>
        ${code}${m.message}${file}
      </li>`;
    })}
  </ul>`;
}
