/**
 * Loads a profile for the authenticated account, by number or UUID: 404 when unknown, 403 when
 * another account's.
 */
import type { Request, ResponseObject, ResponseToolkit } from '@hapi/hapi';
import { idOrNumber } from '../lib/store/numbers.js';
import type { Profile } from '../lib/store/types.js';
import type { Store } from '../lib/store/store.js';
import type { TallyCredentials } from './auth.js';
import { fault } from './replies.js';

export async function profileFor(
  store: Store,
  request: Request,
  h: ResponseToolkit,
  id: string,
): Promise<Profile | ResponseObject> {
  const profile = await store.profiles.get(idOrNumber(id));
  if (!profile) return fault(h, 'profile_not_found');
  const { accountId } = request.auth.credentials as unknown as TallyCredentials;
  if (profile.accountId !== accountId) return fault(h, 'profile_forbidden');
  return profile;
}

/** A profile as the API answers it (GET /api/v2/profile/{profile_id}, and creating or renaming one). */
/** A profile as the API shows it: its public number as `profile_id` and `id`, the UUID as `uuid`. */
export function profileJson(profile: Profile): {
  profile_id: number;
  id: number;
  uuid: string;
  name: string;
  created_at: string;
} {
  return {
    profile_id: profile.number,
    id: profile.number,
    uuid: profile.id,
    name: profile.name,
    created_at: profile.createdAt,
  };
}

export function accountOf(request: Request): string {
  return (request.auth.credentials as unknown as TallyCredentials).accountId;
}

export function baseUrl(request: Request, publicUrl: string | null): string {
  if (publicUrl) return publicUrl.replace(/\/+$/, '');
  const host = request.headers.host ?? `${request.info.host}`;
  return `${request.server.info.protocol}://${host}`;
}
