/**
 * Conformance cases for CI links: one per profile, replaced in place, gone with their profile, and
 * the token kept only sealed: the clear token is in no byte the store keeps.
 */
import { randomBytes } from 'node:crypto';
import { createSecretBox, SecretKey } from '../../../lib/ci/secret-box.js';
import type { CiLink } from '../../../lib/store/ci-links.js';
import type { Cases } from './fixtures.js';

export const link = (profileId: string, change: Partial<CiLink> = {}): CiLink => ({
  profileId,
  provider: 'github',
  url: 'https://gitea.example.org',
  repository: 'acme/web',
  branch: 'main',
  job: 'tests.yml',
  sealedToken: 'v1.abcdefgh.iv.body.tag',
  updatedAt: new Date().toISOString(),
  verdict: false,
  ...change,
});

export const ciLinkCases: Cases = {
  'CI links: get, put replaces, delete, count': async (t, _h, store) => {
    const a = await store.accounts.create('A');
    const p1 = await store.profiles.create(a.id, 'web');
    const p2 = await store.profiles.create(a.id, 'api');
    t.equal(await store.ciLinks.get(p1.id), null);
    t.equal(await store.ciLinks.count(), 0);
    const first = link(p1.id);
    await store.ciLinks.put(first);
    t.strictSame(await store.ciLinks.get(p1.id), first);
    t.equal(await store.ciLinks.get(p2.id), null, "another profile's link is its own");
    const second = link(p1.id, { provider: 'gitlab', branch: 'dev', job: 'unit', sealedToken: 'v1.other.a.b.c' });
    await store.ciLinks.put(second);
    t.strictSame(await store.ciLinks.get(p1.id), second, 'a second put replaces the first');
    await store.ciLinks.put(link(p2.id));
    t.equal(await store.ciLinks.count(), 2);
    t.equal(await store.ciLinks.delete(p1.id), true);
    t.equal(await store.ciLinks.delete(p1.id), false, 'a second delete finds nothing');
    t.equal(await store.ciLinks.get(p1.id), null);
    t.equal(await store.ciLinks.count(), 1);
  },

  'CI links: the verdict opt-in is kept, off unless asked for': async (t, _h, store) => {
    const a = await store.accounts.create('A');
    const p = await store.profiles.create(a.id, 'web');
    await store.ciLinks.put(link(p.id));
    t.equal((await store.ciLinks.get(p.id))?.verdict, false);
    await store.ciLinks.put(link(p.id, { verdict: true }));
    t.equal((await store.ciLinks.get(p.id))?.verdict, true, 'turned on');
    await store.ciLinks.put(link(p.id, { verdict: false }));
    t.equal((await store.ciLinks.get(p.id))?.verdict, false, 'and off again');
  },

  'CI links: the link goes with its profile': async (t, _h, store) => {
    const a = await store.accounts.create('A');
    const p = await store.profiles.create(a.id, 'web');
    await store.ciLinks.put(link(p.id));
    t.equal((await store.profiles.delete(p.id)).status, 'deleted');
    t.equal(await store.ciLinks.get(p.id), null);
    t.equal(await store.ciLinks.count(), 0);
  },

  'CI links: the clear token is nowhere in what the store keeps': async (t, h, store) => {
    const a = await store.accounts.create('A');
    const p = await store.profiles.create(a.id, 'web');
    const token = `glpat-${randomBytes(12).toString('hex')}`;
    const box = createSecretBox(new SecretKey(randomBytes(32)));
    const sealed = box.seal(token, p.id);
    await store.ciLinks.put(link(p.id, { sealedToken: sealed }));
    await store.close();
    const again = h.reopen ? await h.reopen() : store;
    await again.init();
    const kept = await again.ciLinks.get(p.id);
    t.equal(kept?.sealedToken, sealed, 'kept as sealed, through a reopen');
    t.equal(box.open(kept!.sealedToken, p.id), token);
    t.not((await h.findText(sealed.split('.')[3]!)).length, 0, 'the search finds what the store holds');
    t.strictSame(await h.findText(token), [], 'the clear token is in no file or document');
  },
};
