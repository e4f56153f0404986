/**
 * Conformance cases for the public numbers of profiles and reports: handed out in creation order,
 * distinct under concurrency, found by number as by UUID, chosen profile numbers refused when taken
 * and never handed out by the counter, kept across a reopen, and never counted again once their
 * report or profile is deleted (an old link must not lead to another team's report).
 */
import { randomUUID } from 'node:crypto';
import { MAX_NUMBER, NumberTakenError } from '../../../lib/store/numbers.js';
import type { Store } from '../../../lib/store/store.js';
import { importedReport } from './deletions.js';
import { seed, type Cases } from './fixtures.js';

const isNumber = (n: unknown): boolean => Number.isInteger(n) && (n as number) >= 1 && (n as number) <= MAX_NUMBER;

async function newReport(store: Store, profileId: string, importId: string) {
  return store.reports.create({ profileId, importId, tags: [], date: new Date().toISOString() });
}

export const numberCases: Cases = {
  'numbers: reports are numbered in creation order and found by number': async (t, _h, store) => {
    const { profile, imp } = await seed(store);
    const a = await newReport(store, profile.id, imp.id);
    const b = await newReport(store, profile.id, imp.id);
    t.ok(isNumber(a.number) && isNumber(b.number), 'a 32-bit integer from 1');
    t.ok(b.number > a.number, 'a later report has a larger number');
    t.strictSame(await store.reports.get(a.number), a, 'found by number');
    t.strictSame(await store.reports.get(a.id), a, 'and still by UUID');
    t.equal(await store.reports.get(b.number + 1000), null, 'an unknown number finds nothing');
    t.equal(await store.reports.get(String(a.number)), null, 'a number is looked up as a number, not as a UUID');
  },

  'numbers: concurrent creates get distinct numbers': async (t, _h, store) => {
    const { account, profile, imp } = await seed(store);
    const reports = await Promise.all(Array.from({ length: 25 }, () => newReport(store, profile.id, imp.id)));
    t.equal(new Set(reports.map((r) => r.number)).size, 25, 'every report number distinct');
    const profiles = await Promise.all(
      Array.from({ length: 10 }, (_, i) => store.profiles.create(account.id, `p${i}`)),
    );
    t.equal(new Set([profile, ...profiles].map((p) => p.number)).size, 11, 'every profile number distinct');
  },

  'numbers: profiles, chosen and counted': async (t, _h, store) => {
    const account = await store.accounts.create('Acme');
    const first = await store.profiles.create(account.id, 'first');
    t.ok(isNumber(first.number));
    const chosen = await store.profiles.create(account.id, 'team', { number: first.number + 2 });
    t.equal(chosen.number, first.number + 2, 'takes the chosen number');
    t.strictSame(await store.profiles.get(chosen.number), chosen, 'found by number');
    t.strictSame(await store.profiles.get(chosen.id), chosen, 'and by UUID');
    await t.rejects(
      store.profiles.create(account.id, 'again', { number: chosen.number }),
      new NumberTakenError('profile', chosen.number),
      'a taken number is refused',
    );
    t.equal((await store.profiles.list(account.id)).length, 2, 'and nothing was created');
    const next = await store.profiles.create(account.id, 'second');
    const after = await store.profiles.create(account.id, 'third');
    t.equal(next.number, first.number + 1, 'the counter goes on from where it was');
    t.equal(after.number, first.number + 3, 'and steps over the chosen number');
    await t.rejects(store.profiles.create(account.id, 'big', { number: MAX_NUMBER + 1 }), RangeError, 'past 32 bits');
    await t.rejects(store.profiles.create(account.id, 'zero', { number: 0 }), RangeError, 'numbers start at 1');
    const top = await store.profiles.create(account.id, 'top', { number: MAX_NUMBER });
    t.equal(top.number, MAX_NUMBER, 'the largest 32-bit number can be chosen');
    t.equal(await store.profiles.get(randomUUID()), null);
  },

  'numbers: a deleted report or profile keeps its number to itself': async (t, _h, store) => {
    const account = await store.accounts.create('Acme');
    const doomed = await store.profiles.create(account.id, 'doomed');
    const kept = await store.profiles.create(account.id, 'kept');
    const { report } = await importedReport(store, kept);
    t.match(await store.reports.delete(report.id), { status: 'deleted' });
    t.equal(await store.reports.get(report.number), null, 'the deleted report is not found by its number');
    const { report: next } = await importedReport(store, kept);
    t.ok(next.number > report.number, 'the next report gets a new number');
    t.match(await store.profiles.delete(doomed.id), { status: 'deleted' });
    t.equal(await store.profiles.get(doomed.number), null, 'the deleted profile is not found by its number');
    t.ok((await store.profiles.create(account.id, 'later')).number > kept.number, 'the counter never gives it again');
    // An operator may choose it on purpose (a profile deleted by mistake, its pipelines still posting to it).
    const again = await store.profiles.create(account.id, 'restored', { number: doomed.number });
    t.equal(again.number, doomed.number, 'but an operator can choose it again');
  },

  'numbers: the counters survive a reopen': async (t, h, store) => {
    const { account, profile, imp } = await seed(store);
    const report = await newReport(store, profile.id, imp.id);
    await store.close();
    const again = h.reopen ? await h.reopen() : store;
    await again.init();
    t.strictSame(await again.reports.get(report.number), report);
    t.strictSame(await again.profiles.get(profile.number), profile);
    t.ok((await newReport(again, profile.id, imp.id)).number > report.number, 'no report number is given twice');
    t.ok((await again.profiles.create(account.id, 'next')).number > profile.number, 'nor a profile number');
  },
};
