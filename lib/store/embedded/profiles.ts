/** Profiles in the embedded database. */
import type { ProfileStore } from '../profiles.js';
import { newProfile } from '../records.js';
import type { EmbeddedDatabase } from './database.js';
import { toProfile } from './rows.js';

export function profileStore(d: EmbeddedDatabase): ProfileStore {
  return {
    async create(accountId, name) {
      const profile = newProfile(accountId, name);
      d.s.insertProfile.run(profile.id, profile.accountId, profile.name, profile.createdAt);
      return profile;
    },
    async get(id) {
      const row = d.s.getProfile.get(id);
      return row ? toProfile(row) : null;
    },
    async list(accountId) {
      return d.s.listProfiles.all(accountId).map(toProfile);
    },
  };
}
