/** Accounts and API keys in the embedded database. */
import type { AccountStore, ApiKeyStore } from '../accounts.js';
import { newAccount } from '../records.js';
import { now } from '../time.js';
import type { EmbeddedDatabase } from './database.js';
import { toAccount, toApiKey } from './rows.js';

export function accountStore(d: EmbeddedDatabase): AccountStore {
  return {
    async create(name) {
      const account = newAccount(name);
      d.s.insertAccount.run(account.id, account.name, account.createdAt);
      return account;
    },
    async get(id) {
      const row = d.s.getAccount.get(id);
      return row ? toAccount(row) : null;
    },
    async count() {
      return d.s.countAccounts.get()!.n;
    },
  };
}

export function apiKeyStore(d: EmbeddedDatabase): ApiKeyStore {
  return {
    async add(key) {
      d.s.insertApiKey.run(key.keyId, key.accountId, key.secretHash, key.createdAt, key.revokedAt);
    },
    async find(keyId) {
      const row = d.s.findApiKey.get(keyId);
      return row ? toApiKey(row) : null;
    },
    async list(accountId) {
      return d.s.listApiKeys.all(accountId).map(toApiKey);
    },
    async revoke(accountId, keepKeyId) {
      const keep = keepKeyId ?? null;
      return d.s.revokeApiKeys.run(now(), accountId, keep, keep).changes;
    },
  };
}
