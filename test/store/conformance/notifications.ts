/**
 * Conformance cases for notifications: rules kept per profile, a webhook's URL only sealed; the
 * deliveries a queue (claimed due-first, one claim per caller however many race, taken again once a
 * lease ends, settled only under the latest claim) and a log (newest first, paged, pruned once
 * ended); both gone with their profile.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createSecretBox, SecretKey } from '../../../lib/ci/secret-box.js';
import type { DeliveryOutcome, NewDelivery, NotificationRule } from '../../../lib/store/notifications.js';
import type { Store } from '../../../lib/store/store.js';
import type { Cases } from './fixtures.js';

const at = (s: number) => new Date(Date.UTC(2030, 0, 1, 0, 0, s)).toISOString();

export const webhookRule = (profileId: string, change: Partial<NotificationRule> = {}): NotificationRule => ({
  id: randomUUID(),
  profileId,
  events: ['new_failure', 'fixed'],
  target: {
    kind: 'webhook',
    format: 'slack',
    sealedUrl: 'v1.abcdefgh.iv.body.tag',
    hint: 'https://hooks.example/…abcd',
  },
  createdAt: new Date().toISOString(),
  ...change,
});

const delivery = (profileId: string, ruleId: string, createdAt: string, id = randomUUID()): NewDelivery => ({
  id,
  profileId,
  ruleId,
  trigger: 'completed',
  importId: randomUUID(),
  reportId: randomUUID(),
  target: 'https://hooks.example/…abcd',
  createdAt,
});

const outcome = (change: Partial<DeliveryOutcome>): DeliveryOutcome => ({
  status: 'pending',
  attempts: 1,
  nextAttemptAt: at(100),
  lastError: null,
  responseStatus: null,
  events: ['new_failure'],
  payload: '{"text":"x"}',
  finishedAt: null,
  ...change,
});

async function profileWithRule(store: Store) {
  const a = await store.accounts.create('A');
  const p = await store.profiles.create(a.id, 'web');
  const rule = webhookRule(p.id);
  await store.notificationRules.add(rule);
  return { account: a, profile: p, rule };
}

export const notificationCases: Cases = {
  'notifications: rules are listed oldest first, per profile, and removed by their profile only': async (
    t,
    _h,
    store,
  ) => {
    const a = await store.accounts.create('A');
    const p1 = await store.profiles.create(a.id, 'web');
    const p2 = await store.profiles.create(a.id, 'api');
    const first = webhookRule(p1.id, { createdAt: at(1) });
    const mail: NotificationRule = {
      id: randomUUID(),
      profileId: p1.id,
      events: ['import_failed'],
      target: { kind: 'email', to: ['dev@example.org', 'qa@example.org'] },
      createdAt: at(2),
    };
    await store.notificationRules.add(mail);
    await store.notificationRules.add(first);
    await store.notificationRules.add(webhookRule(p2.id));
    t.strictSame(await store.notificationRules.list(p1.id), [first, mail], 'oldest first, every field kept');
    t.strictSame(await store.notificationRules.get(mail.id), mail);
    t.equal(await store.notificationRules.get(randomUUID()), null);
    t.equal(await store.notificationRules.countSealed(), 2, 'the webhook rules hold sealed URLs');
    t.equal(await store.notificationRules.delete(p2.id, first.id), false, 'another profile cannot remove it');
    t.equal(await store.notificationRules.delete(p1.id, first.id), true);
    t.equal(await store.notificationRules.delete(p1.id, first.id), false, 'a second delete finds nothing');
    t.strictSame(await store.notificationRules.list(p1.id), [mail]);
    t.equal(await store.notificationRules.countSealed(), 1);
  },

  'notifications: the clear webhook URL is nowhere in what the store keeps': async (t, h, store) => {
    const a = await store.accounts.create('A');
    const p = await store.profiles.create(a.id, 'web');
    const url = `https://hooks.example.org/services/T000/B000/${randomBytes(12).toString('hex')}`;
    const box = createSecretBox(new SecretKey(randomBytes(32)));
    const rule = webhookRule(p.id, {
      target: { kind: 'webhook', format: 'json', sealedUrl: box.seal(url, p.id), hint: 'https://hooks.example.org/…' },
    });
    await store.notificationRules.add(rule);
    await store.close();
    const again = h.reopen ? await h.reopen() : store;
    await again.init();
    const kept = await again.notificationRules.get(rule.id);
    t.strictSame(kept, rule, 'kept as sealed, through a reopen');
    const sealed = (kept!.target as { sealedUrl: string }).sealedUrl;
    t.equal(box.open(sealed, p.id), url);
    t.not((await h.findText(sealed.split('.')[3]!)).length, 0, 'the search finds what the store holds');
    t.strictSame(await h.findText(url), [], 'the clear URL is in no file or document');
    t.strictSame(await h.findText(url.split('/').at(-1)!), [], 'nor its secret part');
  },

  'notifications: deliveries are claimed due-first, settled under their claim, and listed newest first': async (
    t,
    _h,
    store,
  ) => {
    const { profile, rule } = await profileWithRule(store);
    const d = store.deliveries;
    t.equal(await d.claim(at(50), at(60)), null, 'nothing queued, nothing claimed');
    const older = delivery(profile.id, rule.id, at(1));
    const newer = delivery(profile.id, rule.id, at(2));
    await d.enqueue([newer, older]);
    t.equal(await d.claim(at(0), at(60)), null, 'not due before it was queued');
    const fresh = await d.get(older.id);
    t.match(fresh, {
      ...older,
      status: 'pending',
      attempts: 0,
      claim: 0,
      events: [],
      payload: null,
      nextAttemptAt: at(1),
    });

    const first = await d.claim(at(50), at(60));
    t.equal(first?.id, older.id, 'the one waiting longest first');
    t.match(first, { status: 'sending', claim: 1, nextAttemptAt: at(60), attempts: 0 });
    const second = await d.claim(at(50), at(1000));
    t.equal(second?.id, newer.id);
    t.equal(await d.claim(at(50), at(60)), null, 'both are claimed: none is due while their leases run');

    t.equal(
      await d.settle(
        older.id,
        1,
        outcome({ status: 'pending', nextAttemptAt: at(70), lastError: 'HTTP 503', responseStatus: 503 }),
      ),
      true,
    );
    t.equal(await d.claim(at(65), at(90)), null, 'a retry is not due before its time');
    const retry = await d.claim(at(70), at(90));
    t.match(retry, {
      id: older.id,
      claim: 2,
      attempts: 1,
      lastError: 'HTTP 503',
      responseStatus: 503,
      payload: '{"text":"x"}',
    });
    const done = outcome({
      status: 'delivered',
      attempts: 2,
      responseStatus: 200,
      finishedAt: at(71),
      nextAttemptAt: at(71),
    });
    t.equal(await d.settle(older.id, 1, done), false, 'an older claim settles nothing');
    t.equal(await d.settle(older.id, 2, done), true);
    t.match(await d.get(older.id), { status: 'delivered', attempts: 2, finishedAt: at(71), events: ['new_failure'] });
    t.equal((await d.claim(at(1000), at(1100)))?.id, newer.id, "the other's lease ran out: due again");
    t.equal(await d.claim(at(1000), at(1100)), null, 'a delivered one is never claimed again');
  },

  'notifications: a claim whose lease ran out is taken again, and its first holder can no longer settle': async (
    t,
    _h,
    store,
  ) => {
    const { profile, rule } = await profileWithRule(store);
    const d = store.deliveries;
    const one = delivery(profile.id, rule.id, at(1));
    await d.enqueue([one]);
    const taken = await d.claim(at(10), at(20));
    t.equal(taken?.claim, 1);
    t.equal(await d.claim(at(19), at(40)), null, 'not while the lease runs');
    const again = await d.claim(at(20), at(40));
    t.match(again, { id: one.id, claim: 2, status: 'sending', nextAttemptAt: at(40) }, 'taken again once it ended');
    t.equal(
      await d.settle(one.id, 1, outcome({ status: 'delivered', finishedAt: at(21) })),
      false,
      'the first holder lost it',
    );
    t.equal(await d.settle(one.id, 2, outcome({ status: 'dead', lastError: 'gone', finishedAt: at(22) })), true);
    t.match(await d.get(one.id), { status: 'dead', lastError: 'gone' });
  },

  'notifications: callers racing for claims, on two store instances, never take the same one': async (t, h, store) => {
    const { profile, rule } = await profileWithRule(store);
    const other = h.reopen ? await h.reopen() : store;
    await other.init();
    const queued = Array.from({ length: 12 }, (_, i) => delivery(profile.id, rule.id, at(i)));
    await store.deliveries.enqueue(queued);
    const claimed: string[] = [];
    const worker = async (s: Store) => {
      for (;;) {
        const got = await s.deliveries.claim(at(100), at(200));
        if (!got) return;
        claimed.push(got.id);
      }
    };
    await Promise.all([worker(store), worker(other), worker(store), worker(other)]);
    t.equal(claimed.length, queued.length, 'every delivery claimed once');
    t.equal(new Set(claimed).size, queued.length, 'none twice');
  },

  'notifications: a discarded delivery is gone; the log pages back; ended deliveries are pruned': async (
    t,
    _h,
    store,
  ) => {
    const { profile, rule } = await profileWithRule(store);
    const d = store.deliveries;
    const same = at(5);
    const queued = [at(1), at(2), same, same, at(6)].map((c) => delivery(profile.id, rule.id, c));
    await d.enqueue(queued);
    const page1 = await d.list(profile.id, { limit: 3 });
    const page2 = await d.list(profile.id, { limit: 3, before: page1.at(-1)! });
    const ids = [...page1, ...page2].map((x) => x.id);
    t.equal(ids.length, 5, 'two pages hold all five, ties in time included');
    t.equal(new Set(ids).size, 5);
    t.strictSame(
      [...page1, ...page2].map((x) => x.createdAt),
      [at(6), same, same, at(2), at(1)],
      'newest first',
    );

    const first = (await d.claim(at(100), at(200)))!;
    await d.discard(first.id, 0);
    t.not(await d.get(first.id), null, 'not under an older claim');
    await d.discard(first.id, first.claim);
    t.equal(await d.get(first.id), null, 'discarded');

    const a = (await d.claim(at(100), at(200)))!;
    await d.settle(a.id, a.claim, outcome({ status: 'delivered', finishedAt: at(110) }));
    const b = (await d.claim(at(100), at(200)))!;
    await d.settle(b.id, b.claim, outcome({ status: 'dead', finishedAt: at(130) }));
    t.equal(await d.prune(at(120)), 1, 'only what ended before the bound');
    t.equal(await d.get(a.id), null);
    t.not(await d.get(b.id), null);
    t.equal((await d.list(profile.id, { limit: 10 })).length, 3, 'the waiting ones stay');
  },

  'notifications: rules and deliveries go with their profile': async (t, _h, store) => {
    const { profile, rule } = await profileWithRule(store);
    await store.deliveries.enqueue([delivery(profile.id, rule.id, at(1))]);
    await store.deliveries.claim(at(10), at(20));
    t.equal((await store.profiles.delete(profile.id)).status, 'deleted');
    t.strictSame(await store.notificationRules.list(profile.id), []);
    t.equal(await store.notificationRules.countSealed(), 0);
    t.strictSame(await store.deliveries.list(profile.id, { limit: 10 }), []);
    t.equal(await store.deliveries.claim(at(100), at(200)), null);
  },
};
