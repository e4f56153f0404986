/** Accounts and API keys in MongoDB. */
import { randomUUID } from 'node:crypto';
import type { Filter } from 'mongodb';
import type { AccountStore, ApiKeyStore } from '../accounts.js';
import { newAccount } from '../records.js';
import { now } from '../time.js';
import { toAccount, toApiKey, type ApiKeyDoc } from './collections.js';
import type { MongoConnection } from './connection.js';

export function accountStore(conn: MongoConnection): AccountStore {
  return {
    async create(name) {
      const account = newAccount(name);
      await conn.c.accounts.insertOne({ _id: account.id, name: account.name, createdAt: account.createdAt });
      return account;
    },
    async get(id) {
      const doc = await conn.c.accounts.findOne({ _id: id });
      return doc ? toAccount(doc) : null;
    },
    count: () => conn.c.accounts.countDocuments(),
  };
}

export function apiKeyStore(conn: MongoConnection): ApiKeyStore {
  return {
    async add(key) {
      await conn.c.apiKeys.insertOne({ _id: randomUUID(), ...key });
    },
    async find(keyId) {
      const doc = await conn.c.apiKeys.findOne({ keyId });
      return doc ? toApiKey(doc) : null;
    },
    async list(accountId) {
      const docs = await conn.c.apiKeys.find({ accountId }).sort({ createdAt: 1, keyId: 1 }).toArray();
      return docs.map(toApiKey);
    },
    async revoke(accountId, keepKeyId) {
      const filter: Filter<ApiKeyDoc> = { accountId, revokedAt: null };
      if (keepKeyId !== undefined) filter.keyId = { $ne: keepKeyId };
      const result = await conn.c.apiKeys.updateMany(filter, { $set: { revokedAt: now() } });
      return result.modifiedCount;
    },
  };
}
