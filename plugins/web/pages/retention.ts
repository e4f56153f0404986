/**
 * A profile's Retention page: its policy in a form whose Preview button shows what the typed policy
 * would delete now (reports, tests, space) without changing anything, and whose Save button saves it
 * (applied at once, then after each import and at every sweep), as the JSON twin
 * (`/api/v2/profiles/{id}/retention`, plugins/retention.ts) does. Also the pin form of a report's page.
 */
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import { message } from '../../../lib/messages.js';
import { checkRetentionPolicy } from '../../../lib/retention/policy.js';
import { LIST_LIMIT, previewRetention, type RetentionPreview } from '../../../lib/retention/preview.js';
import { keepsEverything, type RetentionPolicy } from '../../../lib/store/retention.js';
import type { Profile, Report } from '../../../lib/store/types.js';
import { reportOfAccount } from '../../manage.js';
import type { WebContext } from '../context.js';
import { redirectWithFlash, takeFlash } from '../flash.js';
import { bytes, counted, when } from '../format.js';
import { html, type Html } from '../html.js';
import { messageList, page } from '../layout.js';
import { credentialsOf } from '../session.js';
import { FORM_PAYLOAD, errorPage, ownProfile, respond } from './common.js';

type Typed = { keep_reports?: string; keep_days?: string };

/** The policy in words. */
export function policyText(policy: RetentionPolicy): string {
  if (keepsEverything(policy)) return 'Every report is kept.';
  const limits = [
    policy.keepReports !== null ? `past the newest ${counted(policy.keepReports, 'report')}` : null,
    policy.keepDays !== null ? `imported more than ${counted(policy.keepDays, 'day')} ago` : null,
  ].filter((l) => l !== null);
  return `Reports ${limits.join(', and reports ')} are deleted; the newest report and pinned reports are always kept.`;
}

/** A form's text fields as the JSON body the policy check reads: empty is no limit, digits a number. */
function formPolicy(typed: Typed): unknown {
  const value = (text: string | undefined) => {
    const t = (text ?? '').trim();
    return t === '' ? null : /^\d{1,15}$/.test(t) ? Number(t) : t;
  };
  return { keep_reports: value(typed.keep_reports), keep_days: value(typed.keep_days) };
}

function previewSection(profile: Profile, preview: RetentionPreview): Html {
  if (preview.count === 0)
    return html`<section id="retention-preview" class="retention-preview">
      <h3>Preview</h3>
      <p>Nothing would be deleted now.${pinnedNote(preview.pinned)}</p>
    </section>`;
  const rows = preview.reports.map(
    (r: Report) =>
      html`<tr>
        <td><a href="/reports/${r.number}">#${r.number}</a></td>
        <td>${when(r.createdAt)}</td>
        <td>${counted(r.totals.tests, 'test')}</td>
        <td>${r.tags.map((t) => html`<span class="tag">${t}</span> `)}</td>
      </tr>`,
  );
  const more = preview.count - preview.reports.length;
  return html`<section id="retention-preview" class="retention-preview">
    <h3>Preview</h3>
    <p>
      Saving this policy deletes <strong>${counted(preview.count, 'report')}</strong> of “${profile.name}” now, with
      <strong>${counted(preview.tests, 'test')}</strong>, about
      <strong>${bytes(preview.fileBytes + preview.rowBytes)}</strong> (${bytes(preview.fileBytes)} of stored
      files).${pinnedNote(preview.pinned)}
    </p>
    <table class="grid">
      <thead>
        <tr>
          <th>Report</th>
          <th>Imported</th>
          <th>Tests</th>
          <th>Tags</th>
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>
    ${
      more > 0
        ? html`<p class="muted">… and ${counted(more, 'more report')} (the oldest ${LIST_LIMIT} are listed).</p>`
        : ''
    }
  </section>`;
}

function pinnedNote(pinned: number): string {
  return pinned > 0 ? ` ${counted(pinned, 'pinned report')} it would take ${pinned === 1 ? 'is' : 'are'} kept.` : '';
}

