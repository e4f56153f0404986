/** Profiles: an account's named places that reports are imported into. */
import type { Profile } from './types.js';

export interface ProfileStore {
  create(accountId: string, name: string): Promise<Profile>;
  get(id: string): Promise<Profile | null>;
  list(accountId: string): Promise<Profile[]>;
}
