/** Profiles in the embedded database. */
import type { ProfileStore } from '../profiles.js';
import { newProfile } from '../records.js';
import type { EmbeddedDatabase } from './database.js';
import { toProfile } from './rows.js';

export function profileStore(d: EmbeddedDatabase): Omit<ProfileStore, 'delete'> {
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
    async rename(id, name) {
      if (d.s.renameProfile.run(name, id).changes === 0) return null;
      const row = d.s.getProfile.get(id);
      return row ? toProfile(row) : null;
    },
    async contents(id) {
      const { reports, tests } = d.s.profileContents.get(id)!;
      return { reports, tests };
    },
  };
}
