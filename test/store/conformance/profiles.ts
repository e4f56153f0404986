/** Conformance cases for profiles. */
import { randomUUID } from 'node:crypto';
import { byId, isIsoTime, type Cases } from './fixtures.js';

export const profileCases: Cases = {
  profiles: async (t, _h, store) => {
    const a = await store.accounts.create('A');
    const b = await store.accounts.create('B');
    const p1 = await store.profiles.create(a.id, 'web');
    const p2 = await store.profiles.create(a.id, 'api — ✓');
    const p3 = await store.profiles.create(b.id, 'web');
    t.strictSame(p1, { id: p1.id, number: p1.number, accountId: a.id, name: 'web', createdAt: p1.createdAt });
    t.ok(isIsoTime(p1.createdAt));
    t.strictSame(await store.profiles.get(p2.id), p2);
    t.equal(await store.profiles.get(randomUUID()), null);
    t.strictSame(byId(await store.profiles.list(a.id)), byId([p1, p2]));
    t.strictSame(await store.profiles.list(b.id), [p3]);
    t.strictSame(await store.profiles.list(randomUUID()), []);
  },
};
