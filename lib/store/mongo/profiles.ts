/** Profiles in MongoDB. */
import type { Filter } from 'mongodb';
import { checkNumber, NumberTakenError } from '../numbers.js';
import type { ProfileStore } from '../profiles.js';
import { newProfile } from '../records.js';
import { toProfile, type ProfileDoc } from './collections.js';
import type { MongoConnection } from './connection.js';
import { claimNumber, isDuplicateKey, nextNumber } from './numbers.js';

/** A profile marked `deleting` is gone for every reader (lib/store/deletions.ts). */
export const LIVE_PROFILE: Filter<ProfileDoc> = { deleting: { $ne: true } };

export function profileStore(conn: MongoConnection): Omit<ProfileStore, 'delete'> {
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
      const doc = await conn.c.profiles.findOne(
        typeof id === 'number' ? { number: id, ...LIVE_PROFILE } : { _id: id, ...LIVE_PROFILE },
      );
      return doc ? toProfile(doc) : null;
    },
    async list(accountId) {
      const docs = await conn.c.profiles
        .find({ accountId, ...LIVE_PROFILE })
        .sort({ createdAt: 1, _id: 1 })
        .toArray();
      return docs.map(toProfile);
    },
    async rename(id, name) {
      const done = await conn.c.profiles.updateOne({ _id: id, ...LIVE_PROFILE }, { $set: { name } });
      if (done.matchedCount === 0) return null;
      const doc = await conn.c.profiles.findOne({ _id: id, ...LIVE_PROFILE });
      return doc ? toProfile(doc) : null;
    },
    async contents(id) {
      // Summed here: the store uses no aggregation (it runs on MongoDB-wire servers such as FerretDB).
      const docs = conn.c.reports.find(
        { profileId: id, status: 'completed' },
        { projection: { _id: 0, 'totals.tests': 1 } },
      );
      let reports = 0;
      let tests = 0;
      for await (const doc of docs) {
        reports++;
        tests += doc.totals.tests;
      }
      return { reports, tests };
    },
  };
}
