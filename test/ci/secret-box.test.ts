/**
 * The secret box: a round trip, a changed byte anywhere refused, a wrong key or a wrong context
 * refused, rotation (the old key still opens, the new one seals), and TALLY_SECRET_KEY's forms.
 */
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { createSecretBox, parseSecretKey, SecretBoxError, SecretKey } from '../../lib/ci/secret-box.js';

const key = (): SecretKey => new SecretKey(randomBytes(32));
/** The fault a call to the box raised, or "none". */
const faultOf = (f: () => unknown): string => {
  try {
    f();
    return 'none';
  } catch (e) {
    return e instanceof SecretBoxError ? e.fault : String(e);
  }
};

const TOKEN = 'ghp_0123456789abcdefTOKEN';

t.test('a round trip, with a fresh IV every time', async (t) => {
  const box = createSecretBox(key());
  const a = box.seal(TOKEN, 'profile:1');
  const b = box.seal(TOKEN, 'profile:1');
  t.not(a, b, 'two seals of one value differ');
  t.notOk(a.includes(TOKEN), 'the clear value is not in the sealed one');
  t.match(a, /^v1\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
  t.equal(box.open(a, 'profile:1'), TOKEN);
  t.equal(box.open(box.seal('', 'p'), 'p'), '', 'the empty string');
  t.equal(box.open(box.seal('ключ ✓', 'p'), 'p'), 'ключ ✓', 'UTF-8');
});

t.test('every changed character is detected', async (t) => {
  const box = createSecretBox(key());
  const sealed = box.seal(TOKEN, 'profile:1');
  const start = sealed.indexOf('.', 3) + 1; // past the version and the key id
  let refused = 0;
  for (let i = start; i < sealed.length; i++) {
    if (sealed[i] === '.') continue;
    const changed = sealed.slice(0, i) + (sealed[i] === 'A' ? 'B' : 'A') + sealed.slice(i + 1);
    try {
      box.open(changed, 'profile:1');
    } catch (e) {
      if (e instanceof SecretBoxError) refused++;
    }
  }
  const positions = sealed.slice(start).replace(/\./g, '').length;
  // A changed last base64url character may only touch padding bits the decoder drops; all others must fail.
  t.ok(refused >= positions - 3, `${refused} of ${positions} changes refused`);
  t.equal(
    faultOf(() => box.open(sealed, 'profile:2')),
    'tampered',
    'another context',
  );
  t.equal(
    faultOf(() => box.open('v1.abc', 'profile:1')),
    'malformed',
  );
  t.equal(
    faultOf(() => box.open(sealed.replace(/^v1/, 'v9'), 'profile:1')),
    'malformed',
  );
});

t.test('a wrong key is refused, naming the key ids, never a key', async (t) => {
  const sealed = createSecretBox(key()).seal(TOKEN, 'p');
  const other = key();
  t.equal(
    faultOf(() => createSecretBox(other).open(sealed, 'p')),
    'unknown_key',
  );
  t.throws(() => createSecretBox(other).open(sealed, 'p'), new RegExp(other.id));
  // The same id with other bytes cannot happen by chance; a forged id still fails on the tag.
  const forged = sealed.replace(/^v1\.[^.]+/, `v1.${other.id}`);
  t.equal(
    faultOf(() => createSecretBox(other).open(forged, 'p')),
    'tampered',
  );
});

t.test('rotation: the previous key opens, the current one seals', async (t) => {
  const old = key();
  const sealed = createSecretBox(old).seal(TOKEN, 'p');
  const box = createSecretBox(key(), [old]);
  t.equal(box.open(sealed, 'p'), TOKEN);
  t.ok(box.isStale(sealed));
  t.notOk(box.isStale(box.seal(TOKEN, 'p')));
});

t.test('TALLY_SECRET_KEY: hex or base64 of 32 bytes, anything else refused without echoing it', async (t) => {
  const bytes = randomBytes(32);
  const id = new SecretKey(bytes).id;
  t.equal(parseSecretKey(bytes.toString('hex')).id, id, 'hex');
  t.equal(parseSecretKey(bytes.toString('hex').toUpperCase()).id, id, 'upper-case hex');
  t.equal(parseSecretKey(bytes.toString('base64')).id, id, 'base64');
  t.equal(parseSecretKey(bytes.toString('base64url')).id, id, 'base64url');
  t.equal(parseSecretKey(` ${bytes.toString('base64')}\n`).id, id, 'a trailing newline from a file');
  for (const bad of ['', 'secret', bytes.subarray(0, 16).toString('hex'), randomBytes(33).toString('base64')]) {
    const error = t.throws(() => parseSecretKey(bad)) as Error;
    t.match(error.message, /^TALLY_SECRET_KEY must be 32 random bytes/);
    if (bad) t.notOk(error.message.includes(bad), 'the value is not echoed');
  }
});

t.test('a key never shows its bytes', async (t) => {
  const bytes = randomBytes(32);
  const k = new SecretKey(bytes);
  for (const shown of [JSON.stringify({ k }), inspect(k), String(k), inspect({ nested: { k } }, { depth: 9 })]) {
    t.notOk(shown.includes(bytes.toString('hex')) || shown.includes(bytes.toString('base64')), shown);
    t.match(shown, k.id);
  }
});
