/**
 * The secret box: how a CI link's token is kept at rest. AES-256-GCM with the 32-byte key of
 * `TALLY_SECRET_KEY`, a random 12-byte IV per value, and the key's id written with the ciphertext,
 * so a later key can be added beside the old one and values re-sealed at leisure (rotation) rather
 * than all at once. The sealed form is one ASCII string:
 *
 *     v1.<key id>.<iv>.<ciphertext>.<tag>        (base64url parts)
 *
 * A caller binds a value to where it lives (`context`, e.g. the profile id) as GCM's associated
 * data, so a sealed token copied onto another profile's link does not open there.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { inspect } from 'node:util';

const VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * A key, holding its bytes where neither `JSON.stringify`, `console.log` nor a structured log line
 * reaches them: only its id shows.
 */
export class SecretKey {
  readonly id: string;
  readonly #bytes: Buffer;
  constructor(bytes: Buffer) {
    if (bytes.length !== KEY_BYTES) throw new Error(`a secret key is ${KEY_BYTES} bytes, not ${bytes.length}`);
    this.#bytes = Buffer.from(bytes);
    // The id names the key without giving it away: a hash of it, short enough to store per value.
    this.id = createHash('sha256').update('tally secret key id\0').update(bytes).digest('base64url').slice(0, 8);
  }
  /** @internal for the box only. */
  bytes(): Buffer {
    return this.#bytes;
  }
  toJSON(): string {
    return `[secret key ${this.id}]`;
  }
  toString(): string {
    return this.toJSON();
  }
  [inspect.custom](): string {
    return this.toJSON();
  }
}

/**
 * `TALLY_SECRET_KEY` as a key: 64 hex digits, or base64 (standard or URL alphabet) of exactly 32
 * bytes. Anything else is refused with a sentence that says what is wanted, never the value itself.
 */
export function parseSecretKey(raw: string, name = 'TALLY_SECRET_KEY'): SecretKey {
  const text = raw.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return new SecretKey(Buffer.from(text, 'hex'));
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === KEY_BYTES) return new SecretKey(bytes);
  }
  throw new Error(
    `${name} must be 32 random bytes written as 64 hex digits or as base64 (44 characters); the value given ` +
      `(${text.length} characters) is neither. Make one with: openssl rand -base64 32`,
  );
}

export type SecretBoxFault = 'malformed' | 'unknown_key' | 'tampered';

export class SecretBoxError extends Error {
  readonly fault: SecretBoxFault;
  constructor(fault: SecretBoxFault, message: string) {
    super(message);
    this.name = 'SecretBoxError';
    this.fault = fault;
  }
}

export interface SecretBox {
  /** The id of the key new values are sealed with. */
  readonly keyId: string;
  seal(plain: string, context: string): string;
  open(sealed: string, context: string): string;
  /** Sealed with a key other than the current one: worth re-sealing. */
  isStale(sealed: string): boolean;
}

/** A box sealing with `current` and opening with it or any of `previous` (keys being rotated out). */
export function createSecretBox(current: SecretKey, previous: readonly SecretKey[] = []): SecretBox {
  const keys = new Map<string, SecretKey>();
  for (const k of [current, ...previous]) if (!keys.has(k.id)) keys.set(k.id, k);
  return {
    keyId: current.id,
    seal(plain, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current.bytes(), iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const parts = [iv, body, cipher.getAuthTag()].map((b) => b.toString('base64url'));
      return [VERSION, current.id, ...parts].join('.');
    },
    open(sealed, context) {
      const parts = sealed.split('.');
      if (parts.length !== 5 || parts[0] !== VERSION)
        throw new SecretBoxError('malformed', 'not a value this secret box sealed');
      const [, keyId, ivText, bodyText, tagText] = parts as [string, string, string, string, string];
      const key = keys.get(keyId);
      if (!key)
        throw new SecretBoxError(
          'unknown_key',
          `sealed with key ${keyId}, which is not TALLY_SECRET_KEY (${current.id}): was the key changed?`,
        );
      const iv = Buffer.from(ivText, 'base64url');
      const tag = Buffer.from(tagText, 'base64url');
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES)
        throw new SecretBoxError('malformed', 'not a value this secret box sealed');
      const decipher = createDecipheriv('aes-256-gcm', key.bytes(), iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tag);
      try {
        return Buffer.concat([decipher.update(Buffer.from(bodyText, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretBoxError('tampered', 'the sealed value was changed, or belongs elsewhere');
      }
    },
    isStale: (sealed) => sealed.split('.')[1] !== current.id,
  };
}
