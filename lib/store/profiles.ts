/** Profiles: an account's named places that reports are imported into. */
import type { IdOrNumber } from './numbers.js';
import type { Profile } from './types.js';

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
  /** By UUID, or by public number. */
  get(id: IdOrNumber): Promise<Profile | null>;
  list(accountId: string): Promise<Profile[]>;
}
