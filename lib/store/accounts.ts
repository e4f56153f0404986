/** Accounts and their API keys: who may import, and with which keys (SPEC 3). */
import type { Account, ApiKeyRecord } from './types.js';

export interface AccountStore {
  create(name: string): Promise<Account>;
  get(id: string): Promise<Account | null>;
  count(): Promise<number>;
}

/** Keys are made by lib/api-keys.ts (the secret is shown once); the store keeps their records. */
export interface ApiKeyStore {
  add(key: ApiKeyRecord): Promise<void>;
  find(keyId: string): Promise<ApiKeyRecord | null>;
  /** Every key of the account, revoked ones included, oldest first. */
  list(accountId: string): Promise<ApiKeyRecord[]>;
  /** Revokes every live key of the account except `keepKeyId`; returns how many were revoked. */
  revoke(accountId: string, keepKeyId?: string): Promise<number>;
}
