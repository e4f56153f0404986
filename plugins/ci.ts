/**
 * A profile's CI link as JSON: `GET/PUT/DELETE /api/v2/profiles/{id}/ci`. The token is write-only:
 * it is sealed by the secret box (TALLY_SECRET_KEY) before the store sees it, bound to its profile,
 * and no answer carries it, only `token_set`. Without the key no link can be saved
 * (`ci_secret_key_missing`); a profile of another account answers 403 and an unknown one 404.
 * The runs, a run's log and the schedules the link reaches are plugins/ci-runs.ts.
 */
import type { Plugin, Request, ResponseToolkit } from '@hapi/hapi';
import { checkLink } from '../lib/ci/link.js';
import { sendsVerdict, type CiRegistry } from '../lib/ci/registry.js';
import type { SecretBox } from '../lib/ci/secret-box.js';
import type { CiLink } from '../lib/store/ci-links.js';
import type { Store } from '../lib/store/store.js';
import type { Profile } from '../lib/store/types.js';
import { registerRunRoutes } from './ci-runs.js';
import { profileFor } from './profiles.js';
import { fault, jsonBody } from './replies.js';

export interface CiPluginOptions {
  store: Store;
  providers: CiRegistry;
  /** Null when TALLY_SECRET_KEY is not set. */
  box: SecretBox | null;
}

const JSON_BODY = jsonBody('ci_link_invalid');

/** A link as answers show it: everything but the token, which is only said to be set. */
export function linkJson(profile: Profile, link: CiLink) {
  return {
    profile_id: profile.number,
    provider: link.provider,
    url: link.url,
    repository: link.repository,
    branch: link.branch,
    job: link.job,
    verdict: link.verdict,
    token_set: true,
    updated_at: link.updatedAt,
  };
}

/** Saves a checked link, sealing a new token or keeping the sealed one; what a form and the API share. */
export async function saveLink(
  o: CiPluginOptions,
  profile: Profile,
  body: unknown,
): Promise<{ link: CiLink } | { code: 'ci_link_invalid' | 'ci_secret_key_missing'; problem?: string }> {
  const existing = await o.store.ciLinks.get(profile.id);
  const providers = o.providers.all();
  const given = checkLink(
    body,
    providers.map((p) => p.key),
    existing !== null,
    providers.filter(sendsVerdict).map((p) => p.key),
  );
  // The body first: a request that could never be saved is the client's fault (400), not a 503.
  if ('problem' in given) return { code: 'ci_link_invalid', problem: given.problem };
  if (!o.box) return { code: 'ci_secret_key_missing' };
  const { token, ...fields } = given.link;
  const link: CiLink = {
    profileId: profile.id,
    ...fields,
    // Bound to the profile: a sealed token copied onto another profile's link does not open.
    sealedToken: token === null ? existing!.sealedToken : o.box.seal(token, profile.id),
    updatedAt: new Date().toISOString(),
  };
  await o.store.ciLinks.put(link);
  return { link };
}

export const ciPlugin: Plugin<CiPluginOptions> = {
  name: 'tally-ci',
  register(server, o) {
    const path = '/api/v2/profiles/{id}/ci';
    const profileOf = (request: Request, h: ResponseToolkit) =>
      profileFor(o.store, request, h, (request.params as { id: string }).id);

    server.route({
      method: 'GET',
      path,
      options: { auth: 'api-key' },
      handler: async (request, h) => {
        const profile = await profileOf(request, h);
        if (!('accountId' in profile)) return profile;
        const link = await o.store.ciLinks.get(profile.id);
        return link ? linkJson(profile, link) : fault(h, 'ci_link_not_found');
      },
    });

    server.route({
      method: 'PUT',
      path,
      options: { auth: 'api-key', payload: JSON_BODY },
      handler: async (request, h) => {
        const profile = await profileOf(request, h);
        if (!('accountId' in profile)) return profile;
        const saved = await saveLink(o, profile, request.payload);
        if ('code' in saved) return fault(h, saved.code, saved.problem);
        return linkJson(profile, saved.link);
      },
    });

    server.route({
      method: 'DELETE',
      path,
      options: { auth: 'api-key' },
      handler: async (request, h) => {
        const profile = await profileOf(request, h);
        if (!('accountId' in profile)) return profile;
        return (await o.store.ciLinks.delete(profile.id))
          ? { profile_id: profile.number, deleted: true }
          : fault(h, 'ci_link_not_found');
      },
    });

    registerRunRoutes(server, o);
  },
};
