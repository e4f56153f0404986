/**
 * Deleting a report: a page that says what goes (its tests and containers, the history of this run,
 * the files uploaded with its import), and the form there that does it and leads back to the
 * profile's reports, which say what was done.
 */
import type { ServerRoute } from '@hapi/hapi';
import { deletionFault, reportOfAccount } from '../../manage.js';
import type { WebContext } from '../context.js';
import { redirectWithFlash } from '../flash.js';
import { counted, when } from '../format.js';
import { html } from '../html.js';
import { page } from '../layout.js';
import { credentialsOf } from '../session.js';
import { FORM_PAYLOAD, errorPage, ownReport, respond } from './common.js';

export function deleteReportRoutes(ctx: WebContext): ServerRoute[] {
  const web = { 'tally-web': {} };
  return [
    {
      method: 'GET',
      path: '/reports/{id}/delete',
      options: { auth: 'session', plugins: web },
      handler: async (request, h) => {
        const found = await ownReport(ctx, request, (request.params as { id: string }).id);
        if (!found) return errorPage(ctx, request, h, 'not_found');
        const { report, profile } = found;
        const user = credentialsOf(request);
        const record = await ctx.store.imports.get(report.importId);
        const files = (record?.files.length ?? 0) + (record?.attachments.length ?? 0);
        const body = html`<section class="confirm" id="confirm-delete">
          <h2>Delete the report of ${when(report.date)}?</h2>
          <p>
            With it go <strong>${counted(report.totals.tests, 'test')}</strong> in
            ${counted(report.totals.containers, 'container')}, this run's place in the history of its tests, and
            <strong>${counted(files, 'file')}</strong> uploaded with its import (result files and attachments). The
            other reports of “${profile.name}” stay. This cannot be undone.
          </p>
          ${
            report.pinned
              ? html`<p><strong>This report is pinned:</strong> retention keeps it, but this button deletes it.</p>`
              : ''
          }
          <form method="post" action="/reports/${report.number}/delete" class="inline-form">
            <input type="hidden" name="csrf" value="${user.csrfToken}" /><button type="submit" class="danger">
              Delete this report
            </button>
            <a href="/reports/${report.number}">Cancel</a>
          </form>
        </section>`;
        return respond(h, page(ctx, { title: 'Delete a report', user, profile, tab: 'reports' }, body));
      },
    },
    {
      method: 'POST',
      path: '/reports/{id}/delete',
      options: { auth: 'session', plugins: web, payload: FORM_PAYLOAD },
      handler: async (request, h) => {
        const id = (request.params as { id: string }).id;
        const found = await reportOfAccount(ctx.store, id, credentialsOf(request).accountId);
        if (!found) return errorPage(ctx, request, h, 'not_found');
        const { report, profile } = found;
        const done = await ctx.store.reports.delete(report.id);
        if (done.status !== 'deleted') return errorPage(ctx, request, h, deletionFault(done));
        return redirectWithFlash(
          h,
          `/profiles/${profile.number}`,
          `Report of ${when(report.date)} deleted (${counted(done.tests, 'test')}).`,
        );
      },
    },
  ];
}
