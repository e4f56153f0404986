/** Conformance cases for users and browser sessions. */
import { randomUUID } from 'node:crypto';
import { byId, isIsoTime, type Cases } from './fixtures.js';

export const userCases: Cases = {
  'users and sessions': async (t, _h, store) => {
    const a = await store.accounts.create('A');
    const b = await store.accounts.create('B');
    const ann = await store.users.create({
      accountId: a.id,
      email: 'Ann@Example.com',
      passwordHash: 'scrypt$x',
      mustChangePassword: true,
    });
    t.ok(ann, 'created');
    t.strictSame(
      ann,
      {
        id: ann!.id,
        accountId: a.id,
        email: 'ann@example.com',
        passwordHash: 'scrypt$x',
        mustChangePassword: true,
        createdAt: ann!.createdAt,
      },
      'the address is kept lower-cased',
    );
    t.ok(isIsoTime(ann!.createdAt));
    t.equal(
      await store.users.create({
        accountId: b.id,
        email: 'ANN@example.com',
        passwordHash: 'y',
        mustChangePassword: false,
      }),
      null,
      'an address is taken once across Tally',
    );
    const bob = await store.users.create({
      accountId: a.id,
      email: 'bob@example.com',
      passwordHash: 'z',
      mustChangePassword: false,
    });
    const cy = await store.users.create({
      accountId: b.id,
      email: 'cy@example.com',
      passwordHash: 'w',
      mustChangePassword: false,
    });
    t.strictSame(await store.users.get(ann!.id), ann);
    t.equal(await store.users.get(randomUUID()), null);
    t.strictSame(await store.users.findByEmail('ANN@EXAMPLE.COM'), ann, 'found whatever the case');
    t.equal(await store.users.findByEmail('nobody@example.com'), null);
    t.strictSame(byId(await store.users.list(a.id)), byId([ann!, bob!]));
    t.strictSame(await store.users.list(b.id), [cy]);
    await store.users.setPassword(ann!.id, 'scrypt$new', false);
    t.strictSame(await store.users.get(ann!.id), { ...ann!, passwordHash: 'scrypt$new', mustChangePassword: false });

    const session = (userId: string, idHash: string, expiresAt: string) => ({
      idHash,
      userId,
      accountId: a.id,
      csrfToken: `csrf-${idHash}`,
      createdAt: new Date().toISOString(),
      expiresAt,
    });
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const past = new Date(Date.now() - 3_600_000).toISOString();
    const s1 = session(ann!.id, 'h1', later);
    const s2 = session(ann!.id, 'h2', later);
    const s3 = session(bob!.id, 'h3', later);
    const old = session(bob!.id, 'h4', past);
    for (const x of [s1, s2, s3, old]) await store.sessions.add(x);
    t.strictSame(await store.sessions.find('h1'), s1);
    t.strictSame(await store.sessions.find('h4'), old, 'an expired session is still found: the caller decides');
    t.equal(await store.sessions.find('nope'), null);
    t.equal(await store.sessions.deleteExpired(new Date().toISOString()), 1, 'expired sessions are removed');
    t.equal(await store.sessions.find('h4'), null);
    t.equal(await store.sessions.deleteOfUser(ann!.id, 'h1'), 1, "the user's other sessions end");
    t.strictSame(await store.sessions.find('h1'), s1, 'the kept one stays');
    t.equal(await store.sessions.find('h2'), null);
    t.strictSame(await store.sessions.find('h3'), s3, "another user's sessions are untouched");
    await store.sessions.delete('h1');
    t.equal(await store.sessions.find('h1'), null);
    t.equal(await store.sessions.deleteOfUser(bob!.id), 1);
  },
};
