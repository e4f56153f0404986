/**
 * Renaming and deleting a profile. Deleting asks first, on a page of its own that says what goes
 * (its reports and their tests, with their containers, history and stored files); the form there
 * does it. Both forms carry the session's CSRF token and lead back to the profiles page, which says
 * what was done.
 */
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import { message } from '../../../lib/messages.js';
import { MAX_PROFILE_NAME, checkProfileName } from '../../../lib/profile-name.js';
import type { Profile } from '../../../lib/store/types.js';
import { deletionFault } from '../../manage.js';
import type { WebContext } from '../context.js';
import { redirectWithFlash } from '../flash.js';
import { counted } from '../format.js';
import { html, type Html } from '../html.js';
import { messageList, page } from '../layout.js';
import { credentialsOf } from '../session.js';
import { FORM_PAYLOAD, errorPage, ownProfile, respond } from './common.js';

export function manageProfileRoutes(ctx: WebContext): ServerRoute[] {
  const web = { 'tally-web': {} };
  const load = async (request: Request, h: ResponseToolkit) =>
    (await ownProfile(ctx, request, (request.params as { id: string }).id)) ?? errorPage(ctx, request, h, 'not_found');

  const renamePage = (request: Request, h: ResponseToolkit, profile: Profile, problem?: Html, typed?: string) => {
    const user = credentialsOf(request);
    const body = html`<h2>Rename the profile</h2>
      ${problem ?? ''}
      <form method="post" action="/profiles/${profile.number}/rename" class="inline-form" id="rename-profile">
        <input type="hidden" name="csrf" value="${user.csrfToken}" /><label
          >Name
          <input type="text" name="name" required maxlength="${MAX_PROFILE_NAME}" value="${typed ?? profile.name}"
        /></label>
        <button type="submit">Rename</button>
        <a href="/profiles">Cancel</a>
      </form>
      <p class="muted">The id <code>${profile.number}</code> stays: CI jobs that import into it go on working.</p>`;
    return respond(h, page(ctx, { title: `Rename ${profile.name}`, user, profile }, body), problem ? 400 : 200);
  };

  return [
    {
      method: 'GET',
      path: '/profiles/{id}/rename',
      options: { auth: 'session', plugins: web },
      handler: async (request, h) => {
        const profile = await load(request, h);
        return 'accountId' in profile ? renamePage(request, h, profile) : profile;
      },
    },
    {
      method: 'POST',
      path: '/profiles/{id}/rename',
      options: { auth: 'session', plugins: web, payload: FORM_PAYLOAD },
      handler: async (request, h) => {
        const profile = await load(request, h);
        if (!('accountId' in profile)) return profile;
        const typed = (request.payload as Record<string, unknown> | null)?.name;
        const checked = checkProfileName(typed);
        if ('problem' in checked)
          return renamePage(
            request,
            h,
            profile,
            messageList([message('profile_name_invalid', { detail: checked.problem })]),
            typeof typed === 'string' ? typed : '',
          );
        const renamed = await ctx.store.profiles.rename(profile.id, checked.name);
        if (!renamed) return errorPage(ctx, request, h, 'not_found');
        return redirectWithFlash(h, '/profiles', `Profile “${profile.name}” renamed to “${renamed.name}”.`);
      },
    },
    {
      method: 'GET',
      path: '/profiles/{id}/delete',
      options: { auth: 'session', plugins: web },
      handler: async (request, h) => {
        const profile = await load(request, h);
        if (!('accountId' in profile)) return profile;
        const user = credentialsOf(request);
        const { reports, tests } = await ctx.store.profiles.contents(profile.id);
        const body = html`<section class="confirm" id="confirm-delete">
          <h2>Delete the profile “${profile.name}”?</h2>
          <p>
            With it go <strong>${counted(reports, 'report')}</strong> holding
            <strong>${counted(tests, 'test')}</strong>, their containers, the history of its tests, and the result files
            and attachments uploaded into it. CI jobs that import into <code>${profile.number}</code> get
            <code>profile_not_found</code> afterwards. This cannot be undone.
          </p>
          <form method="post" action="/profiles/${profile.number}/delete" class="inline-form">
            <input type="hidden" name="csrf" value="${user.csrfToken}" /><button type="submit" class="danger">
              Delete “${profile.name}” and its ${counted(reports, 'report')}
            </button>
            <a href="/profiles">Cancel</a>
          </form>
        </section>`;
        return respond(h, page(ctx, { title: `Delete ${profile.name}`, user, profile }, body));
      },
    },
    {
      method: 'POST',
      path: '/profiles/{id}/delete',
      options: { auth: 'session', plugins: web, payload: FORM_PAYLOAD },
      handler: async (request, h) => {
        const profile = await load(request, h);
        if (!('accountId' in profile)) return profile;
        const done = await ctx.store.profiles.delete(profile.id);
        if (done.status !== 'deleted') return errorPage(ctx, request, h, deletionFault(done));
        return redirectWithFlash(
          h,
          '/profiles',
          `Profile “${profile.name}” deleted with its ${counted(done.reports, 'report')} ` +
            `(${counted(done.tests, 'test')}).`,
        );
      },
    },
  ];
}
