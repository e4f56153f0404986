/** Profiles: each with its newest report's status, pass rate and a small pass/fail trend. */
import type { ServerRoute } from '@hapi/hapi';
import { profileSummaries } from '../../../lib/history/profile-summary.js';
import { passFailTrend } from '../charts.js';
import type { WebContext } from '../context.js';
import { percent, when } from '../format.js';
import { html } from '../html.js';
import { page } from '../layout.js';
import { credentialsOf } from '../session.js';
import { respond } from './common.js';

export function profilesRoutes(ctx: WebContext): ServerRoute[] {
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
      handler: async (request, h) => {
        const user = credentialsOf(request);
        const profiles = await profileSummaries(ctx.store, user.accountId);
        const rows = profiles.map((p) => {
          const base = `/profiles/${p.id}`;
          const latest = p.latest;
          const outcome = latest
            ? [
                html`<a class="status status-${latest.status}" href="/reports/${latest.report_id}"
                  >${latest.status}</a
                >`,
                html` <span class="muted small">${when(latest.date)}</span>`,
              ]
            : html`<span class="muted">no reports</span>`;
          const failed = latest ? latest.totals.failed + latest.totals.errored : 0;
          return html`<tr>
            <td>
              <a href="${base}">${p.name}</a>
              <div class="muted small"><code>${p.id}</code></div>
            </td>
            <td>${outcome}</td>
            <td class="num">${latest ? percent(latest.pass_rate) : '–'}</td>
            <td>${latest ? html`${latest.totals.tests} tests, ${failed} failed` : ''}</td>
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
            <td class="actions"><a href="${base}/history">History</a> · <a href="${base}/upload">Upload</a></td>
          </tr>`;
        });
        const body = html`<h1>Profiles</h1>
          ${
            profiles.length === 0
              ? html`<p>
                  This account has no profiles yet. An operator creates one with
                  <code>tally profile create NAME --account ${user.accountId}</code>.
                </p>`
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
        return respond(h, page(ctx, { title: 'Profiles', user, section: 'profiles' }, body));
      },
    },
  ];
}
