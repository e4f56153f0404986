/**
 * API keys: `tly_<keyId>_<secret>`. The key id is public and finds the record; only a SHA-256 of
 * the secret is stored, and it is compared in constant time. A key is shown once, when made.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Store } from './store/store.js';
import type { ApiKeyRecord } from './store/types.js';

const KEY_PATTERN = /^tly_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

export interface IssuedKey {
  apiKey: string;
  record: ApiKeyRecord;
}

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function issueKey(accountId: string): IssuedKey {
  const keyId = randomBytes(9).toString('base64url').replace(/[-_]/g, 'x').slice(0, 12);
  const secret = randomBytes(32).toString('base64url');
  return {
    apiKey: `tly_${keyId}_${secret}`,
    record: { keyId, accountId, secretHash: hashSecret(secret), createdAt: new Date().toISOString(), revokedAt: null },
  };
}

/** The account the key belongs to, or null for a malformed, unknown or revoked key. */
export async function verifyKey(store: Store, apiKey: string): Promise<string | null> {
  const m = KEY_PATTERN.exec(apiKey);
  if (!m) return null;
  const record = await store.keys.find(m[1] ?? '');
  if (!record || record.revokedAt) return null;
  const given = Buffer.from(hashSecret(m[2] ?? ''), 'hex');
  const stored = Buffer.from(record.secretHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored) ? record.accountId : null;
}

/** A new key for the account; every other key of the account stops working. */
export async function rotateKey(store: Store, accountId: string): Promise<string> {
  const issued = issueKey(accountId);
  await store.keys.add(issued.record);
  await store.keys.revoke(accountId, issued.record.keyId);
  return issued.apiKey;
}

export async function createAccountWithKey(store: Store, name: string): Promise<{ accountId: string; apiKey: string }> {
  const account = await store.accounts.create(name);
  const issued = issueKey(account.id);
  await store.keys.add(issued.record);
  return { accountId: account.id, apiKey: issued.apiKey };
}
