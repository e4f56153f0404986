/** Profiles in MongoDB. */
import type { ProfileStore } from '../profiles.js';
import { newProfile } from '../records.js';
import { toProfile } from './collections.js';
import type { MongoConnection } from './connection.js';

export function profileStore(conn: MongoConnection): ProfileStore {
  return {
    async create(accountId, name) {
      const profile = newProfile(accountId, name);
      await conn.c.profiles.insertOne({ _id: profile.id, accountId, name, createdAt: profile.createdAt });
      return profile;
    },
    async get(id) {
      const doc = await conn.c.profiles.findOne({ _id: id });
      return doc ? toProfile(doc) : null;
    },
    async list(accountId) {
      const docs = await conn.c.profiles.find({ accountId }).sort({ createdAt: 1, _id: 1 }).toArray();
      return docs.map(toProfile);
    },
  };
}
