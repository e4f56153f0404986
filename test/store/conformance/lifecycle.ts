/** Conformance cases for the store itself: ping, close and reopen, the reserve. */
import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { apiKey, readAll, richContainers, sampleMessages, seed, zeroTotals, type Cases } from './fixtures.js';

export const lifecycleCases: Cases = {
  ping: async (t, h, store) => {
    await t.resolves(store.ping(), 'an open store answers');
    await store.close();
    await t.rejects(store.ping(), 'a closed store does not');
    await store.close();
    t.pass('close is idempotent');
    if (!h.reopen) {
      await store.init();
      await t.resolves(store.ping(), 'answers again after init');
    }
  },

  'reopen keeps data': async (t, h, store) => {
    await store.init();
    const { account, profile, imp } = await seed(store);
    const key = apiKey(`key-${randomUUID()}`, account.id);
    await store.keys.add(key);
    const report = await store.reports.create({
      profileId: profile.id,
      importId: imp.id,
      tags: ['t'],
      date: new Date().toISOString(),
    });
    const rich = richContainers(report.id);
    await store.containers.insert(rich);
    await store.reports.complete(report.id, {
      date: report.date,
      totals: zeroTotals(),
      files: [],
      messages: sampleMessages(),
      tags: ['t'],
    });
    const bytes = randomBytes(10_000);
    const blob = await store.blobs.put(Readable.from([bytes]), { name: 'b', contentType: null });
    const completed = await store.reports.get(report.id);

    await store.close();
    const again = h.reopen ? await h.reopen() : store;
    await again.init();
    await again.init();
    t.strictSame(await again.accounts.get(account.id), account);
    t.strictSame(await again.keys.find(key.keyId), key);
    t.strictSame(await again.profiles.get(profile.id), profile);
    t.strictSame(await again.imports.get(imp.id), imp);
    t.strictSame(await again.reports.list(profile.id, { limit: 10, tags: ['t'] }), [completed]);
    t.strictSame(
      await again.containers.list(report.id, { parentSeq: 1, limit: 10 }),
      rich.filter((c) => c.parentSeq === 1),
    );
    t.ok((await readAll(await again.blobs.open(blob.id)))?.equals(bytes), 'blob bytes');
    t.equal(await again.accounts.count(), 1);
  },

  'releaseReserve frees what the store keeps back for cleaning up, once': async (t, h, store) => {
    t.equal(await store.releaseReserve(), h.keepsReserve, h.keepsReserve ? 'the reserve is freed' : 'nothing to free');
    t.equal(await store.releaseReserve(), false, 'nothing is left to free the second time');
    await t.resolves(store.ping(), 'the store still answers');
    t.ok(await store.accounts.create('after'), 'and still writes');
  },
};
