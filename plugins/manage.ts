/**
 * Managing profiles and reports with the API key: create, rename and delete a profile, delete a
 * report. Deleting takes everything the report or profile owns (lib/store/deletions.ts) and is
 * refused with 409 `import_in_progress` while an import into it runs. A profile of another account
 * answers 403 and an unknown one 404, as everywhere; a report of another account answers 404 (its
 * existence is not revealed), as the read API does.
 */
import type { Plugin } from '@hapi/hapi';
import type { MessageCode } from '../lib/messages.js';
import { checkProfileName } from '../lib/profile-name.js';
import type { Store } from '../lib/store/store.js';
import type { Deletion, Profile, Report } from '../lib/store/types.js';
import { accountOf, profileFor, profileJson } from './profiles.js';
import { idOrNumber } from '../lib/store/numbers.js';
import { fault, jsonBody } from './replies.js';

/**
 * A report the account may delete (completed, or still being built by its import: answered 409),
 * with its profile, which the web page leads back to.
 */
export async function reportOfAccount(
  store: Store,
  id: string,
  accountId: string,
): Promise<{ report: Report; profile: Profile } | null> {
  const report = await store.reports.get(idOrNumber(id));
  if (!report || (report.status !== 'completed' && report.status !== 'building')) return null;
  const profile = await store.profiles.get(report.profileId);
  return profile && profile.accountId === accountId ? { report, profile } : null;
}

/** Why a deletion did not happen, as a code; `notFound` names what was not there. */
export function deletionFault(
  d: Exclude<Deletion, { status: 'deleted' }>,
  notFound: 'not_found' | 'profile_not_found' = 'not_found',
): MessageCode {
  return d.status === 'not_found' ? notFound : 'import_in_progress';
}

/** The body of POST and PATCH: small JSON; a body hapi cannot read gets our coded answer. */
const JSON_BODY = jsonBody('profile_name_invalid');

/** The name of a create or rename body, or what is wrong with it. */
function nameOf(payload: unknown): { name: string } | { problem: string } {
  const raw =
    payload !== null && typeof payload === 'object' && !Array.isArray(payload)
      ? (payload as Record<string, unknown>).name
      : undefined;
  return raw === undefined ? { problem: 'The body has no "name".' } : checkProfileName(raw);
}

export const managePlugin: Plugin<{ store: Store }> = {
  name: 'tally-manage',
  register(server, { store }) {
    server.route({
      method: 'POST',
      path: '/api/v2/profiles',
      options: { auth: 'api-key', payload: JSON_BODY },
      handler: async (request, h) => {
        const given = nameOf(request.payload);
        if ('problem' in given) return fault(h, 'profile_name_invalid', given.problem);
        const profile = await store.profiles.create(accountOf(request), given.name);
        return h.response(profileJson(profile)).code(201).header('location', `/api/v2/profile/${profile.number}`);
      },
    });

    server.route({
      method: 'PATCH',
      path: '/api/v2/profiles/{id}',
      options: { auth: 'api-key', payload: JSON_BODY },
      handler: async (request, h) => {
        const profile = await profileFor(store, request, h, (request.params as { id: string }).id);
        if (!('accountId' in profile)) return profile;
        const given = nameOf(request.payload);
        if ('problem' in given) return fault(h, 'profile_name_invalid', given.problem);
        const renamed = await store.profiles.rename(profile.id, given.name);
        return renamed ? profileJson(renamed) : fault(h, 'profile_not_found');
      },
    });

    server.route({
      method: 'DELETE',
      path: '/api/v2/profiles/{id}',
      options: { auth: 'api-key' },
      handler: async (request, h) => {
        const profile = await profileFor(store, request, h, (request.params as { id: string }).id);
        if (!('accountId' in profile)) return profile;
        const done = await store.profiles.delete(profile.id);
        if (done.status !== 'deleted') return fault(h, deletionFault(done, 'profile_not_found'));
        return { profile_id: profile.number, deleted: { reports: done.reports, tests: done.tests } };
      },
    });

    server.route({
      method: 'DELETE',
      path: '/api/v2/reports/{report_id}',
      options: { auth: 'api-key' },
      handler: async (request, h) => {
        const found = await reportOfAccount(
          store,
          (request.params as { report_id: string }).report_id,
          accountOf(request),
        );
        if (!found) return fault(h, 'not_found');
        const { report } = found;
        const done = await store.reports.delete(report.id);
        if (done.status !== 'deleted') return fault(h, deletionFault(done));
        return { report_id: report.number, deleted: { reports: done.reports, tests: done.tests } };
      },
    });
  },
};
