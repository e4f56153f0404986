/** The people who sign in to the web interface, and their browser sessions. */
import type { NewUser, Session, User } from './types.js';

export interface UserStore {
  /** Null when the e-mail address is taken. */
  create(input: NewUser): Promise<User | null>;
  get(id: string): Promise<User | null>;
  findByEmail(email: string): Promise<User | null>;
  /** Users of an account, oldest first. */
  list(accountId: string): Promise<User[]>;
  setPassword(id: string, passwordHash: string, mustChangePassword: boolean): Promise<void>;
}

/** Sessions are made by the web plugin (the cookie's token is never stored); the store keeps them. */
export interface SessionStore {
  add(session: Session): Promise<void>;
  /** The session, also when expired (the caller decides); null when unknown. */
  find(idHash: string): Promise<Session | null>;
  delete(idHash: string): Promise<void>;
  /** Ends every session of the user except `keepIdHash`; returns how many ended. */
  deleteOfUser(userId: string, keepIdHash?: string): Promise<number>;
  /** Removes sessions that expired before `now`; returns how many. */
  deleteExpired(now: string): Promise<number>;
}
