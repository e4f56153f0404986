/** Helpers every page shares: HTML answers, ownership checks, the HTML error page. */
import type { Request, ResponseObject, ResponseToolkit } from '@hapi/hapi';
import { entry, message, type MessageCode } from '../../../lib/messages.js';
import { idOrNumber } from '../../../lib/store/numbers.js';
import type { Profile, Report } from '../../../lib/store/types.js';
import type { WebContext } from '../context.js';
import { html } from '../html.js';
import { messageList, page } from '../layout.js';
import { credentialsOf, type WebCredentials } from '../session.js';

/** Every page form sends a few short fields, URL-encoded: a larger or other body is not one of them. */
export const FORM_PAYLOAD = {
  parse: true,
  output: 'data' as const,
  maxBytes: 16 * 1024,
  allow: 'application/x-www-form-urlencoded',
};

export function respond(h: ResponseToolkit, body: string, status = 200): ResponseObject {
  return h.response(body).type('text/html; charset=utf-8').code(status);
}

export function userOf(request: Request): WebCredentials | null {
  return request.auth.isAuthenticated ? credentialsOf(request) : null;
}

/**
 * The profile (by number or UUID) when it belongs to the signed-in account; another account's is
 * "not found" too.
 */
export async function ownProfile(ctx: WebContext, request: Request, id: string): Promise<Profile | null> {
  const profile = await ctx.store.profiles.get(idOrNumber(id));
  return profile && profile.accountId === credentialsOf(request).accountId ? profile : null;
}

/** A completed report of the signed-in account, with its profile. */
export interface OwnReport {
  report: Report;
  profile: Profile;
}

export async function ownReport(ctx: WebContext, request: Request, id: string): Promise<OwnReport | null> {
  const report = await ctx.store.reports.get(idOrNumber(id));
  if (!report || report.status !== 'completed') return null;
  const profile = await ownProfile(ctx, request, report.profileId);
  return profile ? { report, profile } : null;
}

export function errorPage(
  ctx: WebContext,
  request: Request,
  h: ResponseToolkit,
  code: MessageCode,
  detail?: string,
): ResponseObject {
  const m = message(code, detail ? { detail } : {});
  const body = html`<h1>${entry(code).status === 404 ? 'Not found' : 'Something is not right'}</h1>
    ${messageList([m])}
    <p><a href="/profiles">Back to the profiles</a></p>`;
  return respond(h, page(ctx, { title: 'Error', user: userOf(request) }, body), entry(code).status);
}

export function isFragmentRequest(request: Request): boolean {
  return request.headers['x-requested-with'] === 'tally';
}
