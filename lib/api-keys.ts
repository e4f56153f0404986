/**
 * API keys: `tly_<keyId>_<secret>`. The key id is public and finds the record; only a SHA-256 of
 * the secret is stored, and it is compared in constant time. A key is shown once, when made.
 *
 * A key a team already uses elsewhere (a Calliope key in every pipeline) can be imported as it is:
 * its record's id is derived from the key itself (`imported_` and a hash), and its SHA-256 is kept,
 * never the key. A `tly_` key from another Tally is imported in its own shape. Only strings strong
 * enough to be keys are taken (importProblem), since a stored SHA-256 protects a strong key only.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Store } from './store/store.js';
import type { ApiKeyRecord } from './store/types.js';

const KEY_PATTERN = /^tly_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

/** What an imported key may be: its length, its characters, its strength. */
export const IMPORTED_KEY = { minLength: 20, maxLength: 512, minDistinct: 10, minBits: 96 } as const;

const IMPORTED_PREFIX = 'imported_';

export interface IssuedKey {
  apiKey: string;
  record: ApiKeyRecord;
}

/** A key that cannot be imported, with the sentence that says why. */
export class KeyImportError extends Error {
  override name = 'KeyImportError';
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

/** Whether a key record was imported rather than issued here (it has no `tly_` prefix to show). */
export function isImportedKey(record: Pick<ApiKeyRecord, 'keyId'>): boolean {
  return record.keyId.startsWith(IMPORTED_PREFIX);
}

/**
 * The record id and the hashed part of a key string: a `tly_` key's own id and secret; for any
 * other string an id derived from it (never 12 characters long, so never a `tly_` key's) and the
 * whole string. Null for a string that cannot be a key of either kind.
 */
function keyParts(apiKey: string): { keyId: string; secret: string } | null {
  const m = KEY_PATTERN.exec(apiKey);
  if (m) return { keyId: m[1]!, secret: m[2]! };
  if (apiKey.length < IMPORTED_KEY.minLength || apiKey.length > IMPORTED_KEY.maxLength) return null;
  const digest = createHash('sha256').update('tally imported key id\0').update(apiKey).digest('hex');
  return { keyId: `${IMPORTED_PREFIX}${digest.slice(0, 16)}`, secret: apiKey };
}

/** The account the key belongs to, or null for a malformed, unknown or revoked key. */
export async function verifyKey(store: Store, apiKey: string): Promise<string | null> {
  const parts = keyParts(apiKey);
  if (!parts) return null;
  const record = await store.keys.find(parts.keyId);
  if (!record || record.revokedAt) return null;
  const given = Buffer.from(hashSecret(parts.secret), 'hex');
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

/** Bits a guesser must cover for a string of this length drawn from the kinds of character it uses. */
function strengthBits(key: string): number {
  let alphabet: number;
  if (/^[0-9]+$/.test(key)) alphabet = 10;
  else if (/^[0-9a-f]+$/.test(key) || /^[0-9A-F]+$/.test(key)) alphabet = 16;
  else
    alphabet =
      (/[0-9]/.test(key) ? 10 : 0) +
      (/[a-z]/.test(key) ? 26 : 0) +
      (/[A-Z]/.test(key) ? 26 : 0) +
      (/[^0-9a-zA-Z]/.test(key) ? 32 : 0);
  return key.length * Math.log2(alphabet);
}

/** Steps from one character to the next that stay or move by one (aa, ab, ba): most of a made-up string. */
function runSteps(key: string): number {
  let steps = 0;
  for (let i = 1; i < key.length; i++) if (Math.abs(key.charCodeAt(i) - key.charCodeAt(i - 1)) <= 1) steps++;
  return steps;
}

/** Why a string cannot be imported as a key (never quoting it), or null when it can. */
export function importProblem(key: string): string | null {
  const { minLength, maxLength, minDistinct, minBits } = IMPORTED_KEY;
  if (key.length < minLength || key.length > maxLength)
    return `the key is ${key.length} characters long; an imported key has ${minLength} to ${maxLength}`;
  if (!/^[\x21-\x7e]+$/.test(key))
    return 'the key holds a space or a character outside visible ASCII, which an x-api-key header cannot carry as is';
  const distinct = new Set(key).size;
  if (distinct < minDistinct)
    return `the key uses only ${distinct} different character${distinct === 1 ? '' : 's'}; a key needs ${minDistinct}`;
  if (runSteps(key) > ((key.length - 1) * 2) / 3)
    return 'the key is mostly runs of neighbouring characters (abcd…, 4321…), which a guesser tries first';
  const bits = Math.floor(strengthBits(key));
  if (bits < minBits)
    return (
      `the key is too weak to be a key (about ${bits} bits; at least ${minBits}: 20 characters mixing letters ` +
      'and digits, 21 lower-case letters, 24 hexadecimal digits or 29 decimal digits)'
    );
  return null;
}

/**
 * Registers an existing key string for the account, stored hashed like every key. Refused (with
 * KeyImportError) when the string is not strong enough to be a key, or is registered already.
 */
export async function importKey(store: Store, accountId: string, apiKey: string): Promise<ApiKeyRecord> {
  const problem = importProblem(apiKey);
  if (problem) throw new KeyImportError(problem);
  if (!(await store.accounts.get(accountId))) throw new KeyImportError(`there is no account ${accountId}`);
  const { keyId, secret } = keyParts(apiKey)!;
  if (await store.keys.find(keyId)) throw new KeyImportError('the key is registered already (a key has one account)');
  const record: ApiKeyRecord = {
    keyId,
    accountId,
    secretHash: hashSecret(secret),
    createdAt: new Date().toISOString(),
    revokedAt: null,
  };
  await store.keys.add(record);
  return record;
}
