/**
 * Notification rules and deliveries in MongoDB (lib/store/notifications.ts). A claim is an insert
 * under a unique `_id`, `<delivery id>:<claim number>`, as a queued import's is (imports.ts): exactly
 * one caller can make it, on MongoDB and on FerretDB alike, where a conditional update let two
 * concurrent callers both win. Claim documents stay while their delivery does, so a caller that read
 * an old claim number loses; they go with the delivery.
 */
import type { Delivery, DeliveryStore, NotificationRuleStore } from '../notifications.js';
import { now as timeNow } from '../time.js';
import type { DeliveryDoc, NotificationRuleDoc } from './collections.js';
import { IN_CHUNK, type MongoConnection } from './connection.js';

/** Due deliveries looked at per claim: a few, so callers racing for the first still find another. */
const CANDIDATES = 8;

function toRule(d: NotificationRuleDoc) {
  return { id: d._id, profileId: d.profileId, events: d.events, target: d.target, createdAt: d.createdAt };
}

function toDelivery(d: DeliveryDoc): Delivery {
  return {
    id: d._id,
    profileId: d.profileId,
    ruleId: d.ruleId,
    trigger: d.trigger,
    importId: d.importId,
    reportId: d.reportId,
    target: d.target,
    events: d.events,
    payload: d.payload,
    status: d.status,
    attempts: d.attempts,
    claim: d.claim,
    nextAttemptAt: d.nextAttemptAt,
    lastError: d.lastError,
    responseStatus: d.responseStatus,
    createdAt: d.createdAt,
    finishedAt: d.finishedAt,
  };
}

export function notificationRuleStore(conn: MongoConnection): NotificationRuleStore {
  return {
    async list(profileId) {
      const docs = await conn.c.notificationRules.find({ profileId }).sort({ createdAt: 1, _id: 1 }).toArray();
      return docs.map(toRule);
    },
    async get(id) {
      const doc = await conn.c.notificationRules.findOne({ _id: id });
      return doc ? toRule(doc) : null;
    },
    async add(rule) {
      const { id, ...rest } = rule;
      await conn.c.notificationRules.insertOne({ _id: id, ...rest });
    },
    async delete(profileId, id) {
      return (await conn.c.notificationRules.deleteOne({ _id: id, profileId })).deletedCount > 0;
    },
    countSealed: () => conn.c.notificationRules.countDocuments({ 'target.kind': 'webhook' }),
  };
}

export function deliveryStore(conn: MongoConnection): DeliveryStore {
  const forget = async (ids: string[]): Promise<void> => {
    await conn.c.notificationDeliveries.deleteMany({ _id: { $in: ids } });
    await conn.c.notificationClaims.deleteMany({ deliveryId: { $in: ids } });
  };
  return {
    async enqueue(deliveries) {
      if (deliveries.length === 0) return;
      await conn.c.notificationDeliveries.insertMany(
        deliveries.map(({ id, ...x }) => ({
          _id: id,
          ...x,
          events: [],
          payload: null,
          status: 'pending',
          attempts: 0,
          claim: 0,
          nextAttemptAt: x.createdAt,
          lastError: null,
          responseStatus: null,
          finishedAt: null,
        })),
      );
    },
    async claim(now, leaseUntil) {
      const c = conn.c;
      const due = await c.notificationDeliveries
        .find({ status: { $in: ['pending', 'sending'] }, nextAttemptAt: { $lte: now } })
        .sort({ nextAttemptAt: 1, _id: 1 })
        .limit(CANDIDATES)
        .toArray();
      for (const candidate of due) {
        const claim = candidate.claim + 1;
        try {
          await c.notificationClaims.insertOne({
            _id: `${candidate._id}:${claim}`,
            deliveryId: candidate._id,
            profileId: candidate.profileId,
            claimedAt: timeNow(),
          });
        } catch (e) {
          if ((e as { code?: number }).code === 11000) continue;
          throw e;
        }
        const set = { status: 'sending' as const, claim, nextAttemptAt: leaseUntil };
        const done = await c.notificationDeliveries.updateOne(
          { _id: candidate._id, claim: candidate.claim },
          { $set: set },
        );
        // Settled or removed between the read and the claim: nothing of it is this caller's.
        if (done.matchedCount === 0) continue;
        return toDelivery({ ...candidate, ...set });
      }
      return null;
    },
    async settle(id, claim, o) {
      const done = await conn.c.notificationDeliveries.updateOne({ _id: id, claim }, { $set: o });
      return done.matchedCount > 0;
    },
    async discard(id, claim) {
      const done = await conn.c.notificationDeliveries.deleteOne({ _id: id, claim });
      if (done.deletedCount > 0) await conn.c.notificationClaims.deleteMany({ deliveryId: id });
    },
    async get(id) {
      const doc = await conn.c.notificationDeliveries.findOne({ _id: id });
      return doc ? toDelivery(doc) : null;
    },
    async list(profileId, o) {
      const before = o.before
        ? {
            $or: [
              { createdAt: { $lt: o.before.createdAt } },
              { createdAt: o.before.createdAt, _id: { $lt: o.before.id } },
            ],
          }
        : {};
      const docs = await conn.c.notificationDeliveries
        .find({ profileId, ...before })
        .sort({ createdAt: -1, _id: -1 })
        .limit(o.limit)
        .toArray();
      return docs.map(toDelivery);
    },
    async prune(finishedBefore) {
      let removed = 0;
      for (;;) {
        const ended = await conn.c.notificationDeliveries
          .find({ finishedAt: { $lt: finishedBefore } }, { projection: { _id: 1 } })
          .limit(IN_CHUNK)
          .toArray();
        if (ended.length === 0) return removed;
        await forget(ended.map((d) => d._id));
        removed += ended.length;
      }
    },
  };
}
