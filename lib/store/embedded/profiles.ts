/** Profiles in the embedded database. */
import { checkNumber, NumberTakenError } from '../numbers.js';
import type { ProfileStore } from '../profiles.js';
import { newProfile } from '../records.js';
import type { Profile } from '../types.js';
import type { EmbeddedDatabase } from './database.js';
import { claimNextNumber } from './numbers.js';
import { toProfile } from './rows.js';

export function profileStore(d: EmbeddedDatabase): Omit<ProfileStore, 'delete'> {
  return {
    async create(accountId, name, options = {}) {
      const chosen = options.number === undefined ? null : checkNumber('profile', options.number);
      const s = d.s;
      // Immediate: the check, the claim and the insert hold the write lock together.
      return d.db
        .transaction((): Profile => {
          let number: number;
          if (chosen === null) number = claimNextNumber(s, 'profile');
          else {
            if (s.profileNumberTaken.get(chosen)) throw new NumberTakenError('profile', chosen);
            // Claimed, so the counter steps over it later (already claimed if a deleted profile had it).
            s.claimNumber.run('profile', chosen);
            number = chosen;
          }
          const profile = newProfile(accountId, name, number);
          s.insertProfile.run(profile.id, number, profile.accountId, profile.name, profile.createdAt);
          return profile;
        })
        .immediate();
    },
    async get(id) {
      const row = typeof id === 'number' ? d.s.getProfileByNumber.get(id) : d.s.getProfile.get(id);
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
