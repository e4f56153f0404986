/** CI links in the embedded database (lib/store/ci-links.ts): one row per profile, the token sealed. */
import type { CiLinkStore } from '../ci-links.js';
import type { EmbeddedDatabase } from './database.js';

export function ciLinkStore(d: EmbeddedDatabase): CiLinkStore {
  return {
    async get(profileId) {
      const r = d.s.getCiLink.get(profileId);
      if (!r) return null;
      return {
        profileId: r.profile_id,
        provider: r.provider,
        url: r.url,
        repository: r.repository,
        branch: r.branch,
        job: r.job,
        sealedToken: r.sealed_token,
        updatedAt: r.updated_at,
        verdict: r.verdict === 1,
      };
    },
    async put(x) {
      const { profileId, provider, url, repository, branch, job, sealedToken, updatedAt } = x;
      d.s.putCiLink.run(profileId, provider, url, repository, branch, job, sealedToken, updatedAt, x.verdict ? 1 : 0);
    },
    async delete(profileId) {
      return d.s.deleteCiLink.run(profileId).changes > 0;
    },
    async count() {
      return d.s.countCiLinks.get()!.n;
    },
  };
}
