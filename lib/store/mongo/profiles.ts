/** Profiles in MongoDB. */
import { checkNumber, NumberTakenError } from '../numbers.js';
import type { ProfileStore } from '../profiles.js';
import { newProfile } from '../records.js';
import { toProfile } from './collections.js';
import type { MongoConnection } from './connection.js';
import { claimNumber, isDuplicateKey, nextNumber } from './numbers.js';

export function profileStore(conn: MongoConnection): ProfileStore {
  return {
    async create(accountId, name, options = {}) {
      const chosen = options.number === undefined ? null : checkNumber('profile', options.number);
      // Claimed first, so the counter steps over it later (already claimed if a deleted profile had it).
      if (chosen !== null) await claimNumber(conn.c, 'profile', chosen);
      for (;;) {
        const number = chosen ?? (await nextNumber(conn.c, 'profile'));
        const profile = newProfile(accountId, name, number);
        try {
          await conn.c.profiles.insertOne({ _id: profile.id, number, accountId, name, createdAt: profile.createdAt });
          return profile;
        } catch (e) {
          // The unique number index: another profile has the chosen number, or took the counted one
          // by choice between its claim and this insert (then the counter gives the next).
          if (!isDuplicateKey(e)) throw e;
          if (chosen !== null) throw new NumberTakenError('profile', chosen);
        }
      }
    },
    async get(id) {
      const doc = await conn.c.profiles.findOne(typeof id === 'number' ? { number: id } : { _id: id });
      return doc ? toProfile(doc) : null;
    },
    async list(accountId) {
      const docs = await conn.c.profiles.find({ accountId }).sort({ createdAt: 1, _id: 1 }).toArray();
      return docs.map(toProfile);
    },
  };
}
