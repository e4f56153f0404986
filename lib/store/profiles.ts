/** Profiles: an account's named places that reports are imported into. */
import type { IdOrNumber } from './numbers.js';
import type { Deletion, Profile, ProfileContents } from './types.js';

export interface NewProfileOptions {
  /**
   * A chosen public id (a team keeping the one its pipelines already use): refused with
   * NumberTakenError when a profile has it; the counter never hands it out afterwards.
   */
  number?: number;
}

export interface ProfileStore {
  /** A new profile; its number is the chosen one, else the counter's next one that no profile has. */
  create(accountId: string, name: string, options?: NewProfileOptions): Promise<Profile>;
  /** By UUID, or by public number; null when there is no such profile, or it is being deleted. */
  get(id: IdOrNumber): Promise<Profile | null>;
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
