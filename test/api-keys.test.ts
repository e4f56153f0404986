/**
 * API keys (lib/api-keys.ts): issued keys, and keys imported as they are from another service,
 * against a real embedded store: which strings are refused and why, that an imported key verifies
 * (and nothing close to it does), that only its hash is stored, and that rotation ends it too.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import {
  IMPORTED_KEY,
  KeyImportError,
  createAccountWithKey,
  importKey,
  importProblem,
  isImportedKey,
  rotateKey,
  verifyKey,
} from '../lib/api-keys.js';
import { maskKey } from '../lib/page-data.js';
import { createEmbeddedStore } from '../lib/store/embedded/index.js';

t.test('which strings can be imported as keys', async (t) => {
  const accepted = [
    'b2f1c3e4-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
    '9f86d081884c7d659a2feaa0c55ad015',
    'q8ZrT2mWx4LpN7vB1sKd',
    'cal_live_51Hq2LkJ9xPzR4tV8wYbN3mC6',
    '83726159048172635490817263541',
    'tly_Q7pXk2LmZr9T_Q3npFsd_pjm8qBjt8CG3fTB5HiPVxfdvjDmiwFE9JkU',
  ];
  for (const key of accepted) t.equal(importProblem(key), null, `${key.length} characters: accepted`);
  const refused: [string, RegExp][] = [
    ['short-key-123', /13 characters long; an imported key has 20 to 512/],
    ['x'.repeat(513), /513 characters long/],
    ['abc def ghi jkl mno pqr', /space or a character outside visible ASCII/],
    ['clé-à-accents-1234567890', /outside visible ASCII/],
    ['abababababababababababab', /only 2 different characters; a key needs 10/],
    ['abcdefghijklmnopqrstuvwxyz', /mostly runs of neighbouring characters/],
    ['98765432109876543210', /mostly runs/],
    ['qmwnebrvtcyxuzialspd', /too weak to be a key \(about 94 bits; at least 96/],
    ['58317294061739285046', /too weak/],
  ];
  for (const [key, why] of refused) {
    const problem = importProblem(key);
    t.match(problem, why, `refused: ${why}`);
    t.notOk(problem?.includes(key), 'the refusal never quotes the key');
  }
  t.equal(IMPORTED_KEY.minLength, 20);
  t.equal(IMPORTED_KEY.maxLength, 512);
});

t.test('an imported key verifies, is stored hashed, and rotation ends it', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'tally-keys-'));
  const store = createEmbeddedStore({ dataDir, reserveBytes: 0 });
  t.teardown(async () => {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  await store.init();
  const { accountId, apiKey: issued } = await createAccountWithKey(store, 'team');
  const other = await createAccountWithKey(store, 'other');
  const key = 'cal_live_51Hq2LkJ9xPzR4tV8wYbN3mC6';

  const record = await importKey(store, accountId, key);
  t.ok(isImportedKey(record), 'its record says it was imported');
  t.equal(await verifyKey(store, key), accountId, 'the imported key authenticates its account');
  t.equal(await verifyKey(store, issued), accountId, 'the issued key keeps working beside it');
  for (const near of [`${key}x`, key.slice(0, -1), key.toUpperCase(), ` ${key}`])
    t.equal(await verifyKey(store, near), null, 'a string close to it does not');
  t.match(maskKey(record), /^imported key •+$/, 'the account page shows no part of it');

  await t.rejects(
    importKey(store, accountId, key),
    new KeyImportError('the key is registered already (a key has one account)'),
  );
  await t.rejects(importKey(store, other.accountId, key), KeyImportError, 'nor to another account');
  await t.rejects(importKey(store, 'no-such-account', 'q8ZrT2mWx4LpN7vB1sKd'), /there is no account no-such-account/);
  await t.rejects(importKey(store, accountId, 'too-short'), KeyImportError);

  // A key issued by another Tally keeps its shape: found by its own key id.
  const foreign = 'tly_Q7pXk2LmZr9T_Q3npFsd_pjm8qBjt8CG3fTB5HiPVxfdvjDmiwFE9JkU';
  t.equal((await importKey(store, accountId, foreign)).keyId, 'Q7pXk2LmZr9T');
  t.equal(await verifyKey(store, foreign), accountId, 'a tly_ key from another Tally works here');

  await store.close();
  const files = await readdir(dataDir);
  for (const name of files.filter((f) => f.startsWith('tally.sqlite'))) {
    const bytes = await readFile(join(dataDir, name));
    t.notOk(bytes.includes(key), `${name} does not hold the key in clear`);
    t.notOk(bytes.includes(foreign.slice(17)), `${name} does not hold the other key's secret`);
  }
  await store.init();

  await rotateKey(store, accountId);
  t.equal(await verifyKey(store, key), null, 'a rotation revokes every other key, imported ones too');
});
