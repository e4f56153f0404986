/** CI links in MongoDB (lib/store/ci-links.ts): one document per profile, `_id` its UUID, the token sealed. */
import type { CiLinkStore } from '../ci-links.js';
import type { MongoConnection } from './connection.js';

export function ciLinkStore(conn: MongoConnection): CiLinkStore {
  return {
    async get(profileId) {
      const doc = await conn.c.ciLinks.findOne({ _id: profileId });
      if (!doc) return null;
      return {
        profileId: doc._id,
        provider: doc.provider,
        url: doc.url,
        repository: doc.repository,
        branch: doc.branch,
        job: doc.job,
        sealedToken: doc.sealedToken,
        updatedAt: doc.updatedAt,
        verdict: doc.verdict === true,
      };
    },
    async put(x) {
      const { profileId, ...rest } = x;
      await conn.c.ciLinks.replaceOne({ _id: profileId }, rest, { upsert: true });
    },
    async delete(profileId) {
      return (await conn.c.ciLinks.deleteOne({ _id: profileId })).deletedCount > 0;
    },
    async count() {
      return conn.c.ciLinks.countDocuments();
    },
  };
}
