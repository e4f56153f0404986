/**
 * A profile's CI page: the link to its CI job (provider, URL, repository, branch, job and token),
 * saved and removed by forms carrying the session's CSRF token, as the JSON twin
 * (`/api/v2/profiles/{id}/ci`, plugins/ci.ts) does. The token field is always empty: a saved token
 * is only said to be there, and leaving the field empty keeps it. A linked profile's page also starts
 * runs and lists the runs and schedules (ci-runs.ts).
 */
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import { message, type MessageCode } from '../../../lib/messages.js';
import type { CiProvider } from '../../../lib/ci/api.js';
import { sendsVerdict } from '../../../lib/ci/registry.js';
import type { CiLink } from '../../../lib/store/ci-links.js';
import type { Profile } from '../../../lib/store/types.js';
import { saveLink } from '../../ci.js';
import type { WebContext } from '../context.js';
import { redirectWithFlash, takeFlash } from '../flash.js';
import { html, type Html } from '../html.js';
import { messageList, page } from '../layout.js';
import { credentialsOf } from '../session.js';
import { ciRunRoutes, jobSection } from './ci-runs.js';
import { FORM_PAYLOAD, errorPage, ownProfile, respond } from './common.js';

type Typed = Partial<Record<'provider' | 'url' | 'repository' | 'branch' | 'job', string>>;

export function ciRoutes(ctx: WebContext): ServerRoute[] {
  const web = { 'tally-web': {} };
  const load = async (request: Request, h: ResponseToolkit) =>
    (await ownProfile(ctx, request, (request.params as { id: string }).id)) ?? errorPage(ctx, request, h, 'not_found');

  const ciPage = async (
    request: Request,
    h: ResponseToolkit,
    profile: Profile,
    problem?: { code: MessageCode; detail?: string },
    typed?: Typed,
  ) => {
    const user = credentialsOf(request);
    const link = await ctx.store.ciLinks.get(profile.id);
    const value: Typed = typed ?? link ?? {};
    const providers = ctx.ci.providers.all();
    // The linked job's runs and schedules; not while the form is shown back with a problem.
    const job = link && !problem ? await jobSection(ctx, request, profile) : '';
    const field = (name: keyof Typed, label: string, hint: string): Html =>
      html`<label
        >${label} <input type="text" name="${name}" required maxlength="2048" value="${value[name] ?? ''}" />
        <span class="muted">${hint}</span></label
      >`;
    const body = html`<h2>CI link</h2>
      ${ctx.ci.box ? '' : messageList([message('ci_secret_key_missing')])}
      ${problem ? messageList([message(problem.code, problem.detail ? { detail: problem.detail } : {})]) : ''}
      ${link ? linkSummary(link) : html`<p class="muted">This profile is not linked to a CI job.</p>`}
      <form method="post" action="/profiles/${profile.number}/ci" class="ci-form" id="ci-link">
        <input type="hidden" name="csrf" value="${user.csrfToken}" />
        <label
          >Provider
          <select name="provider" required>
            ${providers.map(
              (p) =>
                html`<option value="${p.key}" ${value.provider === p.key ? html`selected` : ''}>${p.title}</option>`,
            )}
          </select></label
        >
        ${field('url', 'Base URL', 'The CI system, e.g. https://gitea.example.org')}
        ${field('repository', 'Repository or project', 'owner/name, a GitLab path, a builder')}
        ${field('branch', 'Branch', 'where runs start')} ${field('job', 'Job or workflow', 'e.g. tests.yml')}
        <label
          >Token
          <input type="password" name="token" autocomplete="off" maxlength="4096" ${link ? '' : html`required`} />
          <span class="muted"
            >${
              link ? 'A token is saved; leave this empty to keep it.' : 'Encrypted when saved, and never shown again.'
            }</span
          ></label
        >
        ${verdictBox(typed ? 'verdict' in typed : (link?.verdict ?? false), providers)}
        <button type="submit">Save the link</button>
      </form>
      ${
        link
          ? html`<form method="post" action="/profiles/${profile.number}/ci/delete" class="inline-form" id="ci-unlink">
              <input type="hidden" name="csrf" value="${user.csrfToken}" /><button type="submit" class="danger">
                Remove the link
              </button>
            </form>`
          : ''
      }
      ${job}`;
    return respond(
      h,
      page(
        ctx,
        { title: `CI · ${profile.name}`, user, profile, tab: 'ci', flash: problem ? null : takeFlash(request, h) },
        body,
      ),
      problem ? 400 : 200,
    );
  };

  return [
    ...ciRunRoutes(ctx),
    {
      method: 'GET',
      path: '/profiles/{id}/ci',
      options: { auth: 'session', plugins: web },
      handler: async (request, h) => {
        const profile = await load(request, h);
        return 'accountId' in profile ? ciPage(request, h, profile) : profile;
      },
    },
    {
      method: 'POST',
      path: '/profiles/{id}/ci',
      options: { auth: 'session', plugins: web, payload: FORM_PAYLOAD },
      handler: async (request, h) => {
        const profile = await load(request, h);
        if (!('accountId' in profile)) return profile;
        const { csrf: _csrf, ...form } = (request.payload ?? {}) as Record<string, string>;
        // An unticked checkbox is not sent at all: the form says false by leaving it out.
        const fields = { ...form, verdict: form.verdict !== undefined };
        const saved = await saveLink({ store: ctx.store, ...ctx.ci }, profile, fields);
        if ('code' in saved) {
          // What was typed goes back into the form, the token never.
          const { token: _token, ...typed } = form;
          return ciPage(request, h, profile, { code: saved.code, detail: saved.problem }, typed);
        }
        return redirectWithFlash(h, `/profiles/${profile.number}/ci`, 'CI link saved.');
      },
    },
    {
      method: 'POST',
      path: '/profiles/{id}/ci/delete',
      options: { auth: 'session', plugins: web, payload: FORM_PAYLOAD },
      handler: async (request, h) => {
        const profile = await load(request, h);
        if (!('accountId' in profile)) return profile;
        await ctx.store.ciLinks.delete(profile.id);
        return redirectWithFlash(h, `/profiles/${profile.number}/ci`, 'CI link removed.');
      },
    },
  ];
}

/** The verdict opt-in; which providers can take it is said beside it. */
function verdictBox(checked: boolean, providers: readonly CiProvider[]): Html {
  const able = providers.filter(sendsVerdict).map((p) => p.key);
  return html`<label class="check"
    ><input type="checkbox" name="verdict" value="on" ${checked ? html`checked` : ''} /> Send the verdict back
    <span class="muted"
      >After each import of a commit: a commit status, and one comment on its pull request
      (${able.length ? able.join(', ') : 'no provider here can'}).</span
    ></label
  >`;
}

function linkSummary(link: CiLink): Html {
  return html`<dl class="ci-link">
    <dt>Provider</dt>
    <dd><code>${link.provider}</code></dd>
    <dt>Job</dt>
    <dd>${link.url} · ${link.repository} · <code>${link.branch}</code> · ${link.job}</dd>
    <dt>Token</dt>
    <dd>saved (encrypted), ${link.updatedAt.slice(0, 10)}</dd>
    <dt>Verdict</dt>
    <dd>${link.verdict ? 'sent back after each import' : 'not sent'}</dd>
  </dl>`;
}
