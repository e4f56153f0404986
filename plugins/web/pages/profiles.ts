/**
 * Profiles: each with its newest report's status, pass rate and a small pass/fail trend, a form
 * that creates a profile, and the way to rename or delete each (manage-profile.ts).
 */
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import { profileSummaries } from '../../../lib/history/profile-summary.js';
import { message } from '../../../lib/messages.js';
import { counted, toldList } from '../../../lib/totals.js';
import { MAX_PROFILE_NAME, checkProfileName } from '../../../lib/profile-name.js';
import { passFailTrend } from '../charts.js';
import type { WebContext } from '../context.js';
import { redirectWithFlash, takeFlash } from '../flash.js';
import { percent, when } from '../format.js';
import { html, type Html } from '../html.js';
import { messageList, page } from '../layout.js';
import { credentialsOf } from '../session.js';
import { FORM_PAYLOAD, respond } from './common.js';

/** The form that creates a profile; `typed` keeps what was sent when it was refused. */
function createForm(csrf: string, typed = ''): Html {
  return html`<form method="post" action="/profiles" class="inline-form" id="create-profile">
    <input type="hidden" name="csrf" value="${csrf}" /><label
      >New profile
      <input type="text" name="name" required maxlength="${MAX_PROFILE_NAME}" value="${typed}" placeholder="nightly"
    /></label>
    <button type="submit">Create</button>
  </form>`;
}

export function profilesRoutes(ctx: WebContext): ServerRoute[] {
  const render = async (
    request: Request,
    h: ResponseToolkit,
    o: { problem?: Html; typed?: string; status?: number } = {},
  ) => {
    const user = credentialsOf(request);
    const profiles = await profileSummaries(ctx.store, user.accountId);
    const rows = profiles.map((p) => {
      const base = `/profiles/${p.id}`;
      const latest = p.latest;
      const outcome = latest
        ? [
            html`<a class="status status-${latest.status}" href="/reports/${latest.report_id}">${latest.status}</a>`,
            html` <span class="muted small">${when(latest.date)}</span>`,
          ]
        : html`<span class="muted">no reports</span>`;
      return html`<tr>
        <td>
          <a href="${base}">${p.name}</a>
          <div class="muted small"><code>${p.id}</code></div>
        </td>
        <td>${outcome}</td>
        <td class="num">${latest ? percent(latest.pass_rate) : '–'}</td>
        <td>${latest ? `${counted(latest.totals.tests, 'test')}: ${toldList(latest.totals)}` : ''}</td>
        <td>
          ${passFailTrend(
            p.trend.map((t) => ({
              passed: t.passed,
              failed: t.failed,
              label: `report ${t.report_id}`,
            })),
            { width: 150, height: 28, title: `Pass/fail trend of ${p.name}` },
          )}
        </td>
        <td class="actions">
          <a href="${base}/history">History</a> · <a href="${base}/upload">Upload</a> ·
          <a href="${base}/rename">Rename</a> · <a class="danger-link" href="${base}/delete">Delete</a>
        </td>
      </tr>`;
    });
    const body = html`<h1>Profiles</h1>
      ${o.problem ?? ''} ${createForm(user.csrfToken, o.typed)}
      ${
        profiles.length === 0
          ? html`<p>This account has no profiles yet: create one above, then upload results into it.</p>`
          : html`<table class="grid profiles">
              <thead>
                <tr>
                  <th>Profile</th>
                  <th>Latest report</th>
                  <th class="num">Pass rate</th>
                  <th>Tests</th>
                  <th>Trend (last 30)</th>
                  <th></th>
                </tr>
              </thead>
              <tbody>
                ${rows}
              </tbody>
            </table>`
      }`;
    const flash = o.problem ? null : takeFlash(request, h);
    return respond(h, page(ctx, { title: 'Profiles', user, section: 'profiles', flash }, body), o.status);
  };

  return [
    {
      method: 'GET',
      path: '/',
      options: { auth: 'session', plugins: { 'tally-web': {} } },
      handler: (_r, h) => h.redirect('/profiles'),
    },
    {
      method: 'GET',
      path: '/profiles',
      options: { auth: 'session', plugins: { 'tally-web': {} } },
      handler: (request, h) => render(request, h),
    },
    {
      method: 'POST',
      path: '/profiles',
      options: { auth: 'session', plugins: { 'tally-web': {} }, payload: FORM_PAYLOAD },
      handler: async (request, h) => {
        const typed = (request.payload as Record<string, unknown> | null)?.name;
        const checked = checkProfileName(typed);
        if ('problem' in checked) {
          const problem = messageList([message('profile_name_invalid', { detail: checked.problem })]);
          return render(request, h, { problem, typed: typeof typed === 'string' ? typed : '', status: 400 });
        }
        const profile = await ctx.store.profiles.create(credentialsOf(request).accountId, checked.name);
        return redirectWithFlash(h, '/profiles', `Profile “${profile.name}” created.`);
      },
    },
  ];
}