export function retentionRoutes(ctx: WebContext): ServerRoute[] {
  const web = { 'tally-web': {} };
  const load = async (request: Request, h: ResponseToolkit) =>
    (await ownProfile(ctx, request, (request.params as { id: string }).id)) ?? errorPage(ctx, request, h, 'not_found');

  const retentionPage = async (
    request: Request,
    h: ResponseToolkit,
    profile: Profile,
    shown: { typed?: Typed; problem?: string; preview?: RetentionPreview } = {},
  ) => {
    const user = credentialsOf(request);
    const saved = await ctx.store.retention.get(profile.id);
    const typed: Typed = shown.typed ?? {
      keep_reports: saved.keepReports?.toString() ?? '',
      keep_days: saved.keepDays?.toString() ?? '',
    };
    const field = (name: keyof Typed, label: string, hint: string): Html =>
      html`<label
        >${label} <input type="number" name="${name}" min="1" step="1" value="${typed[name] ?? ''}" />
        <span class="muted">${hint}</span></label
      >`;
    const body = html`<h2>Retention</h2>
      <p id="retention-policy">${policyText(saved)}</p>
      ${shown.problem ? messageList([message('retention_policy_invalid', { detail: shown.problem })]) : ''}
      <form method="post" action="/profiles/${profile.number}/retention" class="ci-form" id="retention-form">
        <input type="hidden" name="csrf" value="${user.csrfToken}" />
        ${field('keep_reports', 'Keep the newest reports', 'how many; empty for no limit')}
        ${field('keep_days', 'Keep the reports of the last days', 'how many days; empty for no limit')}
        <p class="muted">
          Either limit deletes a report past it. Deletion runs once saved, after each import and every 10 minutes, and
          takes each report's tests, history and stored files; pin a report on its page to keep it.
        </p>
        <button type="submit" name="action" value="preview">Preview</button>
        <button type="submit" name="action" value="save">Save</button>
      </form>
      ${shown.preview ? previewSection(profile, shown.preview) : ''}`;
    return respond(
      h,
      page(
        ctx,
        {
          title: `Retention · ${profile.name}`,
          user,
          profile,
          tab: 'retention',
          flash: shown.typed ? null : takeFlash(request, h),
        },
        body,
      ),
      shown.problem ? 400 : 200,
    );
  };

  return [
    {
      method: 'GET',
      path: '/profiles/{id}/retention',
      options: { auth: 'session', plugins: web },
      handler: async (request, h) => {
        const profile = await load(request, h);
        return 'accountId' in profile ? retentionPage(request, h, profile) : profile;
      },
    },
    {
      method: 'POST',
      path: '/profiles/{id}/retention',
      options: { auth: 'session', plugins: web, payload: FORM_PAYLOAD },
      handler: async (request, h) => {
        const profile = await load(request, h);
        if (!('accountId' in profile)) return profile;
        const form = (request.payload ?? {}) as Record<string, string>;
        const typed: Typed = { keep_reports: form.keep_reports ?? '', keep_days: form.keep_days ?? '' };
        const given = checkRetentionPolicy(formPolicy(typed));
        if ('problem' in given) return retentionPage(request, h, profile, { typed, problem: given.problem });
        if (form.action !== 'save') {
          const preview = await previewRetention(ctx.store, profile.id, given.policy, new Date());
          return retentionPage(request, h, profile, { typed, preview });
        }
        await ctx.store.retention.put(profile.id, given.policy);
        ctx.retention.profileChanged(profile.id);
        return redirectWithFlash(
          h,
          `/profiles/${profile.number}/retention`,
          `Retention saved. ${policyText(given.policy)}`,
        );
      },
    },
    {
      method: 'POST',
      path: '/reports/{id}/pin',
      options: { auth: 'session', plugins: web, payload: FORM_PAYLOAD },
      handler: async (request, h) => {
        const id = (request.params as { id: string }).id;
        const found = await reportOfAccount(ctx.store, id, credentialsOf(request).accountId);
        const pinned = (request.payload as Record<string, string> | null)?.pinned === 'true';
        if (!found || !(await ctx.store.reports.pin(found.report.id, pinned)))
          return errorPage(ctx, request, h, 'not_found');
        return redirectWithFlash(
          h,
          `/reports/${found.report.number}`,
          pinned ? 'Report pinned: retention keeps it.' : 'Report unpinned: retention may delete it.',
        );
      },
    },
  ];
}

/** What a report's page says of its pin, and the form that changes it. */
export function pinControl(report: Report, csrfToken: string): Html {
  return html`<form method="post" action="/reports/${report.number}/pin" class="pin-form" id="pin-form">
    <input type="hidden" name="csrf" value="${csrfToken}" />
    <input type="hidden" name="pinned" value="${report.pinned ? 'false' : 'true'}" />
    ${
      report.pinned
        ? html`<span class="badge pinned" id="pinned">Pinned: retention never deletes this report.</span>
            <button type="submit" class="link">Unpin</button>`
        : html`<button type="submit" class="link">Pin this report</button>
            <span class="muted">(retention never deletes a pinned report)</span>`
    }
  </form>`;
}
