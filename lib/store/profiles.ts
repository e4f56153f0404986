/** Profiles: an account's named places that reports are imported into. */
import type { Deletion, Profile, ProfileContents } from './types.js';

export interface ProfileStore {
  create(accountId: string, name: string): Promise<Profile>;
  /** Null when there is no such profile, or it is being deleted. */
  get(id: string): Promise<Profile | null>;
  list(accountId: string): Promise<Profile[]>;
  /** The profile with its new name; null when there is no such profile (or it is being deleted). */
  rename(id: string, name: string): Promise<Profile | null>;
  /** What `delete` would remove: the profile's completed reports and their tests. */
  contents(id: string): Promise<ProfileContents>;
  /**
   * Deletes the profile with its reports, their containers, history columns and blobs, and its
   * import records (deletions.ts); refused while an import into it runs.
   */
  delete(id: string): Promise<Deletion>;
}
