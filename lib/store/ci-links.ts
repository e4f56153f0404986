/**
 * CI links: per profile, the CI job it starts and reads (lib/ci/). The store never sees a clear
 * token: `sealedToken` is the secret box's ciphertext (lib/ci/secret-box.ts), sealed and opened by
 * the caller, so neither a database file, a dump nor a backup holds a usable token.
 */

export interface CiLink {
  /** The profile's UUID: one link per profile. */
  profileId: string;
  /** A CI provider's key (lib/ci/registry.ts). */
  provider: string;
  url: string;
  repository: string;
  branch: string;
  job: string;
  /** The token as the secret box sealed it: `v1.<key id>.…`. */
  sealedToken: string;
  /**
   * Send the verdict back after each import (lib/ci/verdict.ts): a commit status and a pull-request
   * comment. Off unless asked for, and only for providers that can (lib/ci/registry.ts `sendsVerdict`).
   */
  verdict: boolean;
  /** ISO 8601, when the link was last saved. */
  updatedAt: string;
}

export interface CiLinkStore {
  /** The profile's link, or null. */
  get(profileId: string): Promise<CiLink | null>;
  /** Saves the profile's link, replacing the one it had. */
  put(link: CiLink): Promise<void>;
  /** Removes the profile's link; false when it had none. */
  delete(profileId: string): Promise<boolean>;
  /** How many links exist: start-up refuses to run without TALLY_SECRET_KEY when any does. */
  count(): Promise<number>;
}
