/** Conformance cases for accounts and API keys. */
import { randomUUID } from 'node:crypto';
import { apiKey, isIsoTime, type Cases } from './fixtures.js';

export const accountCases: Cases = {
  'accounts and API keys': async (t, _h, store) => {
    t.equal(await store.accounts.count(), 0, 'a fresh store has no accounts');
    const a = await store.accounts.create('Acme ü');
    const b = await store.accounts.create('Other');
    t.equal(await store.accounts.count(), 2);
    t.strictSame(await store.accounts.get(a.id), a);
    t.equal(await store.accounts.get(randomUUID()), null);
    t.not(a.id, b.id);
    t.ok(isIsoTime(a.createdAt), 'createdAt is an ISO time');

    const keys = ['k1', 'k2', 'k3'].map((keyId) => apiKey(keyId, a.id));
    for (const key of keys) await store.keys.add(key);
    const other = apiKey('k4', b.id);
    await store.keys.add(other);
    t.strictSame(await store.keys.find('k2'), keys[1]);
    t.strictSame((await store.keys.list(a.id)).map((k) => k.keyId).sort(), ['k1', 'k2', 'k3'], "an account's keys");
    t.strictSame(await store.keys.list(b.id), [other]);
    t.equal(await store.keys.find('nope'), null);

    t.equal(await store.keys.revoke(a.id, 'k1'), 2, 'revokes the live keys except the kept one');
    t.equal((await store.keys.find('k1'))?.revokedAt, null, 'the kept key stays live');
    for (const keyId of ['k2', 'k3']) {
      const found = await store.keys.find(keyId);
      t.ok(found && isIsoTime(found.revokedAt ?? ''), `${keyId} stays findable with revokedAt set`);
      t.strictSame(
        { ...found, revokedAt: null },
        keys.find((k) => k.keyId === keyId),
        `${keyId} is otherwise unchanged`,
      );
    }
    t.strictSame(await store.keys.find('k4'), other, "another account's keys are untouched");
    t.equal(await store.keys.revoke(a.id, 'k1'), 0, 'revoked keys are not revoked again');
    const k2 = await store.keys.find('k2');
    t.equal(await store.keys.revoke(a.id), 1, 'without a kept key every live key goes');
    t.ok((await store.keys.find('k1'))?.revokedAt);
    t.equal((await store.keys.find('k2'))?.revokedAt, k2?.revokedAt, 'an earlier revocation time is kept');
  },
};
